/// A room's identity in a workspace: handed out once when the room first appears (opened,
/// merged, inserted) and never reused, whatever happens to its position in the file.
public struct RoomID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let value: Int

    public init(_ value: Int) {
        self.value = value
    }

    public static func < (a: RoomID, b: RoomID) -> Bool { a.value < b.value }
    public var description: String { "room#\(value)" }
}

/// Which capture inside a file: one room (a room file's only room, or a nested room of a
/// structure), or a structure's own (structure-level) arrays.
public enum Scope: Sendable, Hashable {
    case room(RoomID)
    case structure

    public var roomID: RoomID? {
        if case .room(let id) = self { return id }
        return nil
    }
}

/// Who a thing is, independent of where it sits now: its file, capture, kind and key.
/// The key is the file's identifier for surfaces and objects (a duplicated identifier gets
/// `~2`, `~3` after it), a key wb assigns for sections (which have none in the file), and
/// "" for a room, whose identity is its scope.
public struct Identity: Sendable, Hashable {
    public var file: Int
    public var scope: Scope
    public var kind: ElementKind
    public var key: String

    public init(file: Int, scope: Scope, kind: ElementKind, key: String) {
        self.file = file
        self.scope = scope
        self.kind = kind
        self.key = key
    }

    /// The room itself.
    public static func room(_ id: RoomID, file: Int) -> Identity {
        Identity(file: file, scope: .room(id), kind: .room, key: "")
    }

    /// The room this thing is in (nil for structure-level elements).
    public var room: Identity? {
        scope.roomID.map { Identity.room($0, file: file) }
    }

    /// The identifier as written in the file, without wb's suffix for duplicates.
    public var identifier: String? {
        guard kind != .room && kind != .section else { return nil }
        if let tilde = key.lastIndex(of: "~") { return String(key[..<tilde]) }
        return key
    }
}

/// The keys of one array of a capture, in array order, and where each key is: positions
/// are found through the dictionary, never by scanning.
public struct ArrayKeys: Sendable, Equatable {
    public private(set) var keys: [String] = []
    private var position: [String: Int] = [:]

    public init() {}

    public init(_ keys: [String]) {
        self.keys = keys
        position.reserveCapacity(keys.count)
        for (index, key) in keys.enumerated() { position[key] = index }
    }

    /// Keys for identifiers as a file has them: a repeated identifier gets `~2`, `~3`.
    init(identifiers: some Sequence<String>, count: Int) {
        keys.reserveCapacity(count)
        position.reserveCapacity(count)
        for identifier in identifiers {
            var key = identifier
            var copy = 1
            while position[key] != nil {
                copy += 1
                key = "\(identifier)~\(copy)"
            }
            position[key] = keys.count
            keys.append(key)
        }
    }

    public func index(of key: String) -> Int? { position[key] }
    public var count: Int { keys.count }

    mutating func insert(_ key: String, at index: Int) {
        keys.insert(key, at: index)
        for i in index..<keys.count { position[keys[i]] = i }
    }

    @discardableResult
    mutating func remove(at index: Int) -> String {
        let key = keys.remove(at: index)
        position[key] = nil
        for i in index..<keys.count { position[keys[i]] = i }
        return key
    }
}

/// The keys of every array of one capture.
public struct CaptureKeys: Sendable, Equatable {
    public var arrays: [ElementKind: ArrayKeys] = [:]

    public init() {}

    public subscript(kind: ElementKind) -> ArrayKeys {
        get { arrays[kind] ?? ArrayKeys() }
        set { arrays[kind] = newValue }
    }

    /// Keys for a capture's elements: identifiers (made unique with `~N`), and for sections
    /// keys from `nextSection`, which the caller keeps so they are never handed out twice.
    static func make(for room: CapturedRoom, nextSection: inout Int) -> CaptureKeys {
        var result = CaptureKeys()
        for kind in ElementKind.surfaceKinds + [.object] {
            let count = room.count(of: kind)
            result.arrays[kind] = ArrayKeys(identifiers: (0..<count).lazy.map { room.identifier(of: kind, at: $0) }, count: count)
        }
        var sections: [String] = []
        for _ in room.sections {
            sections.append("S\(nextSection)")
            nextSection += 1
        }
        result.arrays[.section] = ArrayKeys(sections)
        return result
    }
}

extension CapturedRoom {
    /// The identifier of a surface or object by position, without building an `Element`.
    func identifier(of kind: ElementKind, at index: Int) -> String {
        switch kind {
        case .object: return objects[index].identifier
        case .wall: return walls[index].identifier
        case .door: return doors[index].identifier
        case .window: return windows[index].identifier
        case .opening: return openings[index].identifier
        case .floor: return floors[index].identifier
        case .room, .section: return ""
        }
    }
}

extension RoomPlanDocument {
    /// Every element identifier in the document (its rooms' and, for a structure, its own):
    /// what tells an earlier copy of a scan from another scan.
    public var elementIdentifiers: Set<String> {
        let captures: [CapturedRoom]
        switch self {
        case .room(let room): captures = [room]
        case .structure(let structure): captures = [structure.merged] + structure.rooms
        }
        var result = Set<String>()
        for capture in captures {
            for kind in ElementKind.surfaceKinds + [.object] {
                for index in 0..<capture.count(of: kind) { result.insert(capture.identifier(of: kind, at: index)) }
            }
        }
        return result
    }
}

/// Identifiers are UUIDs, whose hex digits a file may write in either case (RoomPlan writes
/// capitals; a file another tool rewrote may hold small letters, or point at a capitalised
/// element with a parent in small letters). A lookup by identifier tries it as written, then
/// in capitals, then in small letters; the file keeps its own spelling.
public func identifierSpellings(_ identifier: String) -> [String] {
    let upper = identifier.uppercased(), lower = identifier.lowercased()
    return upper == identifier ? [identifier, lower] : lower == identifier ? [identifier, upper] : [identifier, upper, lower]
}

extension Dictionary where Key == String {
    /// The value for `identifier` in any case (see `identifierSpellings`).
    public subscript(identifier identifier: String) -> Value? {
        if let value = self[identifier] { return value }
        for spelling in identifierSpellings(identifier).dropFirst() { if let value = self[spelling] { return value } }
        return nil
    }
}

extension Set where Element == String {
    /// Whether `identifier` is here in any case (see `identifierSpellings`).
    public func contains(identifier: String) -> Bool {
        identifierSpellings(identifier).contains { contains($0) }
    }
}

extension ArrayKeys {
    /// The position of `identifier`'s key, in any case, and that key as the file has it.
    public func index(ofIdentifier identifier: String) -> (index: Int, key: String)? {
        for spelling in identifierSpellings(identifier) { if let index = index(of: spelling) { return (index, spelling) } }
        return nil
    }
}
