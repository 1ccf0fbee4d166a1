import Foundation

/// A space's world map as found on disk.
public struct WorldMapState: Sendable, Equatable {
    /// Bytes in `worldmaps/{ID}.bin` (0 when missing).
    public var storedSize: Int
    /// Bytes after inflating (equal to `storedSize` when not compressed); nil when unreadable.
    public var rawSize: Int?
    public var info: WorldMapInfo?
    /// Why the map cannot be used, if it cannot.
    public var problem: String?

    public init(storedSize: Int, rawSize: Int?, info: WorldMapInfo?, problem: String?) {
        self.storedSize = storedSize
        self.rawSize = rawSize
        self.info = info
        self.problem = problem
    }
}

/// `spaces/{ID}.json` and its world map.
public struct SpaceRecord: Sendable, Equatable {
    public var id: String
    public var name: String?
    public var createdAt: String?
    public var updatedAt: String?
    public var isCompressed: Bool
    /// Every key of the file, as read, so that saving keeps what wb does not model.
    public var json: JSONObject
    public var file: String
    public var worldMap: WorldMapState
    /// The other files of the store that hold a space with the same id (a sync-conflict
    /// copy, say). wb shows them all and saves none of them: it will not choose.
    public var duplicates: [String] = []

    /// What tells this record from every other in its store, for its handle: the id, and
    /// the file too when the id is in several files.
    public var handleKey: String { duplicates.isEmpty ? id.uppercased() : id.uppercased() + "|" + file }
}

/// `anchors/{ID}.json`.
public struct AnchorRecord: Sendable, Equatable {
    public var id: String
    public var spaceId: String
    public var transform: Transform?
    public var metadata: JSONObject
    public var createdAt: String?
    public var updatedAt: String?
    public var deletedAt: String?
    public var json: JSONObject
    public var file: String
    /// The other files of the store that hold an anchor with the same id; see `SpaceRecord`.
    public var duplicates: [String] = []

    public var isDeleted: Bool { deletedAt != nil }
    public var handleKey: String { duplicates.isEmpty ? id.uppercased() : id.uppercased() + "|" + file }
}

/// An id that may name a file: a UUID, 8-4-4-4-12 hexadecimal digits in either case. It
/// is the only way an id becomes part of a path in a store, so an id such as `../../x`
/// can never name a file outside it.
public struct StoreUUID: Sendable, Hashable, CustomStringConvertible {
    /// In upper case, as the SDK's `uuidString` and its file names.
    public let text: String

    public init?(_ raw: String) {
        let bytes = Array(raw.utf8)
        guard bytes.count == 36 else { return nil }
        for (index, byte) in bytes.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
            } else {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                        || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte) else { return nil }
            }
        }
        text = raw.uppercased()
    }

    public var description: String { text }

    /// An id as a message quotes it: escaped, and shortened when long.
    static func quoted(_ id: String) -> String {
        String(reflecting: id.count > 80 ? String(id.prefix(80)) + "…" : id)
    }
}

/// The paths of a store's files. Each is made from a `StoreUUID`, so an id that is not a
/// UUID is refused here, where paths are built, whatever let it through before.
extension HyperbasisStore {
    public enum Folder: String, Sendable {
        case spaces, anchors
    }

    static func uuid(_ id: String, _ what: String, root: String) throws(FileError) -> StoreUUID {
        guard let uuid = StoreUUID(id) else {
            throw FileError(path: root, message: "\(what) \(StoreUUID.quoted(id)) is not a UUID; wb makes file names only from UUIDs, so it writes nothing")
        }
        return uuid
    }

    /// `spaces/{ID}.json` or `anchors/{ID}.json`, the name the SDK looks for.
    public static func recordFile(_ root: String, _ folder: Folder, id: String) throws(FileError) -> String {
        root + "/" + folder.rawValue + "/" + (try uuid(id, folder == .spaces ? "the space id" : "the anchor id", root: root)).text + ".json"
    }

