import Foundation
import StructureModel

/// What a session start decided about crash journals.
struct JournalStart {
    /// The journal the interactive session records into.
    var journal: Journal?
    /// A journal replayed without a prompt to follow (`wb --recover FILE -c …`): removed at
    /// the end once everything is saved, left otherwise.
    var replayed: FoundJournal?
    /// `--recover` was asked for and the journal could not be replayed: nothing may run.
    var refused = false

    /// Looks for a journal beside the first of `paths` (already open in `shell`) and deals
    /// with it: replays it (with `recover`, or when the person says yes at an interactive
    /// start), or says it is there and leaves it. An interactive session then records into
    /// a journal of its own (or the one it replayed, continued).
    static func prepare(shell: Shell, paths: [String], recover: Bool, interactive: Bool,
                        ask: (String) -> Bool) -> JournalStart {
        var start = JournalStart()
        guard let first = paths.first else { return start }
        let path = Journal.path(for: first)
        // --dry-run writes no file, a journal neither.
        var createsJournal = interactive && !shell.options.dryRun
        switch FoundJournal.look(at: path) {
        case .none:
            if recover { shell.inform("nothing to recover: there is no journal \(path)") }
        case .removedHeaderless:
            shell.inform("removed \(path): a journal a wb was killed before it had started (it held no command)")
            if recover { shell.inform("nothing to recover: the journal \(path) held no commands") }
        case .inUse:
            shell.warn("\(path) is the journal of another wb session editing \(first) now; "
                       + (interactive ? "this session keeps no crash journal" : "it is left alone"))
            if recover { start.refused = true }
            createsJournal = false
        case .unreadable(let problem):
            shell.warn("\(path) \(problem); it is left as it is"
                       + (interactive ? " and this session keeps no crash journal (remove it to have one)" : ""))
            if recover { start.refused = true }
            createsJournal = false
        case .found(let found):
            guard found.commandCount > 0 else {
                if let unreadable = found.unreadable {
                    // A line that does not read is no sign that nothing ran (such a journal was
                    // taken for an empty one and removed): it is said, and left as it is.
                    found.release()
                    shell.warn("\(path):\(unreadable.line): this line of the journal does not read, so nothing was replayed; "
                               + "it is left as it is" + (interactive ? " and this session keeps no crash journal (remove it to have one)" : ""))
                    if recover { start.refused = true }
                    createsJournal = false
                    break
                }
                // Started and never written to: nothing to recover.
                found.remove()
                if recover { shell.inform("nothing to recover: the journal \(path) held no commands") }
                break
            }
            let about = "\(first) has a journal of a session that ended without quitting (\(found.header.started), "
                + "pid \(found.header.pid)): \(found.commandCount) command\(found.commandCount == 1 ? "" : "s"), "
                + "the last '\(found.lastCommandText ?? "")'"
            if let reason = mismatch(found, shell: shell) {
                found.release()
                if recover {
                    shell.reportProblem("\(about); it cannot be replayed: \(reason). It is left at \(path)")
                    start.refused = true
                    createsJournal = false
                } else if interactive {
                    let stale = path + ".stale"
                    rename(path, stale)
                    shell.warn("\(about); it is not replayed: \(reason). It is kept as \(stale) (a line per command, to read)")
                } else {
                    shell.warn("\(about); it cannot be replayed: \(reason). It is left at \(path)")
                }
                break
            }
            var replays = recover
            if !replays && interactive {
                shell.output.writeError("wb: \(about.escapingControls).\n")
                replays = ask("Replay it? The files on disk stay as they are until you save. [y/N] ")
            }
            guard replays else {
                found.release()
                if interactive {
                    shell.warn("the journal \(path) is left as it is: wb --recover \(first) replays it later (remove it to "
                               + "forget it); this session keeps no crash journal")
                } else {
                    shell.warn("\(about). 'wb --recover \(first)' replays it; it is left as it is")
                }
                createsJournal = false
                break
            }
            var problems = replay(found, into: shell)
            if let unreadable = found.unreadable {
                problems.append("\(path):\(unreadable.line): this line of the journal does not read, so it and the "
                                + "\(unreadable.lines - 1) line\(unreadable.lines == 2 ? "" : "s") after it were not replayed")
            }
            for problem in problems { shell.warn(problem) }
            shell.inform("replayed \(found.commandCount) command\(found.commandCount == 1 ? "" : "s") from \(path)"
                         + (problems.isEmpty ? "" : " (\(problems.count) not as before, see above)")
                         + "; the files on disk are unchanged until you save")
            if interactive {
                start.journal = Journal.resume(found)
            } else {
                start.replayed = found
            }
            createsJournal = false
        }
        if createsJournal {
            do {
                start.journal = try Journal.create(at: path, for: shell)
            } catch {
                shell.warn("this session keeps no crash journal: cannot write \(error.path): \(error.message)")
            }
        }
        return start
    }

