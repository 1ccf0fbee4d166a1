/// A binary property list (`bplist00`) read as data, with every bound checked.
///
/// Objects are decoded on demand by index, and `data` objects are byte ranges into the
/// buffer, so a 50 MB world map is inspected without copying its opaque parts.
public struct BinaryPlist: Sendable {
    public enum Object: Sendable, Equatable {
        case null
        case bool(Bool)
        case int(Int64)
        case real(Double)
        case date(Double)
        case data(Range<Int>)
        case string(String)
        case uid(Int)
        case array([Int])
        case dict([(key: Int, value: Int)])

        public static func == (a: Object, b: Object) -> Bool {
            switch (a, b) {
            case (.null, .null): return true
            case (.bool(let x), .bool(let y)): return x == y
            case (.int(let x), .int(let y)): return x == y
            case (.real(let x), .real(let y)), (.date(let x), .date(let y)): return x == y
            case (.data(let x), .data(let y)): return x == y
            case (.string(let x), .string(let y)): return x == y
            case (.uid(let x), .uid(let y)): return x == y
            case (.array(let x), .array(let y)): return x == y
            case (.dict(let x), .dict(let y)): return x.map(\.key) == y.map(\.key) && x.map(\.value) == y.map(\.value)
            default: return false
            }
        }
    }

    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    public let bytes: [UInt8]
    public let top: Int
    private let offsets: [Int]
    private let referenceSize: Int

    public var objectCount: Int { offsets.count }

