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

    public var isDeleted: Bool { deletedAt != nil }
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
    public var events: [String: [AnchorEvent]] = [:]
    public var pendingOperations = 0
    /// Files that could not be read, or that the SDK would mishandle, with why.
    public var problems: [String] = []

    /// Whether this store is one HBSpace JSON file (the SDK's Codable form, with the world
    /// map inline as base64 `worldMapData`) rather than a folder.
    public var isSingleFile = false

    /// Reads an HBSpace JSON file as a store of one space; nil when the file is not one.
    public static func loadSpaceFile(_ path: String) -> HyperbasisStore? {
        guard case .success(let object) = parse(path), case .string(let encoded)? = object["worldMapData"],
              let id = string(object, "id") else { return nil }
        var store = HyperbasisStore(path: path)
        store.isSingleFile = true
        var isCompressed = false
        if case .bool(let flag)? = object["isCompressed"] { isCompressed = flag }
        var record = SpaceRecord(id: id, name: string(object, "name"), createdAt: string(object, "createdAt"),
                                 updatedAt: string(object, "updatedAt"), isCompressed: isCompressed, json: object, file: path,
                                 worldMap: WorldMapState(storedSize: 0, rawSize: nil, info: nil, problem: nil))
        if let data = Data(base64Encoded: encoded) {
            record.worldMap = inspectWorldMap([UInt8](data), compressed: isCompressed)
        } else {
            record.worldMap.problem = "its worldMapData is not base64"
        }
        if let problem = record.worldMap.problem { store.problems.append("space \(id): \(problem)") }
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
        let spaceIDs = Set(store.spaces.map(\.id))
        if FileIO.isDirectory(path + "/anchors") {
            for name in Self.listing(path + "/anchors", suffix: ".json", store: &store) {
                store.loadAnchor(name, spaces: spaceIDs)
            }
        }
        for space in store.spaces {
            store.loadEvents(space.id)
        }
        if let bytes = try? FileIO.read(path + "/pending_operations.json"),
           case .array(let items)? = try? withJSONReader(bytes, { try $0.readValue() }) {
            store.pendingOperations = items.count
        }
        return store
    }

    /// The JSON files of a folder, sorted; lower-case names are reported (the SDK skips them).
    static func listing(_ folder: String, suffix: String, store: inout HyperbasisStore) -> [String] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(suffix) }.sorted()
        for name in names where name != name.uppercased().replacingOccurrences(of: suffix.uppercased(), with: suffix) {
            store.problems.append("\(folder)/\(name): a lower-case file name; the SDK looks for upper-case UUIDs and will not see it")
        }
        return names
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
        var isCompressed = false
        if case .bool(let flag)? = object["isCompressed"] { isCompressed = flag }
        var record = SpaceRecord(id: id, name: Self.string(object, "name"), createdAt: Self.string(object, "createdAt"),
                                 updatedAt: Self.string(object, "updatedAt"), isCompressed: isCompressed, json: object,
                                 file: file, worldMap: WorldMapState(storedSize: 0, rawSize: nil, info: nil, problem: nil))
        record.worldMap = Self.readWorldMap(path + "/worldmaps/" + id.uppercased() + ".bin", compressed: isCompressed)
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
        var metadata = JSONObject()
        if case .object(let m)? = object["metadata"] { metadata = m }
        let transform = Self.transform(object["transform"])
        if transform == nil { problems.append("\(file): \"transform\" is not 16 finite numbers") }
        if !spaces.contains(spaceId) { problems.append("\(file): its space \(spaceId) does not exist") }
        anchors.append(AnchorRecord(id: id, spaceId: spaceId, transform: transform, metadata: metadata,
                                    createdAt: Self.string(object, "createdAt"), updatedAt: Self.string(object, "updatedAt"),
                                    deletedAt: Self.string(object, "deletedAt"), json: object, file: file))
    }

    /// Reads the event log, keeping every whole line; a last line torn by a crash is
    /// reported and left out (the SDK would fail the whole log on it).
    mutating func loadEvents(_ spaceId: String) {
        let file = path + "/events/" + spaceId.uppercased() + "/events.jsonl"
        guard FileIO.stamp(of: file) != nil else { return }
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
        events[spaceId] = list
    }
}
