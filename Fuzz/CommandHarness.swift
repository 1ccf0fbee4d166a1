// libFuzzer harness: the command language — the lexer (lines, continuations, quotes,
// escapes, comments, `;`, `$NAME`) and the parser that binds a command's words to its
// table entry (options, values, positional counts), as `wb -c`, `-f` and the prompt do,
// without running anything.
//
// This file is compiled into the Workbench module (all of Sources/Workbench, with
// StructureModel as a module and libedit linked), so it reaches the internal `bind` and
// `expand`. The input is a script. The laws: no traps; a logical line never holds a line
// break (lines are cut at every one, "\r\n" included); every error points at a line of
// the script (WB_FUZZ_SKIP=crlf looks past the "\r\n" part) and a column no further than
// one past that line's end; the words after
// `where` compile or fail as a where-expression with an error inside its words.
import StructureModel

final class DiscardingOutput: OutputSink {
    var isTerminal: Bool { false }
    func write(_ text: String) {}
    func writeError(_ text: String) {}
}

nonisolated(unsafe) let fuzzShell: Shell = {
    let shell = Shell(output: DiscardingOutput())
    shell.variables = ["ROOM": "r1", "EMPTY": "", "TWO": "a b", "Q": "\"", "OPT": "--force"]
    return shell
}()

func checkLocation(_ location: ScriptLocation, _ lines: [Substring], _ what: String) {
    guard location.line >= 1 && location.line <= max(1, lines.count) else {
        violation("\(what) at line \(location.line) of a \(lines.count)-line script")
    }
    let length = lines.isEmpty ? 0 : lines[location.line - 1].count
    if location.column < 1 || location.column > length + 2 {
        violation("\(what) at column \(location.column) of line \(location.line) of \(length) characters")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func commandFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: fuzzInput(data, size), as: UTF8.self)
    // The script's lines as a person sees them: cut at every line feed.
    // (With WB_FUZZ_SKIP=crlf, as the lexer cuts them today: "\r\n" is one Character.)
    let physical = skipping("crlf") ? text.split(separator: "\n", omittingEmptySubsequences: false)
        : text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { Substring(String($0)) }
    let shell = fuzzShell
    let lexer = Lexer(source: "fuzz")
    let lines: [Lexer.LogicalLine]
    do {
        lines = try lexer.logicalLines(text)
    } catch {
        checkLocation(error.location, physical, "the lexer's error \"\(error.message)\"")
        shell.report(error)
        return 0
    }
    for line in lines {
        if !skipping("crlf") && line.text.contains(where: { $0.unicodeScalars.contains("\n") }) {
            violation("a logical line holds a line break: \(String(line.text).debugDescription)")
        }
        if line.text.count != line.positions.count { violation("a logical line's column map has the wrong length") }
        let commands: [CommandText]
        do {
            commands = try lexer.commands(in: line)
        } catch {
            checkLocation(error.location, physical, "the lexer's error \"\(error.message)\"")
            shell.report(error)
            continue
        }
        for command in commands {
            for word in command.words { checkLocation(word.location, physical, "word \(word.rawText.debugDescription)") }
            let words: [Argument]
            do {
                var budget = Limits.maximumBytes
                words = try command.words.map { try shell.expand($0, budget: &budget) }
            } catch let error as ScriptError {
                // WB_FUZZ_SKIP=varline: a variable in a word continued onto another line is
                // reported with the word's first line and the variable's own column.
                if !skipping("varline") { checkLocation(error.location, physical, "the expansion error \"\(error.message)\"") }
                shell.report(error)
                continue
            } catch {
                violation("expansion threw \(error)")
            }
            guard let name = words.first else { violation("a command with no words") }
            guard let spec = shell.command(named: name.text) else {
                _ = shell.unknownCommandMessage(name.text)
                continue
            }
            do {
                let invocation = try spec.bind(shell: shell, name: name, words: Array(words.dropFirst()),
                                               text: command.text, end: command.location)
                _ = invocation.positionals.count
            } catch let failure as CommandFailure {
                if let at = failure.at { checkLocation(at.location, physical, "the command error \"\(failure.message)\"") }
                shell.report(ScriptError(failure.message, at: failure.at?.location ?? command.location, lineText: command.lineText))
            } catch {
                violation("bind threw \(error)")
            }
            if let whereIndex = words.firstIndex(where: { $0.text == "where" && !$0.quoted }) {
                let expression = words[(whereIndex + 1)...].map { QueryWord($0.text, quoted: $0.quoted) }
                do {
                    _ = try Query.compile(expression)
                } catch {
                    if !expression.isEmpty && !expression.indices.contains(error.word) {
                        violation("QueryError names word \(error.word) of \(expression.count)")
                    }
                }
            }
        }
    }
    return 0
}
