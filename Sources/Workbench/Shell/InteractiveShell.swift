import Foundation
import StructureModel
import WBLineEditor

/// What reading one line gave.
enum LineInput {
    case line(String)
    /// Ctrl-C: the line being typed is abandoned.
    case interrupted
    /// Ctrl-D on an empty line, or the end of input.
    case endOfFile
}

/// The interactive shell on libedit: line editing, history kept in `$WB_HISTORY`
/// (default `~/.wb_history`), tab completion from the command table, a prompt that shows
/// what is open and whether it has unsaved changes.
final class InteractiveShell {
    let shell: Shell
    let historyPath: String?
    /// Whether `historyPath` holds wb's own history (or nothing yet), so it may be rewritten.
    private var keepsHistory = false
    private var lineNumber = 0

    init(shell: Shell) {
        self.shell = shell
        let environment = ProcessInfo.processInfo.environment
        if let configured = environment["WB_HISTORY"] {
            historyPath = configured.isEmpty ? nil : configured
        } else {
            historyPath = NSHomeDirectory() + "/.wb_history"
        }
    }

    /// The first line of every history file libedit writes.
    static let historyCookie = Array("_HiStOrY_V2_\n".utf8)
    /// Far more than 2000 lines of history (what is kept) ever take.
    static let historyLimit = 16 << 20

    /// Why the file at `path` is not a history file wb may read and rewrite, or nil when it
    /// is one (or does not exist yet). libedit rewrites the whole file after each command,
    /// so anything else there (another program's history, a device, a FIFO that would
    /// block for ever) would be destroyed or would hang wb.
    static func foreignHistory(_ path: String) -> String? {
        guard FileIO.stamp(of: path) != nil else { return nil }
        guard FileIO.isRegularFile(path) else { return "is not a regular file" }
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(path, limit: historyLimit)
        } catch {
            return error.message
        }
        if bytes.isEmpty || bytes.starts(with: historyCookie) { return nil }
        return "is not a history file wb wrote (it does not start with libedit's \"_HiStOrY_V2_\" line)"
    }

    func readLine(prompt: String) -> LineInput {
        guard let pointer = wble_readline(prompt) else {
            return wble_take_interrupt() == 1 ? .interrupted : .endOfFile
        }
        defer { free(pointer) }
        if wble_take_interrupt() == 1 { return .interrupted }
        return .line(String(cString: pointer))
    }

    func run() -> Int32 {
        shell.isInteractive = true
        wble_initialize("wb")
        wble_stifle_history(2000)
        if let historyPath {
            if let problem = Self.foreignHistory(historyPath) {
                // (A reason that asks a question ends its own sentence: "…meant?; wb leaves" read badly.)
                shell.warn("\(historyPath) (WB_HISTORY) \(problem)\(problem.hasSuffix("?") ? " " : "; ")wb leaves it as it is and keeps no "
                           + "history there this session (set WB_HISTORY to another file)")
            } else {
                keepsHistory = true
                _ = wble_read_history(historyPath)
            }
        }
        wble_set_context(Unmanaged.passUnretained(shell).toOpaque())
        wble_set_completer(completeForLibedit)
        shell.interruptRequested = { wble_interrupt_pending() == 1 }
        defer {
            wble_set_context(nil)
            shell.interruptRequested = { false }
        }
        shell.confirm = { [unowned self] question in
            // What the command printed so far comes before the question, unpaged.
            self.shell.sink.releaseHeldOutput()
            if case .line(let answer) = self.readLine(prompt: question) {
                return ["y", "yes"].contains(answer.trimmingBlanks().lowercased())
            }
            return false
        }
        while !shell.quitRequested {
            guard let text = readCommand() else {
                // Ctrl-D: leave, unless there is unsaved work and the person says no.
                if shell.session.hasUnsavedChanges {
                    shell.output.write("\n")
                    let names = shell.session.modifiedNames.joined(separator: ", ")
                    if shell.confirm?("Unsaved changes in \(names). Quit anyway? [y/N] ") != true { continue }
                } else {
                    shell.output.write("\n")
                }
                break
            }
            if text.trimmingBlanks().isEmpty { continue }
            wble_add_history(text)
            if let historyPath, keepsHistory { _ = wble_write_history(historyPath) }
            shell.run(script: text, source: "-", firstLine: lineNumber - text.filter { $0 == "\n" }.count)
            shell.journalCheckpoint()
            shell.journal?.sync()
            (shell.sink as? StandardOutput)?.flush()
            _ = wble_take_interrupt()
            shell.clearInterrupt()
        }
        return 0
    }

    /// One logical line: continued after a trailing backslash. nil at end of input.
    private func readCommand() -> String? {
        var text = ""
        var prompt = shell.prompt(coloured: shell.output.colorsOutput)
        while true {
            switch readLine(prompt: prompt) {
            case .endOfFile:
                return text.isEmpty ? nil : text
            case .interrupted:
                shell.output.write("^C\n")
                text = ""
                prompt = shell.prompt(coloured: shell.output.colorsOutput)
                continue
            case .line(let line):
                lineNumber += 1
                text += line
                var trailing = 0
                for character in line.reversed() {
                    guard character == "\\" else { break }
                    trailing += 1
                }
                if trailing % 2 == 1 {
                    text += "\n"
                    prompt = "...> "
                    continue
                }
                return text
            }
        }
    }
}

/// libedit's completion hook: the word being completed and where it starts in the line.
/// Returns the matches in readline's form (first the common prefix, then each match).
private func completeForLibedit(
    _ text: UnsafePointer<CChar>?, _ start: Int32, _ end: Int32
) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
    guard let context = wble_context(), let buffer = wble_line_buffer() else { return nil }
    let shell = Unmanaged<Shell>.fromOpaque(context).takeUnretainedValue()
    let line = Array(String(cString: buffer).utf8)
    let cursor = min(Int(end), line.count)
    let prefix = String(decoding: line[0..<cursor], as: UTF8.self)
    let candidates = shell.completions(forLinePrefix: prefix)
    guard !candidates.isEmpty else { return nil }
    // A folder is completed without a space after it, so the path can go on.
    wble_set_completion_append_character(candidates.count == 1 && candidates[0].hasSuffix("/") ? 0 : 32)
    // The word libedit replaces starts at `start`; our candidates are whole words from the
    // last blank (or opening quote), which is the same place unless the word holds a break
    // character (an escaped blank, say).
    let typedWord = String(prefix[Shell.completedWordStart(prefix)...])
    let libeditWord = text.map { String(cString: $0) } ?? ""
    let dropped = typedWord.count - libeditWord.count
    let shown = candidates.map { dropped > 0 && $0.count >= dropped ? String($0.dropFirst(dropped)) : $0 }
    // libedit would sort a list of matches as text (o1 o10 o11 … o2) and show only the words,
    // so wb shows the list itself and gives libedit one match: the common prefix, which
    // either adds to the word (Tab again then lists) or is the word as typed.
    let insert = shown.count == 1 ? shown[0] : commonPrefix(shown)
    if shown.count > 1 && insert.count <= libeditWord.count {
        let width = TerminalSize.current().columns
        let listing = shell.completionListing(shell.describe(candidates), width: width)
        wble_show_above_line("\n" + listing)
        wble_set_completion_append_character(0)
    } else if shown.count > 1 {
        wble_set_completion_append_character(0)
    }
    let matches = wble_alloc_matches(1)!
    matches[0] = wble_strdup(insert)
    return matches
}
