import Foundation
#if canImport(Glibc)
import Glibc
#endif
import XCTest

/// The built wb run on scripts, -c and pipes: stdout, stderr (file:line:column) and exit status.
final class ScriptTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = try Harness.temporaryFolder(self)
    }

    private func script(_ name: String, _ text: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A script from a pipe (`wb -f <(generate)`, as psql and bash take one) runs; a FIFO
    /// nothing writes to is an empty script, not a wait; a device is still refused.
    func testAScriptFromAPipeRunsAndAFIFOWithoutAWriterDoesNotWait() throws {
        guard FileManager.default.isExecutableFile(atPath: "/bin/bash") else { throw XCTSkip("bash is needed for <(…)") }
        let wb = Harness.wb.path
        let piped = try Harness.run(["-c", "'\(wb)' -q -f <(printf 'echo from a pipe\\n')"], executable: URL(fileURLWithPath: "/bin/bash"))
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertEqual(piped.stdout, "from a pipe\n")
        let folder = try Harness.temporaryFolder(self)
        let fifo = folder.appendingPathComponent("fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let waiting = try Harness.run(["-q", "-f", fifo])
        XCTAssertEqual(waiting.status, 0, waiting.stderr)
        let device = try Harness.run(["-q", "-f", "/dev/zero"])
        XCTAssertEqual(device.status, 2)
        XCTAssertTrue(device.stderr.contains("is not a regular file"), device.stderr)
    }

    /// A `-f` script that sources itself (or a cycle through it) is refused at once: kept on
    /// the stack as typed, it ran twice before the cycle was seen, its edits twice over (an
    /// adversarial pass).
    func testAnFScriptThatSourcesItselfRunsOnce() throws {
        let room = try Harness.generatedRoom(in: folder)
        _ = try script("self.wb", "move r1 1 0\nsource self.wb\n")
        _ = try script("a.wb", "move r1 1 0\nsource b.wb\n")
        _ = try script("b.wb", "source a.wb\n")
        // (Named as typed, from the script's folder.)
        for path in ["self.wb", "a.wb"] {
            let result = try Harness.run(["-f", path, room], in: folder)
            XCTAssertEqual(result.status, 1, result.stderr)
            XCTAssertTrue(result.stderr.contains("is already being run (a source cycle"), result.stderr)
            XCTAssertEqual(result.stderr.components(separatedBy: "r1 moved by").count - 1 + result.stdout.components(separatedBy: "r1 moved by").count - 1,
                           1, "moved once: \(result.stdout)\(result.stderr)")
        }
    }

    func testCommandsAndFilesRunInOrder() throws {
        let fix = try script("fix.wb", "echo from-file $who\n")
        let result = try Harness.run(["-D", "who=ann", "-c", "echo first", "-f", fix, "-c", "echo last; echo $who"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "first\nfrom-file ann\nlast\nann\n")
        XCTAssertEqual(result.stderr, "")
    }

    func testAFailingScriptStopsWithItsLocationAndExitsOne() throws {
        let fix = try script("fix.wb", "echo one\n\n  summary nosuch\necho not reached\n")
        let result = try Harness.run(["-f", fix])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "one\n")
        XCTAssertEqual(result.stderr, """
            wb: \(fix):3:11: error: no open file is called 'nosuch' (nothing is open)
                  summary nosuch
                          ^

            """)
    }

    func testKeepGoingReportsEveryErrorAndStillExitsOne() throws {
        let fix = try script("fix.wb", "frobnicate\necho two\nhelp nosuch\necho four\n")
        let result = try Harness.run(["-k", "-f", fix])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "two\nfour\n")
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("wb: ") }.map(String.init)
        XCTAssertEqual(errors, ["wb: \(fix):1:1: error: unknown command 'frobnicate' (type 'help' for the list)",
                                "wb: \(fix):3:6: error: unknown command 'nosuch' (type 'help' for the list)"])
    }

    func testStandardInputIsAScriptWhenItIsNotATerminal() throws {
        let result = try Harness.run([], stdin: "echo piped\n# comment\necho \"two words\"\n")
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stdout, "piped\ntwo words\n")
        let failing = try Harness.run([], stdin: "echo a\nbogus\n")
        XCTAssertEqual(failing.status, 1)
        XCTAssertTrue(failing.stderr.hasPrefix("wb: -:2:1: error: unknown command 'bogus'"), failing.stderr)
    }

    func testDashCErrorsNameDashC() throws {
        let result = try Harness.run(["-c", "echo ok; echo 'unclosed"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "", "a line with a lexical error runs none of its commands")
        XCTAssertEqual(result.stderr, "wb: -c:1:15: error: a quote (') that is never closed\n    echo ok; echo 'unclosed\n                  ^\n")
    }

    func testEchoAndInteractiveAfterScripts() throws {
        let echoed = try Harness.run(["-x", "-c", "echo a; echo b"])
        XCTAssertEqual(echoed.stdout, "a\nb\n")
        XCTAssertEqual(echoed.stderr, "+ echo a\n+ echo b\n")
        let more = try Harness.run(["-i", "-c", "echo from-c"], stdin: "echo from-stdin\n")
        XCTAssertEqual(more.stdout, "from-c\nfrom-stdin\n", "-i goes on reading commands after -c")
    }

    func testContinuationAtEndOfFileAndUndefinedVariable() throws {
        let cont = try script("cont.wb", "echo a \\")
        let result = try Harness.run(["-f", cont])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.hasPrefix("wb: \(cont):1:8: error: the line continues"), result.stderr)
        let undefined = try Harness.run(["-c", "echo $outdir"])
        XCTAssertEqual(undefined.status, 1)
        XCTAssertEqual(undefined.stderr.split(separator: "\n").first.map(String.init),
                       "wb: -c:1:6: error: $outdir is not defined (define one with -D outdir=VALUE or 'define outdir VALUE')")
    }

    func testBadScriptFilesAreBadInvocations() throws {
        let binary = folder.appendingPathComponent("garbage.wb").path
        try Data([0x7F, 0x45, 0x4C, 0x46, 0x00, 0x01, 0xFF, 0xFE]).write(to: URL(fileURLWithPath: binary))
        let garbage = try Harness.run(["-f", binary])
        XCTAssertEqual(garbage.status, 2)
        XCTAssertEqual(garbage.stderr, "wb: \(binary):1:5: error: not a script: it holds binary data (a NUL byte)\n")
        let folderScript = try Harness.run(["-f", folder.path])
        XCTAssertEqual(folderScript.status, 2)
        XCTAssertEqual(folderScript.stderr, "wb: cannot read script \(folder.path): is a folder, not a file\n")
        // Inside a session, the same problems are ordinary command errors.
        let sourced = try Harness.run(["-c", "source \(binary)"])
        XCTAssertEqual(sourced.status, 1)
        XCTAssertEqual(sourced.stderr, "wb: \(binary):1:5: error: not a script: it holds binary data (a NUL byte)\n")
    }

    func testHugeLinesAndLongScriptsWork() throws {
        let word = String(repeating: "w", count: 1_000_000)
        let long = try script("long-line.wb", "echo \(word)\n")
        let result = try Harness.run(["-f", long])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stdout.count, 1_000_001)

        let lines = (1...100_000).map { "define n\($0 % 7) \($0)" }.joined(separator: "\n") + "\necho $n3\nbad\n"
        let big = try script("big.wb", lines)
        let started = Date()
        let bigResult = try Harness.run(["-f", big])
        XCTAssertEqual(bigResult.stdout, "99998\n")
        XCTAssertTrue(bigResult.stderr.hasPrefix("wb: \(big):100002:1: error: unknown command 'bad'"), bigResult.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 60, "a 100,000-line script must not hang")
    }

    func testUnsavedChangesAtTheEndOfABatchRunAreMentioned() throws {
        // Nothing edits yet without the editing commands; a clean session says nothing.
        let room = try Harness.generatedRoom(in: folder)
        let result = try Harness.run(["-q", room, "-c", "summary"])
        XCTAssertEqual(result.status, 0)
        XCTAssertFalse(result.stderr.contains("unsaved"))
    }
}
