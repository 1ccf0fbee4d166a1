#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Saving a Hyperbasis store so the SDK loads it and its history reads as if the SDK had
/// made the changes: only changed files are written (atomically), `updatedAt` moves to the
/// save time, dates are whole-second UTC, file names are upper-case UUIDs, and each changed
/// anchor gets the event `HBStorage.save` would append, with the next version number. An
/// event log gets its new lines after its old bytes, the whole file written through a
/// temporary and renamed with the records in one commit: a save that fails (a full disk, a
/// size limit) writes nothing, where an append that failed after the records were replaced
/// left moves without their events (an adversarial pass). World maps are never rewritten.
extension HyperbasisStore {
    public struct SaveResult: Sendable {
        public var store: HyperbasisStore
        public var written: [String]
        /// Files renamed (from, to) to the upper-case name the SDK looks for, then written.
        public var renamed: [Renamed] = []
        public var events: Int
    }

    public struct Renamed: Sendable, Equatable {
        public var from: String
        public var to: String
    }

    /// One record file to write, planned: every refusal comes before the first write.
    private struct Write {
        var file: String
        var renameFrom: String?
        var bytes: [UInt8]
        var log: String?
        var lines: [[UInt8]] = []
    }

    static func compactJSON(_ object: JSONObject) -> [UInt8] {
        var writer = JSONWriter(capacity: 1024, compact: true)
        writer.value(.object(object))
        return writer.bytes
    }

    /// Writes what differs between `self` and `onDisk`. With `dryRun`, only says what it would write.
    ///
    /// Refused, before anything is written: a changed record whose id is in several files
    /// (wb does not choose between them), whose id or space id is not a UUID, whose file is
    /// named for another id, or whose event log has run out of version numbers; and any
    /// write that would land outside the store or through a symbolic link.
    /// What another program changed on disk since `onDisk` was read, among what a save of
    /// this store would write over or append to (a space or anchor record it rewrites, the
    /// event log of an anchor it changes): the first such file, and the store as it is now.
    /// A save that went ahead wrote wb's stale copies over the other program's changes, and
    /// numbered its events after a version already taken.
    public func changedOnDisk(since onDisk: HyperbasisStore) -> (file: String?, now: HyperbasisStore?) {
        if isSingleFile {
            guard let space = spaces.first, space != onDisk.spaces.first else { return (nil, nil) }
            let now = (try? Self.loadSpaceFile(path)) ?? nil
            return (now?.spaces.first == onDisk.spaces.first ? nil : path, now)
        }
        guard let now = try? Self.load(path) else { return (path, nil) }
        // (The same record under the upper-case name a save gives its file is the same record.)
        for (index, space) in spaces.enumerated() where onDisk.spaces.indices.contains(index) && onDisk.spaces[index] != space {
            let then = onDisk.spaces[index]
            var found = now.spaces.first { $0.id.uppercased() == then.id.uppercased() }
            found?.file = then.file
            if found != then { return (then.file, now) }
        }
        for (index, anchor) in anchors.enumerated() where onDisk.anchors.indices.contains(index) && onDisk.anchors[index] != anchor {
            let then = onDisk.anchors[index]
            var found = now.anchors.first { $0.id.uppercased() == then.id.uppercased() }
            found?.file = then.file
            if found != then { return (then.file, now) }
            let log = now.events[anchor.spaceId.uppercased()] ?? []
            let was = onDisk.events[anchor.spaceId.uppercased()] ?? []
            if log.map(\.id) != was.map(\.id) {
                return ((try? Self.eventLog(path, spaceId: anchor.spaceId)) ?? path, now)
            }
        }
        return (nil, now)
    }