    /// `worldmaps/{ID}.bin`.
    public static func worldMapFile(_ root: String, spaceId: String) throws(FileError) -> String {
        root + "/worldmaps/" + (try uuid(spaceId, "the space id", root: root)).text + ".bin"
    }

    /// `events/{ID}/events.jsonl`.
    public static func eventLog(_ root: String, spaceId: String) throws(FileError) -> String {
        root + "/events/" + (try uuid(spaceId, "the space id", root: root)).text + "/events.jsonl"
    }
}

/// One line of `events/{SPACE}/events.jsonl`.
public struct AnchorEvent: Sendable, Equatable {
    public var id: String
    public var anchorId: String
    public var type: String
    public var timestamp: String
    public var version: Int
    public var line: Int
    public var json: JSONObject
}

/// A Hyperbasis SDK store folder (`Documents/Hyperbasis/` of an app), read the way the SDK
/// reads it but forgiving: one bad file is reported and skipped, the rest opens. Nothing
/// is changed on disk by reading.
public struct HyperbasisStore: Sendable {
    /// The SDK inflates into at most 50 times the stored size and silently truncates beyond.
    public static let inflationLimit = 50

    public var path: String
    public var spaces: [SpaceRecord] = []
    public var anchors: [AnchorRecord] = []
    /// The event logs, by space id in upper case (the name of the log's folder): the SDK
    /// compares ids as UUIDs, so an anchor whose `spaceId` is written in lower case, or
    /// whose space record is gone, still has its history here.
    public var events: [String: [AnchorEvent]] = [:]
    public var pendingOperations = 0
    /// Files that could not be read, or that the SDK would mishandle, with why.
    public var problems: [String] = []

    /// Whether this store is one HBSpace JSON file (the SDK's Codable form, with the world
    /// map inline as base64 `worldMapData`) rather than a folder.
    public var isSingleFile = false

    /// Reads an HBSpace JSON file as a store of one space: nil when the file is not JSON
    /// with a `worldMapData` key; an error, saying what is wrong, when it has one but no
    /// usable id. A `worldMapData` that is not base64 text is the space's problem.
    public static func loadSpaceFile(_ path: String) throws(FileError) -> HyperbasisStore? {
        guard case .success(let object) = parse(path), let mapValue = object["worldMapData"] else { return nil }
        guard let idValue = object["id"] else { throw FileError(path: path, message: "an HBSpace file, but it has no \"id\"") }
        guard case .string(let id) = idValue else {
            throw FileError(path: path, message: "an HBSpace file, but its \"id\" is \(idValue.typeName), not text")
        }
        var store = HyperbasisStore(path: path)
        store.isSingleFile = true
        var isCompressed = false
        if case .bool(let flag)? = object["isCompressed"] { isCompressed = flag }
        var record = SpaceRecord(id: id, name: string(object, "name"), createdAt: string(object, "createdAt"),
                                 updatedAt: string(object, "updatedAt"), isCompressed: isCompressed, json: object, file: path,
                                 worldMap: WorldMapState(storedSize: 0, rawSize: nil, info: nil, problem: nil))
        if case .string(let encoded) = mapValue {
            if let data = Data(base64Encoded: encoded) {
                record.worldMap = inspectWorldMap([UInt8](data), compressed: isCompressed)
            } else {
                record.worldMap.problem = "its \"worldMapData\" is not base64"
            }
        } else {
            record.worldMap.problem = "its \"worldMapData\" is \(mapValue.typeName), not base64 text"
        }
        if let problem = record.worldMap.problem { store.problems.append("\(path): space \(id): \(problem)") }
        store.spaces = [record]
        return store
    }

    public static func isStore(_ path: String) -> Bool {
        FileIO.isDirectory(path) && FileIO.isDirectory(path + "/spaces")
    }

