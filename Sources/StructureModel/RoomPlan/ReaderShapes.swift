#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// The keys seen so far in one object, to reject a key given twice (JSON allows it,
/// but which value would win is undefined, so wb refuses to guess). Keys are the same
/// when their characters are the same code points, as JSON has it: `"\u0041"` is `"A"`,
/// but a precomposed `é` is not `e` with a combining accent.
struct KeySet {
    private var keys: [RawKey] = []
    /// Past a few dozen keys, a set instead of a scan (an unknown object with a great many).
    private var many: Set<[UInt8]>?

    /// `capacity`: room for a typed element's keys without growing.
    init(capacity: Int = 12) {
        keys.reserveCapacity(capacity)
    }

    mutating func insert(_ key: RawKey, reader: JSONReader) throws {
        if many != nil || keys.count >= 32 {
            if many == nil { many = Set(keys.map { Array($0.string.utf8) }) }
            guard many!.insert(Array(key.string.utf8)).inserted else {
                throw reader.error("duplicate key \"\(Abbreviated.text(key.string))\"", absolute: key.offset - 1)
            }
            return
        }
        for seen in keys where seen.count == key.count || seen.hasEscapes || key.hasEscapes {
            let same: Bool
            if seen.hasEscapes || key.hasEscapes {
                same = seen.string.utf8.elementsEqual(key.string.utf8)
            } else {
                same = memcmp(seen.start, key.start, key.count) == 0
            }
            if same {
                throw reader.error("duplicate key \"\(Abbreviated.text(key.string))\"", absolute: key.offset - 1)
            }
        }
        keys.append(key)
    }
}

/// Readers for the shapes RoomPlan uses: fixed-length float arrays, tagged enums.
extension JSONReader {
    func error(_ message: String, absolute offset: Int) -> JSONReadError {
        JSONReadError(offset: offset, message: message)
    }

    /// A tagged enum value (`{"wall":{}}`), kept whole.
    /// `example`: a value of this field as RoomPlan writes it, for the message (a wall's
    /// category and an edge were both said to look like a confidence, {"high":{}}).
    mutating func readTagged(_ field: String, like example: String) throws -> JSONValue {
        let start = offset
        let value = try readValue()
        guard case .object(let object) = value, object.count == 1 else {
            throw error("expected \"\(field)\" to be an object with one key, like \(example), found \(value.typeName)",
                        absolute: start)
        }
        return value
    }

    mutating func readEdges() throws -> [SurfaceEdge] {
        var edges: [SurfaceEdge] = []
        try readArray { reader, _ in
            edges.append(SurfaceEdge(json: try reader.readTagged("completedEdges", like: #"{"top":{}}"#)))
        }
        return edges
    }

    /// Exactly `count` numbers, their odd spellings kept from slot `first` on.
    mutating func readFloats(
        _ field: String, count expected: Int, spellings: inout NumberSpellingsBuilder, first: UInt32,
        into body: (Int, Float) -> Void
    ) throws {
        let start = offset
        var found = 0
        do {
            try readArray { reader, index in
                let value = try reader.readFloat(spellings: &spellings, slot: first &+ UInt32(truncatingIfNeeded: index))
                if index < expected { body(index, value) }
                found += 1
            }
        } catch let error as JSONReadError where error.message.hasPrefix("expected an array") {
            throw JSONReadError(offset: start, message: "expected \(expected) numbers in \"\(field)\", found \(error.message.dropFirst("expected an array, found ".count))")
        }
        guard found == expected else {
            throw self.error("expected \(expected) numbers in \"\(field)\", found \(found)", absolute: start)
        }
    }

    mutating func readVector(_ field: String) throws -> SIMD3<Float> {
        var ignored = NumberSpellingsBuilder()
        return try readVector(field, spellings: &ignored, first: 0)
    }

    mutating func readVector(_ field: String, spellings: inout NumberSpellingsBuilder, first: UInt32) throws -> SIMD3<Float> {
        var v = SIMD3<Float>()
        try readFloats(field, count: 3, spellings: &spellings, first: first) { v[$0] = $1 }
        return v
    }

    /// Corner `i`'s coordinates are the slots from `NumberSlot.of(.polygonCorners, 3 * i)`.
    mutating func readCorners(_ field: String, spellings: inout NumberSpellingsBuilder) throws -> [SIMD3<Float>] {
        var vectors: [SIMD3<Float>] = []
        try readArray { reader, index in
            vectors.append(try reader.readVector(field, spellings: &spellings, first: NumberSlot.of(.polygonCorners, 3 * index)))
        }
        return vectors
    }

    mutating func readTransform(
        _ field: String = "transform", spellings: inout NumberSpellingsBuilder, first: UInt32 = NumberSlot.of(.transform, 0)
    ) throws -> Transform {
        var elements = SIMD16<Float>()
        try readFloats(field, count: 16, spellings: &spellings, first: first) { elements[$0] = $1 }
        return Transform(elements: elements)
    }
}
