import Foundation
import XCTest

extension Harness {
    /// Runs wb like `run`, but stops it after `limit` seconds: a script that would hang (a
    /// quadratic lexer on a huge line, a stack that never unwinds) becomes a failure with
    /// what it printed so far, instead of a test suite that never ends. The limit is far
    /// above what the work takes; it is a guard, not a measurement.
    static func run(_ arguments: [String], stdin: String? = nil, killedAfter limit: TimeInterval) throws -> (Result, killed: Bool) {
        let process = Process()
        process.executableURL = wb
        process.arguments = arguments
        let input = Pipe(), output = Pipe(), error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        nonisolated(unsafe) var killed = false
        let deadline = DispatchWorkItem {
            if process.isRunning {
                killed = true
                process.terminate()
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: deadline)
        nonisolated(unsafe) var errorData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errorData = error.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        if let stdin {
            let bytes = Data(stdin.utf8)
            DispatchQueue.global().async {
                input.fileHandleForWriting.write(bytes)
                try? input.fileHandleForWriting.close()
            }
        } else {
            try input.fileHandleForWriting.close()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        deadline.cancel()
        return (Result(status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
                       stderr: String(decoding: errorData, as: UTF8.self)), killed)
    }
}

/// Scripts that are huge, deep or hostile: wb answers with a located error or does the
/// work, and never crashes, hangs or floods the terminal with control characters.
final class ShellRobustnessTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = try Harness.temporaryFolder(self)
    }

    private func script(_ name: String, _ text: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func script(_ name: String, bytes: [UInt8]) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    // MARK: Item 16: lexing is linear

    /// 50,000 commands on one line (about 400 kB) run in order. Lexing used to split the whole
    /// line again for every command: 8,000 took 42 s in a debug build, so 50,000 would take
    /// about half an hour; now it is a second or two.
    func testFiftyThousandCommandsOnOneLineRun() throws {
        let count = 50_000
        let line = (1...count).map { "echo \($0)" }.joined(separator: ";") + "\n"
        let (result, killed) = try Harness.run([], stdin: line, killedAfter: 300)
        XCTAssertFalse(killed, "50,000 commands on one line did not finish")
        XCTAssertEqual(result.status, 0, String(result.stderr.prefix(500)))
        let printed = result.stdout.split(separator: "\n")
        XCTAssertEqual(printed.count, count)
        XCTAssertEqual(printed.first, "1")
        XCTAssertEqual(printed.last, "50000")
        XCTAssertEqual(printed[12_344], "12345")
    }

    /// 200,000 lines joined by trailing backslashes into one command. Each continued line
    /// used to copy everything joined so far (30,000 took 22 s in a debug build).
    func testTwoHundredThousandContinuedLinesAreOneCommand() throws {
        let count = 200_000
        let text = "echo \\\n" + (1...count).map { _ in "w \\\n" }.joined() + "end\necho after\n"
        let path = try script("continued.wb", text)
        let (result, killed) = try Harness.run(["-f", path], killedAfter: 300)
        XCTAssertFalse(killed, "200,000 continued lines did not finish")
        XCTAssertEqual(result.status, 0, String(result.stderr.prefix(500)))
        XCTAssertEqual(result.stdout, String(repeating: "w ", count: count) + "end\nafter\n")
    }

    /// An error on a continuation line shows that line under the caret, not the first one.
    func testAnErrorOnAContinuationLineShowsThatLine() throws {
        let path = try script("fix.wb", "echo one \\\n  two; summary \\\n  nosuch\n")
        let result = try Harness.run(["-f", path])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, """
            wb: \(path):3:3: error: no open file is called 'nosuch' (nothing is open)
                  nosuch
                  ^

            """)
    }

    // MARK: Item 12: deep and long expressions, deep sources

