#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif
import StructureModel

/// wb's command line, as fixed in COMMANDS.md: parse the flags, open the paths, run
/// `-c`/`-f` in order, then the shell or stdin. Returns the exit status.
public enum Program {
    public static let version = "0.1.0"

    public static let usage = """
        usage: wb [OPTIONS] [PATH ...]

        A workbench for RoomPlan scans: open rooms and structures, inspect and fix them,
        save them back without losing a byte you did not change.

          PATH ...              opened at start: a RoomPlan room or structure JSON (the kind is
                                found from the content)
          -c, --command CMD     run CMD; repeatable, in order
          -f, --file SCRIPT     run a command file; repeatable, in order with -c ("-" is stdin)
          -i, --interactive     stay in the shell after -c / -f
          -k, --keep-going      in scripts: report an error and go on (the exit status is still 1)
          -x, --echo            print each command before it runs
          -q, --quiet           no banner, no informational lines
              --json            machine-readable output from every command that prints data
              --dry-run         never write a file; save says what it would have written
          -D, --define NAME=VALUE   a variable for scripts, used as $NAME
              --each            run the -c/-f commands once per PATH, each in a fresh session with
                                that PATH open (batch fix-ups; $FILE names it)
              --jobs N          with --each: N files at a time (default: the number of cores)
              --files-from FILE with --each: the paths, one per line, from FILE ("-" for stdin)
              --shard I/N       with --each: only every N-th path, starting at the I-th (1-based)
              --recover         replay the journal an interrupted session left beside PATH, without asking
              --version, --help

        With no -c/-f, wb reads commands from the terminal (or from stdin when it is not one).
        At the terminal, wb keeps a journal of your edits (.NAME.wb-journal beside the first
        PATH) until you save or quit, so that a session that dies can be replayed.
        Exit status: 0 everything ran; 1 a command failed (with --each: a file failed);
        2 the invocation was wrong.
        Type 'help' inside wb for the commands.
        """

    enum Action: Sendable {
        case command(String, index: Int)
        case file(String)
    }

    struct Invocation {
        var options = ShellOptions()
        var paths: [String] = []
        var actions: [Action] = []
        var interactive = false
        var variables: [String: String] = [:]
        var each = false
        var jobs: Int?
        var filesFrom: String?
        var shard: Shard?
        var recover = false
    }

    struct UsageError: Error {
        var message: String
    }

    static func parse(_ arguments: [String]) throws -> Invocation? {
        var result = Invocation()
        var rest = arguments[...]
        var commandCount = 0
        func value(_ flag: String, attached: String?) throws -> String {
            if let attached { return attached }
            guard let next = rest.popFirst() else { throw UsageError(message: "\(flag) needs a value") }
            return next
        }
        func define(_ text: String) throws {
            guard let equals = text.firstIndex(of: "="), isVariableName(String(text[..<equals])) else {
                throw UsageError(message: "-D needs NAME=VALUE, got '\(text)'")
            }
            let value = String(text[text.index(after: equals)...])
            guard value.utf8.count <= Limits.maximumBytes else {
                throw UsageError(message: "-D \(text[..<equals]): a variable's value may be at most \(Limits.description)")
            }
            result.variables[String(text[..<equals])] = value
        }
        while let argument = rest.popFirst() {
            if argument == "--" {
                result.paths.append(contentsOf: rest)
                break
            }
            if argument.hasPrefix("--") {
                var name = argument
                var attached: String?
                if let equals = argument.firstIndex(of: "=") {
                    name = String(argument[..<equals])
                    attached = String(argument[argument.index(after: equals)...])
                }
                switch name {
                case "--command":
                    result.actions.append(.command(try value(name, attached: attached), index: commandCount))
                    commandCount += 1
                case "--file": result.actions.append(.file(try value(name, attached: attached)))
                case "--define": try define(try value(name, attached: attached))
                case "--jobs":
                    let text = try value(name, attached: attached)
                    guard let jobs = Int(text), jobs >= 1 else {
                        throw UsageError(message: "--jobs needs a whole number of at least 1, got '\(text)'")
                    }
                    result.jobs = jobs
                case "--files-from": result.filesFrom = try value(name, attached: attached)
                case "--shard":
                    let text = try value(name, attached: attached)
                    guard let shard = Shard(text) else {
                        throw UsageError(message: "--shard needs I/N with 1 <= I <= N (for example 2/4), got '\(text)'")
                    }
                    result.shard = shard
                case "--each", "--recover":
                    guard attached == nil else { throw UsageError(message: "\(name) takes no value") }
                    if name == "--each" { result.each = true } else { result.recover = true }
                case "--interactive", "--keep-going", "--echo", "--quiet", "--json", "--dry-run", "--version", "--help":
                    guard attached == nil else { throw UsageError(message: "\(name) takes no value") }
                    switch name {
                    case "--interactive": result.interactive = true
                    case "--keep-going": result.options.keepGoing = true
                    case "--echo": result.options.echo = true
                    case "--quiet": result.options.quiet = true
                    case "--json": result.options.json = true
                    case "--dry-run": result.options.dryRun = true
                    case "--version":
                        return nil
                    default:
                        throw HelpRequested()
                    }
                default:
                    throw UsageError(message: "unknown option '\(name)'")
                }
                continue
            }
            if argument.hasPrefix("-") && argument.count > 1 {
                var letters = Array(argument.dropFirst())
                while !letters.isEmpty {
                    let letter = letters.removeFirst()
                    let attached = letters.isEmpty ? nil : String(letters)
                    switch letter {
                    case "c":
                        result.actions.append(.command(try value("-c", attached: attached), index: commandCount))
                        commandCount += 1
                        letters = []
                    case "f":
                        result.actions.append(.file(try value("-f", attached: attached)))
                        letters = []
                    case "D":
                        try define(try value("-D", attached: attached))
                        letters = []
                    case "i": result.interactive = true
                    case "k": result.options.keepGoing = true
                    case "x": result.options.echo = true
                    case "q": result.options.quiet = true
                    case "h": throw HelpRequested()
                    default: throw UsageError(message: "unknown option '-\(letter)'")
                    }
                }
                continue
            }
            result.paths.append(argument)
        }
        try result.checkCombinations()
        return result
    }

