#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif
import Foundation
import StructureModel

/// `wb --each`: the same commands once per path, each in a fresh session that starts with
/// that path open (as `wb -f fix.wb PATH` would, without the opening summary), `--jobs` of
/// them at a time on threads of this process. Each session writes into its own buffer; the
/// main thread prints each file's output whole when the file is done, keeps the counts, the
/// failures and a progress bar, and forgets everything else about the file, so memory
/// grows with the jobs, not with the files.
struct Batch {
    var invocation: ProgramOptions
    var options: ShellOptions
    var scripts: [String: String]
    var output: OutputSink

    /// The most files run at once, whatever `--jobs` says: with the paths on a pipe (how many
    /// is not known ahead) every job was a thread started at once, and `--jobs 1000000` spent
    /// half a minute starting threads for one file (and `--jobs` of Int.max overflowed).
    static let mostJobs = 1024

    /// What every session of the batch shares (read-only, so threads may share it).
    struct Plan: Sendable {
        /// The paths the batch's files wrote (see `WriteClaims`).
        let claims = WriteClaims()
        var options: ShellOptions
        var variables: [String: String]
        var actions: [ProgramOptions.Action]
        var scripts: [String: String]
        var isTerminal: Bool
        var colorsErrors: Bool
    }

    func run() -> Int32 {
        var listDescriptor: Int32 = -1
        if let list = invocation.filesFrom {
            if list == "-" {
                listDescriptor = 0
            } else {
                if FileIO.isDirectory(list) {
                    output.writeError("wb: --files-from \(list.escapingControls): is a folder, not a list of paths\n")
                    return 2
                }
                listDescriptor = open(list, O_RDONLY | O_CLOEXEC)
                if listDescriptor < 0 {
                    output.writeError("wb: --files-from \(list.escapingControls): \(FileIO.describe(errno: errno))\n")
                    return 2
                }
            }
        }
        defer { if listDescriptor > 0 { close(listDescriptor) } }
        let total = PathSource.count(paths: invocation.paths.count, listPath: invocation.filesFrom, shard: invocation.shard)
        let source = PathSource(paths: invocation.paths, listDescriptor: listDescriptor,
                                listName: invocation.filesFrom ?? "", shard: invocation.shard)
        let jobs = max(1, min(invocation.jobs ?? ProcessInfo.processInfo.activeProcessorCount, total ?? Int.max, Self.mostJobs))
        // Every save of the batch is atomic; the flush to the disk is made once, at the end
        // (below), not twice a file: on thousands of small files the waits for the disk are
        // most of the time.
        var sessionOptions = options
        sessionOptions.defersFlush = true
        let plan = Plan(options: sessionOptions, variables: invocation.variables, actions: invocation.actions, scripts: scripts,
                        isTerminal: output.isTerminal, colorsErrors: output.colorsErrors)
        // The paths of the command line are all known now: none may be written by another
        // file's script, even one that runs first (a list read as it goes is known as it goes).
        for (index, path) in invocation.paths.enumerated() where invocation.shard?.keeps(index + 1) ?? true {
            plan.claims.register(path, position: index + 1)
        }
        let queue = BatchQueue(source: source, workers: total == 0 ? 0 : jobs, pending: jobs * 2)
        let list = invocation.filesFrom ?? ""
        for _ in 0..<(total == 0 ? 0 : jobs) {
            let thread = Thread {
                while let (position, path, refusal) = queue.nextPath() {
                    switch refusal {
                    case .notUTF8(let line)?:
                        queue.deliver(Batch.refuseNotUTF8(path: path, position: position, list: list, line: line))
                    case .duplicate(let first)?:
                        queue.deliver(Batch.refuse(path: path, position: position,
                                                   "\(path.escapingControls) is the same file as path \(first) of the batch: "
                                                   + "not run on it again"))
                    case nil:
                        queue.deliver(Batch.runOne(path: path, position: position, plan: plan))
                    }
                }
                queue.workerFinished()
            }
            // Each session gets the stack a main thread has: deeply nested scripts and
            // expressions are refused by their own limits, well before 16 MiB.
            thread.stackSize = 16 << 20
            thread.start()
        }

        var tally = BatchTally()
        let progress = options.quiet || !output.errorIsTerminal ? nil : BatchProgressBar(total: total, output: output)
        let standard = output as? StandardOutput
        let clock = Clock()
        while let outcome = queue.take(waitingAtMost: progress == nil ? nil : 0.2) {
            guard let outcome else {
                progress?.draw(tally, seconds: clock.seconds)
                continue
            }
            // The bar is taken down only when something is printed where it is drawn.
            let printsOnTerminal = outcome.chunks.contains { $0.isError || output.isTerminal } || (options.json && output.isTerminal)
            if printsOnTerminal { progress?.clear() }
            emit(outcome)
            tally.add(outcome)
            standard?.flush()
            progress?.draw(tally, seconds: clock.seconds)
        }
        if tally.changed > 0 { sync() }
        progress?.draw(tally, seconds: clock.seconds, force: true)
        progress?.clear()
        if let problem = queue.sourceProblem {
            output.writeError("wb: \(paint("error:", "31")) --files-from \(problem.escapingControls)\n")
            tally.listFailed = true
        }
        summarize(tally, seconds: clock.seconds)
        return tally.failed > 0 || tally.listFailed ? 1 : 0
    }

