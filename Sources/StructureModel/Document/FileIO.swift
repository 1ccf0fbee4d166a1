#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif
import Foundation

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
    /// When the file's inode last changed (a write, and the `touch` that sets its time back):
    /// a rewrite in place that kept the size and put the modification time back changes this.
    public var changeSeconds: Int = 0
    public var changeNanoseconds: Int = 0

    /// Whether two stamps are of the same file (the same inode on the same device),
    /// whatever path led to it.
    public func isSameFile(as other: FileStamp) -> Bool {
        inode == other.inode && device == other.device
    }
}

/// Where a save can be made to fail on purpose, for tests of what a crash or a failing
/// disk leaves behind. The library never reads these from the environment.
public struct WriteFaults: Sendable {
    /// Runs after the temporary files are complete and flushed, before any is renamed over
    /// its target: throwing abandons the save there; a test may also end the process.
    public var beforeRename: (@Sendable () throws(FileError) -> Void)?
    /// Runs after the first file of a save of several (a sidecar before its RoomPlan file)
    /// is renamed into place and before the next is: the window a crash can hit.
    public var betweenRenames: (@Sendable () throws(FileError) -> Void)?

    public init(beforeRename: (@Sendable () throws(FileError) -> Void)? = nil,
                betweenRenames: (@Sendable () throws(FileError) -> Void)? = nil) {
        self.beforeRename = beforeRename
        self.betweenRenames = betweenRenames
    }
}

/// One file of a save: what to write, and where.
public struct FileWrite: Sendable {
    public var path: String
    public var bytes: [UInt8]

    public init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }
}

/// Plain POSIX file access: exact errors (errno), no Foundation on the hot path.
public enum FileIO {
    /// The most wb reads of one file (a RoomPlan file, a sidecar, a script): far above any
    /// real scan, far below what would exhaust memory. A device or a pipe that never ends
    /// is refused before this matters; the cap is for what is left (stdin, a huge file).
    public static let readLimit = 1 << 30

    /// How long a save waits for another process's save of a file in the same folder.
    /// That lock is held only from the changed-on-disk check to the rename, milliseconds.
    static let lockPatience = 30.0

    /// An errno in words, as wb's messages put it.
    public static func describe(errno code: Int32) -> String { errorText(code) }