    public init(_ bytes: [UInt8]) throws(Failure) {
        self.bytes = bytes
        guard bytes.count >= 40, bytes[0..<8].elementsEqual(Array("bplist00".utf8)) else {
            throw Failure(message: "not a binary property list (no bplist00 header)")
        }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        let count = Self.bigEndian(bytes, trailer + 8, 8)
        let top = Self.bigEndian(bytes, trailer + 16, 8)
        let tableStart = Self.bigEndian(bytes, trailer + 24, 8)
        // The trailer's numbers are clamped to Int.max; the table's size is formed only once
        // the count is known to be smaller than the file, and checked for overflow even so.
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), count > 0, count < bytes.count,
              top < count, tableStart >= 8, tableStart <= trailer,
              case let (tableSize, overflow) = count.multipliedReportingOverflow(by: offsetSize), !overflow,
              tableSize <= trailer - tableStart else {
            throw Failure(message: "a property list with a damaged trailer")
        }
        var offsets = [Int]()
        offsets.reserveCapacity(count)
        for index in 0..<count {
            let offset = Self.bigEndian(bytes, tableStart + index * offsetSize, offsetSize)
            guard offset >= 8 && offset < tableStart else {
                throw Failure(message: "object \(index) of the property list lies outside it")
            }
            offsets.append(offset)
        }
        self.offsets = offsets
        self.referenceSize = referenceSize
        self.top = top
    }

    private static func bigEndian(_ bytes: [UInt8], _ start: Int, _ size: Int) -> Int {
        var value: UInt64 = 0
        for i in 0..<size where start + i < bytes.count { value = value << 8 | UInt64(bytes[start + i]) }
        return value > UInt64(Int.max) ? Int.max : Int(value)
    }

    /// Object `index`, decoded.
    public func object(_ index: Int) throws(Failure) -> Object {
        guard index >= 0 && index < offsets.count else { throw Failure(message: "a reference to object \(index), which does not exist") }
        var p = offsets[index]
        let marker = bytes[p]
        p += 1
        let type = marker >> 4, info = Int(marker & 0x0F)
        // Lengths and counts come from the file and may be anything up to 2^64 - 1 (clamped
        // to Int.max): every sum and product of them is checked before it is formed.
        func need(_ count: Int) throws(Failure) {
            guard count >= 0, count <= bytes.count - p else { throw Failure(message: "object \(index) runs past the end of the property list") }
        }
        /// `count` items of `size` bytes each, as a byte count that is known to fit.
        func need(_ count: Int, of size: Int) throws(Failure) -> Int {
            let (total, overflow) = count.multipliedReportingOverflow(by: size)
            guard !overflow else { throw Failure(message: "object \(index) runs past the end of the property list") }
            try need(total)
            return total
        }
        func length() throws(Failure) -> Int {
            guard info == 0x0F else { return info }
            try need(1)
            let intMarker = bytes[p]
            // A length is an integer object of 1, 2, 4 or 8 bytes.
            guard intMarker >> 4 == 1, intMarker & 0x0F <= 3 else { throw Failure(message: "object \(index) has a malformed length") }
            let size = 1 << Int(intMarker & 0x0F)
            p += 1
            try need(size)
            let value = Self.bigEndian(bytes, p, size)
            p += size
            return value
        }
        func references(_ count: Int) throws(Failure) -> [Int] {
            let total = try need(count, of: referenceSize)
            var refs = [Int]()
            refs.reserveCapacity(count)
            for i in 0..<count { refs.append(Self.bigEndian(bytes, p + i * referenceSize, referenceSize)) }
            p += total
            return refs
        }
        switch type {
        case 0x0:
            switch info {
            case 0x8: return .bool(false)
            case 0x9: return .bool(true)
            default: return .null
            }
        case 0x1:
            // 1, 2, 4, 8 or 16 bytes (16: a 128-bit integer, of which the low 8 bytes are read).
            guard info <= 4 else { throw Failure(message: "object \(index) is an integer of \(1 << info) bytes") }
            let size = 1 << info
            try need(size)
            var value: UInt64 = 0
            for i in max(0, size - 8)..<size { value = value << 8 | UInt64(bytes[p + i]) }
            return .int(Int64(bitPattern: value))
        case 0x2, 0x3:
            let size = type == 0x3 ? 8 : 1 << info
            guard size == 4 || size == 8 else { throw Failure(message: "object \(index) is a real number of \(size) bytes") }
            try need(size)
            var bits: UInt64 = 0
            for i in 0..<size { bits = bits << 8 | UInt64(bytes[p + i]) }
            let value = size == 4 ? Double(Float(bitPattern: UInt32(bits))) : Double(bitPattern: bits)
            return type == 0x3 ? .date(value) : .real(value)
        case 0x4:
            let count = try length()
            try need(count)
            return .data(p..<(p + count))
        case 0x5:
            let count = try length()
            try need(count)
            return .string(String(decoding: bytes[p..<(p + count)], as: UTF8.self))
        case 0x6:
            let count = try length()
            _ = try need(count, of: 2)
            var units = [UInt16]()
            units.reserveCapacity(count)
            for i in 0..<count { units.append(UInt16(bytes[p + 2 * i]) << 8 | UInt16(bytes[p + 2 * i + 1])) }
            return .string(String(decoding: units, as: UTF16.self))
        case 0x8:
            try need(info + 1)
            return .uid(Self.bigEndian(bytes, p, info + 1))
        case 0xA, 0xC:
            return .array(try references(try length()))
        case 0xD:
            let count = try length()
            let keys = try references(count)
            let values = try references(count)
            return .dict(zip(keys, values).map { (key: $0.0, value: $0.1) })
        default:
            throw Failure(message: "object \(index) has an unknown type (marker 0x\(String(marker, radix: 16)))")
        }
    }

    public func string(_ index: Int) -> String? {
        if case .string(let text)? = try? object(index) { return text }
        return nil
    }

    /// A dictionary's entries by key name.
    public func dictionary(_ index: Int) throws(Failure) -> [String: Int] {
        guard case .dict(let entries) = try object(index) else { throw Failure(message: "object \(index) is not a dictionary") }
        var result: [String: Int] = [:]
        for entry in entries {
            guard let key = string(entry.key) else { throw Failure(message: "a dictionary key that is not a string") }
            result[key] = entry.value
        }
        return result
    }
}
