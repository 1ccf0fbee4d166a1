import Foundation
import StructureModel

extension Shell {
    static func standardCommands() -> [CommandSpec] {
        (fileCommands() + shellCommands() + editCommands() + historyCommands() + queryCommands() + reportCommands()
            + spaceCommands() + alignCommands() + checkCommands() + exportCommands()).sorted { $0.name < $1.name }
    }

    /// The language in a paragraph, for `help` and the man page.
    static let languageHelp = """
        words are separated by blanks; "double" and 'single' quotes; \\ escapes;
        # starts a comment; a trailing \\ continues the line; ; separates commands;
        $NAME is a variable (define NAME VALUE, or -D NAME=VALUE on the command line);
        --json after any command gives its output as JSON (wb --json: every command's);
        --help after any command explains it, as help COMMAND does.

        """

    static let limitsHelp = """
        a line, a variable's value and a command with its variables replaced are each at
        most 1 MiB; scripts source each other at most 64 deep; where-expressions nest 100 deep.

        """

    /// How many scripts may run inside each other (`-f` counts as the first level).
    static let maximumSourceDepth = 64

    /// How a script is known on the stack of scripts running: its path as the link it may be
    /// leads, made absolute (the `-f` script was kept as typed, so a script that sourced
    /// itself ran twice before its cycle was seen: an adversarial pass).
    static func scriptKey(_ path: String) -> String {
        let key = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? path
        return URL(fileURLWithPath: key).standardizedFileURL.path
    }

    /// Runs a script file inside the session. Nested sources report their own line
    /// numbers; a script that sources itself, directly or not, is refused.
    func source(path: String, at word: Argument) throws {
        let canonical = Self.scriptKey(path)
        if sourceStack.contains(canonical) {
            throw CommandFailure("\(path) is already being run (a source cycle: "
                                 + (sourceStack + [canonical]).map { FileIO.baseName(of: $0) }.joined(separator: " → ") + ")",
                                 at: word)
        }
        // Each level is a handful of stack frames; thousands overflow the stack. A real
        // script nests a few levels; a runaway chain stops here, at the source that went too far.
        if sourceStack.count >= Shell.maximumSourceDepth {
            throw CommandFailure("scripts nest too deeply: source runs at most \(Shell.maximumSourceDepth) levels deep "
                                 + "(here it would run \(path) as level \(sourceStack.count + 1))", at: word)
        }
        let text = try readScript(path, at: word)
        sink.releaseHeldOutput()
        sourceStack.append(canonical)
        beginGroup(text: "source \(path)")
        defer {
            endGroup()
            sourceStack.removeLast()
        }
        if !run(script: text, source: path) {
            throw ScriptAlreadyReported()
        }
    }