    static func errorText(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "no such file or directory"
        case EACCES, EPERM: return "permission denied"
        case EISDIR: return "is a folder, not a file"
        case ENOTDIR: return "a part of the path is not a folder"
        case ENOSPC: return "no space left on the device"
        case EDQUOT: return "the disk quota is exhausted"
        case EFBIG: return "the file is larger than this process may write (a file-size limit, ulimit -f)"
        case EROFS: return "the file system is read-only"
        case ENAMETOOLONG: return "the path is too long"
        default: return systemText(code)
        }
    }

    /// The C library's words for an errno. `strerror` may share one buffer among threads
    /// (a batch saves on several at once); `strerror_r` writes into the caller's.
    private static func systemText(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard strerror_r(code, &buffer, buffer.count) == 0 else { return "error \(code)" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// For a path that is a symbolic link to nothing: what it points to, in words.
    static func danglingLinkText(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let target = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return "is a symbolic link to \(target), which does not exist"
    }

    static let notRegularText = "is not a regular file (a device, a pipe or a socket): wb reads and saves only files"

    public static func stamp(of path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return stamp(info)
    }

    static func stamp(_ info: stat) -> FileStamp {
        #if canImport(Darwin)
        let mtime = info.st_mtimespec, ctime = info.st_ctimespec
        #else
        let mtime = info.st_mtim, ctime = info.st_ctim
        #endif
        return FileStamp(size: Int(info.st_size), modificationSeconds: Int(mtime.tv_sec),
                         modificationNanoseconds: Int(mtime.tv_nsec), inode: UInt64(info.st_ino), device: UInt64(info.st_dev),
                         changeSeconds: Int(ctime.tv_sec), changeNanoseconds: Int(ctime.tv_nsec))
    }

    /// Whether two paths name one file: the same inode on the same device, or (where neither
    /// exists) the same name in the same folder once links and `.` are resolved (`./d.json`,
    /// `/abs/d.json` and `d.json` are one file).
    public static func sameFile(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        var first = stat(), second = stat()
        if stat(a, &first) == 0, stat(b, &second) == 0 { return first.st_ino == second.st_ino && first.st_dev == second.st_dev }
        func resolved(_ path: String) -> String? {
            let folder = parentFolder(of: path)
            guard let pointer = realpath(folder.isEmpty ? "." : folder, nil) else { return nil }
            defer { free(pointer) }
            return String(cString: pointer) + "/" + baseName(of: path)
        }
        guard let x = resolved(a), let y = resolved(b) else { return false }
        return x == y
    }

    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// How many other names (hard links) the regular file at `path` has (through a symbolic
    /// link, its target's): 0 for a file of one name, or none. A save replaces a file by
    /// renaming a new one over its name, so those names keep the old contents.
    public static func otherHardLinks(of path: String) -> Int {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return 0 }
        return max(0, Int(info.st_nlink) - 1)
    }

    /// Whether `path` names a regular file (after links).
    public static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// The whole file, at most `limit` bytes. Folders, devices, pipes, sockets, missing and
    /// unreadable files are errors: a device like /dev/zero never ends and a FIFO without a
    /// writer never starts, so wb reads only regular files (stdin has `readStream`).
    /// With `pipes`, a pipe is read too, to its end (a script given as `-f <(generate)`): a
    /// FIFO nothing writes to reads as empty rather than waiting.
    public static func read(_ path: String, limit: Int = readLimit, pipes: Bool = false) throws(FileError) -> [UInt8] {
        // O_NONBLOCK: opening a FIFO would otherwise wait for a writer, for ever.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            throw FileError(path: path, message: code == ENOENT ? danglingLinkText(path) ?? errorText(code) : errorText(code))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileError(path: path, message: errorText(errno)) }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw FileError(path: path, message: errorText(EISDIR))
        }
        if pipes && (info.st_mode & S_IFMT) == S_IFIFO {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
            return try readAll(fd, name: path, expected: 0, limit: limit)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw FileError(path: path, message: notRegularText) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        if Int(info.st_size) > limit { throw tooLarge(path, limit) }
        return try readAll(fd, name: path, expected: max(0, Int(info.st_size)), limit: limit)
    }

    /// Everything an open descriptor (stdin) gives until its end, at most `limit` bytes.
    public static func readStream(_ fd: Int32, name: String, limit: Int = readLimit) throws(FileError) -> [UInt8] {
        try readAll(fd, name: name, expected: 0, limit: limit)
    }

    static func tooLarge(_ path: String, _ limit: Int) -> FileError {
        FileError(path: path, message: "is larger than wb reads (\(limit >> 20) MiB); is it the file you meant?")
    }

    private static func readAll(_ fd: Int32, name: String, expected: Int, limit: Int) throws(FileError) -> [UInt8] {
        // Read straight into the array's storage; a file that grows while being read
        // (or reports no size, like a pipe) continues in chunks, up to the limit.
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
        if failure != 0 { throw FileError(path: name, message: errorText(failure)) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { posixRead(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileError(path: name, message: errorText(errno))
            }
            if n == 0 { break }
            if bytes.count + n > limit { throw tooLarge(name, limit) }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return bytes
    }

    /// Replaces `path` with `bytes` so that a crash at any moment leaves either the old
    /// file or the new one, never a mixture (see `commit`).
    public static func writeAtomically(_ bytes: [UInt8], to requested: String, faults: WriteFaults = WriteFaults(),
                                       flushes: Bool = true) throws(FileError) {
        _ = try commit([FileWrite(path: requested, bytes: bytes)], faults: faults, flushes: flushes)
    }

    /// Replaces each file of `writes` with its bytes, as one save:
    ///
    /// 1. every target is checked (a folder, a device, a FIFO or a socket is refused, so a
    ///    save never replaces a device node with a file) and every temporary file is written
    ///    in its target's folder and flushed to disk; a failure here (a full disk, a
    ///    file-size limit, a read-only folder) changes no target;
    /// 2. the targets' folders are locked (`flock`), `verify` runs (the changed-on-disk
    ///    check), and the temporaries are renamed over their targets in order, the folder
    ///    flushed after each rename so that they reach the disk in that order; the lock is
    ///    released after the last rename. Two processes saving one file thus check and
    ///    rename one after the other, and the second sees the first's file. A lock dies with
    ///    its process (the kernel drops it when the descriptor closes), so a crashed or
    ///    killed wb never leaves a folder locked; on a file system without locks (some
    ///    network mounts) the save goes on unlocked.
    ///
    /// Each temporary file (`.NAME.wb-XXXXXXXX`) is itself locked while it exists, so a
    /// later save of the same target can tell one left by a killed process (unlocked) from
    /// one being written now, and removes only the former.
    ///
    /// Permission bits of each target are kept; a new file gets 0666 less the umask,
    /// applied by the kernel when the temporary file is created, so no process-wide state is
    /// touched. A symbolic link is followed: the file it points at is replaced and the link
    /// stays, as editors and sqlite do. Returns the stamp of each file as written, taken
    /// under the lock.
    ///
    /// `flushes: false` leaves out the flushes to the disk (of each temporary file, and of
    /// the folder after each rename): the replacement is still atomic for every process and
    /// for a crash of this one, and the caller flushes everything at once later (a batch of
    /// thousands of saves calls `sync` when it ends, rather than waiting for the disk twice a
    /// file). Until then a power cut may lose the new versions (ext4, by default, still
    /// writes a replaced file's data before the rename that replaced it).
    /// What a write to `path` replaces: the file a link points to, its folder, and the mode
    /// an existing file keeps; a folder, a device, a pipe, a socket or a missing folder is refused.
    private static func target(_ given: String) throws(FileError) -> (path: String, folder: String, mode: mode_t?) {
        let path = try linkTarget(of: given)
        let folder = parentFolder(of: path)
        guard isDirectory(folder) else {
            throw FileError(path: path, message: "the folder \(folder) does not exist")
        }
        var keptMode: mode_t?
        var existing = stat()
        if stat(path, &existing) == 0 {
            if (existing.st_mode & S_IFMT) == S_IFDIR { throw FileError(path: given, message: errorText(EISDIR)) }
            guard (existing.st_mode & S_IFMT) == S_IFREG else {
                throw FileError(path: given, message: "is not a regular file (a device, a pipe or a socket): wb saves only to files")
            }
            keptMode = existing.st_mode & 0o7777
        }
        return (path, folder, keptMode)
    }

    /// The permission bits of the regular file at `path` when it is write-protected (no write
    /// bit at all, or none this process may use); nil for a writable file or none.
    public static func writeProtection(of path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return (info.st_mode & 0o222) == 0 || access(path, W_OK) != 0 ? Int(info.st_mode & 0o777) : nil
    }

    /// The checks a write to `path` would fail, without writing (`--dry-run`): the target as
    /// `commit` checks it, and a folder this process may create files in.
    public static func preflight(_ path: String) throws(FileError) {
        let target = try target(path)
        if access(target.folder, W_OK | X_OK) != 0 {
            throw FileError(path: target.path, message: "cannot write in \(target.folder): \(errorText(errno))")
        }
    }

    public static func commit(_ writes: [FileWrite], faults: WriteFaults = WriteFaults(), flushes: Bool = true,
                              verify: (() throws(FileError) -> Void)? = nil) throws(FileError) -> [FileStamp?] {
        var prepared: [(path: String, folder: String, temporary: String, fd: Int32)] = []
        func abandon() {
            for item in prepared {
                unlink(item.temporary)
                close(item.fd)
            }
            prepared.removeAll()
        }
        var targets: [(path: String, folder: String, mode: mode_t?)] = []
        for write in writes { targets.append(try target(write.path)) }
        for (write, target) in zip(writes, targets) {
            removeStaleTemporaries(of: target.path, in: target.folder)
            let fd: Int32, temporary: String
            do {
                (fd, temporary) = try createTemporary(beside: target.path, in: target.folder)
            } catch {
                abandon()
                throw error
            }
            prepared.append((target.path, target.folder, temporary, fd))
            var code = writeAll(fd, write.bytes)
            if code == nil, let keptMode = target.mode, fchmod(fd, keptMode) != 0 { code = errno }
            if code == nil && flushes && fsync(fd) != 0 { code = errno }
            if let code {
                abandon()
                throw FileError(path: target.path, message: errorText(code))
            }
        }
        if let beforeRename = faults.beforeRename {
            do { try beforeRename() } catch {
                abandon()
                throw error
            }
        }
        let locks = lockFolders(Array(Set(targets.map(\.folder))).sorted())
        defer { for lock in locks where lock >= 0 { close(lock) } }
        if locks.contains(-2) {
            abandon()
            throw FileError(path: targets.last?.path ?? "", message: "is being saved by another process (its folder stayed locked "
                            + "for \(Int(lockPatience)) s); nothing was written")
        }
        if let verify {
            do { try verify() } catch {
                abandon()
                throw error
            }
        }
        var stamps: [FileStamp?] = []
        for index in prepared.indices {
            let item = prepared[index]
            if index > 0, let betweenRenames = faults.betweenRenames {
                do { try betweenRenames() } catch {
                    prepared.removeFirst(index)
                    abandon()
                    throw error
                }
            }
            if rename(item.temporary, item.path) != 0 {
                let failure = FileError(path: item.path, message: errorText(errno))
                prepared.removeFirst(index)
                abandon()
                throw failure
            }
            if flushes { syncFolder(item.folder) }
            stamps.append(stamp(of: item.path))
        }
        for item in prepared { close(item.fd) }
        prepared.removeAll()
        return stamps
    }

    /// Locks each folder once, in the order of their device and inode numbers, so two saves
    /// never wait on each other crosswise, and one folder spelled two ways (a link's target
    /// written absolute, the names file beside the link relative) is locked once: locked
    /// twice, the save waited 30 s on its own lock and failed. -1 for a folder that cannot be
    /// locked (no locks on that file system, or it cannot be opened: the save goes on, as
    /// before locks existed); -2 when another process held the lock for longer than
    /// `lockPatience`.
    private static func lockFolders(_ folders: [String]) -> [Int32] {
        var result: [Int32] = []
        var opened: [(key: (device: UInt64, inode: UInt64), fd: Int32)] = []
        for folder in folders {
            let fd = open(folder, O_RDONLY | O_CLOEXEC)
            var info = stat()
            guard fd >= 0, fstat(fd, &info) == 0 else {
                if fd >= 0 { close(fd) }
                result.append(-1)
                continue
            }
            let key = (device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino))
            if opened.contains(where: { $0.key == key }) {
                close(fd)
                continue
            }
            opened.append((key, fd))
        }
        opened.sort { $0.key < $1.key }
        for (_, fd) in opened {
            // The lock is held for a rename or two, so a short wait first, growing to 10 ms:
            // saves of a batch meet here all the time, and a fixed 10 ms nap made them queue.
            var waited = 0.0
            var nap = 0.000_05
            while true {
                if flock(fd, LOCK_EX | LOCK_NB) == 0 {
                    result.append(fd)
                    break
                }
                if errno == EINTR { continue }
                if errno != EWOULDBLOCK {
                    close(fd)
                    result.append(-1)
                    break
                }
                if waited >= lockPatience {
                    close(fd)
                    result.append(-2)
                    break
                }
                usleep(useconds_t(nap * 1_000_000))
                waited += nap
                nap = min(nap * 2, 0.01)
            }
        }
        return result
    }

    private static func syncFolder(_ folder: String) {
        let fd = open(folder, O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
    }

    /// Removes temporary files of wb's for `path` that no process is writing (their lock is
    /// free: whoever made them was killed, or ran out of disk and could not clean up).
    /// The folder is listed once per process (see `TemporarySweep`), not once per save: a
    /// batch saving 100,000 files in one folder would otherwise read it 100,000 times.
    static func removeStaleTemporaries(of path: String, in folder: String) {
        let prefix = temporaryPrefix(for: path)
        for name in TemporarySweep.shared.candidates(prefix: prefix, in: folder) {
            let candidate = folder + "/" + name
            let fd = open(candidate, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
            guard fd >= 0 else { continue }
            var info = stat()
            if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, flock(fd, LOCK_EX | LOCK_NB) == 0 {
                var now = stat()
                if lstat(candidate, &now) == 0, now.st_ino == info.st_ino, now.st_dev == info.st_dev {
                    unlink(candidate)
                }
            }
            close(fd)
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
            if fd >= 0 {
                // Locked at once, and still there once locked: a cleaner that took it for a
                // stale one in the instant between would have removed it (then: another name).
                var own = stat(), there = stat()
                while flock(fd, LOCK_EX) != 0 && errno == EINTR {}
                if fstat(fd, &own) == 0, lstat(name, &there) == 0, own.st_ino == there.st_ino, own.st_dev == there.st_dev {
                    return (fd, name)
                }
                close(fd)
                continue
            }
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

/// What a listing of a folder found that may be wb's temporary files (`.NAME.wb-` and eight
/// characters), kept for the folders this process saved in lately, so that each folder is
/// listed once rather than at every save. Saves on several threads (a batch) share it,
/// behind a lock. A temporary file that a killed process leaves in a folder after this
/// process listed it is removed by the next process that saves there. At most
/// `folderLimit` folders are remembered (a batch over a million folders must not keep a
/// million entries); a folder forgotten is listed again when next saved in.
final class TemporarySweep: @unchecked Sendable {
    static let shared = TemporarySweep()
    static let folderLimit = 64

    // Read and written only with `lock` held.
    private let lock = NSLock()
    private var folders: [String: [String]] = [:]
    private var order: [String] = []

    /// Names of the form `.X.wb-` and eight characters, read entry by entry: a folder of
    /// 100,000 scans is not turned into 100,000 strings to find the few that matter.
    private static func possibleTemporaries(in folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        let marker = Array(".wb-".utf8)
        var found: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw -> [UInt8]? in
                let bytes = raw.prefix { $0 != 0 }
                guard bytes.first == UInt8(ascii: "."), bytes.count > 12,
                      bytes.dropLast(8).suffix(4).elementsEqual(marker) else { return nil }
                return Array(bytes)
            }
            if let name { found.append(String(decoding: name, as: UTF8.self)) }
        }
        return found
    }

    /// The names in `folder` that start with `prefix` and may be temporary files, each
    /// handed out once.
    func candidates(prefix: String, in folder: String) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        if folders[folder] == nil {
            folders[folder] = Self.possibleTemporaries(in: folder)
            order.append(folder)
            if order.count > Self.folderLimit { folders[order.removeFirst()] = nil }
        }
        let all = folders[folder] ?? []
        let mine = all.filter { $0.hasPrefix(prefix) && $0.utf8.count == prefix.utf8.count + 8 }
        if !mine.isEmpty { folders[folder] = all.filter { !mine.contains($0) } }
        return mine
    }
}
