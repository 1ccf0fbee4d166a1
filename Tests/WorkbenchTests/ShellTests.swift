import Foundation
import StructureModel
import XCTest
@testable import Workbench

final class ShellTests: XCTestCase {
    private func shell(_ configure: (inout ShellOptions) -> Void = { _ in }) -> (Shell, BufferedOutput) {
        var options = ShellOptions()
        configure(&options)
        let output = BufferedOutput()
        return (Shell(options: options, output: output), output)
    }

    func testAScriptStopsAtItsFirstError() {
        let (shell, output) = shell()
        XCTAssertFalse(shell.run(script: "echo one\nlable r1 bedroom\necho three", source: "fix.wb"))
        XCTAssertEqual(output.standardOutput, "one\n")
        XCTAssertEqual(output.standardError, """
            wb: fix.wb:2:1: error: unknown command 'lable' (did you mean 'label'?)
                lable r1 bedroom
                ^

            """)
    }

    func testKeepGoingReportsEveryError() {
        let (shell, output) = shell { $0.keepGoing = true }
        XCTAssertFalse(shell.run(script: "ech one\necho two\necho $nope\necho four", source: "fix.wb"))
        XCTAssertEqual(output.standardOutput, "two\nfour\n")
        let errors = output.standardError.split(separator: "\n").filter { $0.hasPrefix("wb: ") }
        XCTAssertEqual(errors.count, 2)
        XCTAssertTrue(errors[0].hasPrefix("wb: fix.wb:1:1: error: unknown command 'ech' (did you mean 'echo'?)"), String(errors[0]))
        XCTAssertTrue(errors[1].hasPrefix("wb: fix.wb:3:6: error: $nope is not defined"), String(errors[1]))
    }

    func testVariablesFromDefineAndTheirErrors() {
        let (shell, output) = shell()
        shell.variables["room"] = "r1"
        XCTAssertTrue(shell.run(script: "define suffix -fixed\necho $room${suffix} \"$room x\" '$room'", source: "-c"))
        XCTAssertEqual(output.standardOutput, "r1-fixed r1 x $room\n")
        XCTAssertFalse(shell.run(script: "define 9lives x", source: "-c"))
        XCTAssertTrue(output.standardError.contains("'9lives' is not a variable name"))
    }

    func testArgumentCountsAndOptionsAreChecked() {
        let (shell, output) = shell()
        XCTAssertFalse(shell.run(script: "source", source: "-c"))
        XCTAssertTrue(output.standardError.hasPrefix("wb: -c:1:8: error: source needs PATH (usage: source PATH)"), output.standardError)
        let (other, otherOutput) = self.shell()
        XCTAssertFalse(other.run(script: "help save extra", source: "-c"))
        XCTAssertTrue(otherOutput.standardError.hasPrefix("wb: -c:1:11: error: too many arguments for help"), otherOutput.standardError)
        let (third, thirdOutput) = self.shell()
        XCTAssertFalse(third.run(script: "save --forse", source: "-c"))
        XCTAssertTrue(thirdOutput.standardError.hasPrefix("wb: -c:1:6: error: unknown option --forse (save takes --force)"),
                      thirdOutput.standardError)
        // An option given twice: the second value replaced the first without a word.
        let (fourth, fourthOutput) = self.shell()
        XCTAssertFalse(fourth.run(script: "save --force --force", source: "-c"))
        XCTAssertTrue(fourthOutput.standardError.hasPrefix("wb: -c:1:14: error: --force is given twice"), fourthOutput.standardError)
        let (fifth, fifthOutput) = self.shell()
        XCTAssertFalse(fifth.run(script: "plan --width 80 --width=100", source: "-c"))
        XCTAssertTrue(fifthOutput.standardError.hasPrefix("wb: -c:1:17: error: --width is given twice"), fifthOutput.standardError)
    }

