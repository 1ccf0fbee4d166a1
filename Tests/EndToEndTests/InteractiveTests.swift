import Foundation
import XCTest

/// Drives the interactive shell through a pseudo-terminal (`Terminal`), as a person at a
/// keyboard would: line editing keys, tab completion, Ctrl-C, Ctrl-D, and the history file
/// across two sessions.
final class InteractiveTests: XCTestCase {
    func testLineEditingCompletionAndHistory() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
            throw XCTSkip("python3 is needed to drive a pseudo-terminal")
        }
        let folder = try Harness.temporaryFolder(self)
        let room = try Harness.generatedRoom(in: folder)
        let history = folder.appendingPathComponent("history").path
        let environment = ["WB_HISTORY": history, "HOME": folder.path]
        let firstRun = try Terminal.run([room], environment: environment, prompt: "wb room> ", steps: [
            .init("sum\t", "mary"),                      // complete a command name (redrawn as "sum" + "mary")
            .init("\r", "floor area"),
            // Each step waits for the command's own output line (not the terminal's echo of
            // what was typed) so that the next keys reach a waiting prompt.
            .init("echo helo\u{1B}[Dl\r", "\r\nhello\r\n"),   // Left arrow, insert a letter
            .init("world\u{01}echo \r", "\r\nworld\r\n"),     // Ctrl-A: to the start of the line
            .init("echo abandoned"),
            .init("\u{03}", "^C\r\n"),                          // Ctrl-C abandons the line
            .init("echo after\r", "\r\nafter\r\n"),
            .init("help sav\t"),                               // complete an argument from the table
            .init("\r", "usage: save"),
            .init("\u{04}"),                                   // Ctrl-D on an empty line leaves
        ])
        let secondRun = try Terminal.run([room], environment: environment, prompt: "wb room> ", steps: [
            .init("\u{1B}[A\r", "usage: save"),          // Up arrow: the last command of the last session
            .init("quit\r"),
        ])
        let first = firstRun.out, second = secondRun.out
        XCTAssertNil(firstRun.problem, first)
        XCTAssertNil(secondRun.problem, second)
        XCTAssertEqual(firstRun.status, 0)
        XCTAssertEqual(secondRun.status, 0)

        XCTAssertTrue(first.contains("wb \(try Harness.run(["--version"]).stdout.dropFirst(3).trimmingCharacters(in: .whitespacesAndNewlines))"),
                      "banner with the version")
        XCTAssertTrue(first.contains("mary"), "tab completed 'sum' to 'summary'")
        XCTAssertTrue(first.contains("floor area"), "the completed command ran")
        XCTAssertTrue(first.contains("\r\nhello\r\n"), "Left arrow moved the cursor back one letter")
        XCTAssertTrue(first.contains("\r\nworld\r\n"), "Ctrl-A moved to the start of the line")
        XCTAssertFalse(first.contains("\r\nabandoned\r\n"), "Ctrl-C abandoned the line")
        XCTAssertTrue(first.contains("usage: save"), "argument completion")

        let saved = (try? String(contentsOfFile: history, encoding: .utf8)) ?? ""
        XCTAssertTrue(saved.contains("echo\\040hello"), saved)
        XCTAssertTrue(saved.contains("echo\\040after"), saved)
        XCTAssertFalse(saved.contains("abandoned"), "an abandoned line is not history")
        XCTAssertTrue(second.contains("usage: save"), "Up arrow recalled the last session's command (help save)")
    }

    /// A file name with a blank or a quote is completed as the line must read it: it went in
    /// as it is, and `open my scan.json` opened "my" ("no such file").
    func testAFileNameWithABlankOrAQuoteIsCompletedSoTheLineReadsIt() throws {
        let folder = try Harness.temporaryFolder(self)
        let room = try Harness.generatedRoom(in: folder)
        try FileManager.default.copyItem(atPath: room, toPath: folder.appendingPathComponent("my scan.json").path)
        try FileManager.default.copyItem(atPath: room, toPath: folder.appendingPathComponent("it's.json").path)
        let run = try Terminal.run([], prompt: "> ", steps: [
            .init("open \(folder.path)/my\t"),
            .init("\r", "floor area"),
            .init("open \"\(folder.path)/it\t"),
            .init("\r", "floor area"),
            .init("quit --force\r"),
        ])
        XCTAssertNil(run.problem, run.out)
        let out = Terminal.plain(run.out)
        XCTAssertFalse(out.contains("error"), out)
        XCTAssertTrue(out.contains("my scan  CapturedRoom"), out)
        XCTAssertTrue(out.contains("it's  CapturedRoom"), out)
    }
}
