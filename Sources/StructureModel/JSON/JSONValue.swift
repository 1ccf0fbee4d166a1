/// A JSON value kept exactly as it was read, for the parts of a file wb does not model.
///
/// Numbers keep their original text, objects keep their members in order, so a value
/// that is read and written again says exactly what it said before (re-indented into
/// Apple's canonical layout, with object keys sorted as `JSONEncoder(.sortedKeys)` sorts them).
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// A short name of the value's type, for error messages.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// A JSON number as its source text. The text is validated JSON number syntax.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    public let text: String

    public init(text: String) {
        self.text = text
    }

    public init(_ value: Int) {
        self.text = String(value)
    }

    public var doubleValue: Double {
        Double(text) ?? .nan
    }

    public var description: String { text }

    /// Whether `text` is a number by JSON's grammar (RFC 8259), as the reader requires.
    public var isValidSyntax: Bool {
        var bytes = text.utf8[...]
        func digits() -> Int {
            let count = bytes.prefix { $0 &- UInt8(ascii: "0") < 10 }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let first = bytes.first
        let whole = digits()
        guard whole == 1 || (whole > 1 && first != UInt8(ascii: "0")) else { return false }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() > 0 else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }
}

/// One member of a JSON object.
public struct JSONMember: Sendable, Hashable {
    public var key: String
    public var value: JSONValue

    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}

/// An ordered JSON object. Keys are unique (the reader rejects duplicates).
///
/// The members keep the file's order, but two objects with the same members in another
/// order are equal: JSON gives the order no meaning, and the writer sorts the keys, so
/// equality is what survives a write and a read.
public struct JSONObject: Sendable, Hashable {
    public var members: [JSONMember]

    public init(_ members: [JSONMember] = []) {
        self.members = members
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count && lhs.sortedMembers == rhs.sortedMembers
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(sortedMembers)
    }

    public var isEmpty: Bool { members.isEmpty }
    public var count: Int { members.count }
    public var keys: [String] { members.map(\.key) }

    public subscript(key: String) -> JSONValue? {
        get { members.first { $0.key == key }?.value }
        set {
            if let index = members.firstIndex(where: { $0.key == key }) {
                if let newValue {
                    members[index].value = newValue
                } else {
                    members.remove(at: index)
                }
            } else if let newValue {
                members.append(JSONMember(key, newValue))
            }
        }
    }

    /// The members in the order Apple's `JSONEncoder` with `.sortedKeys` writes them:
    /// by the keys' UTF-8 bytes (checked on swift-foundation: `"Z" < "_x" < "a10" < "a9"`).
    public var sortedMembers: [JSONMember] {
        sortedMembersAndDuplicate.members
    }

    /// The sorted members, and a key that is there twice (byte for byte) if there is one:
    /// the reader never makes such an object, but code can.
    var sortedMembersAndDuplicate: (members: [JSONMember], duplicate: String?) {
        // Strictly increasing keys (a file in Apple's form) cannot repeat one.
        if isSortedByKey { return (members, nil) }
        let sorted = members.sorted { JSONKeyOrder.precedes($0.key, $1.key) }
        let duplicate = zip(sorted, sorted.dropFirst()).first { $0.key.utf8.elementsEqual($1.key.utf8) }?.0.key
        return (sorted, duplicate)
    }

    var isSortedByKey: Bool {
        var previous: String?
        for member in members {
            if let previous, !JSONKeyOrder.precedes(previous, member.key) { return false }
            previous = member.key
        }
        return true
    }
}

/// The key order of `JSONEncoder.OutputFormatting.sortedKeys`.
public enum JSONKeyOrder {
    public static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}
