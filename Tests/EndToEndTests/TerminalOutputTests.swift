import Foundation
import XCTest

/// What wb prints for a person at a terminal, seen through a pseudo-terminal: tables fitted
/// to its width, tab completion lists, the pager, colour; and what the same commands print
/// into a pipe (whole cells, no pager, no escape codes).
final class TerminalOutputTests: XCTestCase {
    var folder: URL!
    var home: String!

    override func setUpWithError() throws {
        folder = try Harness.temporaryFolder(self)
        let out = folder.appendingPathComponent("home")
        let generated = try Harness.run(["--rooms", "10", "--seed", "3", "--out", out.path], executable: Harness.wbgen)
        XCTAssertEqual(generated.status, 0, generated.stderr)
        home = out.appendingPathComponent("structure.json").path
    }

    /// Names with characters of every width: accents (one precomposed, one combining), ×
    /// and ², CJK and an emoji (two columns each).
    private func listings(_ extra: [String] = []) -> [String] {
        ["--no-pager", "-q", home, "-c", "name r1 \"Küche und Wohnzimmer mit Essplatz am Fenster e\u{301}\"",
         "-c", "name r2 \"客厅和餐厅 2×3 m² 🛋️ 长长的名字在这里继续 and a long tail of words\"",
         "-c", "ls objects", "-c", "ls rooms", "-c", "ls sections", "-c", "stats", "-c", "find objects where category = table",
         "-c", "ls walls", "-c", "quit --force"] + extra
    }

    func testTablesNeverWrapAtSixtyOrAHundredAndTwentyColumns() throws {
        for width in [60, 120] {
            for colour in ["1", nil] as [String?] {
                let run = try Terminal.run(listings(), environment: ["NO_COLOR": colour ?? ""], columns: width)
                XCTAssertNil(run.problem, run.out)
                XCTAssertEqual(run.status, 0, run.out)
                let long = run.lines.filter { Terminal.columns($0) > width }
                XCTAssertEqual(long, [], "no line wider than the terminal (\(width) columns, NO_COLOR=\(colour ?? "unset"))")
                XCTAssertTrue(run.lines.contains { $0.hasPrefix("o74") || $0.contains(" o74") || $0.hasSuffix("o74") },
                              "the last object is listed")
                XCTAssertTrue(run.out.contains("…"), "long cells are cut with …")
                XCTAssertFalse(run.out.contains("the long tail of words"), "the long name was cut")
                // stats' counts are wrapped with their words ("toilet" on one line, "1" on the next).
                XCTAssertEqual(run.lines.filter { $0.first?.isNumber == true }, [], "no line starts with a count cut from its word")
            }
        }
        let wide = try Terminal.run(listings(), columns: 120)
        XCTAssertTrue(wide.lines.contains { $0.hasPrefix("object  room") }, "at 120 columns objects fit as a table")
        XCTAssertTrue(wide.lines.contains { $0.hasPrefix("r2  ") && $0.contains("客厅和餐厅") && $0.contains("…") },
                      "the name is cut, the handle kept: \(wide.lines.filter { $0.hasPrefix("r2") })")
        let narrow = try Terminal.run(listings(), columns: 60)
        XCTAssertTrue(narrow.lines.contains("-[ RECORD 1 ]---------------------------"), "at 60 columns rows are expanded")
        XCTAssertTrue(narrow.lines.contains { $0.hasPrefix("object") && $0.hasSuffix(" o1") })

        // --wide and COLUMNS on a terminal; a pipe gets everything whole.
        let whole = try Terminal.run(["--no-pager", "-q", home, "-c", "ls objects --wide"], columns: 60)
        XCTAssertTrue(whole.lines.contains { $0.contains("TableShapeType=rectangular TableType=") && Terminal.columns($0) > 60 },
                      "--wide: whole cells however wide")
        let columns = try Terminal.run(["--no-pager", "-q", home, "-c", "ls objects"], environment: ["COLUMNS": "200"], columns: 60)
        XCTAssertTrue(columns.lines.contains { $0.hasPrefix("object  room") }, "COLUMNS=200 is the width, not the terminal's 60")
        let piped = try Harness.run(Array(listings().dropFirst()), environment: ["COLUMNS": "40"])
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertFalse(piped.stdout.contains("…"), "nothing is cut in a pipe")
        XCTAssertFalse(piped.stdout.contains("RECORD"), "nor expanded")
        XCTAssertTrue(piped.stdout.contains("客厅和餐厅 2×3 m² 🛋️ 长长的名字在这里继续 and a long tail of words"))
        XCTAssertTrue(piped.stdout.contains("Küche und Wohnzimmer mit Essplatz am Fenster e\u{301}"))
    }

