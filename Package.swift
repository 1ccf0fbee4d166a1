// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "wb",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "wb", targets: ["wb"]),
        .library(name: "StructureModel", targets: ["StructureModel"]),
        .library(name: "Workbench", targets: ["Workbench"]),
    ],
    dependencies: [
        // The program's own flags: parsing, --help, errors, completion scripts and (through
        // its help dump) the man page, all from one declaration.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // libedit through pkg-config; Debian's package is libedit-dev.
        .systemLibrary(
            name: "CLibedit",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"]), .brew(["libedit"])]
        ),
        // zlib through pkg-config; Debian's package is zlib1g-dev.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        .target(name: "StructureModel", dependencies: ["CZlib"]),
        .target(name: "WBLineEditor", dependencies: ["CLibedit"]),
        .target(name: "Workbench", dependencies: [
            "StructureModel", "WBLineEditor", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "wb", dependencies: ["Workbench", "StructureModel"]),
        .executableTarget(name: "wbgen", dependencies: ["StructureModel"]),
        .testTarget(name: "StructureModelTests", dependencies: ["StructureModel"]),
        .testTarget(name: "WorkbenchTests", dependencies: ["Workbench", "StructureModel"]),
        .testTarget(name: "EndToEndTests", dependencies: ["wb", "wbgen", "StructureModel"]),
    ],
    swiftLanguageModes: [.v6]
)
