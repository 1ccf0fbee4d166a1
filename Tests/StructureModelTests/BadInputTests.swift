import XCTest
@testable import StructureModel

/// Every malformed input gets one error naming the place: line, column and key path.
final class BadInputTests: XCTestCase {
    /// A small generated room as canonical JSON text, for surgery.
    private var roomText: String {
        String(decoding: RoomPlanCodec.encode(.room(BuildingGenerator.generate(BuildingSpec(seed: 11, rooms: 2)).captures[0].room)),
               as: UTF8.self)
    }

    private func decodeError(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> RoomPlanDecodeError? {
        do {
            _ = try RoomPlanCodec.decode(Array(text.utf8))
            XCTFail("expected an error", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    /// Replaces the first `count` numbers of the `index`-th "transform" array with `replacement`.
    private func replacingTransform(_ text: String, occurrence: Int, with body: String) -> String {
        var ranges: [Range<String.Index>] = []
        var search = text.startIndex..<text.endIndex
        while let found = text.range(of: "\"transform\" : [", range: search) {
            ranges.append(found)
            search = found.upperBound..<text.endIndex
        }
        let open = ranges[occurrence].upperBound
        let close = text.range(of: "]", range: open..<text.endIndex)!.lowerBound
        return text.replacingCharacters(in: open..<close, with: body)
    }

    /// A whole structure nested as one of a structure's rooms opened silently as one huge
    /// room (an adversarial pass): it opens, kept as it is, with a warning at its place.
    func testAStructureNestedAsARoomIsSaid() throws {
        let structure = BuildingGenerator.generate(BuildingSpec(seed: 11, rooms: 3)).structure
        var object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(RoomPlanCodec.encode(.structure(structure)))) as? [String: Any])
        var rooms = try XCTUnwrap(object["rooms"] as? [Any])
        rooms[0] = object
        object["rooms"] = rooms
        let bytes = Array(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
        let document = try RoomPlanCodec.decode(bytes)
        let warnings = RoomPlanDiagnostics.check(document).map(\.description)
        XCTAssertEqual(warnings.filter { $0.contains("rooms of its own") },
                       ["rooms[0].rooms: a room holding rooms of its own (a structure inside a structure?): opened as one room, its nested rooms kept as they are"])
        XCTAssertEqual(RoomPlanCodec.encode(document), RoomPlanCodec.encode(try RoomPlanCodec.decode(RoomPlanCodec.encode(document))), "kept as it is")
    }

    /// A surface whose category is not its array's (a window among the walls) opened
    /// silently and counted as a wall (an adversarial pass): it is said, and kept.
    func testASurfaceInAnotherKindsArrayIsSaid() {
        var room = BuildingGenerator.generate(BuildingSpec(seed: 11, rooms: 2)).captures[0].room
        room.walls[1].category = .window
        XCTAssertEqual(RoomPlanDiagnostics.check(.room(room)).map(\.description),
                       ["walls[1].category: window, in the walls array (it belongs in windows): taken for one of walls"])
    }

    func testTruncatedFile() {
        let text = roomText
        let error = decodeError(String(text.prefix(text.count / 2)))
        XCTAssertNotNil(error)
        XCTAssertTrue(error!.message.contains("expected") || error!.message.contains("unterminated"), error!.message)
        XCTAssertGreaterThan(error!.location.line, 1)
    }

    func testNotJSON() {
        let error = decodeError("this is not json")
        XCTAssertEqual(error?.location.line, 1)
        XCTAssertEqual(error?.location.column, 1)
        XCTAssertTrue(error!.message.contains("expected a JSON object"), error!.message)
    }

    func testJSONOfAnotherShape() {
        let error = decodeError(#"{"type": "FeatureCollection", "features": []}"#)
        XCTAssertTrue(error!.message.contains("not a RoomPlan room or structure"), error!.message)
        XCTAssertTrue(error!.message.contains("\"type\""), "names the keys it found: \(error!.message)")
        XCTAssertTrue(decodeError("[1, 2]")!.message.contains("expected a JSON object"))
    }

    func testTransformOf15Numbers() {
        let numbers = (0..<15).map { _ in "0" }.joined(separator: ",")
        let error = decodeError(replacingTransform(roomText, occurrence: 0, with: numbers))
        XCTAssertEqual(error?.message, "expected 16 numbers in \"transform\", found 15")
        // Doors come first in sorted order; the first transform is doors[0]'s.
        XCTAssertEqual(error?.location.keyPath, "doors[0].transform")
        XCTAssertTrue(error!.lineText.contains("\"transform\" : ["), error!.lineText)
    }

    func testNaNAndInfinity() {
        let nan = decodeError(replacingTransform(roomText, occurrence: 2, with: "NaN" + String(repeating: ",0", count: 15)))
        XCTAssertEqual(nan?.message, "NaN is not a number JSON can hold")
        XCTAssertTrue(nan!.location.keyPath.hasSuffix(".transform[0]"), nan!.location.keyPath)
        let infinite = decodeError(replacingTransform(roomText, occurrence: 1, with: "0,1e39" + String(repeating: ",0", count: 14)))
        XCTAssertEqual(infinite?.message, "the number 1e39 is too large for a 32-bit float")
        XCTAssertTrue(infinite!.location.keyPath.hasSuffix(".transform[1]"), infinite!.location.keyPath)
        let infinityWord = decodeError(replacingTransform(roomText, occurrence: 1, with: "-Infinity" + String(repeating: ",0", count: 15)))
        XCTAssertEqual(infinityWord?.message, "Infinity is not a number JSON can hold")
        // A minus sign with no digits was "expected a number, found a number".
        for text in ["-", "- 1", "-x"] {
            let sign = decodeError(replacingTransform(roomText, occurrence: 1, with: text + String(repeating: ",0", count: 15)))
            XCTAssertEqual(sign?.message, "expected a digit after '-'", text)
            XCTAssertTrue(sign!.location.keyPath.hasSuffix(".transform[0]"), sign!.location.keyPath)
        }
    }

    func testWrongTypeWhereANumberBelongs() throws {
        let error = decodeError(replacingTransform(roomText, occurrence: 0, with: "\"1\"" + String(repeating: ",0", count: 15)))
        XCTAssertEqual(error?.message, "expected a number, found a string")
        XCTAssertEqual(error?.location.keyPath, "doors[0].transform[0]")
        // A tagged value in another form is refused with an example of its own kind.
        let text = roomText
        let edges = try XCTUnwrap(text.range(of: "\"completedEdges\" : ["))
        let edge = decodeError(text.replacingCharacters(in: edges, with: "\"completedEdges\" : [\"top\","))
        XCTAssertEqual(edge?.message, #"expected "completedEdges" to be an object with one key, like {"top":{}}, found a string"#)
        let category = try XCTUnwrap(text.range(of: "\"category\" : "))
        let wrong = decodeError(text.replacingCharacters(in: category, with: "\"category\" : \"wall\", \"x\" : "))
        XCTAssertEqual(wrong?.message, #"expected "category" to be an object with one key, like {"wall":{}}, found a string"#)
        let story = decodeError(roomText.replacingOccurrences(of: "\"story\" : 0", with: "\"story\" : \"ground\""))
        XCTAssertEqual(story?.message, "expected a whole number, found a string")
    }

    func testDuplicateKeysAreRefused() {
        let error = decodeError(roomText.replacingOccurrences(of: "\"version\" : 2", with: "\"version\" : 2, \"version\" : 3"))
        XCTAssertEqual(error?.message, "duplicate key \"version\"")
    }

    func testEmptyFileAndDeepNesting() {
        XCTAssertEqual(decodeError("")?.message, "the file is empty")
        XCTAssertEqual(decodeError("  \n ")?.message, "the file is empty")
        let deep = "{\"future\":" + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}"
        XCTAssertTrue(decodeError(deep)!.message.contains("nesting deeper than"), "deep nesting is an error, not a stack overflow")
    }

    func testSyntaxErrorsAreLocated() {
        let error = decodeError("{\n  \"future\" : [\n    1,\n  ],\n}")
        XCTAssertEqual(error?.message, "trailing ',' before ']'")
        XCTAssertEqual(error?.location.line, 3)
        let missingColon = decodeError("{\"walls\" []}")
        XCTAssertEqual(missingColon?.message, "expected ':' after a key, found an array")
        XCTAssertEqual(missingColon?.location.column, 10)
    }

    func testSuspiciousContentOpensWithWarnings() throws {
        var room = BuildingGenerator.generate(BuildingSpec(seed: 11, rooms: 2)).captures[0].room
        room.doors[0].parentIdentifier = "00000000-0000-0000-0000-000000000000"
        room.windows[0].identifier = room.walls[1].identifier
        room.objects[0].transform[0] = 2
        let document = try RoomPlanCodec.decode(RoomPlanCodec.encode(.room(room)))
        let warnings = RoomPlanDiagnostics.check(document)
        XCTAssertEqual(warnings.map(\.keyPath).sorted(),
                       ["doors[0].parentIdentifier", "objects[0].transform", "windows[0].identifier"])
        XCTAssertTrue(warnings.allSatisfy { $0.severity == .warning })
        XCTAssertTrue(warnings.contains { $0.message.contains("duplicate identifier") && $0.message.contains("walls[1]") })
    }

    func testRealSamplesHaveNoWarnings() throws {
        for name in ["livingroom-1section.json", "flat-4sections.json"] {
            let bytes = try Samples.roomPlan(name)
            XCTAssertEqual(RoomPlanDiagnostics.check(try RoomPlanCodec.decode(bytes)), [], name)
        }
    }
}