    /// Runs the commands on one path in a session of its own. Called on a worker thread:
    /// everything it touches is its own, or the plan, which no one changes.
    /// A line of the list that is not UTF-8: a failed file, said so, nothing opened.
    static func refuseNotUTF8(path shown: String, position: Int, list: String, line: Int) -> BatchOutcome {
        refuse(path: shown, position: position,
               "--files-from \(list.escapingControls) line \(line) (\(shown.escapingControls)) is not UTF-8: wb takes file names as UTF-8 "
               + "(rename the file, for example with convmv)")
    }

    /// A path reported as failed, nothing opened.
    static func refuse(path shown: String, position: Int, _ message: String) -> BatchOutcome {
        let sink = CapturedOutput(isTerminal: false, colorsErrors: false)
        sink.writeError("wb: \(message)\n")
        return BatchOutcome(position: position, path: shown, status: .failed, changes: 0, error: message, seconds: 0,
                            unsaved: false, chunks: sink.chunks)
    }

    static func runOne(path: String, position: Int, plan: Plan) -> BatchOutcome {
        let clock = Clock()
        let sink = CapturedOutput(isTerminal: plan.isTerminal, colorsErrors: plan.colorsErrors)
        let shell = Shell(options: plan.options, output: sink)
        shell.variables = plan.variables
        let name = FileIO.baseName(of: path.hasSuffix("/") ? String(path.dropLast()) : path)
        shell.variables["FILE"] = path
        shell.variables["FILE_NAME"] = name
        shell.variables["FILE_STEM"] = name.lowercased().hasSuffix(".json") ? String(name.dropLast(5)) : name
        shell.variables["FILE_DIR"] = FileIO.parentFolder(of: path)
        shell.variables["FILE_INDEX"] = String(position)
        shell.messagePrefix = path + ": "
        shell.refusesWritesAfterFailure = true
        let claims = plan.claims
        shell.claimWrite = { written in
            claims.claim(written, by: position)
        }
        if let writer = claims.start(path, position: position) {
            return refuse(path: path, position: position,
                          "\(path.escapingControls): path \(writer) of the batch wrote over it already: not run on it (its input is gone)")
        }
        // Opened as on the command line, without the summary a person would read.
        shell.options.quiet = true
        let opened = shell.openFile(path)
        shell.options.quiet = plan.options.quiet
        var status: Int32 = 1
        if opened {
            status = Program.runActions(plan.actions, scripts: plan.scripts, in: shell)
            if shell.session.hasUnsavedChanges && !shell.quitRequested {
                let names = shell.session.modifiedNames.joined(separator: ", ")
                sink.writeError("wb: \(path.escapingControls): note: unsaved changes in \(names.escapingControls) were not written (use save)\n")
            }
        }
        let kind: BatchOutcome.Status = status != 0 ? .failed : shell.filesWritten > 0 ? .changed : .unchanged
        // A script that saved and then failed did write: said, lest a rerun of the "failed" files
        // apply the fix twice.
        let written = shell.filesWritten
        let error = status != 0
            ? (shell.firstError ?? "\(path): failed")
                + (written > 0 ? " (after writing \(written) file\(written == 1 ? "" : "s"): a rerun applies what it wrote again)" : "")
            : nil
        return BatchOutcome(position: position, path: path, status: kind, changes: shell.session.revision,
                            error: error, seconds: clock.seconds,
                            unsaved: shell.session.hasUnsavedChanges, written: written, chunks: sink.chunks)
    }

