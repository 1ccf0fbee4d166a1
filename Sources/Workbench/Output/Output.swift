#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif
import StructureModel

/// Where the shell writes. Standard output carries data; standard error carries errors,
/// warnings and the informational lines that `-q` silences.
public protocol OutputSink: AnyObject {
    func write(_ text: String)
    func writeError(_ text: String)
    /// Text whose parts from files wb has escaped itself, which may hold wb's own colour
    /// codes (`Style`): written as it is, past the escaping of `TerminalSafeOutput`.
    func writeStyled(_ text: String)
    /// Whether standard output is a terminal (tables for people, colour allowed).
    var isTerminal: Bool { get }
    /// The terminal's width when standard output is one (tables are fitted to it); nil
    /// otherwise (every cell whole).
    var columns: Int? { get }
    /// Whether what goes to standard output may be coloured.
    var colorsOutput: Bool { get }
    /// Whether errors and warnings may be coloured (standard error is a terminal that
    /// wants colour).
    var colorsErrors: Bool { get }
    /// Whether standard error is a terminal (progress bars are drawn only there).
    var errorIsTerminal: Bool { get }
    /// A command starts (commands run by a command, as `source` does, nest): its output may
    /// be held back, to go through a pager when `paging` and it is longer than the screen.
    func beginCommand(paging: Bool)
    /// The command ended: what was held back is shown, paged or not.
    func endCommand()
    /// What was held back is shown now, unpaged, and the rest of the command's output as it
    /// comes: before wb asks a question at the prompt, and for `source`, whose commands are
    /// paged one by one (a long script shows its progress).
    func releaseHeldOutput()
}

extension OutputSink {
    public func writeStyled(_ text: String) { write(text) }
    public var columns: Int? { nil }
    public var colorsOutput: Bool { false }
    public var colorsErrors: Bool { false }
    public var errorIsTerminal: Bool { false }
    public func beginCommand(paging: Bool) {}
    public func endCommand() {}
    public func releaseHeldOutput() {}
}

/// The process's standard output and error, written with plain POSIX writes.
public final class StandardOutput: OutputSink {
    public let isTerminal: Bool
    private var buffer: [UInt8] = []
    /// The error of the first write to standard output that failed (then nothing more is
    /// written there): the exit status must say that the output is incomplete.
    public private(set) var failure: Int32?

    public private(set) var colorsErrors: Bool
    public private(set) var colorsOutput: Bool
    public let errorIsTerminal: Bool
    /// `--color`: never, auto (a terminal, NO_COLOR not set, TERM not dumb) or always.
    public var color = ProgramOptions.ColorChoice.auto {
        didSet { (colorsOutput, colorsErrors) = Self.colours(color, output: isTerminal, error: errorIsTerminal) }
    }

    /// How deeply commands are nested, and the depth of the one whose output is held back
    /// for the pager (nil: none is).
    private var commandDepth = 0
    private var holdDepth: Int?
    private var holding: Bool { holdDepth != nil }
    /// Set when the pager could not be run: said once, then no more paging.
    private var pagerFailed = false

    public init() {
        isTerminal = isatty(1) == 1
        errorIsTerminal = isatty(2) == 1
        (colorsOutput, colorsErrors) = Self.colours(.auto, output: isTerminal, error: errorIsTerminal)
    }

    static func colours(_ choice: ProgramOptions.ColorChoice, output: Bool, error: Bool) -> (Bool, Bool) {
        switch choice {
        case .never: return (false, false)
        case .always: return (true, true)
        case .auto:
            let term = getenv("TERM").map { String(cString: $0) } ?? ""
            let noColor = getenv("NO_COLOR").map { $0.pointee != 0 } ?? false
            let wanted = !noColor && term != "dumb" && !term.isEmpty
            return (wanted && output, wanted && error)
        }
    }

    public var columns: Int? {
        guard isTerminal else { return nil }
        return TerminalSize.current().columns
    }

    public func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if holding { return }
        // A person at a terminal sees output at once; a pipe gets it in large pieces.
        if isTerminal || buffer.count > 1 << 16 { flush() }
    }

    public func writeError(_ text: String) {
        if !holding { flush() }
        FileIO.writeAll(2, Array(text.utf8))
    }

    public func flush() {
        guard !buffer.isEmpty, !holding else { return }
        if failure == nil { failure = FileIO.writeAll(1, buffer) }
        buffer.removeAll(keepingCapacity: true)
    }

    public func beginCommand(paging: Bool) {
        commandDepth += 1
        guard holdDepth == nil, paging, isTerminal, !pagerFailed, Pager.command != nil else { return }
        flush()
        holdDepth = commandDepth
    }

    public func endCommand() {
        defer { commandDepth = max(0, commandDepth - 1) }
        guard let depth = holdDepth, depth == commandDepth else { return }
        holdDepth = nil
        let size = TerminalSize.current()
        guard let command = Pager.command, let rows = size.rows,
              Pager.screenLines(buffer, columns: size.columns) >= rows else {
            flush()
            return
        }
        switch Pager.show(buffer, command: command) {
        case .shown:
            buffer.removeAll(keepingCapacity: true)
        case .failed(let why):
            pagerFailed = true
            flush()
            FileIO.writeAll(2, Array("wb: warning: the pager (\(command)) \(why); output is not paged this session (PAGER sets another)\n".utf8))
        }
    }

    public func releaseHeldOutput() {
        holdDepth = nil
        flush()
    }

    deinit {
        holdDepth = nil
        flush()
    }
}

/// Collects output in memory, for tests and for callers that embed the shell.
public final class BufferedOutput: OutputSink {
    public private(set) var standardOutput = ""
    public private(set) var standardError = ""
    public let isTerminal: Bool
    public let columns: Int?
    public let colorsOutput: Bool

    /// `columns`: the width of the terminal this pretends to be (tables are fitted to it).
    public init(isTerminal: Bool = false, columns: Int? = nil, colorsOutput: Bool = false) {
        self.isTerminal = isTerminal
        self.columns = isTerminal ? columns : nil
        self.colorsOutput = colorsOutput
    }

    public func write(_ text: String) { standardOutput += text }
    public func writeError(_ text: String) { standardError += text }
}
