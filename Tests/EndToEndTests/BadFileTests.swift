import Foundation
import StructureModel
import XCTest

/// Each bad file gets one clear error naming the file (and, for JSON, line, column and key
/// path) and wb exits 1; suspicious files open with warnings. Never a crash.
final class BadFileTests: XCTestCase {
    var folder: URL!
    var roomText = ""

    override func setUpWithError() throws {
        folder = try Harness.temporaryFolder(self)
        roomText = try String(contentsOfFile: try Harness.generatedRoom(in: folder), encoding: .utf8)
    }

    private func write(_ name: String, _ text: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Opens `path` with wb and checks that exactly one error line names the file.
    private func expectError(_ path: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try Harness.run(["-q", path])
        XCTAssertEqual(result.status, 1, file: file, line: line)
        let first = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
        XCTAssertEqual(first, expected, file: file, line: line)
        XCTAssertEqual(result.stderr.components(separatedBy: "error:").count, 2, "one error", file: file, line: line)
        XCTAssertFalse(result.stderr.contains("Fatal error"), file: file, line: line)
    }

    private func transformLine(_ occurrence: Int) -> Int {
        var count = -1
        for (index, line) in roomText.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where line.contains("\"transform\" : [") {
            count += 1
            if count == occurrence { return index + 1 }
        }
        return -1
    }

    private func replacingFirstTransform(with body: String) -> String {
        let open = roomText.range(of: "\"transform\" : [")!.upperBound
        let close = roomText.range(of: "]", range: open..<roomText.endIndex)!.lowerBound
        return roomText.replacingCharacters(in: open..<close, with: body)
    }

    func testTruncatedJSON() throws {
        let path = try write("truncated.json", String(roomText.prefix(2000)))
        let result = try Harness.run(["-q", path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.hasPrefix("wb: \(path):"), result.stderr)
        XCTAssertTrue(result.stderr.contains(": error: "), result.stderr)
    }

    func testNotJSON() throws {
        let path = try write("notes.json", "Kitchen, 3.2 x 4.1 m\n")
        try expectError(path, "wb: \(path):1:1: error: not a RoomPlan file: expected a JSON object at the top, found 'K'")
    }

    func testJSONOfAnotherShape() throws {
        let path = try write("geo.json", #"{"type": "FeatureCollection"}"#)
        try expectError(path, "wb: \(path):1:1: error: not a RoomPlan room or structure: expected \"walls\", \"doors\", "
                        + "\"windows\", \"openings\" and \"objects\" (a CapturedRoom) or \"rooms\" (a CapturedStructure), "
                        + "found keys \"type\"")
    }

    func testTransformOf15Numbers() throws {
        let path = try write("t15.json", replacingFirstTransform(with: Array(repeating: "0", count: 15).joined(separator: ",")))
        let line = transformLine(0)
        try expectError(path, "wb: \(path):\(line):21: error: expected 16 numbers in \"transform\", found 15 (at doors[0].transform)")
    }

    func testNaNAndInfinity() throws {
        let nan = try write("nan.json", replacingFirstTransform(with: "NaN" + String(repeating: ",0", count: 15)))
        let line = transformLine(0)
        try expectError(nan, "wb: \(nan):\(line):22: error: NaN is not a number JSON can hold (at doors[0].transform[0])")
        let infinite = try write("inf.json", replacingFirstTransform(with: "1e400" + String(repeating: ",0", count: 15)))
        try expectError(infinite, "wb: \(infinite):\(line):22: error: the number 1e400 is too large for a 32-bit float (at doors[0].transform[0])")
    }

    func testWrongType() throws {
        let path = try write("type.json", replacingFirstTransform(with: "true" + String(repeating: ",0", count: 15)))
        try expectError(path, "wb: \(path):\(transformLine(0)):22: error: expected a number, found true (at doors[0].transform[0])")
    }

    func testEmptyFileFolderAndMissingFile() throws {
        let empty = try write("empty.json", "")
        try expectError(empty, "wb: \(empty):1:1: error: the file is empty")
        let folderPath = folder.appendingPathComponent("scans").path
        try FileManager.default.createDirectory(atPath: folderPath, withIntermediateDirectories: true)
        try expectError(folderPath, "wb: \(folderPath): error: is a folder, but not a Hyperbasis store (it has no spaces/ folder)")
        let missing = folder.appendingPathComponent("nope.json").path
        try expectError(missing, "wb: \(missing): error: no such file or directory")
    }

    func testNoReadPermission() throws {
        let path = try write("secret.json", roomText)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder.path)
        var result: Harness.Result
        if getuid() == 0 {
            // Root reads anything; run wb as an unprivileged user to see what a user sees.
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
                throw XCTSkip("running as root without setpriv(1): cannot drop privileges to test EACCES")
            }
            result = try Harness.run(["--reuid=65534", "--regid=65534", "--clear-groups", Harness.wb.path, "-q", path],
                                     executable: URL(fileURLWithPath: "/usr/bin/setpriv"))
        } else {
            result = try Harness.run(["-q", path])
        }
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "wb: \(path): error: permission denied\n")
    }

