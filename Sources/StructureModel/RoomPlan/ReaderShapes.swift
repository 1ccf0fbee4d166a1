#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// The keys seen so far in one object, to reject a key given twice (JSON allows it,
/// but which value would win is undefined, so wb refuses to guess).
struct KeySet {
    private var keys: [RawKey] = []

    init() {
        keys.reserveCapacity(12)
    }

    mutating func insert(_ key: RawKey, reader: JSONReader) throws {
        for seen in keys where seen.count == key.count || seen.hasEscapes || key.hasEscapes {
            let same: Bool
            if seen.hasEscapes || key.hasEscapes {
                same = seen.string == key.string
            } else {
                same = memcmp(seen.start, key.start, key.count) == 0
            }
            if same {
                throw reader.error("duplicate key \"\(key.string)\"", absolute: key.offset - 1)
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
    mutating func readTagged(_ field: String) throws -> JSONValue {
        let start = offset
        let value = try readValue()
        guard case .object(let object) = value, object.count == 1 else {
            throw error("expected \"\(field)\" to be an object with one key, like {\"high\":{}}, found \(value.typeName)",
                        absolute: start)
        }
        return value
    }

    mutating func readEdges() throws -> [SurfaceEdge] {
        var edges: [SurfaceEdge] = []
        try readArray { reader, _ in
            edges.append(SurfaceEdge(json: try reader.readTagged("completedEdges")))
        }
        return edges
    }

    /// Exactly `count` numbers.
    mutating func readFloats(_ field: String, count expected: Int, into body: (Int, Float) -> Void) throws {
        let start = offset
        var found = 0
        do {
            try readArray { reader, index in
                let value = try reader.readFloat()
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
        var v = SIMD3<Float>()
        try readFloats(field, count: 3) { v[$0] = $1 }
        return v
    }

    mutating func readVectors(_ field: String) throws -> [SIMD3<Float>] {
        var vectors: [SIMD3<Float>] = []
        try readArray { reader, _ in vectors.append(try reader.readVector(field)) }
        return vectors
    }

    mutating func readTransform(_ field: String = "transform") throws -> Transform {
        var elements = SIMD16<Float>()
        try readFloats(field, count: 16) { elements[$0] = $1 }
        return Transform(elements: elements)
    }
}
