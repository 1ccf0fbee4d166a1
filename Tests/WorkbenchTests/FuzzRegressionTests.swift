import XCTest
@testable import Workbench

/// Scripts found by the command fuzz harness (Fuzz/CommandHarness.swift), minimized.
final class CommandFuzzRegressionTests: XCTestCase {
    private func commands(_ text: String) throws -> [[String]] {
        let lexer = Lexer(source: "t.wb")
        return try lexer.logicalLines(text).flatMap { try lexer.commands(in: $0) }.map { $0.words.map(\.rawText) }
    }

    /// "\r\n" is one Character in Swift, so `split(separator: "\n")` in
    /// Lexer.logicalLines (Lexer.swift:87) does not cut a script with Windows line endings:
    /// the whole script became one line, the "\r\n" part of a word.
    func testWindowsLineEndingsEndLines() throws {
        XCTAssertEqual(try commands("a\r\nb"), [["a"], ["b"]])
        XCTAssertEqual(try commands("open x.json\r\nlist walls\r\n"), [["open", "x.json"], ["list", "walls"]])
        let lines = try Lexer(source: "t.wb").logicalLines("a\r\nb\r\n")
        XCTAssertEqual(lines.map(\.startLine), [1, 2])
    }

    /// A variable in a word continued onto the next line was reported at the word's first
    /// line with the variable's own column (Lexer.swift:217 keeps only the column;
    /// Shell.swift:137 takes the line from the word). Found as `"\⏎l"-c$n`.
    func testUndefinedVariableOnAContinuationLine() {
        let output = BufferedOutput()
        let shell = Shell(output: output)
        XCTAssertFalse(shell.run(script: "echo \"\\\n  $NOPE\"", source: "t.wb"))
        XCTAssertTrue(output.standardError.contains("t.wb:2:3:"), output.standardError)
    }
}
