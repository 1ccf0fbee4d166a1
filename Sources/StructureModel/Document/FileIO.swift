#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// A file that could not be read or written, in words for the person who named it.
public struct FileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}

/// What identifies a file's content on disk at one moment, to notice changes by others.
public struct FileStamp: Sendable, Equatable {
    public var size: Int
    public var modificationSeconds: Int
    public var modificationNanoseconds: Int
    public var inode: UInt64
    public var device: UInt64 = 0

    /// Whether two stamps are of the same file (the same inode on the same device),
    /// whatever path led to it.
    public func isSameFile(as other: FileStamp) -> Bool {
        inode == other.inode && device == other.device
    }
}

/// Where a save can be made to fail on purpose, for tests of what a crash or a failing
/// disk leaves behind. The library never reads these from the environment.
public struct WriteFaults: Sendable {
    /// Runs after the temporary file is complete and flushed, before it is renamed over
    /// the target: throwing abandons the save there; a test may also end the process.
    public var beforeRename: (@Sendable () throws(FileError) -> Void)?

    public init(beforeRename: (@Sendable () throws(FileError) -> Void)? = nil) {
        self.beforeRename = beforeRename
    }
}

/// Plain POSIX file access: exact errors (errno), no Foundation on the hot path.
public enum FileIO {
    static func errorText(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "no such file or directory"
        case EACCES, EPERM: return "permission denied"
        case EISDIR: return "is a folder, not a file"
        case ENOTDIR: return "a part of the path is not a folder"
        case ENOSPC: return "no space left on the device"
        case EROFS: return "the file system is read-only"
        case ENAMETOOLONG: return "the path is too long"
        default: return String(cString: strerror(code))
        }
    }

    public static func stamp(of path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let mtime = info.st_mtimespec
        #else
        let mtime = info.st_mtim
        #endif
        return FileStamp(size: Int(info.st_size), modificationSeconds: Int(mtime.tv_sec),
                         modificationNanoseconds: Int(mtime.tv_nsec), inode: UInt64(info.st_ino), device: UInt64(info.st_dev))
    }

    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The whole file. Folders, missing files and unreadable files are errors.
    public static func read(_ path: String) throws(FileError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileError(path: path, message: errorText(errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileError(path: path, message: errorText(errno)) }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw FileError(path: path, message: errorText(EISDIR))
        }
        // Read straight into the array's storage; a file that grows while being read
        // (or reports no size, like a pipe) continues in chunks.
        let expected = max(0, Int(info.st_size))
        var failure: Int32 = 0
        var bytes = [UInt8](unsafeUninitializedCapacity: expected) { buffer, initialized in
            while initialized < expected {
                let n = posixRead(fd, buffer.baseAddress! + initialized, expected - initialized)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if n == 0 { return }
                initialized += n
            }
        }
        if failure != 0 { throw FileError(path: path, message: errorText(failure)) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { posixRead(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileError(path: path, message: errorText(errno))
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return bytes
    }

    /// Replaces `path` with `bytes` so that a crash at any moment leaves either the old
    /// file or the new one, never a mixture: write a temporary file in the same folder,
    /// flush it to disk, rename it over the target, flush the folder. The target's
    /// permission bits are kept; a new file gets 0666 less the umask, applied by the kernel
    /// when the temporary file is created, so no process-wide state is touched and saves
    /// on several threads at once do not interfere. `faults` lets tests fail a save at a
    /// chosen point, as a crash or a full disk would.
    ///
    /// A symbolic link is followed: the file it points at is replaced and the link stays,
    /// as editors and sqlite do. Anything but a regular file (a device, a FIFO, a socket, a
    /// folder) is refused, so a save never replaces a device node with a file.
    public static func writeAtomically(_ bytes: [UInt8], to requested: String, faults: WriteFaults = WriteFaults()) throws(FileError) {
        let path = try linkTarget(of: requested)
        let folder = parentFolder(of: path)
        guard isDirectory(folder) else {
            throw FileError(path: path, message: "the folder \(folder) does not exist")
        }
        var keptMode: mode_t?
        var existing = stat()
        if stat(path, &existing) == 0 {
            if (existing.st_mode & S_IFMT) == S_IFDIR { throw FileError(path: requested, message: errorText(EISDIR)) }
            guard (existing.st_mode & S_IFMT) == S_IFREG else {
                throw FileError(path: requested, message: "is not a regular file (a device, a pipe or a socket): wb saves only to files")
            }
            keptMode = existing.st_mode & 0o7777
        }
        let (fd, temporary) = try createTemporary(beside: path, in: folder)
        var failure: FileError?
        if let code = writeAll(fd, bytes) { failure = FileError(path: path, message: errorText(code)) }
        if failure == nil, let keptMode, fchmod(fd, keptMode) != 0 { failure = FileError(path: path, message: errorText(errno)) }
        if failure == nil && fsync(fd) != 0 { failure = FileError(path: path, message: errorText(errno)) }
        close(fd)
        if failure == nil, let beforeRename = faults.beforeRename {
            do { try beforeRename() } catch { failure = error }
        }
        if failure == nil && rename(temporary, path) != 0 {
            failure = FileError(path: path, message: errorText(errno))
        }
        if let failure {
            unlink(temporary)
            throw failure
        }
        let folderFD = open(folder, O_RDONLY | O_CLOEXEC)
        if folderFD >= 0 {
            fsync(folderFD)
            close(folderFD)
        }
    }

    /// The file a path names after following symbolic links (at most 40 of them): a
    /// relative link is read from the link's own folder. A dangling link names the file it
    /// would create.
    static func linkTarget(of path: String) throws(FileError) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count > 0 else { throw FileError(path: path, message: errorText(errno)) }
            let target = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = target.hasPrefix("/") ? target : parentFolder(of: current) + "/" + target
        }
        throw FileError(path: path, message: "too many symbolic links")
    }

    /// The prefix of wb's temporary files beside `path`: `.NAME.wb-` with NAME shortened
    /// so that the whole name, with its 8 random characters, fits in 255 bytes.
    static func temporaryPrefix(for path: String) -> String {
        var base = Substring(baseName(of: path))
        while base.utf8.count > 255 - 13 { base = base.dropLast() }
        return "." + base + ".wb-"
    }

    /// Creates a new temporary file in `folder` (mode 0666 less the umask), never one
    /// that exists already.
    private static func createTemporary(beside path: String, in folder: String) throws(FileError) -> (Int32, String) {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var generator = SystemRandomNumberGenerator()
        let prefix = folder + "/" + temporaryPrefix(for: path)
        for _ in 0..<100 {
            let name = prefix + String((0..<8).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
            let fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if fd >= 0 { return (fd, name) }
            if errno != EEXIST { throw FileError(path: path, message: "cannot write in \(folder): \(errorText(errno))") }
        }
        throw FileError(path: path, message: "cannot write in \(folder): no free temporary name")
    }

    /// Writes every byte to `fd`, retrying short writes and interruptions. Returns the
    /// errno of a failure, or nil.
    @discardableResult
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32? {
        bytes.withUnsafeBytes { raw -> Int32? in
            var offset = 0
            while offset < raw.count {
                let n = posixWrite(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += n
            }
            return nil
        }
    }

    public static func parentFolder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    public static func baseName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}

@inline(__always)
private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}

@inline(__always)
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, buffer, count)
}