    func testSuspiciousContentOpensWithWarnings() throws {
        guard case .room(var room) = try RoomPlanCodec.decode(Array(roomText.utf8)) else { return XCTFail() }
        room.doors[0].parentIdentifier = "00000000-0000-4000-8000-000000000000"
        room.objects[1].identifier = room.objects[0].identifier
        room.walls[2].transform[5] = 1.5
        let width = room.walls[1].dimensions.x
        room.walls[1].dimensions.x = -3
        let path = try write("odd.json", String(decoding: RoomPlanCodec.encode(.room(room)), as: UTF8.self))
        // A wall of -3 m is measured by its size: its area is positive, the room's wall length
        // counts 3 m for it (it took 3 m off).
        let shown = try Harness.run(["-q", path, "-c", "show w2"])
        XCTAssertTrue(shown.stdout.contains("area        \(formatted(3 * Double(room.walls[1].dimensions.y), digits: 2)) m²"), shown.stdout)
        var plain = room
        plain.walls[1].dimensions.x = width
        plain.walls[2].transform[5] = 1
        let lengths = [plain, room].map(\.measurements.wallLength)
        XCTAssertEqual(lengths[1] - lengths[0], 3 - Double(width), accuracy: 1e-4)
        let result = try Harness.run(["-q", path])
        XCTAssertEqual(result.status, 0, "warnings do not stop the file from opening")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines, [
            "wb: warning: \(path): objects[1].identifier: duplicate identifier \(room.objects[0].identifier), also at objects[0]",
            "wb: warning: \(path): walls[1].dimensions: a negative width -3.000 m: measured by its size",
            "wb: warning: \(path): walls[2].transform: not a rigid transform (off by 1.2500); geometry from it may be wrong",
            "wb: warning: \(path): doors[0].parentIdentifier: parent 00000000-0000-4000-8000-000000000000 is not an element of this file",
        ])
    }

    func testScriptsDoNotRunAgainstAFileThatFailedToOpen() throws {
        let out = folder.appendingPathComponent("out.json").path
        let result = try Harness.run([folder.appendingPathComponent("missing.json").path, "-c", "save \(out)"])
        XCTAssertEqual(result.status, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    /// A story the file gives as the lowest 64-bit number opens (the `story` command refuses
    /// it, the file may say it): its plan and its USD name it, where -story overflowed and
    /// `export svg`, `usda` and `usdz` died.
    func testTheLowestStoryExports() throws {
        let folder = try Harness.temporaryFolder(self)
        let room = try Harness.generatedRoom(in: folder, seed: 44)
        let text = try String(contentsOfFile: room, encoding: .utf8)
        let low = folder.appendingPathComponent("low.json").path
        try text.replacingOccurrences(of: "\"story\" : 0", with: "\"story\" : -9223372036854775808")
            .write(toFile: low, atomically: true, encoding: .utf8)
        XCTAssertNotEqual(try String(contentsOfFile: low, encoding: .utf8), text)
        let svg = folder.appendingPathComponent("low.svg").path, usda = folder.appendingPathComponent("low.usda").path
        let result = try Harness.run(["-q", low, "-c", "export svg \(svg)", "-c", "export usda \(usda)"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(try String(contentsOfFile: svg, encoding: .utf8).contains("id=\"story-minus9223372036854775808\""))
        XCTAssertTrue(try String(contentsOfFile: usda, encoding: .utf8).contains("Story_m9223372036854775808"))
    }

    /// The caret stands under the bad token on the screen: CJK and emoji before it take two
    /// columns each (it stood two columns left of a NaN after "漢🏠").
    func testTheCaretCountsWideCharactersTwice() throws {
        let folder = try Harness.temporaryFolder(self)
        let bad = folder.appendingPathComponent("wide.json").path
        try Data("{\"label\": \"漢🏠\", \"x\": NaN}\n".utf8).write(to: URL(fileURLWithPath: bad))
        let result = try Harness.run(["-q", bad])
        XCTAssertEqual(result.status, 1)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let shown = try XCTUnwrap(lines.firstIndex { $0.contains("NaN") && !$0.hasPrefix("wb:") })
        let text = lines[shown], caret = lines[shown + 1]
        let nan = try XCTUnwrap(text.range(of: "NaN"))
        // Columns on the screen: 漢 and 🏠 two each, the rest one.
        let column = text[..<nan.lowerBound].reduce(0) { $0 + ($1 == "漢" || $1 == "🏠" ? 2 : 1) }
        XCTAssertEqual(caret.firstIndex(of: "^").map { caret.distance(from: caret.startIndex, to: $0) }, column, result.stderr)
    }

    /// An app's own format with an "objects" array (a real iOS 16-era file: "surfaces" and
    /// "objects") was told what its first object lacked, one key at a time, not that it is not
    /// RoomPlan's.
    func testAnotherFormatWithObjectsIsSaidToBeOne() throws {
        let folder = try Harness.temporaryFolder(self)
        let other = folder.appendingPathComponent("other.json").path
        try Data(#"{"surfaces": [{"scale": {"x": 1}}], "objects": [{"confidence": "high", "scale": {"x": 1}}]}"#.utf8)
            .write(to: URL(fileURLWithPath: other))
        let result = try Harness.run(["-q", other])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("not a RoomPlan room or structure"), result.stderr)
        XCTAssertTrue(result.stderr.contains(#"found keys "objects", "surfaces""#) || result.stderr.contains(#"found keys "surfaces", "objects""#),
                      result.stderr)
    }
}
