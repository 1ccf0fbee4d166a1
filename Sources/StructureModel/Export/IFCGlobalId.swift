/// IFC's `IfcGloballyUniqueId`: 128 bits written as 22 characters of IFC's own base-64
/// alphabet (the first character carries the top 2 bits, each other one 6).
///
/// An element RoomPlan identified keeps its UUID's bits, so a GlobalId in a BIM tool leads
/// back to the element in the JSON (and `ifcopenshell.guid.expand` gives the UUID again).
/// Everything else (rooms without an identifier, storeys, relationships, the opening wb cuts
/// for a door) gets 128 bits hashed from a name that says what it is, so the same export
/// gives the same GlobalIds every time.
public struct IFCGlobalId: Sendable, Hashable, CustomStringConvertible {
    public var high: UInt64
    public var low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The bits of a UUID written `8-4-4-4-12` (either case); nil for anything else.
    public init?(uuid: String) {
        var bits: [UInt8] = []
        bits.reserveCapacity(32)
        for (index, byte) in uuid.utf8.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard let nibble = Self.hexValue(byte) else { return nil }
            bits.append(nibble)
        }
        guard bits.count == 32, uuid.utf8.count == 36 else { return nil }
        high = bits[0..<16].reduce(0) { $0 << 4 | UInt64($1) }
        low = bits[16..<32].reduce(0) { $0 << 4 | UInt64($1) }
    }

    /// 128 bits hashed from `name`, stable across runs and machines (two differently seeded
    /// FNV-1a passes, each finished with a 64-bit mix), marked as a version-8 UUID
    /// ("custom") so that it reads as one.
    public init(hashing name: String) {
        func pass(_ seed: UInt64) -> UInt64 {
            var h = seed
            for byte in name.utf8 { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            h ^= h >> 33
            h = h &* 0xFF51_AFD7_ED55_8CCD
            h ^= h >> 33
            h = h &* 0xC4CE_B9FE_1A85_EC53
            h ^= h >> 33
            return h
        }
        let a = pass(0xCBF2_9CE4_8422_2325), b = pass(0x6C62_272E_07BB_0142)
        high = (a & ~0xF000) | 0x8000
        low = (b & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
    }

    /// The UUID's bits when `identifier` is a UUID, else bits hashed from it (with `kind` so
    /// that a door and the opening cut for it differ).
    public init(identifier: String, kind: String) {
        self = IFCGlobalId(uuid: identifier) ?? IFCGlobalId(hashing: kind + ":" + identifier)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$".utf8)

    /// The 22-character form.
    public var description: String {
        var out = [UInt8](repeating: 0, count: 22)
        out[0] = Self.alphabet[Int(high >> 62)]
        // The remaining 126 bits, 6 at a time, most significant first.
        for index in 1..<22 {
            let shift = (21 - index) * 6  // bit offset of this group within the low 126 bits
            let value: UInt64
            if shift >= 64 {
                value = (high >> UInt64(shift - 64)) & 0x3F
            } else if shift + 6 <= 64 {
                value = (low >> UInt64(shift)) & 0x3F
            } else {
                // Straddles the two words: its top bits in high, its bottom bits in low.
                let lowBits = 64 - shift
                value = ((high << UInt64(lowBits)) | (low >> UInt64(shift))) & 0x3F
            }
            out[index] = Self.alphabet[Int(value)]
        }
        return String(decoding: out, as: UTF8.self)
    }
}
