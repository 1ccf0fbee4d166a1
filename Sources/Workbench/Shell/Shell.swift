import StructureModel

/// How the shell behaves, from the command line.
public struct ShellOptions: Sendable {
    public var json = false
    public var dryRun = false
    public var quiet = false
    public var echo = false
    public var keepGoing = false
    /// Whether output longer than the screen goes through the pager (on a terminal only):
    /// `--no-pager` and `pager off` turn it off.
    public var pager = true
    /// Where saves fail on purpose (tests of crashes and full disks); none normally.
    public var faults = WriteFaults()
    /// Saves leave flushing to the disk to whoever runs the shell (a batch flushes once, at
    /// its end); each save is atomic all the same.
    public var defersFlush = false

    public init() {}
}

/// The wb interpreter: a session, the command table, variables, and the rules for
/// running commands from any source (prompt, `-c`, `-f`, stdin, `source`) the same way.
public final class Shell {
    public var session = Session()
    public var options: ShellOptions
    public var variables: [String: String] = [:]
    /// Where commands write: the sink given, behind `TerminalSafeOutput`.
    public let output: OutputSink
    /// The sink given, for the error labels the shell colours itself.
    let sink: OutputSink
    public private(set) var commands: [CommandSpec] = []
    /// Set by `quit`; the caller stops reading input.
    public var quitRequested = false
    /// Whether a person is at the prompt (changes how `quit` guards unsaved work).
    public var isInteractive = false
    /// Asks the person a yes/no question (the interactive shell supplies it).
    public var confirm: ((String) -> Bool)?
    /// Whether the person asked to stop what is running (Ctrl-C in the interactive shell).
    /// Polled before every command of a script, so a script stops between two commands,
    /// never inside one: what it did so far stays done and is one undo step (the script's).
    public var interruptRequested: () -> Bool = { false }
    /// Set once an interruption has been reported, so nested scripts unwind quietly.
    var interruptReported = false
    /// Scripts being run by `source`, innermost last, to refuse cycles.
    var sourceStack: [String] = []
    /// What the last `align ROOM auto` found (its candidates, motions from where the room was),
    /// which candidate is applied (nil when the room was left where it was), and the session's
    /// revision then: `align ROOM next` goes on from there only if nothing changed since (after
    /// an undo it undid a move again that was already undone, and put the room 18 m off).
    /// `bySession` is the motion by which the room was put where its scan session puts it
    /// (candidates not searched yet: `next` searches from where the room was before).
    var lastAutoAlignment: (room: Identity, candidates: [Placement], applied: Int?, revision: Int, bySession: RigidMotion?)?
    /// Put before every located error (`wb: PREFIX fix.wb:3:7: error: …`): a batch names
    /// the file whose script failed.
    public var messagePrefix = ""
    /// The first error reported, as one line (`fix.wb:3:7: MESSAGE`, after the prefix): a
    /// batch's summary shows it for each failed file.
    public private(set) var firstError: String?
    /// How many files this shell has written (saves, exports): a batch tells a changed file
    /// from an unchanged one by it.
    public internal(set) var filesWritten = 0
    /// What the export being run may replace (see `checkReplaceable`): set by `export` for
    /// the length of one command.
    var exportReplaces: (writing: RoomPlanDocument?, force: Bool) = (nil, false)
    /// Where `export structure` wrote a document of this session that has no file of its own
    /// yet (a merge result), with the file as written: `save` then replaces that file as its
    /// own (it refused: "exists and is not ab").
    var exportedUnsaved: [String: (file: Int, stamp: FileStamp)] = [:]
    /// The state each structure `merge` made was in when made (by file id): edited since when
    /// its state is another (see `merge`).
    var mergedStates: [Int: Int] = [:]
    /// The files each structure `merge` made was made from, with the state each was in once
    /// merged (by the new file's id): one edited since leaves the merge result behind it.
    var mergedFrom: [Int: [Int: Int]] = [:]
    /// In a batch: claims a path this file's script is about to write, and says why not when
    /// another file of the batch wrote it already (nil: go ahead).
    public var claimWrite: (@Sendable (String) -> String?)?
    /// In a batch, once a command has failed, commands that write files are refused, so a
    /// file whose script failed (with -k) is left as it was rather than saved half fixed.
    public var refusesWritesAfterFailure = false
    /// The files named on the command line of a run with commands (-c, -f, not -i) are opened
    /// with their summaries on stderr, in text (none with --json: `summary --json` gives them):
    /// stdout carries only what the commands print (`wb FILE -c "export structure -" > out.json`
    /// wrote the summary into the JSON).
    public var startupSummariesAside = false
    /// The crash journal of an interactive session (nil elsewhere): edits are recorded in it
    /// before they run.
    var journal: Journal?
    /// The texts of the scripts being run as one undo step, outermost first (the journal
    /// records where they begin and end).
    private var groupTexts: [String] = []

