#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif
import Foundation
import StructureModel

/// What a journal was started from: the files and stores open then, in the order they were
/// opened (which decides their handles), each with what it held on disk, and a fingerprint
/// of the handles given. A journal replays only onto a session opened from the same.
struct JournalHeader: Equatable {
    struct Source: Equatable {
        var path: String
        var isStore: Bool
        /// The file's `ContentDigest`, or a fingerprint of the store's files.
        var digest: String
    }

    var sources: [Source]
    var handles: String
    var started = ""
    var pid: Int32 = 0

    init(shell: Shell) {
        let workspace = shell.session.workspace
        var opened: [(id: Int, source: Source)] = []
        for file in workspace.files {
            opened.append((file.id, Source(path: absolutePath(file.path), isStore: false, digest: file.contentDigest?.description ?? "")))
        }
        for entry in workspace.stores {
            opened.append((entry.id, Source(path: absolutePath(entry.store.path), isStore: true,
                                            digest: Self.fingerprint(store: entry.store.path).description)))
        }
        sources = opened.sorted { $0.id < $1.id }.map(\.source)
        handles = Self.fingerprint(handles: workspace).description
        started = ISO8601DateFormatter().string(from: Date())
        pid = getpid()
    }

    /// Whether a session opened now gives what the journal started from.
    func matches(_ other: JournalHeader) -> Bool {
        sources == other.sources && handles == other.handles
    }

    /// Every handle of something open, with the identity it names: equal for two sessions
    /// only when the same handles name the same things (a fresh open of a file that had
    /// elements deleted before its save numbers them otherwise).
    static func fingerprint(handles workspace: Workspace) -> ContentDigest {
        var text = ""
        for (kind, list) in workspace.handles.order.sorted(by: { $0.key.handlePrefix < $1.key.handlePrefix }) {
            for (index, identity) in list.enumerated() where workspace.exists(identity) {
                let scope = identity.scope.roomID.map { "room\($0.value)" } ?? "structure"
                text += "\(kind.handlePrefix)\(index + 1) \(identity.file) \(scope) \(identity.key)\n"
            }
        }
        return ContentDigest(Array(text.utf8))
    }

    /// What a store holds on disk: a single-file space's bytes, or every file of a store
    /// folder by name, size and modification time (its world maps can be large).
    static func fingerprint(store path: String) -> ContentDigest {
        if FileIO.isRegularFile(path) {
            return (try? FileIO.read(path)).map(ContentDigest.init) ?? ContentDigest(size: -1, hash: 0)
        }
        var text = ""
        let names = (FileManager.default.enumerator(atPath: path)?.compactMap { $0 as? String } ?? []).sorted()
        for name in names {
            var info = stat()
            guard lstat(path + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, let stamp = FileIO.stamp(of: path + "/" + name)
            else { continue }
            text += "\(name) \(stamp.size) \(stamp.modificationSeconds).\(stamp.modificationNanoseconds)\n"
        }
        return ContentDigest(Array(text.utf8))
    }

    var json: String {
        let list = sources.map { source in
            "{" + jsonPair(source.isStore ? "store" : "file", source.path) + "," + jsonPair("digest", source.digest) + "}"
        }
        return "{" + jsonPair("journal", "wb") + ",\"version\":1," + jsonPair("started", started) + ",\"pid\":\(pid),"
            + "\"sources\":[" + list.joined(separator: ",") + "]," + jsonPair("handles", handles) + "}"
    }

    init?(json object: [String: Any]) {
        guard object["journal"] as? String == "wb", object["version"] as? Int == 1,
              let list = object["sources"] as? [[String: Any]], let handles = object["handles"] as? String else { return nil }
        var sources: [Source] = []
        for item in list {
            guard let digest = item["digest"] as? String else { return nil }
            if let path = item["file"] as? String {
                sources.append(Source(path: path, isStore: false, digest: digest))
            } else if let path = item["store"] as? String {
                sources.append(Source(path: path, isStore: true, digest: digest))
            } else {
                return nil
            }
        }
        self.sources = sources
        self.handles = handles
        started = object["started"] as? String ?? "?"
        pid = Int32(truncatingIfNeeded: object["pid"] as? Int ?? 0)
    }
}

/// One line of a journal after its header.
enum JournalEntry {
    /// A command as it was bound: the words the command's code saw, and its text (which
    /// the history shows).
    case command(name: String, arguments: [String], quoted: [Int], flags: [String], values: [String: String], text: String)
    case failed
    /// The command before it ran to its end (a crash mark after it is not its doing).
    case done
    /// wb crashed (a fault's signal) in the command before: it is not replayed, or every
    /// recovery would crash again. Written by the signal handler (`wble_install_crash_mark`).
    case crashed
    case begin(String)
    case end
    case opened(path: String, digest: ContentDigest)
    /// From here on the journal cannot rebuild the session (why).
    case unreplayable(String)

