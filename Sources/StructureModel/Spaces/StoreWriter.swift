#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Saving a Hyperbasis store so the SDK loads it and its history reads as if the SDK had
/// made the changes: only changed files are written (atomically), `updatedAt` moves to the
/// save time, dates are whole-second UTC, file names are upper-case UUIDs, and each changed
/// anchor gets the event `HBStorage.save` would append, with the next version number. The
/// event log is appended to, never rewritten. World maps are never rewritten.
extension HyperbasisStore {
    public struct SaveResult: Sendable {
        public var store: HyperbasisStore
        public var written: [String]
        public var events: Int
    }

    static func compactJSON(_ object: JSONObject) -> [UInt8] {
        var writer = JSONWriter(capacity: 1024, compact: true)
        writer.value(.object(object))
        return writer.bytes
    }

    /// Writes what differs between `self` and `onDisk`. With `dryRun`, only says what it would write.
    public func save(comparedWith onDisk: HyperbasisStore, now: Date, dryRun: Bool) throws(FileError) -> SaveResult {
        var result = SaveResult(store: self, written: [], events: 0)
        let stamp = HyperbasisDate.string(now)
        if isSingleFile {
            guard var space = spaces.first, space != onDisk.spaces.first else { return result }
            space.updatedAt = stamp
            space.json["updatedAt"] = .string(stamp)
            if !dryRun { try FileIO.writeAtomically(Self.compactJSON(space.json), to: path) }
            result.written.append(path)
            result.store.spaces[0] = space
            return result
        }
        for (index, space) in spaces.enumerated() {
            guard let old = onDisk.spaces.first(where: { $0.id == space.id }), old != space else { continue }
            var saved = space
            saved.updatedAt = stamp
            saved.json["updatedAt"] = .string(stamp)
            saved.json["id"] = .string(space.id.uppercased())
            let file = path + "/spaces/" + space.id.uppercased() + ".json"
            if !dryRun { try FileIO.writeAtomically(Self.compactJSON(saved.json), to: file) }
            saved.file = file
            result.written.append(file)
            result.store.spaces[index] = saved
        }
        for (index, anchor) in anchors.enumerated() {
            guard let old = onDisk.anchors.first(where: { $0.id == anchor.id }), old != anchor else { continue }
            var saved = anchor
            saved.updatedAt = stamp
            saved.json["updatedAt"] = .string(stamp)
            saved.json["id"] = .string(anchor.id.uppercased())
            var log = result.store.events[anchor.spaceId] ?? []
            var version = log.filter { $0.anchorId.uppercased() == anchor.id.uppercased() }.map(\.version).max() ?? 0
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
            let file = path + "/anchors/" + anchor.id.uppercased() + ".json"
            let logFile = path + "/events/" + anchor.spaceId.uppercased() + "/events.jsonl"
            if !dryRun {
                try FileIO.writeAtomically(Self.compactJSON(saved.json), to: file)
                try Self.append(lines.map { Self.compactJSON($0) }, to: logFile)
            }
            for line in lines {
                guard case .string(let id)? = line["id"], case .string(let type)? = line["type"],
                      case .string(let timestamp)? = line["timestamp"] else { continue }
                log.append(AnchorEvent(id: id, anchorId: anchor.id, type: type, timestamp: timestamp, version: Int(line["version"].map {
                    if case .number(let n) = $0 { return n.text } else { return "0" }
                } ?? "0") ?? 0, line: 0, json: line))
            }
            result.store.events[anchor.spaceId] = log
            result.events += lines.count
            saved.file = file
            result.written.append(file)
            result.store.anchors[index] = saved
        }
        return result
    }

    /// Appends whole lines to a JSON Lines file; a last line torn by a crash is first
    /// closed with a newline so it stays a line of its own.
    static func append(_ lines: [[UInt8]], to file: String) throws(FileError) {
        guard !lines.isEmpty else { return }
        let folder = FileIO.parentFolder(of: file)
        if !FileIO.isDirectory(folder) {
            guard mkdir(folder, 0o755) == 0 || errno == EEXIST else {
                throw FileError(path: folder, message: FileIO.errorText(errno))
            }
        }
        var bytes: [UInt8] = []
        if let existing = FileIO.stamp(of: file), existing.size > 0, let current = try? FileIO.read(file), current.last != 0x0A {
            bytes.append(0x0A)
        }
        for line in lines {
            bytes += line
            bytes.append(0x0A)
        }
        let fd = open(file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileError(path: file, message: FileIO.errorText(errno)) }
        defer { close(fd) }
        if let code = FileIO.writeAll(fd, bytes) { throw FileError(path: file, message: FileIO.errorText(code)) }
        guard fsync(fd) == 0 else { throw FileError(path: file, message: FileIO.errorText(errno)) }
    }
}

extension AnchorRecord {
    static func transformJSON(_ transform: Transform) -> JSONValue {
        .array((0..<16).map { .number(JSONNumber(text: floatText(transform[$0]))) })
    }
}
