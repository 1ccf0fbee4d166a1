#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif
import Foundation
import StructureModel
import WBLineEditor

/// The crash journal of an interactive session: every command that may change the session,
/// as it was bound (variables replaced, paths made absolute), appended to a file beside the
/// first file opened before the command runs. A session that dies (killed, a closed
/// terminal, a crash) leaves it behind; the next `wb FILE` offers to replay it, which
/// rebuilds the same documents, history and handles, since each command is a pure function
/// of the session before it.
///
/// The file, `.NAME.wb-journal` beside NAME, is JSON lines: a header naming the files the
/// session started from (absolute paths, with the digest of each file's bytes, or a
/// fingerprint of a store's files, and of the handles given), then one line per entry:
///
///     {"run":"move","args":["r1","1","0"],"text":"move r1 1 0"}
///     {"failed":true}                       the command before failed (its error is expected again)
///     {"done":true}                         the command before ran to its end
///     {"crashed":true}                      wb crashed (written by a signal handler): not replayed
///     {"begin":"source fix.wb"} … {"end":true}   a script run as one undo step
///     {"opened":"/abs/other.json","digest":"…"}  a file the command before opened, as it was
///
/// Each line is written with one write(2) before the command runs, so a command that has
/// printed anything is in the file even when the process is killed the next instant; the
/// file is flushed to the disk (fdatasync) each time the prompt comes back. The file is
/// locked (flock) while its session lives, so a second wb on the same file neither replays
/// nor removes it. A save after which nothing is unsaved starts it afresh; a clean quit
/// removes it.
final class Journal {
    let path: String
    private var fd: Int32
    private(set) var entryCount = 0
    private var unsynced = false
    /// The session's saves when the journal (re)started.
    private(set) var savesAtStart = 0
    /// The undo and redo steps the session had when the journal restarted after a save: a
    /// replay starts from the saved files, without them, so an undo or redo that reaches
    /// them cannot be replayed.
    private var undoFloor = 0
    private var redoFloor = 0
    private var unreplayable = false
    /// Why an entry could not be written (a full disk), once one could not. Nothing more is
    /// appended then: a replay gives the session as it was up to there, never the commands
    /// after a missing one run on top of a document that lacks it.
    private var writeFailure: Int32?
    private var writeFailureSaid = false

    /// Commands that never change the session: not recorded. Everything else is, so a
    /// command added later is recorded (and replayed) unless it is named here.
    static let unrecorded: Set<String> = [
        "ls", "find", "show", "stats", "plan", "summary", "help", "history", "diff", "check", "echo", "validate",
        "export", "define", "save", "quit", "source",
    ]

    static func records(_ command: String) -> Bool { !unrecorded.contains(command) }

