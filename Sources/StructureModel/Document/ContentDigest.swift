/// What a sidecar says about the RoomPlan file it was written with: its length and a
/// 64-bit hash of its bytes. It tells a sidecar that belongs to the file beside it from one
/// left by a save that a crash cut between its two renames; it is no defence against
/// someone forging a file on purpose, and needs none.
public struct ContentDigest: Sendable, Hashable, CustomStringConvertible {
    public var size: Int
    public var hash: UInt64

    public init(size: Int, hash: UInt64) {
        self.size = size
        self.hash = hash
    }

    /// FNV-1a over eight bytes at a time (then the tail byte by byte), with a final mix:
    /// fast enough that hashing a 34 MB scan costs little next to writing it.
    public init(_ bytes: [UInt8]) {
        let prime: UInt64 = 0x0000_0100_0000_01B3
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        bytes.withUnsafeBytes { raw in
            let words = raw.count / 8
            for index in 0..<words {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self))
                h = (h ^ word) &* prime
                h ^= h >> 29
            }
            for index in (words * 8)..<raw.count {
                h = (h ^ UInt64(raw[index])) &* prime
            }
        }
        h ^= h >> 33
        h = h &* 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        self.init(size: bytes.count, hash: h)
    }

    /// `SIZE:HEX`, as the sidecar stores it.
    public var description: String {
        let hex = String(hash, radix: 16)
        return "\(size):" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    public init?(_ text: String) {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let size = Int(parts[0]), size >= 0, parts[1].count == 16,
              let hash = UInt64(parts[1], radix: 16) else { return nil }
        self.init(size: size, hash: hash)
    }
}