    func testTwentyThousandNestedParenthesesAreALocatedError() throws {
        let room = try Harness.generatedRoom(in: folder)
        let depth = 20_000
        let line = "find walls where " + String(repeating: "(", count: depth) + "story = 0" + String(repeating: ")", count: depth)
        let path = try script("deep.wb", "echo before\n" + line + "\necho not reached\n")
        let result = try Harness.run(["-q", room, "-f", path])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "before\n")
        // "find walls where " is 17 characters: the 101st "(" is at column 17 + 101.
        XCTAssertTrue(result.stderr.hasPrefix("wb: \(path):2:118: error: parentheses nest too deeply (more than 100 levels)\n"),
                      String(result.stderr.prefix(300)))
    }

    func testNinetyThousandOrTermsWork() throws {
        let room = try Harness.generatedRoom(in: folder)
        let terms = Array(repeating: "story=9", count: 89_999) + ["story=0"]
        let path = try script("long.wb", "ls walls where " + terms.joined(separator: " or ") + "\n")
        let result = try Harness.run(["-q", room, "-f", path])
        XCTAssertEqual(result.status, 0, String(result.stderr.prefix(300)))
        let all = try Harness.run(["-q", room, "-c", "ls walls"])
        XCTAssertEqual(result.stdout, all.stdout, "the last term matches every wall")
        XCTAssertGreaterThan(all.stdout.split(separator: "\n").count, 2)
    }

    /// 5,000 scripts each sourcing the next: the first 64 run, the 64th's source is refused
    /// where it is written, and every level stops.
    func testFiveThousandNestedSourcesStopAtALocatedError() throws {
        let count = 5_000
        for level in 1...count {
            _ = try script("s\(level).wb", "echo \(level)\nsource \(folder.appendingPathComponent("s\(level + 1).wb").path)\necho back \(level)\n")
        }
        let first = folder.appendingPathComponent("s1.wb").path
        let result = try Harness.run(["-f", first])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, (1...64).map { "\($0)\n" }.joined())
        let deepest = folder.appendingPathComponent("s64.wb").path
        let next = folder.appendingPathComponent("s65.wb").path
        XCTAssertEqual(result.stderr.split(separator: "\n").first.map(String.init),
                       "wb: \(deepest):2:8: error: scripts nest too deeply: source runs at most 64 levels deep "
                       + "(here it would run \(next) as level 65)")
        // Inside a session (no -f level), the same limit holds.
        let sourced = try Harness.run(["-c", "source \(first)"])
        XCTAssertEqual(sourced.status, 1)
        XCTAssertEqual(sourced.stdout, (1...64).map { "\($0)\n" }.joined())
    }

    // MARK: Item 15: sizes

    /// Doubling a variable forty times would need a terabyte; it stops with an error at the
    /// doubling that would pass 1 MiB, and the commands before it ran.
    func testADoublingVariableStopsAtOneMebibyte() throws {
        let lines = ["define x a"] + Array(repeating: #"define x "$x$x""#, count: 40) + ["echo never"]
        let path = try script("double.wb", lines.joined(separator: "\n") + "\n")
        let (result, killed) = try Harness.run(["-f", path], killedAfter: 120)
        XCTAssertFalse(killed)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "")
        // x holds 2^19 bytes after line 20; line 21's second $x would make 7 + 2^20 bytes.
        XCTAssertEqual(result.stderr.split(separator: "\n").first.map(String.init),
                       "wb: \(path):21:13: error: $x would make this command 1048583 bytes long; "
                       + "a command may be at most 1 MiB (1,048,576 bytes)")
        // Just under the limit is fine: "define", "x" and the value make 2^20 - 1 bytes.
        let fits = try script("fits.wb", "define x \(String(repeating: "y", count: (1 << 19) - 4))\ndefine x $x$x\necho ${x}\n")
        let fitting = try Harness.run(["-f", fits])
        XCTAssertEqual(fitting.status, 0, String(fitting.stderr.prefix(300)))
        XCTAssertEqual(fitting.stdout.utf8.count, (1 << 20) - 8 + 1)
    }

    func testALineLongerThanOneMebibyteIsRefused() throws {
        let long = try script("long.wb", "echo first\necho " + String(repeating: "z", count: 1 << 20) + "\n")
        let result = try Harness.run(["-f", long])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "wb: \(long):2:1: error: this line is longer than 1 MiB (1,048,576 bytes), "
                       + "the most a script line may be\n")
        let pieces = (1...3).map { _ in "echo " + String(repeating: "z", count: 400_000) + " \\" }.joined(separator: "\n")
        let joined = try script("joined.wb", "echo first\n" + pieces + "\nend\n")
        let joinedResult = try Harness.run(["-f", joined])
        XCTAssertEqual(joinedResult.status, 1)
        XCTAssertEqual(joinedResult.stderr, "wb: \(joined):4:1: error: this line is longer than 1 MiB (1,048,576 bytes), "
                       + "the most a script line may be (with the lines it continues, from line 2)\n")
    }

    // MARK: Item 22: BOMs, NULs, and set's spelling

    func testAByteOrderMarkStartsAScriptHarmlessly() throws {
        let text = Array("echo one\necho two\n".utf8)
        let path = try script("bom.wb", bytes: [0xEF, 0xBB, 0xBF] + text)
        let result = try Harness.run(["-f", path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "one\ntwo\n")
        let sourced = try Harness.run(["-c", "source \(path)"])
        XCTAssertEqual(sourced.status, 0, sourced.stderr)
        XCTAssertEqual(sourced.stdout, "one\ntwo\n")
        let piped = try Harness.run([], stdin: "\u{FEFF}echo piped\n")
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertEqual(piped.stdout, "piped\n")
        // Only at the start: elsewhere it is an ordinary character of a word.
        let inside = try Harness.run([], stdin: "echo a\n\u{FEFF}echo b\n")
        XCTAssertEqual(inside.status, 1)
        XCTAssertTrue(inside.stderr.hasPrefix("wb: -:2:1: error: unknown command"), inside.stderr)
    }

    /// A NUL byte is refused at its place whether the script comes from a file or a pipe,
    /// and nothing of it runs; so are bytes that are not UTF-8.
    func testBinaryScriptsAreRefusedTheSameFromFilesAndStandardInput() throws {
        let bytes = Array("echo one\necho t".utf8) + [0] + Array("wo\n".utf8)
        let path = try script("nul.wb", bytes: bytes)
        let file = try Harness.run(["-f", path])
        XCTAssertEqual(file.status, 2)
        XCTAssertEqual(file.stdout, "")
        XCTAssertEqual(file.stderr, "wb: \(path):2:7: error: not a script: it holds binary data (a NUL byte)\n")
        let piped = try Harness.run([], stdin: String(decoding: bytes, as: UTF8.self))
        XCTAssertEqual(piped.status, 1)
        XCTAssertEqual(piped.stdout, "", "nothing of a binary script runs")
        XCTAssertEqual(piped.stderr, "wb: -:2:7: error: not a script: it holds binary data (a NUL byte)\n")

        let latin1 = try script("latin1.wb", bytes: Array("echo caf".utf8) + [0xE9] + Array("\n".utf8))
        let notUTF8 = try Harness.run(["-f", latin1])
        XCTAssertEqual(notUTF8.status, 2)
        XCTAssertEqual(notUTF8.stderr, "wb: \(latin1):1:9: error: not a script: it is not UTF-8 text (the byte 0xE9)\n")
    }

    func testSetReadsValuesWithoutRegardToCaseAsQueriesDo() throws {
        let room = try Harness.generatedRoom(in: folder)
        func shown(_ commands: String, _ handle: String) throws -> [String: Any] {
            let result = try Harness.run(["-q", "--json", room, "-c", commands + "; show " + handle])
            XCTAssertEqual(result.status, 0, result.stderr)
            return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stdout)
        }
        XCTAssertEqual(try shown("set w1 confidence HIGH", "w1")["confidence"] as? String, "high")
        XCTAssertEqual(try shown("set w1 confidence Low", "w1")["confidence"] as? String, "low")
        // The file gets RoomPlan's own spelling, whatever was typed.
        let table = try shown("set o2 TableType DINING", "o2")
        XCTAssertEqual((table["attributes"] as? [String: Any])?["TableType"] as? String, "dining")
        XCTAssertEqual(try shown("set o2 category CHAIR", "o2")["category"] as? String, "chair")
        let bad = try Harness.run(["-q", room, "-c", "set w1 confidence sure"])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("confidence is high, medium or low, not 'sure'"), bad.stderr)
    }

    // MARK: Item 21: control characters from files

    private let hostile = "\u{1b}]0;PWN\u{07}\u{1b}[2J"
    private let shown = #"\u{1B}]0;PWN\u{7}\u{1B}[2J"#

    /// Whether `text` holds a control character other than a line break or a tab.
    private func hasRawControls(_ text: String) -> Bool {
        text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value) }
    }

    /// A room whose file name, section label, object attribute and an identifier carry
    /// escape sequences.
    private func hostileRoom() throws -> String {
        let plain = try Harness.generatedRoom(in: folder)
        var room = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: plain))) as? [String: Any])
        var sections = try XCTUnwrap(room["sections"] as? [[String: Any]])
        sections[0]["label"] = "living" + hostile
        room["sections"] = sections
        var objects = try XCTUnwrap(room["objects"] as? [[String: Any]])
        var attributes = objects[0]["attributes"] as? [String: Any] ?? [:]
        attributes["SofaType"] = hostile
        objects[0]["attributes"] = attributes
        objects[0]["category"] = ["sofa": [String: Any]()]
        room["objects"] = objects
        let path = folder.appendingPathComponent("evil\u{1b}[2J.json").path
        try JSONSerialization.data(withJSONObject: room).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testControlCharactersFromAFileAreShownEscaped() throws {
        let path = try hostileRoom()
        let commands = "summary; ls; ls sections; ls objects; show o1; show s1; stats; plan; check; history; "
            + "find objects where SofaType ~ PWN; name r1 \"x\\ty\"; ls; name o1 q"
        let result = try Harness.run(["-k", path, "-c", commands])
        XCTAssertFalse(hasRawControls(result.stdout), result.stdout)
        XCTAssertFalse(hasRawControls(result.stderr), result.stderr)
        XCTAssertTrue(result.stdout.contains("SofaType=" + shown), result.stdout)
        XCTAssertTrue(result.stdout.contains("living" + shown), result.stdout)
        XCTAssertTrue(result.stdout.contains(#"evil\u{1B}[2J.json"#), result.stdout)
        XCTAssertTrue(result.stdout.contains(#"x\ty"#), "a name's tab is shown, not a column break")

        // JSON carries the text itself, escaped as JSON escapes it.
        let json = try Harness.run(["-q", "--json", path, "-c", "ls objects"])
        XCTAssertFalse(hasRawControls(json.stdout))
        let rows = try Harness.jsonArray(json.stdout)
        XCTAssertEqual((rows[0]["attributes"] as? [String: Any])?["SofaType"] as? String, hostile)
    }

    /// A right-to-left override in a name would make `r1 evil` read `r1 live` on screen (and a
    /// path or handle look like another): shown as an escape, in tables and messages alike.
    func testBidiMarksInANameAreShownEscaped() throws {
        let path = try hostileRoom()
        let result = try Harness.run(["-q", path, "-c", "name r1 \"ab\u{202E}cd\u{2066}\"; ls; show r1"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stdout.unicodeScalars.contains { $0.value == 0x202E || $0.value == 0x2066 }, result.stdout)
        XCTAssertTrue(result.stdout.contains(#"ab\u{202E}cd\u{2066}"#), result.stdout)
    }

    func testARejectedFilesCaretLineIsShownEscaped() throws {
        // A raw control character inside a JSON string is itself the error.
        let path = try script("bad.json", "{\n  \"name\" : \"" + hostile + "\", \"version\" : 2\n}\n")
        let result = try Harness.run([path])
        XCTAssertEqual(result.status, 1)
        XCTAssertFalse(hasRawControls(result.stderr), result.stderr)
        XCTAssertEqual(result.stderr, """
            wb: \(path):2:13: error: a control character must be escaped in a string (at name)
                  "name" : "\(shown)", "version" : 2
                            ^

            """)
    }

    /// The caret moves along by the width of the escapes before it.
    func testACaretAfterControlCharactersStandsUnderItsWord() throws {
        let typed = try Harness.run(["-c", "echo \u{1b}[2J\u{07}; bogus"])
        XCTAssertEqual(typed.status, 1)
        XCTAssertEqual(typed.stdout, #"\u{1B}[2J\u{7}"# + "\n")
        XCTAssertEqual(typed.stderr, #"""
            wb: -c:1:13: error: unknown command 'bogus' (type 'help' for the list)
                echo \u{1B}[2J\u{7}; bogus
                                     ^

            """#)
    }
}