    /// A script's text, from a file or a pipe (`-f <(generate)`, as other shells take it).
    /// Folders, devices, sockets, missing files and scripts over `Program.scriptLimit` are
    /// refused; so is binary data (see `scriptText`), at its place in the file.
    func readScript(_ path: String, at word: Argument?) throws -> String {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(path, limit: Program.scriptLimit, pipes: true)
        } catch {
            throw CommandFailure("cannot read script \(path): \(error.message)", at: word)
        }
        return try Shell.scriptText(bytes, source: path)
    }

    /// The text of a script, read the same way from a file (`-f`, `source`) and from
    /// standard input: a UTF-8 byte-order mark at the start is skipped (editors on Windows
    /// write one); a NUL byte or bytes that are not UTF-8 mean the input is not a script,
    /// and are refused at their line and column.
    static func scriptText(_ bytes: [UInt8], source: String) throws(ScriptError) -> String {
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes[3...] : bytes[...]
        var decoder = UTF8()
        var iterator = body.makeIterator()
        var offset = body.startIndex
        var problem: (offset: Int, message: String)?
        decoding: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar == "\0" {
                    problem = (offset, "not a script: it holds binary data (a NUL byte)")
                    break decoding
                }
                offset += UTF8.width(scalar)
            case .emptyInput:
                break decoding
            case .error:
                problem = (offset, "not a script: it is not UTF-8 text (the byte 0x\(hex(body[offset])))")
                break decoding
            }
        }
        guard let problem else { return String(decoding: body, as: UTF8.self) }
        let before = body[..<problem.offset]
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? body.startIndex
        let line = 1 + before.count { $0 == 0x0A }
        let column = 1 + String(decoding: body[lineStart..<problem.offset], as: UTF8.self).count
        throw ScriptError(problem.message, at: ScriptLocation(source: source, line: line, column: column))
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }

    static func shellCommands() -> [CommandSpec] {
        [
            CommandSpec(
                "help",
                arguments: [ArgumentSpec("COMMAND", .command, .optional)],
                summary: "list the commands, or explain one",
                details: "help alone lists every command with one line each; help COMMAND shows its usage and details."
            ) { invocation in
                let shell = invocation.shell
                if let word = invocation.positional(0) {
                    guard let command = shell.command(named: word.text) else {
                        throw CommandFailure(shell.unknownCommandMessage(word.text), at: word)
                    }
                    shell.output.write(command.helpText)
                    return
                }
                let width = shell.commands.map(\.name.count).max() ?? 0
                var text = "Commands (help COMMAND for more):\n"
                for command in shell.commands {
                    text += ("  " + command.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + command.summary)
                        .wrapped(indent: 2 + width + 2) + "\n"
                }
                func paragraph(_ title: String, _ body: String) -> String {
                    (title + body.split(separator: "\n").joined(separator: " ")).wrapped(indent: 0) + "\n"
                }
                text += "\n" + paragraph("Language: ", Shell.languageHelp) + "\n" + paragraph("Limits: ", Shell.limitsHelp)
                shell.output.write(text)
            },
            CommandSpec(
                "quit",
                options: [OptionSpec("--force", help: "quit even with unsaved changes")],
                summary: "leave wb",
                details: """
                    With unsaved changes, quit asks first at the prompt and refuses in a script; quit --force
                    leaves without saving.
                    """
            ) { invocation in
                let shell = invocation.shell
                if shell.session.hasUnsavedChanges && !invocation.flag("--force") {
                    let names = shell.session.modifiedNames.joined(separator: ", ")
                    if shell.isInteractive, let confirm = shell.confirm {
                        guard confirm("Unsaved changes in \(names). Quit anyway? [y/N] ") else { return }
                    } else {
                        throw CommandFailure("unsaved changes in \(names) (save them, or quit --force)", at: invocation.name)
                    }
                }
                shell.quitRequested = true
            },
            CommandSpec(
                "define",
                arguments: [ArgumentSpec("NAME", .variableName, .optional), ArgumentSpec("VALUE", .text, .optional)],
                summary: "set a variable for $NAME (or list them)",
                details: """
                    define NAME VALUE sets $NAME for the commands that follow; define alone lists the
                    variables. The same as -D NAME=VALUE on the command line. (The name is not 'set',
                    which edits fields of rooms and objects.)
                    """
            ) { invocation in
                let shell = invocation.shell
                guard let name = invocation.positional(0) else {
                    for key in shell.variables.keys.sorted() {
                        shell.output.write("\(key)=\(shell.variables[key]!.escapingControls)\n")
                    }
                    return
                }
                guard isName(name.text) else {
                    throw CommandFailure("'\(name.text)' is not a variable name (letters, digits and _, not starting with a digit)",
                                         at: name)
                }
                guard let value = invocation.positional(1) else {
                    throw CommandFailure("define needs a VALUE (usage: define NAME VALUE)", at: name)
                }
                guard value.text.utf8.count <= Limits.maximumBytes else {
                    throw CommandFailure("a variable's value may be at most \(Limits.description)", at: value)
                }
                shell.variables[name.text] = value.text
            },
            CommandSpec(
                "source",
                arguments: [ArgumentSpec("PATH", .path)],
                summary: "run a command file inside this session",
                details: """
                    Runs the commands in PATH as if typed, stopping at the first error (unless -k). Errors
                    name PATH and its own line numbers. A script may source others; a cycle is refused.
                    """
            ) { invocation in
                try invocation.shell.source(path: invocation.positionals[0].text, at: invocation.positionals[0])
            },
            CommandSpec(
                "pager",
                arguments: [ArgumentSpec("on|off", .choice(["on", "off"]), .optional)],
                summary: "send output longer than the screen through $PAGER, or not (pager alone says which)",
                details: """
                    On a terminal, a command's output longer than the screen goes through $PAGER (less -FRX when
                    PAGER is not set; none when it is set empty), as psql and git do. pager off shows it directly;
                    so does wb --no-pager. Never when standard output is not a terminal.
                    """
            ) { invocation in
                let shell = invocation.shell
                guard let word = invocation.positional(0) else {
                    shell.output.write("pager \(shell.options.pager ? "on" : "off")\n")
                    return
                }
                switch word.text {
                case "on": shell.options.pager = true
                case "off": shell.options.pager = false
                default: throw CommandFailure("pager takes on or off, not '\(word.text)'", at: word)
                }
            },
            CommandSpec(
                "echo",
                arguments: [ArgumentSpec("TEXT", .text, .variadic)],
                summary: "print text (with $variables expanded)",
                details: "Prints its arguments separated by single spaces, each as written (--json too); useful in scripts."
            ) { invocation in
                invocation.shell.output.write(invocation.positionals.map(\.text).joined(separator: " ") + "\n")
            }.verbatim(),
        ]
    }
}

/// A nested script failed and already printed its own error; the caller only stops.
struct ScriptAlreadyReported: Error {}

extension CommandSpec {
    /// This command with its synopsis written out as `forms`.
    func forms(_ forms: [String]) -> CommandSpec {
        var spec = self
        spec.forms = forms
        return spec
    }

    /// This command with `takesWordsAsWritten` set.
    func verbatim() -> CommandSpec {
        var spec = self
        spec.takesWordsAsWritten = true
        return spec
    }

    /// Within 80 columns: a line longer than that goes on under itself, indented (`help export`
    /// ran to 138 columns).
    var helpText: String {
        // Several forms, one a line under the first.
        let usage = (forms.isEmpty ? [synopsis] : forms).map { $0.wrapped(width: 73, indent: 4) }
            .joined(separator: "\n").replacingOccurrences(of: "\n", with: "\n       ")
        var text = "usage: \(usage)\n\n\(summary.wrapped(indent: 2))\n"
        if !details.isEmpty {
            // Reflowed: a line starting with the command's name (a form), an option or a blank
            // begins a paragraph; the rest run on.
            var paragraphs: [String] = []
            for line in details.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
                if line.isEmpty || line.hasPrefix(name + " ") || line.hasPrefix("-") || line.hasPrefix(" ") || paragraphs.isEmpty
                    || paragraphs.last!.isEmpty {
                    paragraphs.append(line)
                } else {
                    paragraphs[paragraphs.count - 1] += " " + line
                }
            }
            text += "\n" + paragraphs.map { $0.wrapped(indent: 2) }.joined(separator: "\n") + "\n"
        }
        if !options.isEmpty {
            text += "\noptions:\n"
            let width = options.map { $0.name.count + ($0.value == nil ? 0 : $0.valueName.count + 1) }.max() ?? 0
            for option in options {
                let head = option.value == nil ? option.name : "\(option.name) \(option.valueName)"
                text += ("  " + head.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + option.help).wrapped(indent: 2 + width + 2) + "\n"
            }
        }
        return text
    }
}