    /// `--help` after any command prints its help, as `help COMMAND` does, and runs nothing
    /// ("unknown option --help (ls takes --wide)" was the answer); `echo` still prints it.
    func testHelpAfterAnyCommandExplainsItAndRunsNothing() {
        for command in ["ls", "move", "export", "save", "undo"] {
            let (viaHelp, helpOutput) = shell()
            XCTAssertTrue(viaHelp.run(script: "help \(command)", source: "-c"), helpOutput.standardError)
            let (shell, output) = shell()
            XCTAssertTrue(shell.run(script: "\(command) --help", source: "-c"), output.standardError)
            XCTAssertEqual(output.standardOutput, helpOutput.standardOutput, command)
            XCTAssertTrue(output.standardOutput.hasPrefix("usage: \(command)"), output.standardOutput)
        }
        let (shell, output) = shell()
        let building = BuildingGenerator.generate(BuildingSpec(seed: 2, rooms: 2))
        shell.session.workspace.add(path: "/nonexistent/home.json", document: .structure(building.structure), stamp: nil, diagnostics: [])
        XCTAssertTrue(shell.run(script: "move r1 1 0 --help\necho --help", source: "-c"), output.standardError)
        XCTAssertTrue(shell.session.undoStack.isEmpty, "nothing ran")
        XCTAssertTrue(output.standardOutput.hasSuffix("\n--help\n"), output.standardOutput)
    }

    /// `echo` prints every word as written: `--json` and `--` are words to it, not options.
    func testEchoPrintsOptionLikeWordsAsWritten() {
        let (shell, output) = shell()
        XCTAssertTrue(shell.run(script: "echo hi --json -- --x\necho --json", source: "-c"), output.standardError)
        XCTAssertEqual(output.standardOutput, "hi --json -- --x\n--json\n")
        XCTAssertEqual(output.standardError, "")
    }

    func testHelpComesFromTheCommandTable() {
        let (shell, output) = shell()
        XCTAssertTrue(shell.run(script: "help", source: "-c"))
        for command in shell.commands {
            XCTAssertTrue(output.standardOutput.contains("  \(command.name) "), "help lists \(command.name)")
        }
        let (detail, detailOutput) = self.shell()
        XCTAssertTrue(detail.run(script: "help save", source: "-c"))
        XCTAssertTrue(detailOutput.standardOutput.hasPrefix("usage: save [PATH] [NAME] [--force]\n"), detailOutput.standardOutput)
        XCTAssertTrue(detailOutput.standardOutput.contains("--force"))
    }

    func testSourceNestsWithOwnLineNumbersAndRefusesCycles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wb-shell-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let inner = folder.appendingPathComponent("inner.wb").path
        let outer = folder.appendingPathComponent("outer.wb").path
        try "echo inner\n\necho $missing\n".write(toFile: inner, atomically: true, encoding: .utf8)
        try "echo outer\nsource \(inner)\necho not reached\n".write(toFile: outer, atomically: true, encoding: .utf8)
        let (shell, output) = shell()
        XCTAssertFalse(shell.run(script: "source \(outer)", source: "-c"))
        XCTAssertEqual(output.standardOutput, "outer\ninner\n")
        XCTAssertTrue(output.standardError.hasPrefix("wb: \(inner):3:6: error: $missing is not defined"), output.standardError)

