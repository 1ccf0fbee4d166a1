import Foundation
import XCTest

/// The built wb running batches: paths piped from `find`, exit statuses, per-file output
/// that arrives whole, and the README's GNU parallel example.
final class BatchEndToEndTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = try Harness.temporaryFolder(self)
    }

    private func rooms(_ count: Int) throws -> [String] {
        try (1...count).map { try Harness.generatedRoom(in: folder, seed: UInt64(40 + $0), name: "scan-\($0).json") }
    }

    /// On a terminal each file's output is headed by its path (a `check` table of handles said
    /// nothing of its file); into a pipe the output is as the commands printed it.
    func testOnATerminalEachFilesOutputIsHeadedByItsPath() throws {
        let folder = try Harness.temporaryFolder(self)
        let first = try Harness.generatedRoom(in: folder, seed: 21, name: "first.json")
        let second = try Harness.generatedRoom(in: folder, seed: 22, name: "second.json")
        let shown = try Terminal.run(["-q", "--each", "--jobs", "2", "-c", "echo hello", first, second], columns: 200)
        XCTAssertNil(shown.problem, shown.out)
        for path in [first, second] {
            XCTAssertTrue(shown.out.contains("==> \(path) <==\r\nhello\r\n"), shown.out)
        }
        let piped = try Harness.run(["-q", "--each", "--jobs", "2", "-c", "echo hello", first, second])
        XCTAssertEqual(piped.stdout, "hello\nhello\n")
    }

    func testPathsFromStandardInputAndTheSummary() throws {
        let paths = try rooms(5)
        let fix = folder.appendingPathComponent("fix.wb").path
        try Data("label r1 kitchen\nsave\n".utf8).write(to: URL(fileURLWithPath: fix))
        let list = (paths + [folder.appendingPathComponent("missing.json").path]).joined(separator: "\n") + "\n"
        let result = try Harness.run(["--each", "--jobs", "3", "-f", fix, "--files-from", "-"], stdin: list)
        XCTAssertEqual(result.status, 1, "one path is missing")
        XCTAssertTrue(result.stderr.contains("wb: 6 files in "), result.stderr)
        XCTAssertTrue(result.stderr.contains(": 5 ok (5 changed, 0 unchanged), 1 failed"), result.stderr)
        XCTAssertTrue(result.stderr.contains("wb: failed: \(folder.path)/missing.json: no such file or directory"), result.stderr)
        XCTAssertFalse(result.stderr.contains("\r"), "no progress bar when standard error is not a terminal")
        for path in paths {
            let room = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
            XCTAssertEqual((room["sections"] as! [[String: Any]]).first?["label"] as? String, "kitchen")
        }
        // -q: the failures only.
        let quiet = try Harness.run(["--each", "-q", "-f", fix, "--files-from", "-"], stdin: list)
        XCTAssertEqual(quiet.status, 1)
        XCTAssertEqual(quiet.stderr.components(separatedBy: "\n").filter { !$0.isEmpty }.count, 2,
                       "the file's error and its line in the summary: \(quiet.stderr)")
        let clean = try Harness.run(["--each", "-q", "-f", fix] + paths)
        XCTAssertEqual(clean.status, 0, clean.stderr)
        XCTAssertEqual(clean.stderr, "")
    }

    /// A line of the list that is not UTF-8 is named as such, with its line number, and the
    /// rest of the list runs: it was reported as "no such file", under a name with the
    /// bytes replaced, which no file has.
    /// A script that saved and then failed: the file was written, and the batch said only
    /// "failed", so a rerun of the failed files applied the fix twice. Now its JSON line has
    /// `written` and its error says what a rerun would do.
    func testAFileFailedAfterItsSaveSaysItWasWritten() throws {
        let paths = try rooms(1)
        let result = try Harness.run(["--each", "--json", "-c", "move r1 1 0", "-c", "save", "-c", "ls rooms where widht > 1m", paths[0]])
        XCTAssertEqual(result.status, 1)
        let line = try XCTUnwrap(result.stdout.split(separator: "\n").first.map(String.init))
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        XCTAssertEqual(json["status"] as? String, "failed")
        XCTAssertEqual(json["written"] as? Int, 1)
        XCTAssertTrue((json["error"] as? String)?.contains("after writing 1 file: a rerun applies what it wrote again") == true, line)
    }

    /// One file named three ways is fixed once (it was moved once per spelling, and with
    /// --jobs as often as the timing fell); the repeats are reported as failed.
    /// One output path for every file (`save out/fixed.json`): each replaced the one before
    /// and the batch said "3 ok (3 changed)". The first writes it; the rest are refused, their
    /// files failed, and what the first wrote is still there.
    func testTwoFilesOfABatchDoNotWriteOnePath() throws {
        let paths = try rooms(3)
        let out = folder.appendingPathComponent("fixed.json").path
        for jobs in ["1", "3"] {
            try? FileManager.default.removeItem(atPath: out)
            let result = try Harness.run(["--each", "--jobs", jobs, "-q", "-c", "label r1 bedroom", "-c", "save \(out)"] + paths)
            XCTAssertEqual(result.status, 1, result.stderr)
            XCTAssertEqual(result.stderr.components(separatedBy: "of the batch wrote it already; give each file a path of its own").count - 1, 4,
                           "two refusals, each said and summed up: " + result.stderr)
            // Whichever file wrote it, it is that file, relabelled, whole.
            func firstWall(_ path: String) throws -> String? {
                let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
                return ((json?["walls"] as? [[String: Any]])?.first?["identifier"]) as? String
            }
            let identifier = try XCTUnwrap(try firstWall(out))
            XCTAssertTrue(try paths.contains { try firstWall($0) == identifier })
        }
        // A link in the output folder that leads to another file's output is that output.
        let out2 = folder.appendingPathComponent("out2")
        try FileManager.default.createDirectory(at: out2, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: out2.appendingPathComponent("room-2.json").path, withDestinationPath: "room-1.json")
        let viaLink = try Harness.run(["--each", "--jobs", "1", "-q", "-D", "o=\(out2.path)", "-c", "save \"$o/room-$FILE_INDEX.json\""]
                                      + Array(paths.prefix(2)))
        XCTAssertEqual(viaLink.status, 1, viaLink.stderr)
        XCTAssertTrue(viaLink.stderr.contains("path 1 of the batch wrote it already"), viaLink.stderr)
        // Another input of the batch is not written by a file that runs before it.
        let other = try Harness.run(["--each", "--jobs", "1", "-q", "-c", "save \(paths[2])"] + paths)
        XCTAssertEqual(other.status, 1, other.stderr)
        XCTAssertTrue(other.stderr.contains("it is path 3 of the batch"), other.stderr)
        // --dry-run refuses what the real run refuses.
        try? FileManager.default.removeItem(atPath: out)
        let dry = try Harness.run(["--each", "--jobs", "1", "-q", "--dry-run", "-c", "save \(out)"] + paths)
        XCTAssertEqual(dry.status, 1, dry.stderr)
        XCTAssertTrue(dry.stderr.contains("path 1 of the batch wrote it already"), dry.stderr)
        // A path of its own for each: all three written.
        let own = try Harness.run(["--each", "-q", "-D", "out=\(folder.path)", "-c", "save \"$out/$FILE_STEM-fixed.json\""] + paths)
        XCTAssertEqual(own.status, 0, own.stderr)
    }

    /// `find -print0` ends each path with a NUL: the whole list was taken as one path (the
    /// first file opened under a name with NULs in it, "1 file ... 1 ok").
    func testPathsEndedByNULs() throws {
        let paths = try rooms(3)
        let result = try Harness.run(["--each", "-q", "-c", "label r1 bedroom", "-c", "save", "--files-from", "-"],
                                     stdin: paths.joined(separator: "\u{0}") + "\u{0}")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.isEmpty, result.stderr)
        let summary = try Harness.run(["--each", "-c", "echo $FILE_NAME", "--files-from", "-"], stdin: paths.joined(separator: "\u{0}"))
        XCTAssertTrue(summary.stderr.contains("wb: 3 files in "), summary.stderr)
        XCTAssertEqual(summary.stdout.split(separator: "\n").map(String.init).sorted(), paths.map { URL(fileURLWithPath: $0).lastPathComponent }.sorted())
    }

    /// `--jobs` beyond any machine's cores, with the paths on a pipe (how many is not known
    /// ahead): `--jobs 9223372036854775807` trapped on an arithmetic overflow, and `--jobs
    /// 1000000` started a million threads for one file (33 s before the file ran).
    func testAJobCountBeyondAnyMachineNeitherTrapsNorStartsAThreadEach() throws {
        let path = try rooms(1)[0]
        for jobs in ["9223372036854775807", "1000000"] {
            let start = Date()
            let result = try Harness.run(["--each", "-q", "--jobs", jobs, "-c", "echo $FILE_NAME", "--files-from", "-"], stdin: path + "\n")
            XCTAssertEqual(result.status, 0, "--jobs \(jobs): \(result.stderr)")
            XCTAssertEqual(result.stdout, "scan-1.json\n", "--jobs \(jobs)")
            XCTAssertLessThan(Date().timeIntervalSince(start), 10, "--jobs \(jobs)")
        }
    }

    func testOneFileNamedTwiceIsFixedOnce() throws {
        let path = try rooms(1)[0]
        let name = URL(fileURLWithPath: path).lastPathComponent
        func x() throws -> Double {
            let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
            let walls = try XCTUnwrap(json["walls"] as? [[String: Any]])
            return try XCTUnwrap((walls[0]["transform"] as? [NSNumber])?[12].doubleValue)
        }
        let before = try x()
        for jobs in ["1", "3"] {
            let original = try Data(contentsOf: URL(fileURLWithPath: path))
            let result = try Harness.run(["--each", "--jobs", jobs, "-q", "-c", "move r1 1 0", "-c", "save", name, "./" + name, path],
                                         in: folder)
            XCTAssertEqual(result.status, 1, result.stderr)
            for repeated in ["./" + name, path] {
                XCTAssertTrue(result.stderr.contains("\(repeated) is the same file as path 1 of the batch: not run on it again"), result.stderr)
            }
            XCTAssertNotEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original)
        }
        // Moved twice in all (once a run), not six times.
        XCTAssertEqual(try x() - before, 2, accuracy: 1e-3)
    }

    func testAListLineThatIsNotUTF8IsSaidToBeOne() throws {
        let paths = try rooms(2)
        let list = folder.appendingPathComponent("list.txt")
        var bytes = Array((paths[0] + "\n\n").utf8)
        bytes += Array((folder.path + "/caf").utf8) + [0xE9] + Array(".json\n".utf8)
        bytes += Array((paths[1] + "\n").utf8)
        try Data(bytes).write(to: list)
        let result = try Harness.run(["--each", "--jobs", "1", "-c", "echo $FILE_NAME", "--files-from", list.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "scan-1.json\nscan-2.json\n", "the other paths run")
        XCTAssertTrue(result.stderr.contains("wb: --files-from \(list.path) line 3 (\(folder.path)/caf?.json) is not UTF-8: "
                                             + "wb takes file names as UTF-8"), result.stderr)
        XCTAssertFalse(result.stderr.contains("no such file"), result.stderr)
        XCTAssertTrue(result.stderr.contains("3 files in "), result.stderr)
    }

    func testEachFilesOutputComesOutWhole() throws {
        let paths = try rooms(8)
        // Many lines per file, written in pieces: interleaved output would mix the tags.
        var script = ""
        for line in 1...200 { script += "echo $FILE_INDEX line \(line)\n" }
        let fix = folder.appendingPathComponent("lines.wb").path
        try Data(script.utf8).write(to: URL(fileURLWithPath: fix))
        let result = try Harness.run(["--each", "--jobs", "4", "-q", "-f", fix] + paths)
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 8 * 200)
        for block in 0..<8 {
            let tags = Set(lines[(block * 200)..<((block + 1) * 200)].map { $0.split(separator: " ")[0] })
            XCTAssertEqual(tags.count, 1, "block \(block) holds one file's lines")
        }
    }

    /// On a terminal, standard error carries a progress bar, redrawn in place, and cleared
    /// before the summary.
    func testAProgressBarOnATerminal() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
            throw XCTSkip("python3 is needed to give wb a pseudo-terminal")
        }
        let paths = try rooms(3)
        let driver = """
            import os, pty, sys
            pid, fd = pty.fork()
            if pid == 0:
                os.execv(sys.argv[1], sys.argv[1:])
            out = b""
            while True:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                out += chunk
            os.waitpid(pid, 0)
            sys.stdout.write(out.decode("utf-8", "replace"))
            """
        let result = try Harness.run(["-c", driver, Harness.wb.path, "--each", "-c", "echo $FILE_INDEX"] + paths,
                                     executable: URL(fileURLWithPath: "/usr/bin/python3"))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("\r\u{1B}[K[########################] 3/3 files, 0 failed"), result.stdout)
        XCTAssertTrue(result.stdout.contains("files/s"), result.stdout)
        XCTAssertTrue(result.stdout.contains("\r\u{1B}[Kwb: 3 files in "), "cleared before the summary: \(result.stdout)")
        let quiet = try Harness.run(["-c", driver, Harness.wb.path, "--each", "-q", "-c", "echo $FILE_INDEX"] + paths,
                                    executable: URL(fileURLWithPath: "/usr/bin/python3"))
        XCTAssertFalse(quiet.stdout.contains("files/s"), "-q: no progress bar")
    }

    func testTheGNUParallelExampleOfTheReadme() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scripts/parallel-example.sh")
        let result = try Harness.run([script.path, Harness.wb.path, Harness.wbgen.path],
                                     executable: URL(fileURLWithPath: "/bin/bash"))
        if result.status == 77 {
            print("skipped: \(result.stderr)")
            throw XCTSkip(result.stderr)
        }
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("12 files in 4 shards under GNU parallel: each fixed once"), result.stdout)
    }
}