    struct HelpRequested: Error {}

    static func isVariableName(_ text: String) -> Bool { isName(text) }

    /// Runs wb with `arguments` (without the program name); `faults` makes saves fail on
    /// purpose, for tests.
    public static func main(_ arguments: [String], output: OutputSink = StandardOutput(),
                            faults: WriteFaults = WriteFaults(),
                            stdinIsTerminal: Bool = isatty(0) == 1,
                            readStandardInput: () throws -> [UInt8] = readStandardInputBytes) -> Int32 {
        let invocation: Invocation
        do {
            guard let parsed = try parse(arguments) else {
                output.write("wb \(version)\n")
                return 0
            }
            invocation = parsed
        } catch is HelpRequested {
            output.write(usage + "\n")
            return 0
        } catch let error as UsageError {
            output.writeError("wb: \(error.message.escapingControls) (see wb --help)\n")
            return 2
        } catch {
            output.writeError("wb: \("\(error)".escapingControls)\n")
            return 2
        }

        var options = invocation.options
        options.faults = faults
        let shell = Shell(options: options, output: output)
        shell.variables = invocation.variables

        // Script files are read before anything runs: an unreadable one is a bad invocation.
        // `-f -` is stdin, said explicitly; it can be read once.
        var scripts: [String: String] = [:]
        for case .file(let path) in invocation.actions where scripts[path] == nil {
            do {
                scripts[path] = path == "-" ? try Shell.scriptText(readStandardInput(), source: "-") : try shell.readScript(path, at: nil)
            } catch let failure as CommandFailure {
                output.writeError("wb: \(failure.message.escapingControls)\n")
                return 2
            } catch let error as ScriptError {
                shell.report(error)
                return 2
            } catch {
                output.writeError("wb: \("\(path): \(error)".escapingControls)\n")
                return 2
            }
        }

        if invocation.each {
            let batch = Batch(invocation: invocation, options: options, scripts: scripts, output: output)
            return batch.run()
        }

        let readsStandardInputScript = scripts["-"] != nil
        let runsScripts = !invocation.actions.isEmpty
        let wantsShell = invocation.interactive || !runsScripts
        if wantsShell && stdinIsTerminal && !invocation.options.quiet {
            output.write("wb \(version) — type 'help' for the commands, Ctrl-D to leave\n")
        }

        var status: Int32 = 0
        for path in invocation.paths where !shell.openFile(path) {
            status = 1
        }
        if status != 0 && (runsScripts || !stdinIsTerminal || invocation.recover) {
            // Commands written for these files must not run against a partial session.
            return status
        }

        // A journal beside the first file: an interactive session records into one; one left
        // by a session that died is offered for replay (or replayed with --recover).
        let interactiveSession = wantsShell && stdinIsTerminal
        let journals = JournalStart.prepare(shell: shell, paths: status == 0 ? invocation.paths : [],
                                            recover: invocation.recover, interactive: interactiveSession) { question in
            output.write(question)
            (output as? StandardOutput)?.flush()
            return ["y", "yes"].contains(readTerminalLine().trimmingBlanks().lowercased())
        }
        if journals.refused { return 1 }
        shell.journal = journals.journal
        defer { shell.journal?.close() }

        status = runActions(invocation.actions, scripts: scripts, in: shell)

        if wantsShell && !shell.quitRequested && (status == 0 || invocation.interactive) {
            if stdinIsTerminal {
                let interactiveStatus = InteractiveShell(shell: shell).run()
                if interactiveStatus != 0 { status = interactiveStatus }
                // Left by quit or Ctrl-D: nothing to recover.
                shell.journal?.remove()
            } else if readsStandardInputScript {
                // stdin was the -f script, read to its end already.
            } else {
                // Standard input is read as a script file is: the same limit, BOM, NUL and UTF-8 rules.
                do {
                    let text = try Shell.scriptText(readStandardInput(), source: "-")
                    if !shell.run(script: text, source: "-") { status = 1 }
                } catch let error as ScriptError {
                    shell.report(error)
                    status = 1
                } catch let failure as CommandFailure {
                    output.writeError("wb: \(failure.message.escapingControls)\n")
                    status = 1
                } catch {
                    output.writeError("wb: -: \(error)\n")
                    status = 1
                }
            }
        }
        if shell.quitRequested { shell.journal?.remove() }
        if let replayed = journals.replayed {
            if shell.session.hasUnsavedChanges {
                shell.warn("the recovered edits are not saved yet; the journal \(replayed.path) stays (wb --recover replays it again)")
                replayed.release()
            } else {
                replayed.remove()
            }
        }

        if !shell.isInteractive && shell.session.hasUnsavedChanges && !shell.quitRequested {
            let names = shell.session.modifiedNames.joined(separator: ", ")
            shell.output.writeError("wb: note: unsaved changes in \(names.escapingControls) were not written (use save)\n")
        }
        if let standard = output as? StandardOutput {
            standard.flush()
            // A listing cut short (a full disk behind `> FILE`) is a failure, not a success
            // with less data; a closed pipe ends wb by SIGPIPE first, as is the custom.
            if let code = standard.failure {
                output.writeError("wb: cannot write to standard output: \(FileIO.describe(errno: code)); what was printed is incomplete\n")
                status = 1
            }
        }
        return status
    }

