/// SplitMix64: a small, fast generator whose sequence depends only on its seed, so a
/// generated building is the same on every machine and every run.
public struct SplitMix: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [low, high).
    public mutating func double(_ low: Double, _ high: Double) -> Double {
        low + (high - low) * Double(next() >> 11) / Double(1 << 53)
    }

    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    public mutating func chance(_ probability: Double) -> Bool {
        double(0, 1) < probability
    }

    public mutating func pick<T>(_ choices: [T]) -> T {
        choices[Int(next() % UInt64(choices.count))]
    }

    /// An upper-case version-4 UUID string, as RoomPlan writes identifiers.
    public mutating func uuid() -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        let a = next(), b = next()
        for i in 0..<8 {
            bytes[i] = UInt8(truncatingIfNeeded: a >> (8 * i))
            bytes[8 + i] = UInt8(truncatingIfNeeded: b >> (8 * i))
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return uuidString(bytes)
    }

    /// Base64 of `count` random bytes: a stand-in for RoomPlan's opaque `coreModel`,
    /// which is equally incompressible.
    public mutating func base64(byteCount count: Int) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out = [UInt8]()
        out.reserveCapacity((count + 2) / 3 * 4)
        var remaining = count
        while remaining > 0 {
            let word = next()
            let take = min(3, remaining)
            let triple = UInt32(truncatingIfNeeded: word & 0xFF_FFFF)
            out.append(alphabet[Int(triple >> 18 & 63)])
            out.append(alphabet[Int(triple >> 12 & 63)])
            out.append(take > 1 ? alphabet[Int(triple >> 6 & 63)] : UInt8(ascii: "="))
            out.append(take > 2 ? alphabet[Int(triple & 63)] : UInt8(ascii: "="))
            remaining -= take
        }
        return String(decoding: out, as: UTF8.self)
    }
}