    public init(options: ShellOptions = ShellOptions(), output: OutputSink) {
        self.options = options
        self.sink = output
        self.output = TerminalSafeOutput(output)
        commands = Shell.standardCommands()
    }

    public func command(named name: String) -> CommandSpec? {
        commands.first { $0.name == name }
    }

    // MARK: Running scripts

    /// Runs every command in `text`. Stops at the first failure unless `-k`; returns
    /// whether every command succeeded.
    @discardableResult
    public func run(script text: String, source: String, firstLine: Int = 1) -> Bool {
        let lexer = Lexer(source: source)
        let lines: [Lexer.LogicalLine]
        do {
            lines = try lexer.logicalLines(text, firstLine: firstLine)
        } catch {
            report(error)
            return false
        }
        var succeeded = true
        for line in lines {
            if quitRequested { break }
            let commands: [CommandText]
            do {
                commands = try lexer.commands(in: line)
            } catch {
                report(error)
                succeeded = false
                if options.keepGoing { continue }
                return false
            }
            for command in commands {
                if quitRequested { break }
                if stopsForInterrupt(before: command) { return false }
                if !execute(command) {
                    succeeded = false
                    if !options.keepGoing { return false }
                }
            }
        }
        return succeeded
    }

    /// Whether Ctrl-C was pressed: then the interruption is reported (once, however deeply
    /// scripts are nested) and every script running stops here.
    private func stopsForInterrupt(before command: CommandText) -> Bool {
        guard interruptReported || interruptRequested() else { return false }
        if !interruptReported {
            interruptReported = true
            report(ScriptError("interrupted (Ctrl-C) before this command; what ran before it stays done, as one step "
                               + "that undo takes back", at: command.location, lineText: command.lineText))
        }
        return true
    }

    /// Forgets a Ctrl-C that has been dealt with (the prompt is back).
    public func clearInterrupt() {
        interruptReported = false
    }

    /// Runs one command, reporting any error. Returns whether it succeeded.
    @discardableResult
    public func execute(_ command: CommandText) -> Bool {
        // What the command prints may be held back for the pager (see `OutputSink`).
        sink.beginCommand(paging: options.pager)
        defer { sink.endCommand() }
        do {
            try perform(command)
            return true
        } catch is ScriptAlreadyReported {
            return false
        } catch let error as ScriptError {
            report(error)
        } catch let failure as CommandFailure {
            let location = failure.at?.location ?? command.location
            report(ScriptError(failure.message, at: location, lineText: lineText(of: command, at: location)))
        } catch {
            report(ScriptError("\(error)", at: command.location, lineText: command.lineText))
        }
        return false
    }

    private func lineText(of command: CommandText, at location: ScriptLocation) -> String {
        let offset = location.line - command.startLine
        return offset >= 0 && offset < command.physicalLines.count ? command.physicalLines[offset] : command.lineText
    }

