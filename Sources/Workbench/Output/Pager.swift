#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif
import StructureModel
import WBLineEditor

/// The terminal standard output is: its width (`$COLUMNS` first, then what the terminal
/// says) and its height (`$LINES`, then the terminal's).
struct TerminalSize {
    var columns: Int
    var rows: Int?

    static func current() -> TerminalSize {
        var size = winsize()
        let asked = ioctl(1, UInt(TIOCGWINSZ), &size) == 0
        func environment(_ name: String) -> Int? {
            guard let value = getenv(name), let number = Int(String(cString: value)), number > 0 else { return nil }
            return number
        }
        let columns = environment("COLUMNS") ?? (asked && size.ws_col > 0 ? Int(size.ws_col) : 80)
        let rows = environment("LINES") ?? (asked && size.ws_row > 0 ? Int(size.ws_row) : nil)
        return TerminalSize(columns: columns, rows: rows)
    }
}

/// Output longer than the screen, through `$PAGER` (default `less -FRX`), as psql and git
/// do. Only ever used when standard output is a terminal.
enum Pager {
    /// The pager's command line: `$PAGER`, `less -FRX` when it is not set, nil when it is
    /// set empty (no pager).
    static var command: String? {
        guard let value = getenv("PAGER") else { return "less -FRX" }
        let text = String(cString: value).trimmingBlanks()
        return text.isEmpty ? nil : text
    }

    /// How many terminal lines `bytes` take at `columns` wide (long lines wrap), not
    /// counting wb's colour codes.
    static func screenLines(_ bytes: [UInt8], columns: Int) -> Int {
        var lines = 0
        var start = 0
        for index in bytes.indices where bytes[index] == 0x0A {
            lines += rows(of: bytes[start..<index], columns: columns)
            start = index + 1
        }
        if start < bytes.count { lines += rows(of: bytes[start...], columns: columns) }
        return lines
    }

    private static func rows(of line: ArraySlice<UInt8>, columns: Int) -> Int {
        // Most lines are short: no need to measure them.
        guard line.count > columns else { return 1 }
        var text = String(decoding: line, as: UTF8.self)
        if text.contains("\u{1B}") { text = withoutStyles(text) }
        return max(1, (displayWidth(text) + columns - 1) / max(1, columns))
    }

    /// `text` without `ESC [ … m` sequences.
    static func withoutStyles(_ text: String) -> String {
        var result = ""
        var iterator = text.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            guard scalar == "\u{1B}" else {
                result.unicodeScalars.append(scalar)
                continue
            }
            while let next = iterator.next(), next != "m" {}
        }
        return result
    }

    enum Outcome {
        case shown
        /// The pager did not run (nothing was shown): why.
        case failed(String)
    }

    /// Runs `command` with `/bin/sh -c`, `bytes` on its standard input and the terminal as
    /// its output, and waits for it. The pager may stop reading at any time (`q` in less):
    /// the rest is not written. Ctrl-C while it runs is the pager's, not wb's: wb ignores
    /// SIGINT and SIGPIPE until the pager has exited, then puts back what was there.
    static func show(_ bytes: [UInt8], command: String) -> Outcome {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return .failed("could not start (no pipe: \(FileIO.describe(errno: errno)))") }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, readEnd, 0)
        posix_spawn_file_actions_addclose(&actions, readEnd)
        posix_spawn_file_actions_addclose(&actions, writeEnd)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGPIPE, SIGQUIT, SIGTSTP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))

        var ignore = sigaction()
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        sigemptyset(&ignore.sa_mask)
        var oldInterrupt = sigaction(), oldPipe = sigaction()
        sigaction(SIGINT, &ignore, &oldInterrupt)
        sigaction(SIGPIPE, &ignore, &oldPipe)
        defer {
            sigaction(SIGINT, &oldInterrupt, nil)
            sigaction(SIGPIPE, &oldPipe, nil)
        }

        let arguments = ["/bin/sh", "-c", command]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, &attributes, &argv, environmentPointer())
        close(readEnd)
        guard spawned == 0 else {
            close(writeEnd)
            return .failed("could not start (\(FileIO.describe(errno: spawned)))")
        }
        var offset = 0
        bytes.withUnsafeBytes { raw in
            while offset < raw.count {
                let written = write(writeEnd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    break  // EPIPE: the pager has quit; the rest is not wanted.
                }
                offset += written
            }
        }
        close(writeEnd)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = status & 0x7F == 0
        let code = (status >> 8) & 0xFF
        // The shell's own codes for a command it could not find or run: nothing was shown
        // (its message is on standard error).
        if exited && (code == 126 || code == 127) {
            return .failed(code == 127 ? "was not found" : "could not be run")
        }
        // A pager that fails (PAGER=false) may have shown nothing of what it was given, which
        // the pipe took all the same: it is shown here instead. (less, more and head end with 0,
        // also when quit early.)
        if exited && code != 0 {
            return .failed("exited with status \(code)")
        }
        return .shown
    }

    /// The process's environment for the pager, as `posix_spawn` takes it. Read through
    /// `environ` once per page; wb runs the pager from its one thread.
    private static func environmentPointer() -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        wble_environment()
    }
}
