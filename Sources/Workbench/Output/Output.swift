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
    /// Whether standard output is a terminal (tables for people, colour allowed).
    var isTerminal: Bool { get }
    /// Whether errors and warnings may be coloured (standard error is a terminal that
    /// wants colour).
    var colorsErrors: Bool { get }
    /// Whether standard error is a terminal (a batch draws its progress bar there).
    var errorsAreTerminal: Bool { get }
}

extension OutputSink {
    public var colorsErrors: Bool { false }
    public var errorsAreTerminal: Bool { false }
}

/// The process's standard output and error, written with plain POSIX writes.
public final class StandardOutput: OutputSink {
    public let isTerminal: Bool
    private var buffer: [UInt8] = []
    /// The error of the first write to standard output that failed (then nothing more is
    /// written there): the exit status must say that the output is incomplete.
    public private(set) var failure: Int32?

    public let colorsErrors: Bool
    public let errorsAreTerminal: Bool

    public init() {
        isTerminal = isatty(1) == 1
        errorsAreTerminal = isatty(2) == 1
        let term = getenv("TERM").map { String(cString: $0) } ?? ""
        colorsErrors = isatty(2) == 1 && getenv("NO_COLOR") == nil && term != "dumb" && !term.isEmpty
    }

    public func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        // A person at a terminal sees output at once; a pipe gets it in large pieces.
        if isTerminal || buffer.count > 1 << 16 { flush() }
    }

    public func writeError(_ text: String) {
        flush()
        FileIO.writeAll(2, Array(text.utf8))
    }

    public func flush() {
        guard !buffer.isEmpty else { return }
        if failure == nil { failure = FileIO.writeAll(1, buffer) }
        buffer.removeAll(keepingCapacity: true)
    }

    deinit {
        flush()
    }
}

/// Collects output in memory, for tests and for callers that embed the shell.
public final class BufferedOutput: OutputSink {
    public private(set) var standardOutput = ""
    public private(set) var standardError = ""
    public let isTerminal: Bool

    public init(isTerminal: Bool = false) {
        self.isTerminal = isTerminal
    }

    public func write(_ text: String) { standardOutput += text }
    public func writeError(_ text: String) { standardError += text }
}