    /// At 80 columns a column empty in every row (rooms' names, none given) gave no width to
    /// the others, which were cut instead, and attributes were cut to `ChairArmTy…`. Now the
    /// empty column is left out (and said), and attributes shorten to their values, the
    /// category's own type first, before anything is cut. A pipe and --json are unchanged.
    func testAtEightyColumnsEmptyColumnsGiveWayAndAttributesKeepTheirMeaning() throws {
        let chairs = try Harness.jsonArray(try Harness.run(["-q", "--json", home, "-c", "ls objects where category = chair"]).stdout)
        let chair = try XCTUnwrap(chairs.first { ($0["attributes"] as? [String: String])?["ChairType"] != "unidentified" })
        let handle = try XCTUnwrap(chair["handle"] as? String)
        let type = try XCTUnwrap((chair["attributes"] as? [String: String])?["ChairType"])
        let run = try Terminal.run(["--no-pager", "-q", home, "-c", "ls rooms", "-c", "ls objects"], columns: 80)
        XCTAssertEqual(run.status, 0, run.out)
        XCTAssertEqual(run.lines.filter { Terminal.columns($0) > 80 }, [])
        let header = try XCTUnwrap(run.lines.first { $0.hasPrefix("room  file") })
        XCTAssertFalse(header.contains(" name "), header)
        XCTAssertTrue(run.out.contains("(name left out, empty in every row"), run.out)
        XCTAssertTrue(run.lines.contains { $0.hasPrefix("r4 ") && $0.contains(" unidentified ") }, "labels whole: \(run.out)")
        let row = try XCTUnwrap(run.lines.first { $0.hasPrefix(handle + " ") })
        // (However narrow the column, its first letters are the chair's type.)
        XCTAssertTrue(row.contains("  \(type.prefix(4))"), row)
        XCTAssertFalse(run.out.contains("ChairArmTy"), run.out)
        // A pipe: every column, every cell whole.
        let piped = try Harness.run(["-q", home, "-c", "ls rooms", "-c", "ls objects"], environment: ["COLUMNS": "80"])
        XCTAssertTrue(piped.stdout.contains("room  file       story  labels        name  area m²"), piped.stdout)
        XCTAssertTrue(piped.stdout.contains("ChairArmType="), piped.stdout)
    }

    func testHandlesCompleteInNaturalOrderGroupedByKindWithRoomNames() throws {
        let run = try Terminal.run([home], columns: 100, prompt: "wb structure> ", steps: [
            .init("show o\t", "o74"),
            .init("\u{15}move r\t", "r10 ("),
            .init("\u{15}show \t", "objects:"),
            .init("\u{15}quit\r"),
        ])
        XCTAssertNil(run.problem, run.out)
        let lines = run.lines
        let objects = try XCTUnwrap(lines.first { $0.hasPrefix("o1 ") }, run.out)
        XCTAssertTrue(objects.hasPrefix("o1   o2   o3   o4   o5   o6   o7   o8   o9   o10  o11"), objects)
        let rooms = try XCTUnwrap(lines.first { $0.hasPrefix("r1 (") }, run.out)
        XCTAssertTrue(rooms.hasPrefix("r1 (livingRoom)    r2 (kitchen)"), "rooms with their labels, r2 before r10: \(rooms)")
        let groups = lines.filter { $0.hasSuffix(":") && !$0.contains(" ") }
        XCTAssertEqual(Array(groups.prefix(8)), ["rooms:", "sections:", "walls:", "doors:", "windows:", "openings:", "floors:", "objects:"])
    }