    private func perform(_ command: CommandText) throws {
        var budget = Limits.maximumBytes
        var words: [Argument] = []
        words.reserveCapacity(command.words.count)
        for word in command.words {
            words.append(try expand(word, budget: &budget))
        }
        guard let nameWord = words.first else { return }
        if options.echo {
            output.writeError("+ \(command.text)\n")
        }
        guard let spec = self.command(named: nameWord.text) else {
            throw CommandFailure(unknownCommandMessage(nameWord.text), at: nameWord)
        }
        let end = endLocation(of: command)
        var invocation = try spec.bind(shell: self, name: nameWord, words: Array(words.dropFirst()),
                                       text: command.text, end: end)
        try run(spec, &invocation)
    }

    /// Runs a bound command: refused when it writes and the batch has seen a failure;
    /// recorded in the journal before it runs when it may change the session.
    func run(_ spec: CommandSpec, _ invocation: inout Invocation) throws {
        if invocation.help {
            output.write(spec.helpText)
            return
        }
        if invocation.json && !options.json {
            options.json = true
            defer { options.json = false }
            return try run(spec, &invocation)
        }
        if spec.writesFiles && refusesWritesAfterFailure, let firstError {
            throw CommandFailure("not written: an earlier command of this script failed (\(firstError)); "
                                 + "a batch fixes a file whole or not at all", at: invocation.name)
        }
        guard let journal, Journal.records(spec.name) else {
            // Only a command that writes files, and only with a journal, is watched (not every
            // `ls` of a long script).
            guard let journal, spec.writesFiles else {
                try spec.run(&invocation)
                return
            }
            let stamps = session.files.map(\.stamp), stores = session.workspace.stores.map(\.isModified)
            try spec.run(&invocation)
            // A save that wrote an open file (or store) in place and leaves edits unsaved, or is
            // inside a script that goes on: the journal can no longer replay the session from
            // the files on disk. Said now, not found out after a crash. (A copy saved elsewhere
            // changes no file the journal starts from.)
            let wroteInPlace = session.files.map(\.stamp) != stamps || session.workspace.stores.map(\.isModified) != stores
            if wroteInPlace, session.hasUnsavedChanges || !groupTexts.isEmpty, journal.noteSaveLeavingEdits() {
                let unsaved = session.files.filter(\.isModified).map(\.name)
                warn("after this save the crash journal cannot bring back "
                     + (unsaved.isEmpty ? "edits made after it" : "the unsaved edits of " + unsaved.joined(separator: ", "))
                     + " if wb is killed: save them too")
            }
            return
        }
        journal.record(invocation, spec: spec)
        let firstNew = session.workspace.nextFileID
        defer {
            journal.noteHistory(of: session, after: spec.name)
            // Files the command opened, as they were: a replay refuses files changed since.
            for file in session.files where file.id >= firstNew {
                if let digest = file.contentDigest { journal.recordOpened(path: file.path, digest: digest) }
            }
            if let failure = journal.takeWriteFailure() { warn(failure) }
        }
        do {
            try spec.run(&invocation)
            journal.recordDone()
        } catch {
            journal.recordFailure()
            throw error
        }
    }

    /// Starts a script that is one undo step (`-f`, `source`), telling the journal.
    func beginGroup(text: String) {
        session.beginGroup(text: text)
        groupTexts.append(text)
        journal?.beginGroup(text: text)
    }

    /// Ends the innermost script begun with `beginGroup`.
    func endGroup() {
        session.endGroup()
        if !groupTexts.isEmpty { groupTexts.removeLast() }
        journal?.endGroup()
        journalCheckpoint()
    }

    /// After a command at the prompt (or the end of a script): once a save has left nothing
    /// unsaved, the journal starts afresh from the files as they now are on disk. (Not when
    /// an undo goes back to what is on disk: the journal would then lose the redo.)
    func journalCheckpoint() {
        guard let journal, groupTexts.isEmpty, session.saves > journal.savesAtStart, !session.hasUnsavedChanges else { return }
        journal.restart(from: self)
    }