    public static func load(_ path: String) throws(FileError) -> HyperbasisStore {
        guard FileIO.isDirectory(path) else { throw FileError(path: path, message: "is not a folder") }
        guard FileIO.isDirectory(path + "/spaces") else {
            throw FileError(path: path, message: "is a folder, but not a Hyperbasis store (it has no spaces/ folder)")
        }
        var store = HyperbasisStore(path: path)
        for name in Self.listing(path + "/spaces", suffix: ".json", store: &store) {
            store.loadSpace(name)
        }
        let spaceIDs = Set(store.spaces.map { $0.id.uppercased() })
        if FileIO.isDirectory(path + "/anchors") {
            for name in Self.listing(path + "/anchors", suffix: ".json", store: &store) {
                store.loadAnchor(name, spaces: spaceIDs)
            }
        }
        store.markDuplicates()
        // Every log an anchor's save appends to, its space's record there or not: a save
        // numbers the new events after the log's (a log left unread gave an anchor a second
        // version 1: an adversarial pass).
        var logsRead = Set<String>()
        for id in store.spaces.map(\.id) + store.anchors.map(\.spaceId) where logsRead.insert(id.uppercased()).inserted {
            store.loadEvents(id)
        }
        if let bytes = try? FileIO.read(path + "/pending_operations.json"),
           case .array(let items)? = try? withJSONReader(bytes, { try $0.readValue() }) {
            store.pendingOperations = items.count
        }
        return store
    }