    /// `.NAME.wb-journal` beside the file or store folder at `path`. (Its suffix is not the
    /// eight characters of a save's temporary file, so a save never takes it for one.)
    static func path(for opened: String) -> String {
        var trimmed = opened
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        let folder = FileIO.parentFolder(of: trimmed)
        return (folder == "." && !trimmed.hasPrefix("./") ? "" : folder + "/") + "." + FileIO.baseName(of: trimmed) + ".wb-journal"
    }

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
        // A crash (a failed check's trap, a bad access) marks the command it cut short.
        wble_install_crash_mark()
        wble_set_crash_mark_fd(fd)
    }

    /// A new journal for `shell`'s session as it is now. Fails when a file is already there
    /// (another session's, or one left to recover) or cannot be written.
    static func create(at path: String, for shell: Shell) throws(FileError) -> Journal {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FileError(path: path, message: FileIO.describe(errno: errno)) }
        // Locked, and still there once locked, before the header is written: a journal with
        // no header whose lock is free is one whose maker was killed, and the next session
        // removes it (`FoundJournal.look`); one it removed in the instant between was this one.
        var own = stat(), there = stat()
        while flock(fd, LOCK_EX) != 0 && errno == EINTR {}
        guard fstat(fd, &own) == 0, lstat(path, &there) == 0, own.st_ino == there.st_ino, own.st_dev == there.st_dev else {
            closeDescriptor(fd)
            throw FileError(path: path, message: "was removed by another wb as it was made")
        }
        let journal = Journal(path: path, fd: fd)
        if let code = journal.writeHeader(JournalHeader(shell: shell)) {
            // Left empty or torn (a full disk, a file-size limit), it would be taken by every
            // later session for a crashed one's journal it cannot read, and keep them from
            // having one of their own: this session made it, so it takes it away.
            journal.remove()
            throw FileError(path: path, message: FileIO.describe(errno: code))
        }
        journal.savesAtStart = shell.session.saves
        return journal
    }

    /// Continues a journal that was just replayed: its lock is held already, and a last line
    /// cut short by the crash is cut off so the next entry starts on a line of its own.
    static func resume(_ found: FoundJournal) -> Journal {
        _ = ftruncate(found.fd, off_t(found.validLength))
        // (Reading it left the offset at its old end: writing there would leave a hole.)
        _ = lseek(found.fd, off_t(found.validLength), SEEK_SET)
        let journal = Journal(path: found.path, fd: found.fd)
        journal.entryCount = found.entries.count
        return journal
    }

    /// The errno when the header could not be written, else nil.
    private func writeHeader(_ header: JournalHeader) -> Int32? {
        if let code = FileIO.writeAll(fd, Array((header.json + "\n").utf8)) { return code }
        // Not flushed now: a journal of no commands has nothing to lose, and on a busy disk a
        // flush can hold the first prompt back for seconds. The first prompt after a command
        // flushes it with that command.
        unsynced = true
        return nil
    }

    private func append(_ line: String) {
        // A journal that cannot be written (a full disk) must not stop the person's work; it
        // stops at the first entry it lost, and the person is told (`takeWriteFailure`). (It
        // went on: a command lost on a full disk was left out of the replay and the commands
        // after it, written once there was room again, were replayed without it, silently.)
        guard writeFailure == nil else { return }
        if let code = FileIO.writeAll(fd, Array((line + "\n").utf8)) {
            writeFailure = code
            return
        }
        entryCount += 1
        unsynced = true
    }

    /// Once, after the journal stopped: what to tell the person.
    func takeWriteFailure() -> String? {
        guard let code = writeFailure, !writeFailureSaid else { return nil }
        writeFailureSaid = true
        return "the crash journal \(path) cannot be written (\(FileIO.describe(errno: code))): if wb is killed now, "
            + "the edits since its last entry are lost (a save keeps them, and starts the journal again)"
    }

    /// Records a command about to run, as it was bound.
    func record(_ invocation: Invocation, spec: CommandSpec) {
        append(JournalEntry.command(invocation, spec: spec).json)
    }

    func recordFailure() { append(JournalEntry.failed.json) }
    func recordDone() { append(JournalEntry.done.json) }
    func beginGroup(text: String) { append(JournalEntry.begin(text).json) }
    func endGroup() { append(JournalEntry.end.json) }

    func recordOpened(path: String, digest: ContentDigest) {
        append(JournalEntry.opened(path: absolutePath(path), digest: digest).json)
    }

    /// Flushes what was written to the disk: called when the prompt comes back.
    func sync() {
        guard unsynced else { return }
        _ = fdatasync(fd)
        unsynced = false
    }

    /// Everything is saved: the journal starts afresh from the files as they are now.
    func restart(from shell: Shell) {
        _ = ftruncate(fd, 0)
        entryCount = 0
        writeFailureSaid = false
        writeFailure = writeHeader(JournalHeader(shell: shell))
        unsynced = false
        savesAtStart = shell.session.saves
        undoFloor = shell.session.undoStack.count
        redoFloor = shell.session.redoStack.count
        unreplayable = false
    }

    /// A save that wrote files while edits stayed unsaved (a file saved alone with `save PATH
    /// NAME`, a save inside a script that edits on): a replay starts from the files as the
    /// journal began, and one of them is no longer that. Recovery then refuses, saying why.
    /// Returns whether this is news (the first such save since the journal began).
    func noteSaveLeavingEdits() -> Bool {
        guard !unreplayable else { return false }
        unreplayable = true
        append(JournalEntry.unreplayable("a save wrote files while other edits stayed unsaved").json)
        return true
    }

    /// After a recorded command: notes when it undid or redid a step from before the last
    /// save, which a replay from the saved files cannot do. Recovery then refuses the
    /// journal, saying why, rather than rebuild something else.
    func noteHistory(of session: Session, after command: String) {
        let crossed = session.undoStack.count < undoFloor || (command == "redo" && session.redoStack.count < redoFloor)
        if crossed && !unreplayable {
            unreplayable = true
            append(JournalEntry.unreplayable("'\(command)' took back a step from before the last save").json)
        }
        undoFloor = min(undoFloor, session.undoStack.count)
        redoFloor = min(redoFloor, session.redoStack.count)
    }

    /// A clean end of the session: the journal is not needed.
    func remove() {
        unlink(path)
        close()
    }

    /// Lets go of the journal, leaving it where it is.
    func close() {
        guard fd >= 0 else { return }
        wble_set_crash_mark_fd(-1)
        closeDescriptor(fd)
        fd = -1
    }
}

/// `close(2)`, named apart from `Journal.close()`.
func closeDescriptor(_ fd: Int32) {
    _ = close(fd)
}

/// A path as seen from the root, so that a journal replays from any working folder.
func absolutePath(_ path: String) -> String {
    if let resolved = realpath(path, nil) {
        defer { free(resolved) }
        return String(cString: resolved)
    }
    if path.hasPrefix("/") { return path }
    return FileManager.default.currentDirectoryPath + "/" + path
}
