import Foundation
import XCTest
@testable import StructureModel

/// A world map whose keys have the wrong types is not sound: `validate` called such maps
/// valid (a version written as a string was "no version"; a transform of 12 bytes, anchors
/// that are a string, an identifier of 3 bytes passed without a word).
final class WorldMapTypeTests: XCTestCase {
    private static let uuid = Data([0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x47, 0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF, 0x00])

    /// An identity matrix as ARKit archives it: 16 little-endian floats.
    private static var identity: Data {
        var data = Data()
        for i in 0..<16 {
            let value: Float = i % 5 == 0 ? 1 : 0
            withUnsafeBytes(of: value.bitPattern.littleEndian) { data.append(contentsOf: $0) }
        }
        return data
    }

    /// A keyed archive shaped as ARKit writes an ARWorldMap with one anchor, with `change`
    /// applied to the map's and the anchor's keys first. UIDs are `CF$UID` dictionaries,
    /// which reading the archive back from XML turns into real UIDs.
    private func archive(_ change: (inout [String: Any], inout [String: Any]) -> Void = { _, _ in }) throws -> [UInt8] {
        func uid(_ n: Int) -> [String: Any] { ["CF$UID": n] }
        var map: [String: Any] = ["$class": uid(2), "version": 3, "trackingData": Data(repeating: 7, count: 100),
                                  "referenceOriginTransform": Self.identity, "anchors": uid(3)]
        var anchor: [String: Any] = ["$class": uid(6), "identifier": uid(5), "transform": Self.identity, "name": uid(7)]
        change(&map, &anchor)
        let objects: [Any] = [
            "$null",
            map,
            ["$classname": "ARWorldMap", "$classes": ["ARWorldMap", "NSObject"]],
            ["$class": uid(8), "NS.objects": [uid(4)]],
            anchor,
            ["NS.uuidbytes": Self.uuid, "$class": uid(9)],
            ["$classname": "ARAnchor", "$classes": ["ARAnchor", "NSObject"]],
            "note",
            ["$classname": "NSMutableArray", "$classes": ["NSMutableArray", "NSArray", "NSObject"]],
            ["$classname": "NSUUID", "$classes": ["NSUUID", "NSObject"]],
            ["$classname": "Notes.StickyNote", "$classes": ["Notes.StickyNote", "ARAnchor", "NSObject"]],
        ]
        let top: [String: Any] = ["$archiver": "NSKeyedArchiver", "$version": 100000, "$top": ["root": uid(1)], "$objects": objects]
        // Through XML and back: reading `CF$UID` dictionaries from XML makes them UIDs.
        let xml = try PropertyListSerialization.data(fromPropertyList: top, format: .xml, options: 0)
        let read = try PropertyListSerialization.propertyList(from: xml, options: [], format: nil)
        return [UInt8](try PropertyListSerialization.data(fromPropertyList: read, format: .binary, options: 0))
    }

    func testASoundArchiveHasNoProblems() throws {
        let info = try WorldMapArchive.inspect(try archive())
        XCTAssertEqual(info.problems, [])
        XCTAssertEqual(info.mapVersion, 3)
        XCTAssertEqual(info.anchors.count, 1)
        XCTAssertEqual(info.anchors.first?.name, "note")
        XCTAssertEqual(info.anchors.first?.identifier, "11223344-5566-4788-99AA-BBCCDDEEFF00")
        XCTAssertNotNil(info.anchors.first?.transform)
    }

    func testEachKeyOfTheWrongTypeIsAProblem() throws {
        let cases: [(String, (inout [String: Any], inout [String: Any]) -> Void)] = [
            ("its version is a string, not an integer", { map, _ in map["version"] = "3" }),
            ("its trackingData is a string, not data", { map, _ in map["trackingData"] = "opaque" }),
            ("its referenceOriginTransform is 12 bytes of data, not a 4×4 matrix (64 bytes of data)",
             { map, _ in map["referenceOriginTransform"] = Data(count: 12) }),
            ("its anchors are a string, not an archived array", { map, _ in map["anchors"] = "none" }),
            ("anchor 1's transform is an integer, not a 4×4 matrix (64 bytes of data)", { _, anchor in anchor["transform"] = 1 }),
            ("anchor 1's name is an integer, not a string", { _, anchor in anchor["name"] = 5 }),
            ("anchor 1's identifier is 3 bytes of data, not an archived UUID (16 bytes)", { _, anchor in anchor["identifier"] = Data([1, 2, 3]) }),
            ("anchor 1 is an object of no class, not an anchor", { _, anchor in anchor["$class"] = nil }),
            ("anchor 1 is an archived NSUUID, not an anchor", { _, anchor in anchor["$class"] = ["CF$UID": 9] }),
            ("anchor 1's lastUpdateTimestamp is a string, not a number", { _, anchor in anchor["lastUpdateTimestamp"] = "yesterday" }),
            // An app's own anchor class is an anchor when ARAnchor is among its classes.
            ("anchor 1's name is an integer, not a string", { _, anchor in anchor["name"] = 5; anchor["$class"] = ["CF$UID": 10] }),
        ]
        for (expected, change) in cases {
            let info = try WorldMapArchive.inspect(try archive(change))
            XCTAssertEqual(info.problems, [expected])
            XCTAssertFalse(info.isValid, expected)
        }
        // Through the store's inspection, as `validate` sees it.
        let state = HyperbasisStore.inspectWorldMap(try archive { map, _ in map["version"] = "3" }, compressed: false)
        XCTAssertEqual(state.problem, "its world map would not load in ARKit: its version is a string, not an integer")
    }

    func testANonFiniteMatrixIsAProblem() throws {
        var matrix = Self.identity
        withUnsafeBytes(of: Float.nan.bitPattern.littleEndian) { matrix.replaceSubrange(48..<52, with: $0) }
        let info = try WorldMapArchive.inspect(try archive { _, anchor in anchor["transform"] = matrix })
        XCTAssertEqual(info.problems, ["anchor 1's transform holds a number that is not finite"])
    }
}
