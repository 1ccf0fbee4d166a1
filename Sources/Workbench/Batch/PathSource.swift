#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif
import StructureModel

/// The paths of a batch, handed out one at a time: first those on the command line, then
/// the lines of `--files-from` as they are read, so that a list of a million paths (or an
/// endless `find` on a pipe) is never held whole. Blank lines (nothing, or only spaces and
/// tabs) are skipped; a line's trailing carriage return is dropped. `--shard` keeps every N-th path of the whole list.
/// Not thread-safe: the batch's work queue calls it under its lock.
final class PathSource {
    private var given: [String]
    private var givenIndex = 0
    private var fd: Int32
    private let listName: String
    private var buffer: [UInt8] = []
    private var bufferStart = 0
    private var ended: Bool
    private let shard: Shard?
    /// The position (1-based) in the whole list of the last path read.
    private var position = 0
    /// Why reading the list stopped early, if it did.
    private(set) var problem: String?

    /// A longer line is not a path (PATH_MAX is 4096); it is reported, and the list ends there.
    static let lineLimit = 1 << 16

    init(paths: [String], listDescriptor: Int32 = -1, listName: String = "", shard: Shard?) {
        given = paths
        fd = listDescriptor
        self.listName = listName
        ended = listDescriptor < 0
        self.shard = shard
    }

    /// The next path of this shard and its position in the whole list, or nil at the end.
    /// `refusal`, when set, says why the path is reported, not opened: a list line that is not
    /// UTF-8 (`path` then shows it, each byte that is not UTF-8 as `?`), or a file named before.
    func next() -> (position: Int, path: String, refusal: Refusal?)? {
        while let (path, notUTF8) = nextOfAll() {
            position += 1
            guard shard?.keeps(position) ?? true else { continue }
            if notUTF8 { return (position, path, .notUTF8(line: line)) }
            // One file named twice (`f.json ./f.json /abs/f.json`) is fixed once: run again, the
            // script applied its fix twice (and with --jobs, as often as the timing fell).
            // By the path with links, `.` and `..` resolved: not by inode, which an atomic save
            // of the first changes before the second is read.
            // Kept as a 64-bit hash (FNV-1a) and a position, so that memory stays small per
            // file: a million paths, about 30 MB.
            if let pointer = realpath(path, nil) {
                var hash: UInt64 = 0xcbf29ce484222325
                var byte = pointer
                while byte.pointee != 0 {
                    hash = (hash ^ UInt64(UInt8(bitPattern: byte.pointee))) &* 0x100000001b3
                    byte += 1
                }
                free(pointer)
                if let first = seen[hash] { return (position, path, .duplicate(of: first)) }
                seen[hash] = position
            }
            return (position, path, nil)
        }
        return nil
    }

    /// Why a path is reported rather than opened.
    enum Refusal {
        /// A line of the list that is not UTF-8.
        case notUTF8(line: Int)
        /// The same file as an earlier path (its position in the batch).
        case duplicate(of: Int)
    }

    /// Files handed out so far: a hash of the resolved path, and its position.
    private var seen: [UInt64: Int] = [:]

    /// The list's lines read so far (blank ones too).
    private var line = 0
    /// Whether the list ends each path with a NUL (`find -print0`), once first read.
    private var nulSeparated: Bool?

    private func nextOfAll() -> (String, Bool)? {
        if givenIndex < given.count {
            defer { givenIndex += 1 }
            // The command line's paths are not needed again: let them go as they are used.
            return (given[givenIndex], false)
        }
        if !given.isEmpty { given = [] }
        while true {
            // `find -print0` lists end each path with a NUL: such a list (a NUL in what was first
            // read) is cut at NULs only, as a name may hold a newline; in a list of lines a NUL
            // ends a path too (none can hold one: it was taken whole as one path before).
            if nulSeparated == nil, !buffer.isEmpty { nulSeparated = buffer.contains(0) }
            let nul = nulSeparated ?? false
            if let newline = buffer[bufferStart...].firstIndex(where: { $0 == 0 || (!nul && $0 == 0x0A) }) {
                if newline - bufferStart > Self.lineLimit { return tooLong() }
                let text = buffer[bufferStart..<newline]
                bufferStart = newline + 1
                line += 1
                if let path = Self.path(text, keepingReturn: nul) { return path }
                continue
            }
            if ended {
                let rest = buffer[bufferStart...]
                bufferStart = buffer.count
                if !rest.isEmpty { line += 1 }
                return Self.path(rest, keepingReturn: nulSeparated ?? false)
            }
            if bufferStart > 0 {
                buffer.removeSubrange(0..<bufferStart)
                bufferStart = 0
            }
            if buffer.count > Self.lineLimit { return tooLong() }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                problem = "\(listName): \(FileIO.describe(errno: errno)); the list was read up to there"
                ended = true
            } else if count == 0 {
                ended = true
            } else {
                buffer.append(contentsOf: chunk[0..<count])
            }
        }
    }

    private func tooLong() -> (String, Bool)? {
        problem = "\(listName): a line is longer than \(Self.lineLimit) bytes; the list was read up to it"
        ended = true
        buffer = []
        bufferStart = 0
        return nil
    }

    /// A line as a path, and whether it was not UTF-8 (Swift's text would replace such bytes,
    /// and the file be looked for under a name it does not have: "no such file").
    private static func path(_ line: ArraySlice<UInt8>, keepingReturn: Bool = false) -> (String, Bool)? {
        var bytes = line
        if bytes.last == 0x0D && !keepingReturn { bytes = bytes.dropLast() }
        guard !bytes.isEmpty else { return nil }
        // A line of spaces and tabs in a list of lines is a blank line (it was a path "   ",
        // reported as `wb:    : error: no such file`); a NUL-separated list names files exactly.
        if !keepingReturn, bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return nil }
        if let text = String(validating: bytes, as: UTF8.self) { return (text, false) }
        let shown = String(decoding: bytes, as: UTF8.self).unicodeScalars.map { $0 == "\u{FFFD}" ? "?" : String($0) }.joined()
        return (shown, true)
    }

    /// How many paths of a list file (read once more, not kept) this shard will take, for
    /// the progress bar; nil for a pipe, which can be read only once.
    static func count(paths: Int, listPath: String?, shard: Shard?) -> Int? {
        var all = paths
        if let listPath {
            guard listPath != "-", FileIO.isRegularFile(listPath) else { return nil }
            let fd = open(listPath, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            var lineHasText = false
            // Cut as `nextOfAll` cuts it: a list with a NUL in what is first read at NULs only
            // (a `find -print0` list was counted as one path, so it ran on one thread).
            var nulSeparated: Bool?
            while true {
                let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                if nulSeparated == nil { nulSeparated = chunk[0..<count].contains(0) }
                let nul = nulSeparated ?? false
                for byte in chunk[0..<count] {
                    if byte == 0 || (!nul && byte == 0x0A) {
                        if lineHasText { all += 1 }
                        lineHasText = false
                    } else if nul || (byte != 0x0D && byte != 0x20 && byte != 0x09) {
                        lineHasText = true
                    }
                }
            }
            if lineHasText { all += 1 }
        }
        guard let shard else { return all }
        return all >= shard.index ? (all - shard.index) / shard.count + 1 : 0
    }
}