    static func command(_ invocation: Invocation, spec: CommandSpec) -> JournalEntry {
        var arguments: [String] = []
        var quoted: [Int] = []
        for (index, word) in invocation.positionals.enumerated() {
            let kind = spec.arguments.isEmpty ? nil : spec.arguments[min(index, spec.arguments.count - 1)].kind
            // Paths are made absolute: the journal may be replayed from another folder.
            arguments.append(kind == .path && word.text != "-" && !word.text.isEmpty ? absolutePath(word.text) : word.text)
            if word.quoted { quoted.append(index) }
        }
        var values: [String: String] = [:]
        for (name, value) in invocation.values {
            let kind = spec.options.first { $0.name == name }?.value
            values[name] = kind == .path ? absolutePath(value.text) : value.text
        }
        return .command(name: invocation.name.text, arguments: arguments, quoted: quoted, flags: invocation.flags.sorted(),
                        values: values, text: invocation.text)
    }

    var json: String {
        switch self {
        case .command(let name, let arguments, let quoted, let flags, let values, let text):
            var line = "{" + jsonPair("run", name) + ",\"args\":[" + arguments.map(jsonString).joined(separator: ",") + "]"
            if !quoted.isEmpty { line += ",\"quoted\":[" + quoted.map(String.init).joined(separator: ",") + "]" }
            if !flags.isEmpty { line += ",\"flags\":[" + flags.map(jsonString).joined(separator: ",") + "]" }
            if !values.isEmpty {
                line += ",\"values\":{" + values.keys.sorted().map { jsonPair($0, values[$0]!) }.joined(separator: ",") + "}"
            }
            return line + "," + jsonPair("text", text) + "}"
        case .failed: return "{\"failed\":true}"
        case .done: return "{\"done\":true}"
        case .crashed: return "{\"crashed\":true}"
        case .begin(let text): return "{" + jsonPair("begin", text) + "}"
        case .end: return "{\"end\":true}"
        case .opened(let path, let digest): return "{" + jsonPair("opened", path) + "," + jsonPair("digest", digest.description) + "}"
        case .unreplayable(let why): return "{" + jsonPair("unreplayable", why) + "}"
        }
    }

    init?(json object: [String: Any]) {
        if let name = object["run"] as? String {
            guard let arguments = object["args"] as? [String], let text = object["text"] as? String else { return nil }
            self = .command(name: name, arguments: arguments, quoted: object["quoted"] as? [Int] ?? [],
                            flags: object["flags"] as? [String] ?? [], values: object["values"] as? [String: String] ?? [:],
                            text: text)
        } else if object["failed"] as? Bool == true {
            self = .failed
        } else if object["done"] as? Bool == true {
            self = .done
        } else if object["crashed"] as? Bool == true {
            self = .crashed
        } else if let text = object["begin"] as? String {
            self = .begin(text)
        } else if object["end"] as? Bool == true {
            self = .end
        } else if let why = object["unreplayable"] as? String {
            self = .unreplayable(why)
        } else if let path = object["opened"] as? String, let digest = (object["digest"] as? String).flatMap(ContentDigest.init) {
            self = .opened(path: path, digest: digest)
        } else {
            return nil
        }
    }
}

/// A journal left by a session that ended without quitting, read and locked.
struct FoundJournal {
    var path: String
    /// Open for writing and locked: nobody else replays or removes it meanwhile.
    var fd: Int32
    var header: JournalHeader
    /// The entries, each with its line in the file (for error locations).
    var entries: [(entry: JournalEntry, line: Int)]
    /// The bytes up to the end of the last whole entry (a crash may cut the last one short).
    var validLength: Int
    /// A whole line that does not read (not a last line a crash cut short): its number and how
    /// many lines it and those after it are, none of them replayed.
    var unreadable: (line: Int, lines: Int)?

