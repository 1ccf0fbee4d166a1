import Foundation
import StructureModel
import XCTest

/// Hostile and damaged Hyperbasis stores: ids that are not UUIDs, the same anchor in two
/// files, lower-case file names, binary plists with lengths near 2^63. Every store here is
/// a copy made in a temporary folder; the shared sample is only read.
final class StoreSafetyTests: XCTestCase {
    static let spaceA = SpaceTests.spaceA
    static let spaceB = SpaceTests.spaceB
    static let anchor1 = "0D9E8F7A-6B5C-4D3E-8F2A-1B0C9D8E7F6A"
    static let anchor2 = "7C6B5A49-3827-4165-9F8E-7D6C5B4A3928"

    static func sampleStore() throws -> String {
        let path = Harness.samples.deletingLastPathComponent().appendingPathComponent("hyperbasis/store").path
        guard FileManager.default.fileExists(atPath: path + "/spaces") else {
            throw XCTSkip("the sample Hyperbasis store \(path) is absent (../shared/samples is not beside this checkout)")
        }
        return path
    }

    /// A writable copy of the sample store at `folder/store`.
    static func copy(into folder: URL) throws -> String {
        let target = folder.appendingPathComponent("store").path
        try FileManager.default.copyItem(atPath: try sampleStore(), toPath: target)
        _ = try Harness.run(["-R", "u+w", target], executable: URL(fileURLWithPath: "/bin/chmod"))
        return target
    }

    /// Every file under `folder` with its bytes.
    static func snapshot(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for path in FileManager.default.enumerator(atPath: folder)!.compactMap({ $0 as? String }) {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder) {
                files[path] = isFolder.boolValue ? Data("<folder>".utf8) : try Data(contentsOf: URL(fileURLWithPath: folder + "/" + path))
            }
        }
        return files
    }

    static func write(_ text: String, _ path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    // MARK: - Binary plists with lengths near 2^63 (item 11)

    /// A one-object binary plist: `object` at offset 8, a one-byte offset table, the trailer.
    static func plist(_ object: [UInt8], count: UInt64 = 1, top: UInt64 = 0, offsetSize: UInt8 = 1, referenceSize: UInt8 = 1,
                      tableStart: UInt64? = nil) -> [UInt8] {
        var bytes = Array("bplist00".utf8) + object
        let table = UInt64(bytes.count)
        bytes.append(8)
        func be(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * UInt64($0))) } }
        bytes += [0, 0, 0, 0, 0, 0, offsetSize, referenceSize] + be(count) + be(top) + be(tableStart ?? table)
        return bytes
    }

    static let huge: [UInt8] = [0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF0]

    func testObjectLengthsNear2To63AreErrorsNotTraps() {
        let cases: [(String, [UInt8])] = [
            ("data", [0x4F] + Self.huge),
            ("ASCII string", [0x5F] + Self.huge),
            ("UTF-16 string", [0x6F, 0x13, 0x40, 0, 0, 0, 0, 0, 0, 1]),
            ("array", [0xAF] + Self.huge),
            ("set", [0xCF] + Self.huge),
            ("dictionary", [0xDF] + Self.huge),
            ("dictionary of 2^62 entries", [0xDF, 0x13, 0x40, 0, 0, 0, 0, 0, 0, 0]),
            ("length of 2^15 bytes", [0x4F, 0x1F, 1, 2, 3]),
            ("integer of 2^15 bytes", [0x1F, 1, 2, 3]),
            ("real of 2^15 bytes", [0x2F, 1, 2, 3]),
            ("length with a negative integer", [0x4F, 0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
        ]
        for (name, object) in cases {
            let bytes = Self.plist(object)
            XCTAssertThrowsError(try BinaryPlist(bytes).object(0), name) { error in
                let message = (error as? BinaryPlist.Failure)?.message ?? ""
                XCTAssertTrue(message.contains("object 0"), "\(name): \(message)")
            }
            XCTAssertThrowsError(try WorldMapArchive.inspect(bytes), name)
        }
        // Trailer fields near 2^64: the object count, the top object, the offset table's start.
        let object: [UInt8] = [0x08]
        for (name, bytes) in [("count", Self.plist(object, count: UInt64.max)), ("top", Self.plist(object, top: UInt64.max)),
                              ("table start", Self.plist(object, tableStart: UInt64.max)),
                              ("table start near 2^63", Self.plist(object, tableStart: 1 << 63 - 1)),
                              ("offset size 255", Self.plist(object, offsetSize: 255)),
                              ("reference size 0", Self.plist(object, referenceSize: 0))] {
            XCTAssertThrowsError(try BinaryPlist(bytes), name) { error in
                XCTAssertEqual((error as? BinaryPlist.Failure)?.message, "a property list with a damaged trailer", name)
            }
        }
    }

    /// The 120-byte HBSpace file of the issue: it crashed wb; now it opens with a warning
    /// that says what is wrong with its world map. A store whose world map is the same
    /// plist opens too, its other space intact.
    func testAHostileWorldMapIsReportedAndTheRestOpens() throws {
        let folder = try Harness.temporaryFolder(self)
        let hostile = Self.plist([0x4F] + Self.huge)
        let file = folder.appendingPathComponent("space.json").path
        try Self.write("{\"id\":\"\(Self.spaceA)\",\"worldMapData\":\"\(Data(hostile).base64EncodedString())\"}", file)
        let result = try Harness.run(["-q", file, "-c", "ls spaces"])
        XCTAssertEqual(result.status, 0, "opens, with a warning\n" + result.stderr)
        XCTAssertTrue(result.stderr.contains("its world map is not an ARWorldMap archive (object 0 runs past the end of the property list)"),
                      result.stderr)

        let store = try Self.copy(into: folder)
        try Data(hostile).write(to: URL(fileURLWithPath: store + "/worldmaps/\(Self.spaceB).bin"))
        let loaded = try HyperbasisStore.load(store)
        XCTAssertEqual(loaded.spaces.count, 2)
        XCTAssertNil(loaded.spaces[0].worldMap.problem)
        XCTAssertEqual(loaded.spaces[1].worldMap.problem, "its world map is not an ARWorldMap archive (object 0 runs past the end of the property list)")
    }
}