    /// `verify` runs under the locks of the folders written, just before the renames (see
    /// `FileIO.commit`): it refuses what another process changed since the store was read.
    ///
    /// A file its owner made read-only (no write bit, or none this process may use) is
    /// refused unless `replacesWriteProtected`, as a RoomPlan file is: the atomic rename needs
    /// only a writable folder, so a record someone write-protected was replaced without a word.
    public func save(comparedWith onDisk: HyperbasisStore, now: Date, dryRun: Bool, replacesWriteProtected: Bool = false,
                     verify: (() throws(FileError) -> Void)? = nil) throws(FileError) -> SaveResult {
        var result = SaveResult(store: self, written: [], events: 0)
        let stamp = HyperbasisDate.string(now)
        func refuseWriteProtected(_ file: String) throws(FileError) {
            guard !replacesWriteProtected, let mode = FileIO.writeProtection(of: file) else { return }
            throw FileError(path: file, message: "is write-protected (mode \(String(mode, radix: 8))): save --force replaces it anyway; nothing was written")
        }
        if isSingleFile {
            guard var space = spaces.first, space != onDisk.spaces.first else { return result }
            try refuseWriteProtected(path)
            space.updatedAt = stamp
            space.json["updatedAt"] = .string(stamp)
            if !dryRun { _ = try FileIO.commit([FileWrite(path: path, bytes: Self.compactJSON(space.json))], verify: verify) }
            result.written.append(path)
            result.store.spaces[0] = space
            return result
        }
        var writes: [Write] = []
        for (index, space) in spaces.enumerated() {
            // Records are edited in place, never added or removed: the one on disk is at the same place.
            guard onDisk.spaces.indices.contains(index), onDisk.spaces[index].file == space.file, onDisk.spaces[index] != space else { continue }
            try Self.refuseDuplicates(space.duplicates, file: space.file, what: "space", id: space.id)
            let file = try Self.recordFile(path, .spaces, id: space.id)
            let renameFrom = try Self.renameSource(space.file, for: file, what: "space", id: space.id)
            var saved = space
            saved.updatedAt = stamp
            saved.json["updatedAt"] = .string(stamp)
            saved.json["id"] = .string(space.id.uppercased())
            writes.append(Write(file: file, renameFrom: renameFrom, bytes: Self.compactJSON(saved.json), log: nil))
            saved.file = file
            result.store.spaces[index] = saved
        }
        for (index, anchor) in anchors.enumerated() {
            guard onDisk.anchors.indices.contains(index), onDisk.anchors[index].file == anchor.file, onDisk.anchors[index] != anchor else { continue }
            let old = onDisk.anchors[index]
            try Self.refuseDuplicates(anchor.duplicates, file: anchor.file, what: "anchor", id: anchor.id)
            let file = try Self.recordFile(path, .anchors, id: anchor.id)
            let logFile = try Self.eventLog(path, spaceId: anchor.spaceId)
            let renameFrom = try Self.renameSource(anchor.file, for: file, what: "anchor", id: anchor.id)
            var saved = anchor
            saved.updatedAt = stamp
            saved.json["updatedAt"] = .string(stamp)
            saved.json["id"] = .string(anchor.id.uppercased())
            var log = result.store.events[anchor.spaceId.uppercased()] ?? []
            var version = result.store.events(of: anchor).map(\.version).max() ?? 0
            // At most two events follow (a seeded created, then the change).
            guard version <= Int.max - 2 else {
                throw FileError(path: logFile, message: "anchor \(anchor.id.uppercased())'s events are numbered up to \(version); "
                                + "the next version number would overflow, so the anchor is not saved")
            }
            var lines: [JSONObject] = []
            func event(_ type: String, timestamp: String, transform: Transform?, metadata: JSONObject?) {
                version += 1
                var object = JSONObject()
                object["anchorId"] = .string(anchor.id.uppercased())
                object["id"] = .string(UUID().uuidString)
                if let metadata { object["metadata"] = .object(metadata) }
                object["spaceId"] = .string(anchor.spaceId.uppercased())
                object["timestamp"] = .string(timestamp)
                if let transform { object["transform"] = AnchorRecord.transformJSON(transform) }
                object["type"] = .string(type)
                object["version"] = .number(JSONNumber(version))
                lines.append(object)
            }
            // As HBStorage.save: seed a created event for an anchor with no history, then the
            // first difference that applies wins.
            if version == 0 {
                event("created", timestamp: old.createdAt ?? stamp, transform: old.transform, metadata: old.metadata)
            }
            if old.isDeleted && !anchor.isDeleted {
                event("restored", timestamp: stamp, transform: anchor.transform, metadata: anchor.metadata)
            } else if anchor.isDeleted && !old.isDeleted {
                event("deleted", timestamp: stamp, transform: nil, metadata: nil)
            } else if old.transform != anchor.transform {
                event("moved", timestamp: stamp, transform: anchor.transform, metadata: nil)
            } else if old.metadata != anchor.metadata {
                event("updated", timestamp: stamp, transform: nil, metadata: anchor.metadata)
            }
            writes.append(Write(file: file, renameFrom: renameFrom, bytes: Self.compactJSON(saved.json), log: logFile,
                                lines: lines.map { Self.compactJSON($0) }))
            for line in lines {
                guard case .string(let id)? = line["id"], case .string(let type)? = line["type"],
                      case .string(let timestamp)? = line["timestamp"] else { continue }
                log.append(AnchorEvent(id: id, anchorId: anchor.id, type: type, timestamp: timestamp, version: Int(line["version"].map {
                    if case .number(let n) = $0 { return n.text } else { return "0" }
                } ?? "0") ?? 0, line: 0, json: line))
            }
            result.store.events[anchor.spaceId.uppercased()] = log
            result.events += lines.count
            saved.file = file
            result.store.anchors[index] = saved
        }
        for write in writes {
            try Self.confine(write.file, root: path)
            try refuseWriteProtected(write.file)
            if let from = write.renameFrom {
                try Self.confine(from, root: path)
                try refuseWriteProtected(from)
            }
            if let log = write.log, !write.lines.isEmpty {
                try Self.confine(log, root: path)
                try refuseWriteProtected(log)
            }
        }
        // Every record and every event log (the lines of all its anchors after its old bytes)
        // in one commit.
        var files: [FileWrite] = []
        var logs: [String] = []
        var linesOf: [String: [[UInt8]]] = [:]
        for write in writes {
            if let from = write.renameFrom {
                if !dryRun { try Self.moveRecordFile(from, to: write.file) }
                result.renamed.append(Renamed(from: from, to: write.file))
            }
            files.append(FileWrite(path: write.file, bytes: write.bytes))
            if let log = write.log, !write.lines.isEmpty {
                if linesOf[log] == nil { logs.append(log) }
                linesOf[log, default: []] += write.lines
            }
            result.written.append(write.file)
        }
        guard !dryRun else { return result }
        for log in logs { files.append(FileWrite(path: log, bytes: try Self.appended(linesOf[log]!, to: log))) }
        _ = try FileIO.commit(files, verify: verify)
        return result
    }