    var commandCount: Int {
        entries.count { if case .command = $0.entry { return true } else { return false } }
    }

    var lastCommandText: String? {
        for item in entries.reversed() { if case .command(_, _, _, _, _, let text) = item.entry { return text } }
        return nil
    }

    enum Lookup {
        case none
        /// A journal with no header and no session (its maker was killed before it wrote
        /// one): it held no command, and is removed.
        case removedHeaderless
        /// A live session holds it.
        case inUse
        case unreadable(String)
        case found(FoundJournal)
    }

    static func look(at path: String) -> Lookup {
        guard FileIO.stamp(of: path) != nil else { return .none }
        let fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return .unreadable(FileIO.describe(errno: errno)) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            closeDescriptor(fd)
            return .unreadable("is not a regular file")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            closeDescriptor(fd)
            return .inUse
        }
        let bytes: [UInt8]
        do {
            bytes = try FileIO.readStream(fd, name: path, limit: Program.scriptLimit)
        } catch {
            closeDescriptor(fd)
            return .unreadable(error.message)
        }
        var lines: [(text: ArraySlice<UInt8>, end: Int)] = []
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == 0x0A {
            lines.append((bytes[start..<index], index + 1))
            start = index + 1
        }
        func object(_ text: ArraySlice<UInt8>) -> [String: Any]? {
            (try? JSONSerialization.jsonObject(with: Data(text))) as? [String: Any]
        }
        // Not one whole line: its maker was killed before the header was written (it locks the
        // file first, see `Journal.create`, so one being made now is locked). Left, it kept
        // every later session from having a journal until someone removed it by hand.
        if !bytes.contains(0x0A) {
            var now = stat()
            if lstat(path, &now) == 0, now.st_ino == info.st_ino, now.st_dev == info.st_dev { unlink(path) }
            closeDescriptor(fd)
            return .removedHeaderless
        }
        guard let first = lines.first, let headerObject = object(first.text), let header = JournalHeader(json: headerObject) else {
            closeDescriptor(fd)
            return .unreadable("does not start with a wb journal header")
        }
        var found = FoundJournal(path: path, fd: fd, header: header, entries: [], validLength: first.end)
        for (number, line) in lines.enumerated().dropFirst() {
            // A line that does not read is where a crash cut the journal: what follows it
            // cannot be trusted either. Said when lines follow it (it was dropped in silence).
            guard let entryObject = object(line.text), let entry = JournalEntry(json: entryObject) else {
                // (A whole line: one a crash cut short has no newline, and is not among `lines`.)
                found.unreadable = (number + 1, lines.count - number + (start < bytes.count ? 1 : 0))
                break
            }
            found.entries.append((entry, number + 1))
            found.validLength = line.end
        }
        return .found(found)
    }

    /// Removes the journal and lets go of it.
    func remove() {
        unlink(path)
        closeDescriptor(fd)
    }

    func release() {
        closeDescriptor(fd)
    }
}

/// `"text"` as a JSON string.
func jsonString(_ text: String) -> String {
    var result = "\""
    result.reserveCapacity(text.utf8.count + 2)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        default:
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}" {
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
    }
    return result + "\""
}

func jsonPair(_ key: String, _ value: String) -> String {
    jsonString(key) + ":" + jsonString(value)
}