    private func endLocation(of command: CommandText) -> ScriptLocation {
        guard let last = command.words.last else { return command.location }
        return ScriptLocation(source: last.location.source, line: last.location.line,
                              column: last.location.column + last.rawText.count + (last.quoted ? 2 : 0) + 1)
    }

    /// The word with its variables replaced. `budget` is what the command may still grow to
    /// (in UTF-8 bytes): `define x "$x$x"` repeated would otherwise double its way to
    /// gigabytes, so a command longer than `Limits.maximumBytes` is refused at the variable
    /// that makes it so, before the text is built.
    func expand(_ word: Word, budget: inout Int) throws -> Argument {
        var text = ""
        for part in word.parts {
            switch part {
            case .text(let literal):
                budget -= literal.utf8.count
                if budget < 0 {
                    throw ScriptError("this command is longer than \(Limits.description) with its variables replaced; "
                                      + "a command may be at most that", at: word.location)
                }
                text += literal
            case .variable(let name, let line, let column):
                let location = ScriptLocation(source: word.location.source, line: line, column: column)
                guard let value = variables[name] else {
                    let known = variables.keys.sorted()
                    let hint = known.isEmpty ? "define one with -D \(name)=VALUE or 'define \(name) VALUE'"
                        : nearest(name, among: known).map { "did you mean $\($0)?" } ?? "defined: " + known.joined(separator: ", ")
                    throw ScriptError("$\(name) is not defined (\(hint))", at: location)
                }
                budget -= value.utf8.count
                if budget < 0 {
                    throw ScriptError("$\(name) would make this command \(Limits.maximumBytes - budget) bytes long; "
                                      + "a command may be at most \(Limits.description)", at: location)
                }
                text += value
            }
        }
        return Argument(text: text, location: word.location, quoted: word.quoted)
    }

    func unknownCommandMessage(_ name: String) -> String {
        let suggestions = nearestAll(name, among: commands.map(\.name))
        if suggestions.isEmpty { return "unknown command '\(name)' (type 'help' for the list)" }
        let quoted = suggestions.prefix(3).map { "'\($0)'" }
        return "unknown command '\(name)' (did you mean \(quoted.joined(separator: " or "))?)"
    }

    // MARK: Reporting

    /// `wb: SOURCE:LINE:COL: error: MESSAGE`, then the line and a caret under the column.
    /// Every piece that may come from a file (the script's name, the message, the line) is
    /// shown with its control characters escaped.
    public func report(_ error: ScriptError) {
        if firstError == nil { firstError = "\(messagePrefix)\(error.location): \(error.message)".escapingControls }
        var text = "wb: \(messagePrefix.escapingControls)\(error.location.description.escapingControls): "
            + "\(paint("error:", .error)) \(error.message.escapingControls)\n"
        if let line = error.lineText, !line.isEmpty {
            text += caretDisplay(line: line, column: error.location.column)
        }
        sink.writeError(text)
    }

    public func reportLoadError(_ error: LoadError, prefix: String = "") {
        var text: String
        if firstError == nil {
            let located = error.location.map { "\(error.path):\($0.line):\($0.column)" } ?? error.path
            firstError = "\(prefix)\(located): \(error.message)".escapingControls
        }
        if let location = error.location {
            let path = location.keyPath.isEmpty ? "" : " (at \(location.keyPath))"
            text = "wb: \(prefix)\(error.path):\(location.line):\(location.column): ".escapingControls
                + "\(paint("error:", .error)) \((error.message + path).escapingControls)\n"
            if let line = error.lineText, !line.isEmpty {
                text += caretDisplay(line: line, column: location.column)
            }
        } else {
            text = "wb: \(prefix)\(error.path): ".escapingControls + "\(paint("error:", .error)) \(error.message.escapingControls)\n"
        }
        sink.writeError(text)
    }

