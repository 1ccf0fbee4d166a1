import Foundation
import StructureModel
import XCTest
@testable import Workbench

/// `wb --each` run in process: the flags it refuses, the paths it takes (streamed, sharded),
/// what it reports per file and in all, and that several jobs at once give what one gives.
final class BatchTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("wb-batch-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let created = folder
        addTeardownBlock { try? FileManager.default.removeItem(atPath: created) }
    }

    /// `count` room files (each a different generated room), their paths.
    private func rooms(_ count: Int) throws -> [String] {
        let building = BuildingGenerator.generate(BuildingSpec(seed: 31, rooms: 4))
        return try (1...count).map { index in
            let path = folder + "/room-\(index).json"
            try FileIO.writeAtomically(RoomPlanCodec.encode(.room(building.captures[index % building.captures.count].room)),
                                       to: path)
            return path
        }
    }

    private func run(_ arguments: [String]) -> (status: Int32, stdout: String, stderr: String) {
        let output = BufferedOutput()
        let status = Program.main(arguments, output: output, stdinIsTerminal: false, readStandardInput: { [] })
        return (status, output.standardOutput, output.standardError)
    }

    func testBadCombinationsAreRefusedAsBadInvocations() throws {
        let path = try rooms(1)[0]
        let cases: [([String], String)] = [
            (["--each", "--jobs", "0", "-c", "ls", path], "--jobs needs a whole number of at least 1"),
            (["--each", "--jobs", "two", "-c", "ls", path], "--jobs needs a whole number"),
            (["--each", "--jobs", "-1", "-c", "ls", path], "--jobs needs a whole number of at least 1, got '-1'"),
            (["--each", "--shard", "3/2", "-c", "ls", path], "--shard needs I/N with 1 <= I <= N"),
            (["--each", "--shard", "0/2", "-c", "ls", path], "--shard needs I/N"),
            (["--each", "--shard", "1/0", "-c", "ls", path], "--shard needs I/N"),
            (["--each", "--shard=x", "-c", "ls", path], "--shard needs I/N"),
            (["--each", path], "--each runs commands once per file"),
            (["--jobs", "2", "-c", "ls", path], "--jobs works only with --each"),
            (["--shard", "1/2", "-c", "ls", path], "--shard works only with --each"),
            (["--files-from", "-", "-c", "ls"], "--files-from works only with --each"),
            (["--each", "-c", "ls"], "--each needs the paths"),
            (["--each", "-i", "-c", "ls", path], "-i does not go with it"),
            (["--each", "--recover", "-c", "ls", path], "--recover replays one session's journal"),
            (["--each", "-f", "-", "--files-from", "-"], "cannot hold both"),
            (["--recover", "-c", "ls"], "--recover needs the PATH"),
            (["--each=1", "-c", "ls", path], "'--each' does not take any value"),
        ]
        for (arguments, message) in cases {
            let result = run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        XCTAssertEqual(run(["--each", "--files-from", folder + "/absent", "-c", "ls"]).status, 2, "an unreadable list")
    }

    func testShardsShareTheListOutWithoutOverlap() {
        var seen: [Int] = []
        for index in 1...3 {
            let shard = Shard("\(index)/3")!
            let kept = (1...10).filter(shard.keeps)
            XCTAssertEqual(PathSource.count(paths: 10, listPath: nil, shard: shard), kept.count)
            seen += kept
        }
        XCTAssertEqual(seen.sorted(), Array(1...10))
        XCTAssertEqual((1...10).filter(Shard("2/4")!.keeps), [2, 6, 10])
        XCTAssertNil(Shard("2"))
        XCTAssertNil(Shard("-1/2"))
    }

    /// A list file of `find -print0` (each path ended by a NUL, no newline) was counted as
    /// one path: the batch ran it on one thread whatever `--jobs` said, and the progress bar
    /// showed "3/1 files". It is counted as it is read: at NULs only, once a NUL is seen
    /// (a name may hold a newline); else by lines, where a NUL ends a path too.
    func testAListOfPathsEndedByNULsIsCountedAsItIsRead() throws {
        let cases: [(String, Int)] = [("a.json\u{0}b.json\u{0}c.json\u{0}", 3), ("a.json\u{0}new\nline.json\u{0}\u{0}c.json", 3),
                                      ("a.json\r\n\nb.json\n", 2), ("a.json\nb.json", 2), ("", 0),
                                      // A line of spaces and tabs is a blank line, counted and read alike.
                                      ("a.json\n  \t \r\nb.json\n \n", 2), ("a\u{0} \u{0}", 2)]
        for (index, (text, expected)) in cases.enumerated() {
            let list = folder + "/list-\(index).txt"
            try Data(text.utf8).write(to: URL(fileURLWithPath: list))
            XCTAssertEqual(PathSource.count(paths: 1, listPath: list, shard: nil), expected + 1, text.debugDescription)
            let fd = open(list, O_RDONLY)
            defer { close(fd) }
            let source = PathSource(paths: ["first.json"], listDescriptor: fd, listName: list, shard: nil)
            var read = 0
            while source.next() != nil { read += 1 }
            XCTAssertEqual(read, expected + 1, "what the batch reads: \(text.debugDescription)")
        }
    }

    func testPathsAreReadFromTheListAsTheyAreNeeded() throws {
        let list = folder + "/list.txt"
        try Data("a.json\r\n\nb c.json\n  \n".utf8 + Array(repeating: UInt8(ascii: "x"), count: 70_000) + Data("\nd.json".utf8))
            .write(to: URL(fileURLWithPath: list))
        let fd = open(list, O_RDONLY)
        defer { close(fd) }
        let source = PathSource(paths: ["first.json"], listDescriptor: fd, listName: list, shard: nil)
        XCTAssertEqual(source.next()?.path, "first.json")
        XCTAssertEqual(source.next()?.path, "a.json", "a carriage return ends a line too")
        XCTAssertEqual(source.next()?.path, "b c.json", "blank lines are skipped; blanks inside a path are kept")
        // A line of only spaces was a path "  ", reported as `wb:   : error: no such file`.
        XCTAssertNil(source.next()?.path.count, "a line longer than any path ends the list")
        XCTAssertTrue(source.problem?.contains("longer than") == true, source.problem ?? "")
    }

    func testEachFileGetsItsOwnSessionAndAStatus() throws {
        let paths = try rooms(3)
        let bad = folder + "/bad.json"
        try Data("{\"walls\": [".utf8).write(to: URL(fileURLWithPath: bad))
        let fix = folder + "/fix.wb"
        try Data("label r1 bedroom\nstory r1 2\necho $FILE_NAME $FILE_STEM $FILE_INDEX\nsave\n".utf8).write(to: URL(fileURLWithPath: fix))
        let originalBad = try FileIO.read(bad)
        let result = run(["--each", "--json", "--jobs", "2", "-f", fix] + paths + [bad])
        XCTAssertEqual(result.status, 1, "a file failed")
        let lines = result.stdout.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        XCTAssertEqual(lines.count, 5, result.stdout)
        let byPath = Dictionary(uniqueKeysWithValues: lines.dropLast().map { ($0["path"] as! String, $0) })
        for (index, path) in paths.enumerated() {
            let line = try XCTUnwrap(byPath[path])
            XCTAssertEqual(line["status"] as? String, "changed")
            XCTAssertEqual(line["ok"] as? Bool, true)
            XCTAssertEqual(line["changes"] as? Int, 2, "a label and a story")
            XCTAssertEqual(line["output"] as? String, "room-\(index + 1).json room-\(index + 1) \(index + 1)\n")
            let saved = try RoomPlanCodec.decode(FileIO.read(path))
            guard case .room(let room) = saved else { return XCTFail("a room") }
            XCTAssertEqual(room.sections.first?.label, "bedroom")
            XCTAssertEqual(room.story, 2)
        }
        let failed = try XCTUnwrap(byPath[bad])
        XCTAssertEqual(failed["status"] as? String, "failed")
        XCTAssertTrue((failed["error"] as? String)?.hasPrefix(bad + ":1:") == true, "\(failed)")
        XCTAssertEqual(try FileIO.read(bad), originalBad)
        let summary = try XCTUnwrap(lines.last)
        XCTAssertEqual(summary["summary"] as? Bool, true)
        XCTAssertEqual(summary["files"] as? Int, 4)
        XCTAssertEqual(summary["ok"] as? Int, 3)
        XCTAssertEqual(summary["changed"] as? Int, 3)
        XCTAssertEqual(summary["failed"] as? Int, 1)
        XCTAssertTrue(result.stderr.contains("wb: 4 files in"), result.stderr)
        XCTAssertTrue(result.stderr.contains("3 ok (3 changed, 0 unchanged), 1 failed"), result.stderr)
        XCTAssertTrue(result.stderr.contains("wb: failed: \(bad):1:"), result.stderr)

        // Run again: nothing left to change.
        let again = run(["--each", "--json", "-f", fix] + paths)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stdout.components(separatedBy: "\"status\":\"unchanged\"").count - 1, 3, again.stdout)
    }

    func testAFailingScriptSavesNothingEvenWithKeepGoing() throws {
        let path = try rooms(1)[0]
        let original = try FileIO.read(path)
        let fix = folder + "/fix.wb"
        try Data("label r1 bedroom\nmove r9 1 0\nsave\nexport json \(folder)/out.json rooms\n".utf8).write(to: URL(fileURLWithPath: fix))
        let result = run(["--each", "-k", "-f", fix, path])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(try FileIO.read(path), original, "the file is left as it was")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/out.json"), "no export either")
        XCTAssertTrue(result.stderr.contains("wb: \(path): \(fix):2:6: error:"), "errors name the file and the line: \(result.stderr)")
        XCTAssertTrue(result.stderr.contains("\(fix):3:1: error: not written: an earlier command of this script failed"),
                      result.stderr)
        XCTAssertTrue(result.stderr.contains("wb: failed: \(path): \(fix):2:6:"), "the summary gives the first error: \(result.stderr)")
    }

    func testSeveralJobsGiveWhatOneJobGives() throws {
        let paths = try rooms(24)
        let copies = folder + "/copies"
        try FileManager.default.createDirectory(atPath: copies, withIntermediateDirectories: true)
        let fix = folder + "/fix.wb"
        try Data("""
            rotate r1 17
            move r1 0.5 -1.25
            set o1 confidence low
            name r1 "Room $FILE_INDEX"
            ls objects
            save "\(copies)/$FILE_STEM-$JOB.json"

            """.utf8).write(to: URL(fileURLWithPath: fix))
        let one = run(["--each", "-q", "--jobs", "1", "-D", "JOB=a", "-f", fix] + paths)
        let four = run(["--each", "-q", "--jobs", "4", "-D", "JOB=b", "-f", fix] + paths)
        XCTAssertEqual(one.status, 0, one.stderr)
        XCTAssertEqual(four.status, 0, four.stderr)
        for index in 1...24 {
            let a = try FileIO.read("\(copies)/room-\(index)-a.json")
            let b = try FileIO.read("\(copies)/room-\(index)-b.json")
            XCTAssertEqual(a, b, "room \(index)")
            XCTAssertEqual(try FileIO.read("\(copies)/room-\(index)-a.wb.json").count,
                           try FileIO.read("\(copies)/room-\(index)-b.wb.json").count)
        }
        // Each file's listing comes out whole, whatever order the files finish in.
        let blocks = four.stdout.components(separatedBy: "object ").filter { !$0.isEmpty }
        XCTAssertEqual(blocks.count, 24, "one header line per file's listing")
        XCTAssertEqual(Set(one.stdout.split(separator: "\n")), Set(four.stdout.split(separator: "\n")))
    }

    func testShardingAndTheListFromAFile() throws {
        let paths = try rooms(7)
        let list = folder + "/list.txt"
        try Data((paths.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: list))
        var seen: [String] = []
        for index in 1...3 {
            let result = run(["--each", "--json", "--shard", "\(index)/3", "--files-from", list, "-c", "echo $FILE_INDEX"])
            XCTAssertEqual(result.status, 0, result.stderr)
            let lines = result.stdout.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
            seen += lines.compactMap { $0["path"] as? String }
            for line in lines.dropLast() {
                let position = Int((line["output"] as! String).dropLast())!
                XCTAssertEqual((position - index) % 3, 0, "shard \(index) took position \(position)")
            }
        }
        XCTAssertEqual(seen.sorted(), paths.sorted(), "every path once, across the shards")
    }

    func testAnEmptyListIsAnEmptyBatch() throws {
        let list = folder + "/empty.txt"
        try Data().write(to: URL(fileURLWithPath: list))
        let result = run(["--each", "--json", "--files-from", list, "-c", "save"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("{\"summary\":true,\"files\":0,"), result.stdout)
    }
}
