import XCTest
@testable import Workbench

final class LexerTests: XCTestCase {
    private func commands(_ text: String) throws -> [[String]] {
        let lexer = Lexer(source: "t.wb")
        return try lexer.logicalLines(text).flatMap { try lexer.commands(in: $0) }.map { $0.words.map(\.rawText) }
    }

    private func error(_ text: String) -> ScriptError? {
        do {
            _ = try commands(text)
            XCTFail("expected an error for \(text)")
            return nil
        } catch let error as ScriptError {
            return error
        } catch {
            XCTFail("\(error)")
            return nil
        }
    }

    func testWordsQuotesAndEscapes() throws {
        XCTAssertEqual(try commands("name r1 \"Guest bedroom\""), [["name", "r1", "Guest bedroom"]])
        XCTAssertEqual(try commands("name r1 'it''s'"), [["name", "r1", "its"]])
        XCTAssertEqual(try commands(#"echo a\ b "q\"uote" 'no\escape'"#), [["echo", "a b", "q\"uote", "no\\escape"]])
        XCTAssertEqual(try commands("echo \"\" x"), [["echo", "", "x"]], "an empty quoted word is a word")
        XCTAssertEqual(try commands("  \techo   spaced  "), [["echo", "spaced"]])
    }

    func testCommentsSemicolonsAndContinuation() throws {
        XCTAssertEqual(try commands("# a comment\necho a # trailing\necho b#not"), [["echo", "a"], ["echo", "b#not"]])
        XCTAssertEqual(try commands("echo a; echo b ;echo c"), [["echo", "a"], ["echo", "b"], ["echo", "c"]])
        XCTAssertEqual(try commands("echo 'a;b' \"c;d\""), [["echo", "a;b", "c;d"]])
        XCTAssertEqual(try commands("echo one \\\n  two \\\n three\necho four"), [["echo", "one", "two", "three"], ["echo", "four"]])
        XCTAssertEqual(try commands("\n\n   \n"), [])
    }

    func testVariablesStayUnexpandedUntilRun() throws {
        let lexer = Lexer(source: "t.wb")
        let line = try lexer.logicalLines("save $out/${name}.json '$literal'")[0]
        let words = try lexer.commands(in: line)[0].words
        XCTAssertEqual(words[1].parts, [.variable("out", line: 1, column: 6), .text("/"), .variable("name", line: 1, column: 11), .text(".json")])
        XCTAssertEqual(words[2].parts, [.text("$literal")], "no variables inside single quotes")
    }

    func testLocationsCountLinesAndColumns() throws {
        let lexer = Lexer(source: "fix.wb")
        let lines = try lexer.logicalLines("echo a\n\n   label r1 \\\n   bedroom; name r1 x")
        let commands = try lines.flatMap { try lexer.commands(in: $0) }
        XCTAssertEqual(commands.map(\.location.description), ["fix.wb:1:1", "fix.wb:3:4", "fix.wb:4:13"])
        XCTAssertEqual(commands[1].words[2].location.description, "fix.wb:4:4", "a continued word knows its own line")
    }

    func testErrorsAreLocated() {
        let quote = error("echo ok\nname r1 \"Guest bedroom")
        XCTAssertEqual(quote?.message, "a quote (\") that is never closed")
        XCTAssertEqual(quote?.location.description, "t.wb:2:9")
        XCTAssertEqual(quote?.lineText, "name r1 \"Guest bedroom")
        let single = error("echo 'open")
        XCTAssertEqual(single?.location.column, 6)
        let continuation = error("echo a \\")
        XCTAssertEqual(continuation?.message, "the line continues ('\\' at its end) past the end of the script")
        XCTAssertEqual(continuation?.location.line, 1)
        XCTAssertEqual(error("echo ${name")?.message, "'${' without a closing '}'")
    }

    func testVeryLongLinesWork() throws {
        let long = String(repeating: "x", count: 1_000_000)
        XCTAssertEqual(try commands("echo \(long)")[0][1].count, 1_000_000)
    }
}