    /// A pager that records what it got, and says so on the terminal.
    private func stubPager() throws -> (command: String, record: URL) {
        let record = folder.appendingPathComponent("paged.txt")
        let script = folder.appendingPathComponent("pager.sh")
        try "#!/bin/sh\n{ echo '--- page'; cat; } >> \"$1\"\necho STUB-PAGER-DONE\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        return ("\(script.path) \(record.path)", record)
    }

    func testLongOutputGoesThroughThePagerOnlyWhenLongerThanTheScreen() throws {
        let (pager, record) = try stubPager()
        let run = try Terminal.run(["-q", home], environment: ["PAGER": pager], columns: 120, rows: 24, prompt: "wb structure> ",
                                   steps: [
                                       .init("ls objects\r", "STUB-PAGER-DONE"),
                                       .init("ls rooms\r", "r10 "),
                                       .init("pager off\r"),
                                       .init("ls objects\r", "o74 "),
                                       .init("quit\r"),
                                   ])
        XCTAssertNil(run.problem, run.out)
        XCTAssertEqual(run.status, 0)
        let paged = try String(contentsOf: record, encoding: .utf8)
        XCTAssertEqual(paged.components(separatedBy: "--- page\n").count, 2, "one page: ls rooms fits the screen; pager off")
        XCTAssertTrue(paged.contains("\no1 ") && paged.contains("\no74 "), "the pager got the whole listing")
        XCTAssertFalse(paged.contains("\nr1 "), "the short listing was not paged")
        XCTAssertEqual(run.lines.filter { $0.hasPrefix("o74 ") }.count, 1, "shown on the terminal once: after pager off")

        // --no-pager, and never into a pipe.
        try? FileManager.default.removeItem(at: record)
        let off = try Terminal.run(["-q", "--no-pager", home, "-c", "ls objects"], environment: ["PAGER": pager], columns: 120)
        XCTAssertTrue(off.lines.contains { $0.hasPrefix("o74 ") })
        let piped = try Harness.run(["-q", home, "-c", "ls objects"], environment: ["PAGER": pager])
        XCTAssertTrue(piped.stdout.contains("\no74 "))
        XCTAssertFalse(FileManager.default.fileExists(atPath: record.path), "no page with --no-pager nor into a pipe")

        // PAGER=cat shows it all, through cat.
        let cat = try Terminal.run(["-q", home, "-c", "ls objects"], environment: ["PAGER": "cat"], columns: 120)
        XCTAssertTrue(cat.lines.contains { $0.hasPrefix("o74 ") }, cat.out)
    }

    func testAPagerThatQuitsEarlyOrIsInterruptedLeavesTheShellWorking() throws {
        let early = try Terminal.run(["-q", home], environment: ["PAGER": "head -n 2"], columns: 120, prompt: "wb structure> ",
                                     steps: [
                                        .init("ls walls\r"),
                                        .init("echo alive\r", "\r\nalive\r\n"),
                                        .init("quit\r"),
                                     ])
        XCTAssertNil(early.problem, early.out)
        XCTAssertEqual(early.status, 0)
        XCTAssertFalse(early.lines.contains { $0.hasPrefix("w101") }, "the pager took two lines and quit")

        let stuck = try Terminal.run(["-q", home], environment: ["PAGER": "cat > /dev/null; echo PAGER-WAITING; sleep 60"],
                                     columns: 120, prompt: "wb structure> ",
                                     steps: [
                                        .init("ls walls\r", "PAGER-WAITING", thenPrompt: false),
                                        .init("\u{03}"),
                                        .init("echo alive\r", "\r\nalive\r\n"),
                                        .init("quit\r"),
                                     ])
        XCTAssertNil(stuck.problem, stuck.out)
        XCTAssertEqual(stuck.status, 0, "Ctrl-C ended the pager, not wb")

        let missing = try Terminal.run(["-q", home, "-c", "ls walls", "-c", "ls walls"], environment: ["PAGER": "no-such-pager-here"],
                                       columns: 120)
        XCTAssertEqual(missing.lines.filter { $0.hasPrefix("w101") }.count, 2, "a pager that cannot run: shown anyway")
        XCTAssertEqual(missing.out.components(separatedBy: "the pager (no-such-pager-here) was not found").count, 2, "said once")

        // A pager that fails (PAGER=false) swallowed the output without a word.
        let failing = try Terminal.run(["-q", home, "-c", "ls walls", "-c", "ls walls"], environment: ["PAGER": "false"], columns: 120)
        XCTAssertEqual(failing.lines.filter { $0.hasPrefix("w101") }.count, 2, "shown anyway: \(failing.out)")
        XCTAssertEqual(failing.out.components(separatedBy: "the pager (false) exited with status 1").count, 2, "said once")
    }

