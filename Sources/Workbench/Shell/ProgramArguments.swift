import ArgumentParser
import Foundation

/// wb's command line, declared once (COMMANDS.md fixes it): this declaration parses the
/// arguments, writes `--help`, reports bad flags, generates the bash/zsh/fish completion
/// scripts (`--generate-completion-script`) and, through its help dump, the OPTIONS of the
/// man page (`--generate-man`). `Program` never sees it: `options(from:)` turns a parse
/// into a plain `ProgramOptions`.
struct ProgramArguments: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wb",
        abstract: "A workbench for RoomPlan scans and Hyperbasis spaces: open rooms, structures and spaces, "
            + "inspect and fix them, save them back without losing a byte you did not change.",
        discussion: """
            With no -c/-f, wb reads commands from the terminal (the interactive shell), or from \
            standard input when it is not one. Type 'help' inside wb for the commands, or see man wb.

            Exit status: 0 everything ran; 1 a command failed; 2 the invocation was wrong.
            """,
        version: "wb \(Program.version)"
    )

    @ArgumentParser.Argument(help: ArgumentHelp(
        "Opened at start: a RoomPlan room or structure JSON, an HBSpace JSON, or a Hyperbasis store folder "
            + "(the kind is detected from the content, not the name).",
        valueName: "PATH"), completion: .file())
    var paths: [String] = []

    @Option(name: [.customShort("c", allowingJoined: true), .customLong("command")], parsing: .unconditionalSingleValue,
            help: ArgumentHelp("Run CMD; repeatable, in order (with -f).", valueName: "CMD"),
            completion: .list([]))
    var command: [String] = []

    @Option(name: [.customShort("f", allowingJoined: true), .customLong("file")], parsing: .unconditionalSingleValue,
            help: ArgumentHelp("Run a command file; repeatable, in order with -c (\"-\" is standard input).",
                               valueName: "SCRIPT"),
            completion: .file())
    var file: [String] = []

    @Flag(name: [.customShort("i"), .customLong("interactive")], help: "Stay in the shell after -c / -f.")
    var interactive = false

    @Flag(name: [.customShort("k"), .customLong("keep-going")],
          help: "In scripts: report an error and go on (the exit status is still 1).")
    var keepGoing = false

    @Flag(name: [.customShort("x"), .customLong("echo")], help: "Print each command before it runs.")
    var echo = false

    @Flag(name: [.customShort("q"), .customLong("quiet")], help: "No banner, no informational lines.")
    var quiet = false

    @Flag(name: .customLong("json"), help: "Machine-readable output from every command that prints data.")
    var json = false

    @Flag(name: .customLong("dry-run"),
          help: "Never write a file; save and export say what they would have written.")
    var dryRun = false

    @Option(name: [.customShort("D", allowingJoined: true), .customLong("define")], parsing: .unconditionalSingleValue,
            help: ArgumentHelp("A variable for scripts, used as $NAME.", valueName: "NAME=VALUE"),
            completion: .list([]))
    var define: [String] = []

    @Option(name: .customLong("color"),
            help: ArgumentHelp("Colour errors, warnings, handles and the prompt: never, auto (on a terminal, "
                               + "unless NO_COLOR is set) or always.", valueName: "WHEN"),
            completion: .list(ProgramOptions.ColorChoice.allCases.map(\.rawValue)))
    var color: String = "auto"

    @Flag(name: .customLong("no-pager"),
          help: "Never send long output through $PAGER (by default it is, on a terminal).")
    var noPager = false

    @Flag(name: .customLong("each"),
          help: "Run the -c/-f commands once per PATH, each in a fresh session (batch fix-ups).")
    var each = false

    // Unconditional: `--jobs -1` is a bad count (said so below), not a missing one.
    @Option(name: .customLong("jobs"), parsing: .unconditional,
            help: ArgumentHelp("With --each: N files at a time (default: the number of cores; at most 1024).", valueName: "N"),
            completion: .list([]))
    var jobs: String?

    @Option(name: .customLong("files-from"),
            help: ArgumentHelp("With --each: the paths, one per line, from FILE (\"-\" for standard input).",
                               valueName: "FILE"),
            completion: .file())
    var filesFrom: String?

    @Option(name: .customLong("shard"),
            help: ArgumentHelp("With --each: only every N-th path, starting at the I-th (1-based).", valueName: "I/N"),
            completion: .list([]))
    var shard: String?

    @Flag(name: .customLong("recover"),
          help: "Replay the journal an interrupted session left beside PATH, without asking.")
    var recover = false

    /// Writes the man page (from this declaration and the command table) and exits.
    @Flag(name: .customLong("generate-man"), help: .hidden)
    var generateMan = false

    /// Checks that need more than one flag, or a value's form. A `ValidationError` here is
    /// a bad invocation (exit status 2), reported like an unknown flag.
    func validate() throws {
        guard ProgramOptions.ColorChoice(rawValue: color) != nil else {
            throw ValidationError("--color takes never, auto or always, not '\(color)'")
        }
        for text in define {
            guard let equals = text.firstIndex(of: "="), isName(String(text[..<equals])) else {
                throw ValidationError("-D needs NAME=VALUE, got '\(text)'")
            }
            guard text.utf8.count - text[..<equals].utf8.count - 1 <= Limits.maximumBytes else {
                throw ValidationError("-D \(text[..<equals]): a variable's value may be at most \(Limits.description)")
            }
        }
        if let jobs {
            guard let count = Int(jobs), count >= 1 else {
                throw ValidationError("--jobs needs a whole number of at least 1, got '\(jobs)'")
            }
        }
        if let shard, Shard(shard) == nil {
            throw ValidationError("--shard needs I/N with 1 <= I <= N (for example 2/4), got '\(shard)'")
        }
        if !each {
            for (flag, given) in [("--jobs", jobs != nil), ("--files-from", filesFrom != nil), ("--shard", shard != nil)]
            where given {
                throw ValidationError("\(flag) works only with --each")
            }
        } else if command.isEmpty && file.isEmpty {
            throw ValidationError("--each runs commands once per file: give them with -c CMD or -f SCRIPT")
        }
        if recover && paths.isEmpty {
            throw ValidationError("--recover needs the PATH whose journal to replay")
        }
    }

    /// The plain options of a parse of `arguments`; the order of `-c` and `-f` is taken from
    /// `arguments` themselves, since a parse keeps each option's values apart.
    func options(from arguments: [String]) throws -> ProgramOptions {
        var options = ProgramOptions()
        options.paths = paths
        options.actions = try Self.actions(in: arguments, commands: command, files: file)
        options.interactive = interactive
        options.keepGoing = keepGoing
        options.echo = echo
        options.quiet = quiet
        options.json = json
        options.dryRun = dryRun
        for text in define {
            let equals = text.firstIndex(of: "=")!
            options.variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        options.color = ProgramOptions.ColorChoice(rawValue: color) ?? .auto
        options.noPager = noPager
        options.each = each
        options.jobs = jobs.flatMap { Int($0) }
        options.filesFrom = filesFrom
        options.shard = shard.flatMap(Shard.init)
        options.recover = recover
        return options
    }

    /// `-DNAME=VALUE` as `-D` `NAME=VALUE`: ArgumentParser reads a word with `=` in it as
    /// `-NAME=VALUE`, so a value joined to a short option (as cc takes `-D`) is split off
    /// first, for the short options that take a value. Words after `--` are left alone.
    static func splittingJoinedValues(_ arguments: [String]) throws -> [String] {
        func candidate(_ word: String) -> Bool {
            word.count > 2 && word.hasPrefix("-") && !word.hasPrefix("--") && word.contains("=")
        }
        let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
        guard arguments[..<end].contains(where: candidate) else { return arguments }
        let valueNames = Set(try Declaration.current().options.filter(\.takesValue).flatMap(\.names))
        var result: [String] = []
        var index = 0
        while index < end {
            let word = arguments[index]
            index += 1
            if candidate(word), valueNames.contains(String(word.prefix(2))) {
                result += [String(word.prefix(2)), String(word.dropFirst(2))]
                continue
            }
            result.append(word)
            // The value of `-c`, `--command` and the like is taken as it is, whatever it looks like.
            if valueNames.contains(word) && index < end {
                result.append(arguments[index])
                index += 1
            }
        }
        return result + arguments[end...]
    }

    /// `-c` and `-f` in the order `arguments` gave them. Only needed when both appear: the
    /// arguments are walked again, skipping every option's value, with which options take
    /// values read from this declaration's own help dump (so the walk cannot disagree with
    /// the parse about what is a value). The walk must find exactly what the parse found.
    static func actions(in arguments: [String], commands: [String], files: [String]) throws -> [ProgramOptions.Action] {
        if files.isEmpty { return commands.map { .command($0) } }
        if commands.isEmpty { return files.map { .file($0) } }
        let declaration = try Declaration.current()
        var long: [String: String] = [:], short: [Character: String] = [:]
        for option in declaration.options where option.takesValue {
            for name in option.names {
                if name.hasPrefix("--") {
                    long[name] = option.preferredName
                } else if name.count == 2 {
                    short[name.last!] = option.preferredName
                }
            }
        }
        var found: [ProgramOptions.Action] = []
        func record(_ option: String, _ value: String) {
            if option == "--command" { found.append(.command(value)) }
            if option == "--file" { found.append(.file(value)) }
        }
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if word == "--" { break }
            if word.hasPrefix("--") {
                let equals = word.firstIndex(of: "=")
                let name = String(word[..<(equals ?? word.endIndex)])
                guard let option = long[name] else { continue }
                if let equals {
                    record(option, String(word[word.index(after: equals)...]))
                } else if index < arguments.count {
                    record(option, arguments[index])
                    index += 1
                }
            } else if word.hasPrefix("-") && word.count > 1 {
                let letters = Array(word.dropFirst())
                for (position, letter) in letters.enumerated() {
                    guard let option = short[letter] else { continue }
                    let joined = String(letters[(position + 1)...])
                    if !joined.isEmpty {
                        record(option, joined)
                    } else if index < arguments.count {
                        record(option, arguments[index])
                        index += 1
                    }
                    break
                }
            }
        }
        let recovered = (found.compactMap { if case .command(let text) = $0 { text } else { nil } },
                         found.compactMap { if case .file(let path) = $0 { path } else { nil } })
        guard recovered.0 == commands, recovered.1 == files else {
            throw ValidationError("cannot tell the order of -c and -f in these arguments; give them as separate words")
        }
        return found
    }
}

