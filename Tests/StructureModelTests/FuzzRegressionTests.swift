import XCTest
@testable import StructureModel

/// Inputs found by the fuzz harnesses (Fuzz/, Scripts/fuzz.sh), minimized, each with what
/// reading it should do: a clear error, or a document that survives a write. Some of them
/// trap on the code they were found on; a trap stops the whole test process, so such a
/// test documents the bug until it is fixed.
final class FuzzRegressionTests: XCTestCase {
    private func bytes(_ base64: String) -> [UInt8] {
        [UInt8](Data(base64Encoded: base64)!)
    }

    /// A binary property list whose one object (at offset 8) is `marker`, followed by a
    /// length of Int.max as an 8-byte integer, with a valid offset table and trailer.
    private func plist(marker: UInt8, referenceSize: UInt8) -> [UInt8] {
        var list = Array("bplist00".utf8) + [marker, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        list.append(0x08)  // the offset table: object 0 at offset 8
        list += [0, 0, 0, 0, 0, 0, 1, referenceSize]
        list += [0, 0, 0, 0, 0, 0, 0, 1]  // one object
        list += [0, 0, 0, 0, 0, 0, 0, 0]  // the top object is 0
        list += [0, 0, 0, 0, 0, 0, 0, 18]  // the offset table starts at 18
        return list
    }

    private func assertObjectFails(_ list: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
        guard let plist = try? BinaryPlist(list) else {
            return XCTFail("the trailer is valid; the object is what is damaged", file: file, line: line)
        }
        XCTAssertThrowsError(try plist.object(0), file: file, line: line)
        XCTAssertThrowsError(try WorldMapArchive.inspect(list), file: file, line: line)
        XCTAssertNotNil(HyperbasisStore.inspectWorldMap(list, compressed: false).problem, file: file, line: line)
    }

    /// plist harness: a string (0x5F) of length Int.max. Trapped in `need` with an
    /// arithmetic overflow, `p + count` (BinaryPlist.swift:89, from the string case at :138;
    /// the data case at :134 the same).
    func testPlistStringLengthOverflow() {
        let list = bytes("YnBsaXN0MDBfE3//////////CAAAAAAAAAEBAAAAAAAAAAEAAAAAAAAAAAAAAAAAAAAS")
        XCTAssertEqual(list, plist(marker: 0x5F, referenceSize: 1))
        assertObjectFails(list)
    }

    /// plist harness: an array (0xAF) of Int.max references of 2 bytes. Trapped on
    /// `count * referenceSize` (BinaryPlist.swift:104, from :151) before `need` is reached.
    func testPlistArrayCountOverflow() {
        let list = bytes("YnBsaXN0MDCvE3//////////CAAAAAAAAAECAAAAAAAAAAEAAAAAAAAAAAAAAAAAAAAS")
        XCTAssertEqual(list, plist(marker: 0xAF, referenceSize: 2))
        assertObjectFails(list)
    }

    /// plist harness: a UTF-16 string (0x6F) of Int.max units. Trapped on `count * 2`
    /// (BinaryPlist.swift:142) before `need` is reached.
    func testPlistUTF16LengthOverflow() {
        let list = bytes("YnBsaXN0MDBvE3//////////CAAAAAAAAAEBAAAAAAAAAAEAAAAAAAAAAAAAAAAAAAAS")
        XCTAssertEqual(list, plist(marker: 0x6F, referenceSize: 1))
        assertObjectFails(list)
    }

    /// roomplan harness (law: what is accepted is UTF-8): a key with a byte 0xFF was
    /// accepted and written back as U+FFFD, while the same byte in a value is refused.
    func testRoomPlanKeyThatIsNotUTF8() {
        let file = Array(#"{"rooms":[],"a"#.utf8) + [0xFF] + Array(#"":1}"#.utf8)
        XCTAssertThrowsError(try RoomPlanCodec.decode(file)) { error in
            XCTAssertTrue("\(error)".contains("UTF-8"), "\(error)")
        }
    }

    /// roomplan harness: unknown keys out of sorted order read, write (sorted) and read
    /// back as the same document up to member order; the written bytes are stable.
    func testRoomPlanUnsortedUnknownKeysRoundTrip() throws {
        let file = Array(#"{"l":"","":2,"rooms":[]}"#.utf8)
        let document = try RoomPlanCodec.decode(file)
        let written = RoomPlanCodec.encode(document)
        let reread = try RoomPlanCodec.decode(written)
        XCTAssertEqual(RoomPlanCodec.encode(reread), written)
        guard case .structure(let before) = document, case .structure(let after) = reread else {
            return XCTFail("expected a structure")
        }
        XCTAssertEqual(before.merged.extra.sortedMembers, after.merged.extra.sortedMembers)
    }
}