    /// A file's output, whole: what its script printed (with --json, inside the file's JSON
    /// line, so that standard output stays one JSON object per line) and its errors.
    private func emit(_ outcome: BatchOutcome) {
        if options.json {
            for chunk in outcome.chunks where chunk.isError { output.writeError(chunk.text) }
            output.write(outcome.jsonLine + "\n")
        } else {
            // On a terminal, a file's output is headed by its path (as `head` and `tail` head
            // theirs): tables of handles (r1, w3) say nothing of which file they are of. Into a
            // pipe the output stays as the commands printed it ($FILE, or --json, names it).
            if output.isTerminal, outcome.chunks.contains(where: { !$0.isError && !$0.text.isEmpty }) {
                output.write("==> \(outcome.path.escapingControls) <==\n")
            }
            for chunk in outcome.chunks {
                if chunk.isError { output.writeError(chunk.text) } else { output.write(chunk.text) }
            }
        }
    }

    private func summarize(_ tally: BatchTally, seconds: Double) {
        if options.json {
            output.write("{\"summary\":true,\"files\":\(tally.files),\"ok\":\(tally.changed + tally.unchanged),"
                         + "\"changed\":\(tally.changed),\"unchanged\":\(tally.unchanged),\"failed\":\(tally.failed),"
                         + "\"unsaved\":\(tally.unsaved),\"seconds\":\(BatchOutcome.decimal(seconds))}\n")
        }
        if !options.quiet {
            var line = "wb: \(tally.files) file\(tally.files == 1 ? "" : "s") in \(BatchProgressBar.duration(seconds)): "
                + "\(tally.changed + tally.unchanged) ok (\(tally.changed) changed, \(tally.unchanged) unchanged), \(tally.failed) failed"
            if tally.unsaved > 0 { line += "; \(tally.unsaved) left with unsaved changes" }
            output.writeError(line + "\n")
        }
        for failure in tally.failures {
            output.writeError("wb: \(paint("failed:", "31")) \(failure)\n")
        }
        if tally.failed > tally.failures.count {
            output.writeError("wb: … and \(tally.failed - tally.failures.count) more failed files (each named above, "
                              + "or in --json)\n")
        }
    }

    private func paint(_ text: String, _ code: String) -> String {
        output.colorsErrors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}

/// What one file of a batch came to.
struct BatchOutcome: Sendable {
    enum Status: String, Sendable {
        case changed, unchanged, failed
    }

    struct Chunk: Sendable {
        var isError: Bool
        var text: String
    }

    var position: Int
    var path: String
    var status: Status
    var changes: Int
    var error: String?
    var seconds: Double
    var unsaved: Bool
    /// Files the script wrote (a failed one may have saved before it failed).
    var written = 0
    var chunks: [Chunk]

    var jsonLine: String {
        var line = "{" + jsonPair("path", path) + "," + jsonPair("status", status.rawValue)
            + ",\"ok\":\(status != .failed),\"changes\":\(changes),\"error\":" + (error.map(jsonString) ?? "null")
            + ",\"seconds\":\(Self.decimal(seconds))"
        let printed = chunks.filter { !$0.isError }.map(\.text).joined()
        if !printed.isEmpty { line += "," + jsonPair("output", printed) }
        if unsaved { line += ",\"unsaved\":true" }
        if written > 0 { line += ",\"written\":\(written)" }
        return line + "}"
    }

    static func decimal(_ seconds: Double) -> String {
        String(format: "%.4f", seconds)
    }
}

/// The counts a batch's summary needs, and the failures (the first thousand: enough to
/// read, and a bound on memory when everything fails).
struct BatchTally {
    var files = 0
    var changed = 0
    var unchanged = 0
    var failed = 0
    var unsaved = 0
    var failures: [String] = []
    var listFailed = false
    static let keptFailures = 1000

    mutating func add(_ outcome: BatchOutcome) {
        files += 1
        switch outcome.status {
        case .changed: changed += 1
        case .unchanged: unchanged += 1
        case .failed:
            failed += 1
            if failures.count < Self.keptFailures { failures.append(outcome.error ?? outcome.path) }
        }
        if outcome.unsaved { unsaved += 1 }
    }
}

/// Output of one batch session, in the order it was written, for the main thread to print.
final class CapturedOutput: OutputSink {
    let isTerminal: Bool
    let colorsErrors: Bool
    private(set) var chunks: [BatchOutcome.Chunk] = []

    init(isTerminal: Bool, colorsErrors: Bool) {
        self.isTerminal = isTerminal
        self.colorsErrors = colorsErrors
    }

    func write(_ text: String) { append(text, isError: false) }
    func writeError(_ text: String) { append(text, isError: true) }

    private func append(_ text: String, isError: Bool) {
        if let last = chunks.indices.last, chunks[last].isError == isError {
            chunks[last].text += text
        } else {
            chunks.append(BatchOutcome.Chunk(isError: isError, text: text))
        }
    }
}

/// Seconds since it was made, from the monotonic clock.
struct Clock {
    private let start = Clock.now()

