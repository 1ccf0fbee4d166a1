import Foundation
import StructureModel
import XCTest

/// The codec's promises as a person meets them: a file wb cannot read faithfully is refused
/// and nothing is written; a file that was not edited is saved byte for byte, however its
/// numbers are spelled and whether or not it starts with a byte order mark.
final class CodecEndToEndTests: XCTestCase {
    func testInvalidUTF8KeysAreRefusedAndNothingIsWritten() throws {
        let folder = try Harness.temporaryFolder(self)
        let source = folder.appendingPathComponent("r.json")
        let output = folder.appendingPathComponent("o.json")
        // The issue's reproducer: printf '{...,"z\xffz":1,"z\xfez":2}' > r.json; wb -q r.json -c 'save o.json'
        let bytes = Array(#"{"walls":[],"doors":[],"windows":[],"openings":[],"objects":[],"z"#.utf8) + [0xFF]
            + Array(#"z":1,"z"#.utf8) + [0xFE] + Array(#"z":2}"#.utf8)
        try Data(bytes).write(to: source)
        for save in ["save '\(output.path)'", "save"] {
            let result = try Harness.run(["-q", source.path, "-c", save])
            XCTAssertEqual(result.status, 1, result.stderr)
            XCTAssertTrue(result.stderr.hasPrefix("wb: \(source.path):1:66: error: a key that is not valid UTF-8"), result.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: output.path), "nothing is written")
            XCTAssertEqual(try Data(contentsOf: source), Data(bytes), "the original is left as it was")
        }
    }

    func testUneditedFilesWithOddSpellingsOrAByteOrderMarkAreSavedByteForByte() throws {
        let folder = try Harness.temporaryFolder(self)
        let text = try String(contentsOfFile: try Harness.generatedRoom(in: folder), encoding: .utf8)
        // Other spellings of the same values: trailing zeros, an exponent, whole numbers as decimals.
        let odd = text.replacingOccurrences(of: "        1,\n", with: "        1.000,\n")
            .replacingOccurrences(of: "        0,\n", with: "        0e-7,\n")
            .replacingOccurrences(of: "\"version\" : 2", with: "\"version\" : 2.0")
        XCTAssertNotEqual(odd, text)
        for (name, bytes) in [("odd.json", Array(odd.utf8)), ("bom.json", [0xEF, 0xBB, 0xBF] + Array(text.utf8))] {
            let source = folder.appendingPathComponent(name)
            let copy = folder.appendingPathComponent("copy-" + name)
            try Data(bytes).write(to: source)
            // An edit and its undo leave nothing to show either.
            let result = try Harness.run(["-q", source.path, "-c", "move r1 1 0; undo; save '\(copy.path)'"])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(try Data(contentsOf: copy), Data(bytes), name)
        }
    }
}