    /// An error that belongs to no line of a script (`wb: error: MESSAGE`).
    public func reportProblem(_ message: String) {
        if firstError == nil { firstError = message.escapingControls }
        sink.writeError("wb: \(paint("error:", .error)) \(message.escapingControlsKeepingLines)\n")
    }

    public func warn(_ message: String) {
        sink.writeError("wb: \(paint("warning:", .warning)) \(message.escapingControlsKeepingLines)\n")
    }

    /// Informational lines go to standard error so that data on standard output stays
    /// clean for pipes; `-q` silences them.
    public func inform(_ message: String) {
        if !options.quiet { output.writeError(message.escapingControlsKeepingLines + "\n") }
    }

    /// Colour for standard error, only when it is a terminal that wants it.
    func paint(_ text: String, _ style: Style) -> String {
        output.colorsErrors ? style.apply(text) : text
    }

    /// The prompt: what is open, and `*` when something has unsaved changes.
    public var prompt: String { prompt(coloured: false) }

    /// The prompt, its `*` emphasised when `coloured`: the escape codes between libedit's
    /// markers (\u{1} … \u{2}) that tell it they take no room on the line.
    func prompt(coloured: Bool) -> String {
        let names = session.files.map(\.name.escapingControls)
        var shown = ""
        switch names.count {
        case 0: shown = ""
        case 1, 2: shown = " " + names.joined(separator: ",")
        default: shown = " \(names[0])+\(names.count - 1)"
        }
        let star = !session.hasUnsavedChanges ? "" : coloured
            ? "\u{1}\u{1B}[\(Style.unsaved.rawValue)m\u{2}*\u{1}\u{1B}[0m\u{2}" : "*"
        return "wb\(shown)\(star)> "
    }

    /// The offending line (a window of it when it is long) and a caret under `column`.
    /// Tabs show as blanks; other control characters as escapes, the caret moved along by
    /// the extra width they take.
    func caretDisplay(line: String, column: Int) -> String {
        var characters: [Character] = []
        var caret = 0
        for (index, character) in line.enumerated() {
            if index == column - 1 { caret = characters.count }
            if character == "\t" {
                characters.append(" ")
            } else if character.unicodeScalars.contains(where: \.isTerminalControl) {
                characters.append(contentsOf: String(character).escapingControls)
            } else {
                characters.append(character)
            }
        }
        if column - 1 >= line.count { caret = characters.count + (column - 1 - line.count) }
        let width = 100
        var start = 0
        if characters.count > width {
            start = max(0, min(caret - width / 2, characters.count - width))
        }
        let end = min(characters.count, start + width)
        let window = String(characters[start..<end])
        let prefix = start > 0 ? "..." : ""
        let suffix = end < characters.count ? "..." : ""
        // Under it on the screen: CJK and emoji before it take two columns each (the caret
        // stood two columns left of a NaN after "漢🏠").
        let before = caret > start ? displayWidth(String(characters[start..<min(end, caret)])) + max(0, caret - end) : 0
        let caretColumn = before + prefix.count
        return "    " + prefix + window + suffix + "\n    " + String(repeating: " ", count: caretColumn) + "^\n"
    }
}

/// Names within a small edit distance of `name`, closest first.
func nearestAll(_ name: String, among candidates: [String]) -> [String] {
    let lowered = name.lowercased()
    let scored = candidates.map { ($0, editDistance(lowered, $0.lowercased())) }
    let limit = max(1, min(3, name.count / 2))
    let prefixMatches = candidates.filter { $0.lowercased().hasPrefix(lowered) && !lowered.isEmpty }
    let close = scored.filter { $0.1 <= limit }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.map(\.0)
    var result: [String] = []
    for candidate in close + prefixMatches where !result.contains(candidate) { result.append(candidate) }
    return result
}

func nearest(_ name: String, among candidates: [String]) -> String? {
    nearestAll(name, among: candidates).first
}