    var seconds: Double { Clock.now() - start }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// Hands paths to the worker threads and their outcomes to the main thread. At most
/// `pending` outcomes wait to be printed; a worker with one more waits, so a slow reader
/// of the output slows the batch down instead of filling memory.
final class BatchQueue: @unchecked Sendable {
    // Every stored property below is read and written only with `condition` locked.
    private let condition = NSCondition()
    private let source: PathSource
    private var outcomes: [BatchOutcome] = []
    private var outcomeStart = 0
    private var working: Int
    private let pending: Int

    init(source: PathSource, workers: Int, pending: Int) {
        self.source = source
        working = workers
        self.pending = max(1, pending)
    }

    func nextPath() -> (Int, String, PathSource.Refusal?)? {
        condition.lock()
        defer { condition.unlock() }
        return source.next()
    }

    var sourceProblem: String? {
        condition.lock()
        defer { condition.unlock() }
        return source.problem
    }

    func deliver(_ outcome: BatchOutcome) {
        condition.lock()
        while outcomes.count - outcomeStart >= pending { condition.wait() }
        outcomes.append(outcome)
        condition.broadcast()
        condition.unlock()
    }

    func workerFinished() {
        condition.lock()
        working -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// The next outcome; `.some(nil)` when `waitingAtMost` seconds passed without one; nil
    /// when every worker has finished and every outcome has been taken.
    func take(waitingAtMost seconds: Double?) -> BatchOutcome?? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = seconds.map { Date(timeIntervalSinceNow: $0) }
        while outcomes.count == outcomeStart {
            if working == 0 { return nil }
            if let deadline {
                if !condition.wait(until: deadline) && outcomes.count == outcomeStart { return .some(nil) }
            } else {
                condition.wait()
            }
        }
        let outcome = outcomes[outcomeStart]
        outcomeStart += 1
        if outcomeStart > 64 && outcomeStart * 2 > outcomes.count {
            outcomes.removeFirst(outcomeStart)
            outcomeStart = 0
        }
        condition.broadcast()
        return outcome
    }
}

/// The paths the files of one batch wrote, each with the first file (its place in the list)
/// that wrote it: a second file writing one is refused, as it would replace the first's result.
/// Kept as a 64-bit hash of the path with its folder resolved (the file need not exist yet)
/// and a position: 16 bytes a file written.
final class WriteClaims: @unchecked Sendable {
    private let lock = NSLock()
    private var owners: [UInt64: Int] = [:]

    /// Claims `path` for the file at `position`: nil when it is free or that file's already,
    /// else why not (another input of the batch, or another file's script wrote it).
    func claim(_ path: String, by position: Int) -> String? {
        let hash = Self.key(path)
        lock.lock()
        defer { lock.unlock() }
        if let input = inputs[hash], input != position { return "it is path \(input) of the batch" }
        if let owner = owners[hash], owner != position { return "path \(owner) of the batch wrote it already" }
        owners[hash] = position
        return nil
    }

    /// Notes that the file at `position` is about to run on `path`, an input of the batch: no
    /// other file's script may write it (one did, and the later file ran on the first's
    /// result). Returns the position of a file whose script wrote it already, if one did.
    func start(_ path: String, position: Int) -> Int? {
        let hash = Self.key(path)
        lock.lock()
        defer { lock.unlock() }
        inputs[hash] = position
        if let owner = owners[hash], owner != position { return owner }
        return nil
    }

    private var inputs: [UInt64: Int] = [:]

    /// Notes an input of the batch before any file runs.
    func register(_ path: String, position: Int) {
        let hash = Self.key(path)
        lock.lock()
        defer { lock.unlock() }
        if inputs[hash] == nil { inputs[hash] = position }
    }

    /// A path's key: the file a link leads to (a link in the output folder to another file's
    /// output got past), else its folder resolved and its name (the file need not exist yet).
    private static func key(_ path: String) -> UInt64 {
        var resolved: String
        if let pointer = realpath(path, nil) {
            resolved = String(cString: pointer)
            free(pointer)
        } else {
            let folder = FileIO.parentFolder(of: path)
            resolved = FileIO.baseName(of: path)
            if let pointer = realpath(folder.isEmpty ? "." : folder, nil) {
                resolved = String(cString: pointer) + "/" + resolved
                free(pointer)
            } else {
                resolved = folder + "/" + resolved
            }
        }
        var hash: UInt64 = 0xcbf29ce484222325
        for byte in resolved.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
        return hash
    }
}