    static func refuseDuplicates(_ others: [String], file: String, what: String, id: String) throws(FileError) {
        guard !others.isEmpty else { return }
        throw FileError(path: file, message: "\(what) \(id.uppercased()) is in \(others.count + 1) files (this one and "
                        + "\(others.joined(separator: ", "))); wb will not choose between them, so it saves neither: keep one file and reopen the store")
    }

    /// The file to rename to `target` first: nil when the record is already there; its own
    /// file when that differs only by case (a lower-case name the SDK would not find).
    /// A file named for anything else is refused: it is not wb's to guess which is right.
    static func renameSource(_ file: String, for target: String, what: String, id: String) throws(FileError) -> String? {
        guard file != target else { return nil }
        if FileIO.parentFolder(of: file) == FileIO.parentFolder(of: target),
           FileIO.baseName(of: file).uppercased() == FileIO.baseName(of: target).uppercased() {
            return file
        }
        let name = FileIO.baseName(of: target)
        throw FileError(path: file, message: "holds \(what) \(id.uppercased()) but is not named \(name), where the SDK looks for it; "
                        + "wb will not write a second file for it: rename this one \(name) (or remove it) and reopen the store")
    }

    /// Refuses a write that would not land in a plain file inside the store: through a
    /// symbolic link, or into a folder that leads out of it.
    static func confine(_ file: String, root: String) throws(FileError) {
        var info = stat()
        if lstat(file, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            throw FileError(path: file, message: "is not a plain file (a symbolic link, a folder or a device); wb writes only plain files inside the store")
        }
        // The nearest folder that exists (an event log's folder may not, yet).
        var folder = FileIO.parentFolder(of: file)
        while !FileIO.isDirectory(folder) && folder != "/" && folder != "." { folder = FileIO.parentFolder(of: folder) }
        guard let top = resolved(root), let inside = resolved(folder), inside == top || inside.hasPrefix(top == "/" ? "/" : top + "/") else {
            throw FileError(path: file, message: "lies outside the store \(root) (a folder of it is a link elsewhere?); wb writes only inside the store")
        }
    }

    /// The path with every symbolic link and `..` resolved, or nil.
    static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// Renames a record's file to its upper-case name in one step, never over another file
    /// (on a case-insensitive volume the two names are the same file, which is fine).
    static func moveRecordFile(_ from: String, to target: String) throws(FileError) {
        var source = stat(), existing = stat()
        guard lstat(from, &source) == 0 else { throw FileError(path: from, message: FileIO.errorText(errno)) }
        if lstat(target, &existing) == 0 && !(existing.st_dev == source.st_dev && existing.st_ino == source.st_ino) {
            throw FileError(path: target, message: "exists already, so \(FileIO.baseName(of: from)) is not renamed to it; wb will not replace another file")
        }
        guard rename(from, target) == 0 else { throw FileError(path: from, message: FileIO.errorText(errno)) }
        let folderFD = open(FileIO.parentFolder(of: target), O_RDONLY | O_CLOEXEC)
        if folderFD >= 0 {
            fsync(folderFD)
            close(folderFD)
        }
    }

    /// A JSON Lines file's bytes with whole `lines` after them; a last line torn by a crash is
    /// first closed with a newline so it stays a line of its own. (The folders events/ and
    /// events/{SPACE}/ are made when missing, as the SDK does.)
    static func appended(_ lines: [[UInt8]], to file: String) throws(FileError) -> [UInt8] {
        let folder = FileIO.parentFolder(of: file)
        for needed in [FileIO.parentFolder(of: folder), folder] where !FileIO.isDirectory(needed) {
            guard mkdir(needed, 0o755) == 0 || errno == EEXIST else {
                throw FileError(path: needed, message: FileIO.errorText(errno))
            }
        }
        var bytes: [UInt8] = FileIO.stamp(of: file) == nil ? [] : try FileIO.read(file)
        if let last = bytes.last, last != 0x0A { bytes.append(0x0A) }
        for line in lines {
            bytes += line
            bytes.append(0x0A)
        }
        return bytes
    }
}

extension AnchorRecord {
    static func transformJSON(_ transform: Transform) -> JSONValue {
        .array((0..<16).map { .number(JSONNumber(text: floatText(transform[$0]))) })
    }
}