    /// Runs the `-c` and `-f` actions in order (each `-f` file one undo step), stopping at
    /// the first that fails unless `-k`. Returns the exit status they give.
    static func runActions(_ actions: [Action], scripts: [String: String], in shell: Shell) -> Int32 {
        var status: Int32 = 0
        for action in actions {
            if shell.quitRequested { break }
            let succeeded: Bool
            switch action {
            case .command(let text, _):
                succeeded = shell.run(script: text, source: "-c")
                shell.journalCheckpoint()
            case .file(let path):
                // A script file is one undoable step.
                shell.sourceStack = [path]
                shell.beginGroup(text: "-f \(path)")
                succeeded = shell.run(script: scripts[path] ?? "", source: path)
                shell.endGroup()
                shell.sourceStack = []
            }
            if !succeeded {
                status = 1
                if !shell.options.keepGoing { break }
            }
        }
        return status
    }

    /// One line typed at the terminal, read a byte at a time so that nothing after it is
    /// taken from the line editor that reads next.
    static func readTerminalLine() -> String {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count < 4096 {
            let count = read(0, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 || byte == 0x0A { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The most wb reads as one script (a file, or stdin): far above any script a person
    /// or a program writes, and a clear error rather than memory running out when stdin
    /// is a device that never ends.
    public static let scriptLimit = 64 << 20

    /// Standard input's bytes, at most `scriptLimit` of them.
    public static func readStandardInputBytes() throws -> [UInt8] {
        do {
            return try FileIO.readStream(0, name: "-", limit: scriptLimit)
        } catch {
            throw CommandFailure("cannot read the script on standard input: \(error.message)", at: nil)
        }
    }
}