    /// Why `found` cannot be replayed onto `shell`'s session as it was opened, or nil.
    static func mismatch(_ found: FoundJournal, shell: Shell) -> String? {
        // What the session did that no replay can redo is the reason to give first (a save that
        // left edits unsaved also changed a file on disk, which would be said instead).
        for item in found.entries {
            if case .unreplayable(let why) = item.entry {
                return "\(why), which a replay from the saved files cannot do (line \(item.line) of the journal)"
            }
        }
        let now = JournalHeader(shell: shell)
        let then = found.header
        if now.sources.map(\.path) != then.sources.map(\.path) {
            return "it was started with wb " + then.sources.map(\.path).joined(separator: " ") + " (open the same, in that order)"
        }
        for (source, was) in zip(now.sources, then.sources) where source.digest != was.digest {
            return "\(source.path) changed on disk since the journal was started"
        }
        if now.handles != then.handles {
            return "the handles a fresh open gives are not the ones the session used (elements were deleted or files "
                + "closed before its last save)"
        }
        for item in found.entries {
            guard case .opened(let path, let digest) = item.entry else { continue }
            let current = (try? FileIO.read(path)).map(ContentDigest.init)
            if current != digest { return "\(path), which the session opened, changed on disk since" }
        }
        return nil
    }

    /// Runs the journal's commands in `shell`'s session, quietly (their output was seen
    /// when they ran). Returns what went otherwise than it did then.
    static func replay(_ found: FoundJournal, into shell: Shell) -> [String] {
        var options = shell.options
        options.quiet = true
        options.echo = false
        let replayer = Shell(options: options, output: DiscardingOutput())
        replayer.session = shell.session
        var problems: [String] = []
        var depth = 0
        for (position, item) in found.entries.enumerated() {
            switch item.entry {
            case .command(let name, let arguments, let quoted, let flags, let values, let text):
                let location = ScriptLocation(source: found.path, line: item.line, column: 1)
                let outcome = found.entries[(position + 1)...].first { next in
                    if case .opened = next.entry { return false } else { return true }
                }?.entry
                switch outcome {
                case .failed?:
                    // A command that failed in the session changed nothing there: it is not run again
                    // (run, it may succeed now: an `open` of a file made since, an `align` a Ctrl-C
                    // stopped, and every later handle shifts).
                    continue
                case .crashed?:
                    // wb crashed in it: run again, it crashes again, and every recovery with it (an
                    // adversarial pass crashed wb, and then each --recover, so the edits before it
                    // could not be had back).
                    problems.append("\(location): '\(text)' was not replayed: wb crashed while it ran "
                                    + "(a bug in wb: please report it)")
                    continue
                default:
                    // Ran to its end; or killed half way, and then it is replayed whole (edits are
                    // all or nothing).
                    break
                }
                guard let spec = replayer.command(named: name) else {
                    problems.append("\(location): '\(text)' was not replayed: this wb has no command '\(name)'")
                    continue
                }
                // wb never journals a command that changes nothing in the session (save, export,
                // source, ...): one in a journal was put there by hand, and a replay does not
                // write files elsewhere or run scripts on its say.
                guard Journal.records(spec.name) else {
                    problems.append("\(location): '\(text)' was not replayed: wb never journals '\(spec.name)', so this line was not written by wb")
                    continue
                }
                var invocation = Invocation(shell: replayer, name: Argument(text: name, location: location), text: text)
                invocation.positionals = arguments.enumerated().map {
                    Argument(text: $0.element, location: location, quoted: quoted.contains($0.offset))
                }
                invocation.flags = Set(flags)
                invocation.values = values.mapValues { Argument(text: $0, location: location) }
                do {
                    try spec.run(&invocation)
                } catch {
                    let message = (error as? CommandFailure)?.message ?? (error as? ScriptError)?.message ?? "\(error)"
                    problems.append("\(location): '\(text)' failed when replayed: \(message)")
                }
            case .begin(let text):
                replayer.session.beginGroup(text: text)
                depth += 1
            case .end:
                if depth > 0 {
                    replayer.session.endGroup()
                    depth -= 1
                }
            case .failed, .done, .crashed, .opened, .unreplayable:
                break
            }
        }
        // A script the crash cut short: what it did is one step, as it would have been.
        while depth > 0 {
            replayer.session.endGroup()
            depth -= 1
        }
        shell.session = replayer.session
        shell.lastAutoAlignment = replayer.lastAutoAlignment
        return problems
    }
}

/// Output nobody reads (a journal's replay).
final class DiscardingOutput: OutputSink {
    func write(_ text: String) {}
    func writeError(_ text: String) {}
    var isTerminal: Bool { false }
}
