import XCTest
@testable import StructureModel

/// What the reader says about a file reads as English, quotes it in measure, and does
/// not trip over a byte order mark.
final class MessageTests: XCTestCase {
    private var roomText: String {
        String(decoding: RoomPlanCodec.encode(.room(BuildingGenerator.generate(BuildingSpec(seed: 11, rooms: 2)).captures[0].room)),
               as: UTF8.self)
    }

    private func decodeError(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> RoomPlanDecodeError? {
        do {
            _ = try RoomPlanCodec.decode(bytes)
            XCTFail("expected an error", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    private func decodeError(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> RoomPlanDecodeError? {
        decodeError(Array(text.utf8), file: file, line: line)
    }

    func testContentAfterTheValueIsDescribedInPlainWords() {
        let error = decodeError(roomText + "\n{}")
        XCTAssertEqual(error?.message, "expected the end of the file after the JSON value, found an object")
        XCTAssertEqual(decodeError(roomText + " 7")?.message, "expected the end of the file after the JSON value, found a number")
    }

    func testAByteOrderMarkIsToleratedAndWrittenBack() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let plain = Array(roomText.utf8)
        let marked = bom + plain
        let document = try RoomPlanCodec.decode(marked)
        XCTAssertTrue(RoomPlanCodec.encode(document) == marked, "a no-op save keeps the mark")
        XCTAssertTrue(try RoomPlanCodec.encodeChecked(document) == marked)
        XCTAssertTrue(RoomPlanCodec.encode(try RoomPlanCodec.decode(plain)) == plain, "and adds none")
        let building = BuildingGenerator.generate(BuildingSpec(seed: 3, rooms: 3))
        let structure = bom + RoomPlanCodec.encode(.structure(building.structure))
        XCTAssertTrue(RoomPlanCodec.encode(try RoomPlanCodec.decode(structure)) == structure, "a structure too, once")
        // Errors are placed as without the mark: it is no character anyone sees.
        let broken = "{\"walls\" []}"
        let withMark = decodeError(bom + Array(broken.utf8))
        let without = decodeError(broken)
        XCTAssertEqual(withMark?.location.column, without?.location.column)
        XCTAssertEqual(withMark?.lineText, broken)
        XCTAssertEqual(withMark?.offset, (without?.offset ?? 0) + 3, "offsets stay offsets in the file")
        // Only at the start.
        XCTAssertNotNil(decodeError(Array(" ".utf8) + bom + plain))
    }

    /// An app that exports with `.withoutEscapingSlashes` writes `/` plain: a save rewrote
    /// every slash of `coreModel` as `\/` (a real iOS 26 export grew by 8.7 kB on one label).
    func testSlashesAreWrittenAsTheFileWroteThem() throws {
        var building = BuildingGenerator.generate(BuildingSpec(seed: 3, rooms: 2)).captures[0].room
        building.coreModel = "ab/cd+ef/gh=="
        building.sections[0].label = "a/b"
        let escaped = RoomPlanCodec.encode(.room(building))
        XCTAssertTrue(String(decoding: escaped, as: UTF8.self).contains("\"ab\\/cd+ef\\/gh==\""), "JSONEncoder's default escapes")
        let plain = Array(String(decoding: escaped, as: UTF8.self).replacingOccurrences(of: "\\/", with: "/").utf8)
        XCTAssertNotEqual(plain, escaped)
        XCTAssertTrue(RoomPlanCodec.encode(try RoomPlanCodec.decode(plain)) == plain, "a no-op save keeps them plain")
        XCTAssertTrue(RoomPlanCodec.encode(try RoomPlanCodec.decode(escaped)) == escaped, "and escaped ones escaped")
        // An edit changes only what it edits.
        guard case .room(var edited) = try RoomPlanCodec.decode(plain) else { return XCTFail("a room") }
        edited.sections[0].label = "kitchen"
        let saved = String(decoding: RoomPlanCodec.encode(.room(edited)), as: UTF8.self)
        XCTAssertEqual(saved, String(decoding: plain, as: UTF8.self).replacingOccurrences(of: "\"a/b\"", with: "\"kitchen\""))
        // A slash after an escaped backslash is plain; the file's majority decides.
        XCTAssertFalse(RoomPlanCodec.writesSlashesUnescaped(Array(#"{"a":"x\/y\/z","b":"p/q"}"#.utf8)))
        XCTAssertTrue(RoomPlanCodec.writesSlashesUnescaped(Array(#"{"a":"x\\/y/z"}"#.utf8)))
    }

    func testLongNumbersAreShortenedInMessages() {
        let huge = "1" + String(repeating: "0", count: 500)
        let text = roomText
        let open = text.range(of: "\"transform\" : [")!.upperBound
        let comma = text[open...].firstIndex(of: ",")!
        let error = decodeError(text.replacingCharacters(in: open..<comma, with: huge))
        XCTAssertEqual(error?.message, "the number 1000000000000000…0000 (501 characters) is too large for a 32-bit float")
        let version = decodeError(text.replacingOccurrences(of: "\"version\" : 2", with: "\"version\" : \(huge).5"))
        XCTAssertEqual(version?.message, "expected a whole number, found 1000000000000000…00.5 (503 characters)")
    }

    func testLongKeysAndKeyPathsAreShortenedInMessages() {
        let longKey = String(repeating: "k", count: 5_000)
        let duplicate = decodeError("{\"\(longKey)\":1,\"\(longKey)\":2}")
        XCTAssertLessThan(duplicate!.message.count, 80, duplicate!.message)
        XCTAssertTrue(duplicate!.message.hasPrefix("duplicate key \"kkkk"), duplicate!.message)
        XCTAssertTrue(duplicate!.message.contains("…"), duplicate!.message)

        // An error deep inside an unknown value with long keys on the way.
        var nested = "tru"
        for level in 0..<200 { nested = "{\"\(level)-\(longKey)\":[\(nested)]}" }
        let deep = decodeError("{\"walls\":[],\"future\":\(nested)}")
        XCTAssertEqual(deep?.message, "expected true, found 't'")
        let path = deep!.location.keyPath
        XCTAssertLessThanOrEqual(path.count, 120, path)
        XCTAssertTrue(path.hasPrefix("future.199-kkk"), path)
        XCTAssertTrue(path.hasSuffix("[0]"), path)
        XCTAssertTrue(path.contains("…"), path)
        XCTAssertLessThan(deep!.description.count, 250, "the whole message stays readable")
    }
}
