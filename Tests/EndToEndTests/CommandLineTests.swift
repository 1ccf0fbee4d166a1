import Foundation
import XCTest

/// wb's command line as COMMANDS.md fixes it, parsed by one declaration: every flag, the
/// order of -c and -f, exit statuses; and what that declaration also writes: --help, the
/// completion scripts and the man page.
final class CommandLineTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = try Harness.temporaryFolder(self)
    }

    private func script(_ name: String, _ text: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A file name that is not UTF-8 is said to be so (exit 2), not looked for under the
    /// repaired name Swift would hand over ("no such file or directory").
    /// `history` and `diff` give JSON with `--json` (they printed their text).
    func testHistoryAndDiffGiveJSON() throws {
        let folder = try Harness.temporaryFolder(self)
        let room = try Harness.generatedRoom(in: folder)
        let none = try Harness.run(["-q", room, "-c", "history --json"])
        XCTAssertEqual(try Harness.jsonArray(none.stdout).count, 0, none.stdout)
        let result = try Harness.run(["-q", room, "-c", "name r1 Den", "-c", "move r1 1 0", "-c", "undo", "-c", "history --json"])
        let steps = try Harness.jsonArray(result.stdout)
        XCTAssertEqual(steps.map { $0["command"] as? String }, ["name r1 Den", "move r1 1 0"])
        XCTAssertEqual(steps.map { $0["undone"] as? Bool }, [false, true])
        XCTAssertEqual(steps.map { $0["step"] as? Int }, [1, 2])
        let diff = try Harness.run(["-q", room, "-c", "name r1 Den", "-c", "move r1 1 0", "-c", "diff --json"])
        let changes = try Harness.jsonArray(diff.stdout)
        XCTAssertTrue(changes.contains { $0["element"] as? String == "r1" && ($0["change"] as? String)?.contains("\"Den\"") == true }, diff.stdout)
        XCTAssertTrue(changes.contains { ($0["element"] as? String)?.hasPrefix("w") == true }, "the moved walls: \(diff.stdout)")
        XCTAssertTrue(changes.allSatisfy { $0["file"] as? String == "room" })
        // A merge result is new, not unreadable: the other files' changes are still listed.
        let merged = try Harness.run(["-q", room, "-c", "move r1 1 0", "-c", "merge --into m", "-c", "diff --json"])
        XCTAssertEqual(merged.status, 0, merged.stderr)
        let listed = try Harness.jsonArray(merged.stdout)
        XCTAssertTrue(listed.contains { $0["file"] as? String == "room" && ($0["element"] as? String)?.hasPrefix("w") == true }, merged.stdout)
        XCTAssertTrue(listed.contains { $0["file"] as? String == "m" && ($0["change"] as? String)?.hasPrefix("new, not saved yet") == true },
                      merged.stdout)
    }

    func testAnArgumentThatIsNotUTF8IsSaidToBeSo() throws {
        guard FileManager.default.isExecutableFile(atPath: "/bin/bash") else { throw XCTSkip("bash is needed to pass a non-UTF-8 argument") }
        let result = try Harness.run(["-c", "'\(Harness.wb.path)' -q $'bad\\xffname.json' -c ls"], executable: URL(fileURLWithPath: "/bin/bash"))
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("argument 2 (bad?name.json) is not UTF-8"), result.stderr)
        XCTAssertFalse(result.stderr.contains("no such file"), result.stderr)
    }

    func testCommandsAndFilesRunInTheOrderGivenHoweverSpelled() throws {
        let a = try script("a.wb", "echo a\n")
        let b = try script("b.wb", "echo b\n")
        let run = try Harness.run(["-c", "echo X", "-f", a, "-c", "echo Y", "--file", b, "--command=echo Z", "-cecho joined",
                                   "-f\(a)", "--file=\(b)", "-qc", "echo grouped", "-f", "-", "-c", "echo last"], stdin: "echo stdin\n")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "X\na\nY\nb\nZ\njoined\na\nb\ngrouped\nstdin\nlast\n")
        // A command's text is taken as it is, even when it looks like a flag.
        let flagLike = try Harness.run(["-c", "-f", "-f", a])
        XCTAssertEqual(flagLike.status, 1)
        XCTAssertTrue(flagLike.stderr.hasPrefix("wb: -c:1:1: error: unknown command '-f'"), flagLike.stderr)
        XCTAssertEqual(flagLike.stdout, "", "the first command failed: the file did not run")
    }

    func testDefinesFlagsAndPathsAfterDoubleDash() throws {
        let defined = try Harness.run(["-D", "who=ann", "--define", "n=2", "-Dtext=a=b c", "--define=empty=", "-c", "echo $who $n $text [$empty]"])
        XCTAssertEqual(defined.stdout, "ann 2 a=b c []\n", defined.stderr)
        let bad = try Harness.run(["-D", "1x=2", "-c", "echo"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertEqual(bad.stderr, "wb: -D needs NAME=VALUE, got '1x=2' (see wb --help)\n")

        // A path that looks like a flag, after --.
        let room = try Harness.generatedRoom(in: folder, name: "-odd.json")
        XCTAssertTrue(room.hasSuffix("/-odd.json"))
        let odd = try Harness.run(["-q", "-c", "summary", "--", "-odd.json"], in: folder)
        XCTAssertEqual(odd.status, 0, odd.stderr)
        XCTAssertTrue(odd.stdout.hasPrefix("-odd  CapturedRoom"), odd.stdout)
        let unknown = try Harness.run(["-q", "-c", "summary", "-odd.json"], in: folder)
        XCTAssertEqual(unknown.status, 2)
        XCTAssertEqual(unknown.stderr, "wb: unknown option '-odd.json' (see wb --help)\n")
    }

    func testEveryFlagOfTheContract() throws {
        let room = try Harness.generatedRoom(in: folder)
        let original = try Data(contentsOf: URL(fileURLWithPath: room))
        // -x echoes, -k goes on and still exits 1, -q silences informational lines.
        // Each error names its -c: all were "-c:1:1" however many -c were given.
        let keepGoing = try Harness.run(["-x", "-k", "-c", "bogus", "-c", "echo after", "-c", "echo x; bogus2"])
        XCTAssertEqual(keepGoing.status, 1)
        XCTAssertEqual(keepGoing.stdout, "after\nx\n")
        XCTAssertTrue(keepGoing.stderr.hasPrefix("+ bogus\nwb: -c:1:1: error: unknown command 'bogus'"), keepGoing.stderr)
        XCTAssertTrue(keepGoing.stderr.contains("+ echo after\n"), keepGoing.stderr)
        XCTAssertTrue(keepGoing.stderr.contains("wb: -c:3:9: error: unknown command 'bogus2'"), keepGoing.stderr)
        let single = try Harness.run(["-c", "bogus"])
        XCTAssertTrue(single.stderr.hasPrefix("wb: -c:1:1: error: unknown command 'bogus'"), "one -c is just -c: \(single.stderr)")
        let stops = try Harness.run(["--keep-going", "--echo", "-c", "bogus", "-c", "echo after"])
        XCTAssertEqual(stops.stdout, "after\n", "long spellings")
        XCTAssertEqual(try Harness.run(["-c", "bogus", "-c", "echo after"]).stdout, "", "without -k the first failure stops")
        let loud = try Harness.run([room, "-c", "name r1 Den", "-c", "save"])
        let quiet = try Harness.run(["--quiet", room, "-c", "name r1 Den2", "-c", "save"])
        XCTAssertTrue(loud.stderr.contains("wrote"), loud.stderr)
        XCTAssertEqual(quiet.stderr, "", "-q: no informational lines")
        XCTAssertEqual(try Harness.run(["-q", room, "-c", "undo"]).status, 1, "a fresh session has nothing to undo")

        // --json, --dry-run.
        let json = try Harness.run(["-q", "--json", room, "-c", "ls rooms"])
        XCTAssertEqual(try Harness.jsonArray(json.stdout).first?["handle"] as? String, "r1")
        // --json after one command: that command's output as wb --json gives it, the next as before.
        let one = try Harness.run(["-q", room, "-c", "ls rooms --json", "-c", "check --json", "-c", "ls rooms"])
        XCTAssertEqual(one.status, 0, one.stderr)
        let global = try Harness.run(["-q", "--json", room, "-c", "ls rooms", "-c", "check"])
        let table = try Harness.run(["-q", room, "-c", "ls rooms"])
        XCTAssertEqual(one.stdout, global.stdout + table.stdout)
        XCTAssertTrue(one.stdout.hasPrefix("["), one.stdout)
        let saved = try Data(contentsOf: URL(fileURLWithPath: room))
        let dry = try Harness.run(["--dry-run", room, "-c", "name r1 Dry", "-c", "save"])
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertTrue(dry.stderr.contains("would write \(room)"), dry.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: room)), saved, "--dry-run wrote nothing")
        XCTAssertNotEqual(saved.count, 0)
        _ = original

        // -i: stdin after the commands; -f - reads stdin as the script.
        let more = try Harness.run(["--interactive", "-c", "echo from-c"], stdin: "echo from-stdin\n")
        XCTAssertEqual(more.stdout, "from-c\nfrom-stdin\n")
        let dash = try Harness.run(["-f", "-"], stdin: "echo from-dash\n")
        XCTAssertEqual(dash.stdout, "from-dash\n")

        // --color and --no-pager are taken (the terminal tests show what they do).
        XCTAssertEqual(try Harness.run(["--color", "never", "--no-pager", "-c", "echo ok"]).stdout, "ok\n")
    }

    /// --dry-run writes no file, and standard output is none: an export to `-` prints what it
    /// would print (`wb -q --dry-run … -c 'export csv -'` printed nothing at all, and without
    /// -q only "would write -"), as `ls` does; an export to a file is still only said.
    func testADryRunExportToStandardOutputPrintsIt() throws {
        let room = try Harness.generatedRoom(in: folder)
        for command in ["export csv - walls", "export json - walls", "export structure -", "export usda -", "export svg -", "export ifc -"] {
            let real = try Harness.run(["-q", room, "-c", command], environment: ["SOURCE_DATE_EPOCH": "0"])
            let dry = try Harness.run(["-q", "--dry-run", room, "-c", command], environment: ["SOURCE_DATE_EPOCH": "0"])
            XCTAssertEqual(dry.status, 0, dry.stderr)
            XCTAssertFalse(real.stdout.isEmpty, command)
            XCTAssertEqual(dry.stdout, real.stdout, command)
        }
        let target = folder.appendingPathComponent("walls.csv").path
        let said = try Harness.run(["--dry-run", room, "-c", "export csv \(target) walls"])
        XCTAssertEqual(said.stdout, "")
        XCTAssertTrue(said.stderr.contains("would write \(target)"), said.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: target), "--dry-run wrote nothing")
    }

    /// A name or path holding a line break was printed raw in "wrote …", "… is named …" and
    /// "closed …" lines, so one message read as two (the second looking like a line of wb's own);
    /// tables already showed it as `\n`. A `--into` name with one was refused as "starting with a dot".
    func testLineBreaksInNamesAndPathsAreShownNotPrinted() throws {
        let room = try Harness.generatedRoom(in: folder)
        let target = folder.appendingPathComponent("x\ny.json").path
        let csv = folder.appendingPathComponent("c\nd.csv").path
        let svg = folder.appendingPathComponent("s\nd.svg").path
        let script = folder.appendingPathComponent("breaks.wb")
        try [
            "name r1 \"a\\nb\"", "export csv \"\(csv.replacingOccurrences(of: "\n", with: "\\n"))\" walls",
            "export svg \"\(svg.replacingOccurrences(of: "\n", with: "\\n"))\"",
            "save \"\(target.replacingOccurrences(of: "\n", with: "\\n"))\"",
        ].joined(separator: "\n").write(to: script, atomically: true, encoding: .utf8)
        let result = try Harness.run([room, "-f", script.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        for written in [target, csv, svg] { XCTAssertTrue(FileManager.default.fileExists(atPath: written), written) }
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertTrue(lines.contains("r1 is named \"a\\nb\""), result.stderr)
        XCTAssertTrue(lines.contains { $0.hasPrefix("wrote \(target.replacingOccurrences(of: "\n", with: "\\n")) (") }, result.stderr)
        XCTAssertTrue(lines.contains { $0.hasPrefix("wrote ") && $0.contains(" rows to ") && $0.hasSuffix("c\\nd.csv") }, result.stderr)
        XCTAssertTrue(lines.contains { $0.hasPrefix("wrote ") && $0.contains("s\\nd.svg (") }, result.stderr)
        XCTAssertFalse(lines.contains { $0.hasPrefix("b\"") || $0.hasPrefix("y.json") || $0.hasPrefix("d.csv") || $0.hasPrefix("d.svg") },
                       "a line break in a name printed raw: " + result.stderr)
        let into = try Harness.run(["-q", room, "-c", "merge --into \"m\\nn\""])
        XCTAssertEqual(into.status, 1)
        XCTAssertTrue(into.stderr.contains("--into takes a name without line breaks or control characters"), into.stderr)
    }

    /// `check` with nothing open vouches for nothing: it said "no problems found" (`[]` with
    /// --json) and exited 0, so a script's check passed whatever it was meant to look at.
    func testCheckWithNothingOpenIsAnError() throws {
        for flags in [[String](), ["--json"]] {
            let result = try Harness.run(flags + ["-c", "check"])
            XCTAssertEqual(result.status, 1, result.stdout)
            XCTAssertEqual(result.stdout, "")
            XCTAssertTrue(result.stderr.hasPrefix("wb: -c:1:1: error: nothing is open to check (open a room or structure first)"),
                          result.stderr)
        }
        let closed = try Harness.run(["-q", try Harness.generatedRoom(in: folder), "-c", "check", "-c", "close room", "-c", "check"])
        XCTAssertEqual(closed.status, 1)
        XCTAssertEqual(closed.stdout, "", "the room was clean, said only without -q")
        XCTAssertTrue(closed.stderr.contains("-c:3:1: error: nothing is open to check"), closed.stderr)
    }

    /// `stats` with nothing open printed a table of no rooms, totals 0 m², and exited 0.
    func testStatsWithNothingOpenIsAnError() throws {
        let result = try Harness.run(["-c", "stats"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(result.stderr.hasPrefix("wb: -c:1:1: error: nothing is open to count (open a room or structure first)"), result.stderr)
        let closed = try Harness.run(["-q", try Harness.generatedRoom(in: folder), "-c", "stats", "-c", "close room", "-c", "stats"])
        XCTAssertEqual(closed.status, 1)
        XCTAssertTrue(closed.stdout.contains("floor"), "the open room was counted: " + closed.stdout)
        XCTAssertTrue(closed.stderr.contains("-c:3:1: error: nothing is open to count"), closed.stderr)
    }

    func testBatchAndJournalFlagsAreChecked() throws {
        let cases: [([String], String)] = [
            (["--jobs", "0", "--each", "-c", "x", "a"], "--jobs needs a whole number of at least 1, got '0'"),
            (["--jobs", "many", "--each", "-c", "x", "a"], "--jobs needs a whole number of at least 1, got 'many'"),
            (["--shard", "3/2", "--each", "-c", "x", "a"], "--shard needs I/N with 1 <= I <= N (for example 2/4), got '3/2'"),
            (["--shard", "0/2", "--each", "-c", "x", "a"], "--shard needs I/N with 1 <= I <= N (for example 2/4), got '0/2'"),
            (["--jobs", "2", "-c", "x"], "--jobs works only with --each"),
            (["--files-from", "list", "-c", "x"], "--files-from works only with --each"),
            (["--shard", "1/2", "-c", "x"], "--shard works only with --each"),
            (["--each", "a.json"], "--each runs commands once per file: give them with -c CMD or -f SCRIPT"),
            (["--recover"], "--recover needs the PATH whose journal to replay"),
            (["--each", "-i", "-c", "x", "a.json"], "--each runs unattended; -i does not go with it"),
            (["--each", "--recover", "-c", "x", "a.json"], "--recover replays one session's journal; it does not go with --each"),
            (["--each", "-c", "x"], "--each needs the paths: PATH ... or --files-from FILE"),
            (["--each", "-f", "-", "--files-from", "-"], "standard input cannot hold both the script (-f -) and the paths (--files-from -)"),
        ]
        for (arguments, message) in cases {
            let run = try Harness.run(arguments)
            XCTAssertEqual(run.status, 2, "\(arguments)")
            XCTAssertEqual(run.stderr, "wb: \(message) (see wb --help)\n", "\(arguments)")
        }
    }

    func testExitStatusesAndHelp() throws {
        XCTAssertEqual(try Harness.run(["-c", "echo ok"]).status, 0)
        XCTAssertEqual(try Harness.run(["-c", "bogus"]).status, 1)
        XCTAssertEqual(try Harness.run(["/nonexistent/room.json", "-c", "echo"]).status, 1)
        for bad in [["--frobnicate"], ["-c"], ["--color", "sometimes"], ["--jobs"], ["-f", "/nonexistent/x.wb"]] {
            XCTAssertEqual(try Harness.run(bad).status, 2, "\(bad)")
        }
        let help = try Harness.run(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertEqual(try Harness.run(["-h"]).stdout, help.stdout)
        for flag in ["--command", "--file", "--interactive", "--keep-going", "--echo", "--quiet", "--json", "--dry-run", "--define",
                     "--each", "--jobs", "--files-from", "--shard", "--recover", "--color", "--no-pager", "--version",
                     "HBSpace JSON", "Hyperbasis store folder"] {
            XCTAssertTrue(help.stdout.contains(flag), "--help mentions \(flag)")
        }
        XCTAssertFalse(help.stdout.contains("generate-man"), "a hidden flag")
        XCTAssertEqual(try Harness.run(["--version"]).stdout, "wb 0.1.0\n")
    }

    func testCompletionScriptsListTheFlagsAndCompletePaths() throws {
        let flags = ["--command", "--file", "--interactive", "--keep-going", "--echo", "--quiet", "--json", "--dry-run", "--define",
                     "--each", "--jobs", "--files-from", "--shard", "--recover", "--color", "--no-pager"]
        for shell in ["bash", "zsh", "fish"] {
            let script = try Harness.run(["--generate-completion-script", shell])
            XCTAssertEqual(script.status, 0, script.stderr)
            for flag in flags {
                let name = String(flag.dropFirst(2))
                XCTAssertTrue(script.stdout.contains(flag) || script.stdout.contains("'\(name)") || script.stdout.contains("'\(name)="),
                              "\(shell) completes \(flag)")
            }
        }
        XCTAssertEqual(try Harness.run(["--generate-completion-script", "tcsh"]).status, 2)
        guard FileManager.default.isExecutableFile(atPath: "/bin/bash") else { throw XCTSkip("bash is needed") }
        let registered = try Harness.run(["-c", "source <('\(Harness.wb.path)' --generate-completion-script bash); complete -p wb"],
                                         executable: URL(fileURLWithPath: "/bin/bash"))
        XCTAssertEqual(registered.stdout, "complete -o filenames -F _wb wb\n", registered.stderr)

        // What bash offers, as it would after Tab: paths after -f and as PATH, the flags, --color's values.
        _ = try script("script-one.wb", "")
        _ = try script("scan.json", "")
        let complete = """
            shopt -s extglob
            source <("$WB" --generate-completion-script bash)
            COMP_LINE=$1; COMP_POINT=${#COMP_LINE}
            read -ra COMP_WORDS <<< "$COMP_LINE"
            [[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
            COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            COMPREPLY=()
            _wb wb "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}" | sort
            """
        func offered(_ line: String) throws -> [String] {
            try Harness.run(["-c", complete, "complete", line], executable: URL(fileURLWithPath: "/bin/bash"),
                            environment: ["WB": Harness.wb.path], in: folder).stdout.split(separator: "\n").map(String.init)
        }
        XCTAssertEqual(try offered("wb -f scr"), ["script-one.wb"])
        XCTAssertEqual(try offered("wb --file scr"), ["script-one.wb"])
        XCTAssertEqual(try offered("wb sc"), ["scan.json", "script-one.wb"])
        XCTAssertEqual(try offered("wb --dr"), ["--dry-run"])
        XCTAssertEqual(try offered("wb --color "), ["always", "auto", "never"])
    }

    private var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    func testTheCheckedInManPageIsTheGeneratedOne() throws {
        let generated = try Harness.run(["--generate-man"])
        XCTAssertEqual(generated.status, 0, generated.stderr)
        let page = try String(contentsOf: repository.appendingPathComponent("wb.1"), encoding: .utf8)
        XCTAssertTrue(generated.stdout == page, "wb.1 is stale: run Scripts/make-man.sh and commit wb.1")
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "THE LANGUAGE", "FILES", "ENVIRONMENT",
                        "EXIT STATUS", "EXAMPLES"] {
            XCTAssertTrue(page.contains(".SH \"\(section)\"\n"), "section \(section)")
        }
        for variable in ["WB_HISTORY", "PAGER", "NO_COLOR", "COLUMNS"] {
            XCTAssertTrue(page.contains("\\fB\(variable)\\fR"), "ENVIRONMENT names \(variable)")
        }
        let help = try Harness.run(["-c", "help"]).stdout
        // (A summary too long for 80 columns goes on under itself, indented past the names.)
        let lines = help.components(separatedBy: "\n").dropFirst().prefix { !$0.isEmpty }
        XCTAssertTrue(lines.allSatisfy { $0.count <= 80 }, lines.filter { $0.count > 80 }.joined(separator: "\n"))
        let commands = lines.filter { !$0.hasPrefix("   ") }.compactMap { $0.split(separator: " ").first }
        XCTAssertGreaterThan(commands.count, 30)
        for command in commands {
            XCTAssertTrue(page.contains(".TP\n\\fB\(command.replacingOccurrences(of: "-", with: "\\-"))\\fR"), "COMMANDS has \(command)")
        }
        // Each command's help fits 80 columns too (help export ran to 138).
        let all = try Harness.run(commands.flatMap { ["-c", "help \($0)"] }).stdout
        XCTAssertEqual(all.split(separator: "\n").filter { $0.count > 80 }, [])
        XCTAssertTrue(page.unicodeScalars.allSatisfy(\.isASCII), "a man page in ASCII")
    }

    func testTheManPageLintsClean() throws {
        let page = repository.appendingPathComponent("wb.1").path
        var linted = 0
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") {
            let groff = try Harness.run(["-man", "-ww", "-z", page], executable: URL(fileURLWithPath: "/usr/bin/groff"))
            XCTAssertEqual(groff.status, 0)
            XCTAssertEqual(groff.stderr, "", "groff -man -ww has no warning")
            linted += 1
        }
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/mandoc") {
            let mandoc = try Harness.run(["-T", "lint", page], executable: URL(fileURLWithPath: "/usr/bin/mandoc"))
            XCTAssertEqual(mandoc.stdout + mandoc.stderr, "", "mandoc -T lint has nothing to say")
            linted += 1
        }
        if linted == 0 { throw XCTSkip("neither groff nor mandoc is installed (Scripts/setup.sh installs them)") }
    }
}
