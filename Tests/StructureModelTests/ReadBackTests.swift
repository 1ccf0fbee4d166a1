import XCTest
@testable import StructureModel

/// wb never writes a file it cannot read back to the same model: the reader refuses what
/// it would have to repair, and the writer refuses what would not read back.
final class ReadBackTests: XCTestCase {
    private func decodeError(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> RoomPlanDecodeError? {
        do {
            _ = try RoomPlanCodec.decode(bytes)
            XCTFail("expected an error", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    private let emptyRoom = #"{"walls":[],"doors":[],"windows":[],"openings":[],"objects":[]"#

    func testInvalidUTF8InAKeyIsALocatedError() throws {
        // The issue's reproducer: two keys that U+FFFD repair would have made one.
        let bytes = Array((emptyRoom + #","z"#).utf8) + [0xFF] + Array(#"z":1,"z"#.utf8) + [0xFE] + Array(#"z":2}"#.utf8)
        let error = decodeError(bytes)
        XCTAssertEqual(error?.message, "a key that is not valid UTF-8")
        XCTAssertEqual(error?.location.line, 1)
        XCTAssertEqual(error?.offset, emptyRoom.utf8.count + 3, "at the key's first byte that is not UTF-8")
        XCTAssertEqual(error?.location.column, emptyRoom.utf8.count + 4)
        XCTAssertEqual(error?.location.keyPath, #"z\xFFz"#, "the key's bytes, not a repaired key")
    }

    /// The error is at the byte that is not UTF-8, not at the string's start: in a 200 KB
    /// `coreModel` that was 178,625 columns off (an adversarial pass). With an escape before
    /// it too (the reader's other path), and a sequence cut short or too long.
    func testInvalidUTF8InAStringIsLocatedAtItsByte() throws {
        for (before, bad, after) in [("abcdefghijklmnopqrstuvwxyz0123456789", [UInt8(0xFF)], "tail"), (#"a\/b\"c"#, [0xE2, 0x82], "x"),
                                     ("é€", [0xC0, 0xAF], ""), ("𝄞", [0xED, 0xA0, 0x80], "z")] {
            let head = emptyRoom + #","note":""# + before
            let bytes = Array(head.utf8) + bad + Array((after + #""}"#).utf8)
            let error = decodeError(bytes)
            XCTAssertEqual(error?.message, "a string that is not valid UTF-8", before)
            XCTAssertEqual(error?.offset, head.utf8.count, before)
        }
    }

    func testInvalidUTF8InKeysIsRefusedEverywhere() throws {
        let text = String(decoding: RoomPlanCodec.encode(.room(BuildingGenerator.generate(BuildingSpec(seed: 4, rooms: 1)).captures[0].room)),
                          as: UTF8.self)
        let bad: [UInt8] = [0xC3, 0x28]  // a lead byte followed by no continuation
        for (marker, path) in [("\"category\" : {", "doors[0]"), ("\"attributes\" : {", "objects[0].attributes")] {
            let at = text.range(of: marker)!.upperBound
            var bytes = Array(text[..<at].utf8)
            bytes += Array("\"k".utf8) + bad + Array("\" : 1,".utf8)
            bytes += Array(text[at...].utf8)
            // Inside a tagged category it is an unknown case; the key is refused first all the same.
            let error = decodeError(bytes)
            XCTAssertEqual(error?.message, "a key that is not valid UTF-8", path)
            XCTAssertTrue(error?.location.keyPath.hasPrefix(path.components(separatedBy: ".")[0]) == true, error?.location.keyPath ?? "")
        }
        // With an escape in the key too (the other path through the reader).
        let escaped = Array((emptyRoom + #","\u0041"#).utf8) + [0xFF] + Array(#"":1}"#.utf8)
        XCTAssertEqual(decodeError(escaped)?.message, "a string that is not valid UTF-8")
    }

    func testKeysAreTheSameWhenTheirCodePointsAre() throws {
        // "\u0041" is "A": a duplicate. A precomposed "é" and "e" + U+0301 are two keys in
        // JSON (Swift's String == would call them equal); both are kept and written back.
        XCTAssertEqual(decodeError(Array((emptyRoom + #","A":1,"\u0041":2}"#).utf8))?.message, "duplicate key \"A\"")
        let twoKeys = emptyRoom + ",\"\u{E9}\":1,\"e\u{301}\":2,\"x\":{\"\u{E9}\":1,\"e\u{301}\":2}}"
        let document = try RoomPlanCodec.decode(Array(twoKeys.utf8))
        let written = try RoomPlanCodec.encodeChecked(document)
        XCTAssertEqual(try RoomPlanCodec.decode(written), document)
        guard case .room(let room) = document, case .object(let inner)? = room.extra["x"] else { return XCTFail("a room") }
        XCTAssertEqual(room.extra.count, 3)
        XCTAssertEqual(inner.count, 2)
    }

    private func sampleRoom() -> CapturedRoom {
        BuildingGenerator.generate(BuildingSpec(seed: 9, rooms: 1)).captures[0].room
    }

    private func refusal(_ room: CapturedRoom, file: StaticString = #filePath, line: UInt = #line) -> RoomPlanEncodeError? {
        do {
            _ = try RoomPlanCodec.encodeChecked(.room(room))
            XCTFail("expected the writer to refuse", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func testTheWriterRefusesWhatWouldNotReadBack() {
        var room = sampleRoom()
        room.walls[1].transform.elements[13] = .nan
        XCTAssertEqual(refusal(room)?.keyPath, "walls[1].transform[13]")
        XCTAssertEqual(refusal(room)?.message, "nan is not a number JSON can hold")
        XCTAssertFalse(RoomPlanCodec.encode(.room(room)).isEmpty, "the unchecked writer does not trap")

        room = sampleRoom()
        room.objects[0].dimensions.y = -.infinity
        XCTAssertEqual(refusal(room)?.keyPath, "objects[0].dimensions[1]")

        room = sampleRoom()
        room.walls[0].extra["identifier"] = .string("shadow")
        XCTAssertEqual(refusal(room)?.message, "\"identifier\" is a key wb models; it cannot also be kept as an unknown one")
        XCTAssertEqual(refusal(room)?.keyPath, "walls[0]")

        room = sampleRoom()
        room.extra.members += [JSONMember("note", .number(JSONNumber(1))), JSONMember("note", .null)]
        XCTAssertEqual(refusal(room)?.message, "the key \"note\" twice in one object")

        room = sampleRoom()
        room.extra["rooms"] = .array([])
        XCTAssertNotNil(refusal(room), "\"rooms\" at the top would make the file a structure")

        room = sampleRoom()
        room.extra["count"] = .number(JSONNumber(text: "1."))
        XCTAssertEqual(refusal(room)?.message, "\"1.\" is not a JSON number")

        room = sampleRoom()
        room.doors[0].confidence = .other(.string("sure"))
        XCTAssertEqual(refusal(room)?.keyPath, "doors[0].confidence")

        room = sampleRoom()
        room.windows = []
        room.absentArrays.insert(.windows)
        XCTAssertEqual(refusal(room)?.message, "a room without \"windows\" would not read back as a room")

        room = sampleRoom()
        var deep = JSONValue.null
        for _ in 0..<JSONReader.maximumDepth { deep = .array([deep]) }
        room.extra["deep"] = deep
        XCTAssertEqual(refusal(room)?.message, "nesting deeper than \(JSONReader.maximumDepth) levels")
    }

    func testWhatTheReaderMadeAlwaysPassesTheCheck() throws {
        let building = BuildingGenerator.generate(BuildingSpec(seed: 21, rooms: 5, stories: 2))
        var documents: [RoomPlanDocument] = [.structure(building.structure)] + building.captures.map { .room($0.room) }
        for name in ["livingroom-1section.json", "flat-4sections.json"] {
            if let bytes = try? Samples.roomPlan(name) { documents.append(try RoomPlanCodec.decode(bytes)) }
        }
        for document in documents {
            let bytes = try RoomPlanCodec.encodeChecked(document)
            XCTAssertEqual(bytes, RoomPlanCodec.encode(document))
            XCTAssertEqual(try RoomPlanCodec.decode(bytes), document)
        }
    }
}