    /// The JSON files of a folder, sorted; UUID names not in upper case are reported (the
    /// SDK looks for upper-case names). Names that are not UUIDs at all are reported when
    /// the file is read, against the id inside.
    static func listing(_ folder: String, suffix: String, store: inout HyperbasisStore) -> [String] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(suffix) }.sorted()
        for name in names {
            let stem = String(name.dropLast(suffix.count))
            if let uuid = StoreUUID(stem), uuid.text != stem {
                store.problems.append("\(folder)/\(name): a lower-case file name; the SDK looks for upper-case UUIDs and will not see it"
                                      + " (a save of this record renames it to \(uuid.text)\(suffix))")
            }
        }
        return names
    }

    /// Whether a record's file is named for its id, but for case (a record named for
    /// another id, or for none, is not where the SDK or a save looks for it).
    mutating func checkName(_ file: String, id: String, what: String) {
        let name = FileIO.baseName(of: file)
        let stem = name.hasSuffix(".json") ? String(name.dropLast(5)) : name
        if stem.uppercased() != id.uppercased() {
            problems.append("\(file): its name is not its id \(id.uppercased()); the SDK looks for \(what) in \(id.uppercased()).json, "
                            + "and wb will not save it under either name")
        }
    }

    /// Records whose id is in more than one file are each told of the others, and reported:
    /// wb will not choose which file is the record.
    mutating func markDuplicates() {
        func files<Record>(_ records: [Record], id: (Record) -> String, file: (Record) -> String) -> [String: [String]] {
            var byID: [String: [String]] = [:]
            for record in records { byID[id(record).uppercased(), default: []].append(file(record)) }
            return byID.filter { $0.value.count > 1 }
        }
        let spaceFiles = files(spaces, id: \.id, file: \.file)
        for index in spaces.indices {
            if let all = spaceFiles[spaces[index].id.uppercased()] { spaces[index].duplicates = all.filter { $0 != spaces[index].file } }
        }
        let anchorFiles = files(anchors, id: \.id, file: \.file)
        for index in anchors.indices {
            if let all = anchorFiles[anchors[index].id.uppercased()] { anchors[index].duplicates = all.filter { $0 != anchors[index].file } }
        }
        let note = "wb shows each and will save none of them (keep one file, then reopen the store)"
        for (id, list) in spaceFiles.sorted(by: { $0.key < $1.key }) {
            problems.append("space \(id) is in \(list.count) files: \(list.joined(separator: ", ")); \(note)")
        }
        for (id, list) in anchorFiles.sorted(by: { $0.key < $1.key }) {
            problems.append("anchor \(id) is in \(list.count) files: \(list.joined(separator: ", ")); \(note)")
        }
    }

    struct Unreadable: Error {
        var message: String
    }

    static func parse(_ path: String) -> Result<JSONObject, Unreadable> {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(path)
        } catch {
            return .failure(Unreadable(message: "\(path): \(error.message)"))
        }
        do {
            let value = try withJSONReader(bytes) { reader -> JSONValue in
                let value = try reader.readValue()
                try reader.expectEnd()
                return value
            }
            guard case .object(let object) = value else { return .failure(Unreadable(message: "\(path): expected a JSON object")) }
            return .success(object)
        } catch let error as JSONReadError {
            let location = SourceLocator.locate(offset: error.offset, in: bytes)
            return .failure(Unreadable(message: "\(path):\(location.line):\(location.column): \(error.message)"))
        } catch {
            return .failure(Unreadable(message: "\(path): \(error)"))
        }
    }

    static func string(_ object: JSONObject, _ key: String) -> String? {
        if case .string(let text)? = object[key] { return text }
        return nil
    }

    static func transform(_ value: JSONValue?) -> Transform? {
        guard case .array(let items)? = value, items.count == 16 else { return nil }
        var values: [Float] = []
        for item in items {
            guard case .number(let number) = item, let float = Float(number.text), float.isFinite else { return nil }
            values.append(float)
        }
        return Transform(values)
    }

    mutating func loadSpace(_ name: String) {
        let file = path + "/spaces/" + name
        let object: JSONObject
        switch Self.parse(file) {
        case .failure(let failure):
            problems.append(failure.message + " (this space is skipped)")
            return
        case .success(let parsed):
            object = parsed
        }
        guard let id = Self.string(object, "id") else {
            problems.append("\(file): no \"id\" (this space is skipped)")
            return
        }
        // The id names the world map, the event log and the file a save writes.
        guard let uuid = StoreUUID(id) else {
            problems.append("\(file): \"id\" is not a UUID (\(StoreUUID.quoted(id))); this space is skipped")
            return
        }
        checkName(file, id: id, what: "the space")
        var isCompressed = false
        if case .bool(let flag)? = object["isCompressed"] { isCompressed = flag }
        var record = SpaceRecord(id: id, name: Self.string(object, "name"), createdAt: Self.string(object, "createdAt"),
                                 updatedAt: Self.string(object, "updatedAt"), isCompressed: isCompressed, json: object,
                                 file: file, worldMap: WorldMapState(storedSize: 0, rawSize: nil, info: nil, problem: nil))
        record.worldMap = Self.readWorldMap(path + "/worldmaps/" + uuid.text + ".bin", compressed: isCompressed)
        if let problem = record.worldMap.problem { problems.append("space \(id): \(problem)") }
        spaces.append(record)
    }

    /// Reads and inspects a world map; the raw bytes are dropped once inspected.
    public static func readWorldMap(_ file: String, compressed: Bool) -> WorldMapState {
        var state = WorldMapState(storedSize: 0, rawSize: nil, info: nil, problem: nil)
        let stored: [UInt8]
        do {
            stored = try FileIO.read(file)
        } catch {
            state.problem = "its world map \(file) cannot be read: \(error.message)"
            return state
        }
        return inspectWorldMap(stored, compressed: compressed)
    }

    /// Inflates (when compressed) and inspects world-map bytes.
    public static func inspectWorldMap(_ stored: [UInt8], compressed: Bool) -> WorldMapState {
        var state = WorldMapState(storedSize: stored.count, rawSize: nil, info: nil, problem: nil)
        let raw: [UInt8]
        if compressed {
            do {
                raw = try RawDeflate.inflate(stored, limit: max(1 << 20, stored.count * inflationLimit))
            } catch {
                if case .tooLarge = error {
                    state.problem = "its world map inflates to more than \(inflationLimit) times its stored size: a decompression "
                        + "bomb, or a map the SDK would truncate"
                } else if stored.starts(with: Array("bplist00".utf8)) {
                    state.problem = "isCompressed is true but its world map is not compressed (it is a plain property list)"
                } else if case .truncated = error {
                    state.problem = "isCompressed is true but its world map cannot be inflated: \(error)"
                } else {
                    state.problem = "isCompressed is true but its world map is \(error)"
                }
                return state
            }
        } else {
            raw = stored
        }
        state.rawSize = raw.count
        do {
            let info = try WorldMapArchive.inspect(raw)
            state.info = info
            if !info.isValid { state.problem = "its world map would not load in ARKit: " + info.problems.joined(separator: "; ") }
        } catch {
            state.problem = "its world map is not an ARWorldMap archive (\(error.message))"
                + (compressed ? "" : (raw.count > 2 && raw[0] != UInt8(ascii: "b") ? "; is it compressed with isCompressed false?" : ""))
        }
        return state
    }

    mutating func loadAnchor(_ name: String, spaces: Set<String>) {
        let file = path + "/anchors/" + name
        let object: JSONObject
        switch Self.parse(file) {
        case .failure(let failure):
            problems.append(failure.message + " (this anchor is skipped)")
            return
        case .success(let parsed):
            object = parsed
        }
        guard let id = Self.string(object, "id"), let spaceId = Self.string(object, "spaceId") else {
            problems.append("\(file): an anchor needs \"id\" and \"spaceId\" (this anchor is skipped)")
            return
        }
        // The id names the anchor's file, the space id its event log.
        for (key, value) in [("id", id), ("spaceId", spaceId)] where StoreUUID(value) == nil {
            problems.append("\(file): \"\(key)\" is not a UUID (\(StoreUUID.quoted(value))); this anchor is skipped")
            return
        }
        checkName(file, id: id, what: "the anchor")
        var metadata = JSONObject()
        if case .object(let m)? = object["metadata"] { metadata = m }
        let transform = Self.transform(object["transform"])
        if transform == nil { problems.append("\(file): \"transform\" is not 16 finite numbers") }
        if !spaces.contains(spaceId.uppercased()) { problems.append("\(file): its space \(spaceId) does not exist") }
        anchors.append(AnchorRecord(id: id, spaceId: spaceId, transform: transform, metadata: metadata,
                                    createdAt: Self.string(object, "createdAt"), updatedAt: Self.string(object, "updatedAt"),
                                    deletedAt: Self.string(object, "deletedAt"), json: object, file: file))
    }

    /// Reads the event log, keeping every whole line; a last line torn by a crash is
    /// reported and left out (the SDK would fail the whole log on it).
    mutating func loadEvents(_ spaceId: String) {
        guard let file = try? Self.eventLog(path, spaceId: spaceId), FileIO.stamp(of: file) != nil else { return }
        guard let bytes = try? FileIO.read(file) else {
            problems.append("\(file): cannot be read")
            return
        }
        var list: [AnchorEvent] = []
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() where !line.isEmpty {
            let number = index + 1
            let parsed = try? withJSONReader(Array(line)) { reader -> JSONValue in
                let value = try reader.readValue()
                try reader.expectEnd()
                return value
            }
            guard case .object(let object)? = parsed, let id = Self.string(object, "id"), let anchor = Self.string(object, "anchorId"),
                  let type = Self.string(object, "type"), case .number(let version)? = object["version"] else {
                let torn = index == lines.count - 1 && bytes.last != 0x0A
                problems.append("\(file):\(number): " + (torn ? "the last line is torn (a crash while writing?); the whole lines before it are kept"
                                                            : "not an event record; skipped"))
                continue
            }
            list.append(AnchorEvent(id: id, anchorId: anchor, type: type, timestamp: Self.string(object, "timestamp") ?? "",
                                    version: Int(version.text) ?? 0, line: number, json: object))
        }
        events[spaceId.uppercased()] = list
    }

    /// The events of one anchor, from its space's log, in the log's order.
    public func events(of anchor: AnchorRecord) -> [AnchorEvent] {
        (events[anchor.spaceId.uppercased()] ?? []).filter { $0.anchorId.uppercased() == anchor.id.uppercased() }
    }
}
