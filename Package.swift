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
        .target(name: "Workbench", dependencies: ["StructureModel", "WBLineEditor"]),
        .executableTarget(name: "wb", dependencies: ["Workbench", "StructureModel"]),
        .executableTarget(name: "wbgen", dependencies: ["StructureModel"]),
        .testTarget(name: "StructureModelTests", dependencies: ["StructureModel"]),
        .testTarget(name: "WorkbenchTests", dependencies: ["Workbench", "StructureModel"]),
        .testTarget(name: "EndToEndTests", dependencies: ["wb", "wbgen", "StructureModel"]),
    ],
    swiftLanguageModes: [.v6]
)