    func testColourOnATerminalOnly() throws {
        let commands: [String] = ["--no-pager", home!, "-c", "ls rooms", "-c", "name r1 Den", "-c", "bogus", "-i"]
        let steps: [Terminal.Step] = [.init("", "wb structure"), .init("quit --force\r")]
        let coloured = try Terminal.run(commands, environment: ["NO_COLOR": ""], columns: 120, steps: steps)
        XCTAssertTrue(coloured.out.contains("\u{1B}[1;36mr1\u{1B}[0m"), "handles emphasised")
        XCTAssertTrue(coloured.out.contains("\u{1B}[31merror:\u{1B}[0m"), "errors red")
        XCTAssertTrue(coloured.out.contains("wb structure\u{1B}[1;33m*\u{1B}[0m> "), "the unsaved * emphasised: \(coloured.out)")

        for environment in [["NO_COLOR": "1"], ["NO_COLOR": ""]] {
            let extra = environment["NO_COLOR"] == "1" ? [] : ["--color", "never"]
            let plain = try Terminal.run(extra + commands, environment: environment.mapValues { $0 }, columns: 120, steps: steps)
            XCTAssertTrue(plain.out.contains("wb structure*> "), plain.out)
            for code in ["\u{1B}[1;36m", "\u{1B}[31m", "\u{1B}[1;33m", "\u{1B}[0m"] {
                XCTAssertFalse(plain.out.contains(code), "no colour with \(environment) \(extra)")
            }
        }

        let piped = try Harness.run(["-q", home, "-c", "ls rooms", "-c", "bogus"], environment: ["TERM": "xterm"])
        XCTAssertFalse(piped.stdout.contains("\u{1B}") || piped.stderr.contains("\u{1B}"), "no escape codes into pipes")
        XCTAssertTrue(piped.stdout.contains("\nr1 "))
        let always = try Harness.run(["-q", "--color", "always", home, "-c", "ls rooms", "-c", "bogus"], environment: ["NO_COLOR": "1"])
        XCTAssertTrue(always.stdout.contains("\u{1B}[1;36mr1\u{1B}[0m"), "--color always colours a pipe")
        XCTAssertTrue(always.stderr.contains("\u{1B}[31merror:\u{1B}[0m"))
    }

    /// Under the C locale (containers, cron, CI often have no LANG), libedit cannot decode a
    /// prompt with a non-ASCII name and crashed at the first prompt (a file named "café").
    /// Now the prompt shows, non-ASCII input reaches the command, and wb leaves normally.
    func testANonASCIINameUnderTheCLocaleDoesNotCrashTheShell() throws {
        let folder = try Harness.temporaryFolder(self)
        let path = try Harness.generatedRoom(in: folder, name: "café.json")
        for environment: [String: String?] in [["LC_ALL": "C", "LANG": nil], ["LC_ALL": nil, "LANG": nil, "LC_CTYPE": "POSIX"]] {
            let run = try Terminal.run(["-q", path], environment: environment, columns: 100, prompt: "wb café> ",
                                       steps: [.init("echo hi café\r", "hi café\r\n"), .init("quit\r")])
            XCTAssertNil(run.problem, "\(environment): \(run.out)")
            XCTAssertEqual(run.status, 0, run.out)
            XCTAssertFalse(run.out.contains("crashed"), run.out)
        }
    }
}
