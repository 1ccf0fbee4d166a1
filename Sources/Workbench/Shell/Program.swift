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

    /// The outcome of reading the command line: options to run, or text to print and the
    /// status to exit with (help, version, a completion script, a bad invocation).
    enum Parsed {
        case run(ProgramOptions)
        case exit(output: String, error: String, status: Int32)
    }

    /// Parses `arguments` (without the program name) with the one declaration in
    /// `ProgramArguments`. A bad invocation is exit status 2, whatever ArgumentParser's own
    /// code for it (64 for a validation error).
    static func parse(_ arguments: [String]) -> Parsed {
        do {
            let arguments = try ProgramArguments.splittingJoinedValues(arguments)
            let parsed = try ProgramArguments.parseAsRoot(arguments)
            guard let declared = parsed as? ProgramArguments else {
                // -h, --help
                return .exit(output: ProgramArguments.helpMessage() + "\n", error: "", status: 0)
            }
            if declared.generateMan {
                do {
                    return .exit(output: try ManPage.render(), error: "", status: 0)
                } catch {
                    return .exit(output: "", error: "wb: cannot write the man page: \(error)\n", status: 1)
                }
            }
            return .run(try declared.options(from: arguments))
        } catch {
            let code = ProgramArguments.exitCode(for: error)
            if code == .success {
                // --help, --version, --generate-completion-script: text for standard output.
                var text = ProgramArguments.fullMessage(for: error)
                if !text.hasSuffix("\n") { text += "\n" }
                return .exit(output: text, error: "", status: 0)
            }
            var message = ProgramArguments.message(for: error)
            if let first = message.first { message = first.lowercased() + message.dropFirst() }
            if message.hasPrefix("error: ") { message.removeFirst("error: ".count) }
            return .exit(output: "", error: "wb: \(message.escapingControls) (see wb --help)\n", status: 2)
        }
    }

    /// Runs wb with `arguments` (without the program name); `faults` makes saves fail on
    /// purpose, for tests.
    public static func main(_ arguments: [String], output: OutputSink = StandardOutput(),
                            faults: WriteFaults = WriteFaults(),
                            stdinIsTerminal: Bool = isatty(0) == 1,
                            readStandardInput: () throws -> [UInt8] = readStandardInputBytes) -> Int32 {
        switch parse(arguments) {
        case .exit(let text, let error, let status):
            if !text.isEmpty { output.write(text) }
            if !error.isEmpty { output.writeError(error) }
            return status
        case .run(let options):
            return run(options, output: output, faults: faults, stdinIsTerminal: stdinIsTerminal,
                       readStandardInput: readStandardInput)
        }
    }

    /// Runs what `invocation` asks for: open the paths, run `-c`/`-f` in order, then the
    /// shell or stdin. Returns the exit status.
    static func run(_ invocation: ProgramOptions, output: OutputSink, faults: WriteFaults, stdinIsTerminal: Bool,
                    readStandardInput: () throws -> [UInt8]) -> Int32 {
        if let problem = invocation.combinationProblem {
            output.writeError("wb: \(problem.escapingControls) (see wb --help)\n")
            return 2
        }
        var options = invocation.shellOptions
        options.faults = faults
        options.pager = !invocation.noPager
        (output as? StandardOutput)?.color = invocation.color
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
        if wantsShell && stdinIsTerminal && !invocation.quiet {
            output.write("wb \(version) — type 'help' for the commands, Ctrl-D to leave\n")
        }

        var status: Int32 = 0
        shell.startupSummariesAside = runsScripts && !invocation.interactive
        for path in invocation.paths where !shell.openFile(path) {
            status = 1
        }
        shell.startupSummariesAside = false
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
    static func runActions(_ actions: [ProgramOptions.Action], scripts: [String: String], in shell: Shell) -> Int32 {
        var status: Int32 = 0
        // Errors name the script `-c` (COMMANDS.md's fixed form); several -c are numbered as
        // the lines of one script, so a line number still says which (the first line of the
        // third of three one-line -c is -c:3).
        var nextLine = 1
        for action in actions {
            if shell.quitRequested { break }
            let succeeded: Bool
            switch action {
            case .command(let text):
                succeeded = shell.run(script: text, source: "-c", firstLine: nextLine)
                nextLine += text.reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
                shell.journalCheckpoint()
            case .file(let path):
                // A script file is one undoable step.
                shell.sourceStack = [Shell.scriptKey(path)]
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