        let loop = folder.appendingPathComponent("loop.wb").path
        try "echo once\nsource \(loop)\n".write(toFile: loop, atomically: true, encoding: .utf8)
        let (cycle, cycleOutput) = self.shell()
        XCTAssertFalse(cycle.run(script: "source \(loop)", source: "-c"))
        XCTAssertEqual(cycleOutput.standardOutput, "once\n")
        XCTAssertTrue(cycleOutput.standardError.contains("\(loop):2:8: error: \(loop) is already being run (a source cycle"),
                      cycleOutput.standardError)
    }

    func testQuitRefusesInAScriptWithUnsavedChanges() throws {
        let (shell, output) = shell()
        let room = BuildingGenerator.generate(BuildingSpec(seed: 1, rooms: 1)).captures[0].room
        shell.session.workspace.add(path: "/nonexistent/home.json", document: .room(room), stamp: nil, diagnostics: [])
        XCTAssertEqual(shell.prompt, "wb home> ")
        XCTAssertTrue(shell.run(script: "move r1 1 0", source: "-c"))
        XCTAssertFalse(shell.run(script: "quit", source: "-c"))
        XCTAssertFalse(shell.quitRequested)
        XCTAssertTrue(output.standardError.contains("unsaved changes in home (save them, or quit --force)"))
        XCTAssertEqual(shell.prompt, "wb home*> ")
        XCTAssertTrue(shell.run(script: "undo", source: "-c"))
        XCTAssertEqual(shell.prompt, "wb home> ", "undo back to the opened state: nothing unsaved")
        XCTAssertTrue(shell.run(script: "redo; quit --force", source: "-c"))
        XCTAssertTrue(shell.quitRequested)
    }

    func testCompletionFromTheTable() throws {
        let (shell, _) = shell()
        XCTAssertEqual(shell.completions(forLinePrefix: "so"), ["source"])
        XCTAssertEqual(shell.completions(forLinePrefix: "echo a; he"), ["help"])
        XCTAssertEqual(shell.completions(forLinePrefix: "help sa"), ["save", "summary"].filter { $0.hasPrefix("sa") })
        XCTAssertEqual(shell.completions(forLinePrefix: "save --f"), ["--force"])
        shell.variables["outdir"] = "x"
        XCTAssertEqual(shell.completions(forLinePrefix: "define ou"), ["outdir"])

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wb-complete-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("scans"), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("scan-1.json").path, contents: Data())
        defer { try? FileManager.default.removeItem(at: folder) }
        XCTAssertEqual(shell.completions(forLinePrefix: "open \(folder.path)/sc"),
                       ["\(folder.path)/scan-1.json", "\(folder.path)/scans/"])
        XCTAssertEqual(shell.completions(forLinePrefix: "source \(folder.path)/scans"), ["\(folder.path)/scans/"])

        // Typed back as the line reads it: escaped outside quotes, closed inside one.
        for name in ["my scan.json", "it's $x;#.json"] {
            _ = FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: Data())
        }
        XCTAssertEqual(shell.completions(forLinePrefix: "open \(folder.path)/my"), ["\(folder.path)/my\\ scan.json"])
        XCTAssertEqual(shell.completions(forLinePrefix: "open \(folder.path)/my\\ s"), ["\(folder.path)/my\\ scan.json"])
        XCTAssertEqual(shell.completions(forLinePrefix: "open \(folder.path)/it"), ["\(folder.path)/it\\'s\\ \\$x\\;\\#.json"])
        XCTAssertEqual(shell.completions(forLinePrefix: "open \"\(folder.path)/my"), ["\(folder.path)/my scan.json\""])
        XCTAssertEqual(shell.completions(forLinePrefix: "open \"\(folder.path)/it"), ["\(folder.path)/it's \\$x;#.json\""])
        XCTAssertEqual(shell.completions(forLinePrefix: "open '\(folder.path)/my"), ["\(folder.path)/my scan.json'"])
        XCTAssertEqual(shell.completions(forLinePrefix: "open '\(folder.path)/sc"), ["\(folder.path)/scan-1.json'", "\(folder.path)/scans/"])
        for typed in ["open \(folder.path)/it\\'s\\ \\$x\\;\\#.json", "open \"\(folder.path)/it's \\$x;#.json\""] {
            let lexer = Lexer(source: "t")
            let words = try lexer.logicalLines(typed).flatMap { try lexer.commands(in: $0) }.first?.words.map(\.rawText)
            XCTAssertEqual(words?.last, "\(folder.path)/it's $x;#.json", "the completed word reads back as the name: \(typed)")
        }
    }

    func testCompletionOfHandlesLabelsFieldsAndExpressions() {
        let (shell, _) = shell()
        let building = BuildingGenerator.generate(BuildingSpec(seed: 2, rooms: 3))
        shell.session.workspace.add(path: "/nonexistent/home.json", document: .structure(building.structure), stamp: nil, diagnostics: [])
        XCTAssertEqual(shell.completions(forLinePrefix: "move r"), ["r1", "r2", "r3"])
        XCTAssertEqual(shell.completions(forLinePrefix: "label r1 bed"), ["bedroom"])
        XCTAssertEqual(shell.completions(forLinePrefix: "find objects where categ"), ["category"])
        XCTAssertEqual(shell.completions(forLinePrefix: "find objects where category = ref"), ["refrigerator"])
        XCTAssertEqual(shell.completions(forLinePrefix: "find objects where confidence < h"), ["high"])
        XCTAssertEqual(shell.completions(forLinePrefix: "ls wi"), ["windows"])
        let chair = building.structure.rooms.flatMap(\.objects).firstIndex { $0.category == .chair }
        if let chair {
            XCTAssertEqual(shell.completions(forLinePrefix: "set o\(chair + 1) ChairT"), ["ChairType"])
            XCTAssertEqual(shell.completions(forLinePrefix: "set o\(chair + 1) ChairType s"), ["stool", "swivel"])
        }
        XCTAssertEqual(shell.completions(forLinePrefix: "set d1 "), ["confidence", "open"])
    }

    func testNearestNames() {
        XCTAssertEqual(editDistance("lable", "label"), 1)
        XCTAssertEqual(editDistance("", "abc"), 3)
        XCTAssertEqual(nearest("sumary", among: ["summary", "save", "source"]), "summary")
        XCTAssertNil(nearest("zzzzzz", among: ["summary", "save"]))
    }
}