/// What the declaration says about itself, read from ArgumentParser's help dump (the JSON
/// behind `--experimental-dump-help`): the same source `--help` is written from.
struct Declaration {
    struct Option {
        /// Spellings, long first (`--command`, `-c`).
        var names: [String]
        var preferredName: String
        var valueName: String?
        var takesValue: Bool
        var isPositional: Bool
        var help: String
        var isHidden: Bool
    }

    var abstract: String
    var discussion: String
    var options: [Option]

    static func current() throws -> Declaration {
        let dump: String
        do {
            _ = try ProgramArguments.parseAsRoot(["--experimental-dump-help"])
            throw ValidationError("the argument declaration gave no help dump")
        } catch {
            dump = ProgramArguments.fullMessage(for: error)
        }
        guard let root = try JSONSerialization.jsonObject(with: Data(dump.utf8)) as? [String: Any],
              let command = root["command"] as? [String: Any] else {
            throw ValidationError("the argument declaration's help dump is not the JSON expected")
        }
        let arguments = command["arguments"] as? [[String: Any]] ?? []
        let options = arguments.map { argument -> Option in
            let kind = argument["kind"] as? String ?? ""
            let names = (argument["names"] as? [[String: Any]] ?? []).compactMap { name -> String? in
                guard let text = name["name"] as? String else { return nil }
                return (name["kind"] as? String) == "long" ? "--" + text : "-" + text
            }.sorted { $0.hasPrefix("--") && !$1.hasPrefix("--") }
            let preferred = (argument["preferredName"] as? [String: Any]).flatMap { name -> String? in
                guard let text = name["name"] as? String else { return nil }
                return (name["kind"] as? String) == "long" ? "--" + text : "-" + text
            }
            return Option(names: names, preferredName: names.first { $0.hasPrefix("--") } ?? preferred ?? "",
                          valueName: argument["valueName"] as? String, takesValue: kind == "option",
                          isPositional: kind == "positional", help: argument["abstract"] as? String ?? "",
                          isHidden: !(argument["shouldDisplay"] as? Bool ?? true))
        }
        return Declaration(abstract: command["abstract"] as? String ?? "", discussion: command["discussion"] as? String ?? "",
                           options: options)
    }
}
