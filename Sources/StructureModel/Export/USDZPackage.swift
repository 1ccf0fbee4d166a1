import CZlib

/// A USDZ package (Pixar's usdz specification): a zip archive whose entries are stored,
/// not compressed, each entry's data starting at a multiple of 64 bytes from the start of
/// the file (the local header's extra field is the padding), the root layer first. A
/// generic zip library cannot pad like that, so wb writes the few records itself.
/// Nothing varies between runs: every entry is dated 1980-01-01 00:00.
public enum USDZPackage {
    public struct Entry: Sendable {
        public var name: String
        public var data: [UInt8]

        public init(name: String, data: [UInt8]) {
            self.name = name
            self.data = data
        }
    }

    /// The extra-field id of the padding (a private id; readers skip unknown ones).
    static let paddingID: UInt16 = 0x7762
    static let dosDate: UInt16 = (0 << 9) | (1 << 5) | 1

    /// The archive's bytes; entries in the order given (the root layer first).
    public static func archive(_ entries: [Entry]) throws(USDZError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(entries.reduce(1024) { $0 + $1.data.count + 200 })
        var central: [UInt8] = []
        for entry in entries {
            let name = Array(entry.name.utf8)
            guard entry.data.count < Int(UInt32.max), out.count < Int(UInt32.max) else {
                throw USDZError("\(entry.name): a package over 4 GiB needs zip64, which wb does not write")
            }
            let crc = entry.data.withUnsafeBufferPointer { buffer in
                UInt32(crc32(0, buffer.baseAddress, uInt(buffer.count)))
            }
            let offset = out.count
            var padding = (64 - (offset + 30 + name.count) % 64) % 64
            if padding > 0 && padding < 4 { padding += 64 }
            out.le32(0x0403_4B50)
            out.le16(10)                    // version needed: 1.0 (stored)
            out.le16(0x0800)                // flags: names are UTF-8
            out.le16(0)                     // stored
            out.le16(0)                     // time
            out.le16(dosDate)
            out.le32(crc)
            out.le32(UInt32(entry.data.count))
            out.le32(UInt32(entry.data.count))
            out.le16(UInt16(name.count))
            out.le16(UInt16(padding))
            out.append(contentsOf: name)
            if padding > 0 {
                out.le16(paddingID)
                out.le16(UInt16(padding - 4))
                out.append(contentsOf: [UInt8](repeating: 0, count: padding - 4))
            }
            out.append(contentsOf: entry.data)

            central.le32(0x0201_4B50)
            central.le16(0x031E)            // made by: Unix, zip 3.0
            central.le16(10)
            central.le16(0x0800)
            central.le16(0)
            central.le16(0)
            central.le16(dosDate)
            central.le32(crc)
            central.le32(UInt32(entry.data.count))
            central.le32(UInt32(entry.data.count))
            central.le16(UInt16(name.count))
            central.le16(0)                 // extra
            central.le16(0)                 // comment
            central.le16(0)                 // disk
            central.le16(0)                 // internal attributes
            central.le32(0o100644 << 16)    // external: a regular file, rw-r--r--
            central.le32(UInt32(offset))
            central.append(contentsOf: name)
        }
        let directoryOffset = out.count
        out.append(contentsOf: central)
        guard entries.count < 0xFFFF, out.count < Int(UInt32.max) else {
            throw USDZError("a package of \(entries.count) files or over 4 GiB needs zip64, which wb does not write")
        }
        out.le32(0x0605_4B50)
        out.le16(0)
        out.le16(0)
        out.le16(UInt16(entries.count))
        out.le16(UInt16(entries.count))
        out.le32(UInt32(central.count))
        out.le32(UInt32(directoryOffset))
        out.le16(0)
        return out
    }

    /// The entries of a package, in the order their data lies in it, for reading models:
    /// (name, compression method, data range). Throws when it is not a zip archive.
    public static func entries(of bytes: [UInt8]) throws(USDZError) -> [(name: String, method: Int, data: Range<Int>)] {
        guard bytes.count >= 22 else { throw USDZError("too short for a zip archive (\(bytes.count) bytes)") }
        var end = -1
        var i = bytes.count - 22
        let lowest = max(0, bytes.count - 22 - 0xFFFF)
        while i >= lowest {
            if bytes.u32(i) == 0x0605_4B50 { end = i; break }
            i -= 1
        }
        guard end >= 0 else { throw USDZError("not a zip archive (no end-of-directory record)") }
        let count = Int(bytes.u16(end + 10))
        var p = Int(bytes.u32(end + 16))
        var result: [(name: String, method: Int, data: Range<Int>)] = []
        for _ in 0..<count {
            guard p + 46 <= bytes.count, bytes.u32(p) == 0x0201_4B50 else { throw USDZError("a damaged zip directory") }
            let method = Int(bytes.u16(p + 10))
            let size = Int(bytes.u32(p + 20))
            let nameLength = Int(bytes.u16(p + 28)), extra = Int(bytes.u16(p + 30)), comment = Int(bytes.u16(p + 32))
            let local = Int(bytes.u32(p + 42))
            guard p + 46 + nameLength <= bytes.count else { throw USDZError("a damaged zip directory") }
            let name = String(decoding: bytes[(p + 46)..<(p + 46 + nameLength)], as: UTF8.self)
            guard local + 30 <= bytes.count, bytes.u32(local) == 0x0403_4B50 else { throw USDZError("\(name): a damaged zip entry") }
            let start = local + 30 + Int(bytes.u16(local + 26)) + Int(bytes.u16(local + 28))
            guard start + size <= bytes.count else { throw USDZError("\(name): runs past the end of the file") }
            result.append((name, method, start..<(start + size)))
            p += 46 + nameLength + extra + comment
        }
        return result.sorted { $0.data.lowerBound < $1.data.lowerBound }
    }
}

public struct USDZError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A USDZ model attached to an object (Object Capture's output, or any USDZ): read and
/// checked when attached, packed whole into an exported USDZ (the usdz specification lets
/// packages contain packages) and referenced from there.
public struct USDModel: Sendable {
    /// Where it was read from (absolute).
    public var path: String
    /// Its file name.
    public var name: String
    public var bytes: [UInt8]
    /// The package's first file, its root layer.
    public var rootLayer: String
    /// The root layer's `defaultPrim`, and else its first root prim (referenced by path).
    public var defaultPrim: String?
    public var firstRootPrim: String?
    /// The box around every mesh's points in the root layer, in its own units, when the
    /// root layer is text (usda). Transforms inside the model are not applied: a model
    /// whose meshes are moved by their parents is fitted by its points alone. A binary
    /// (usdc) layer's bounds are not read; nil then.
    public var bounds: (SIMD3<Double>, SIMD3<Double>)?
    /// Why `bounds` is nil, in words: a binary root layer, or a text one without points.
    public var boundsUnknown: String?

    /// Reads and checks a model: a zip archive, entries stored, its first file a USD layer.
    public static func read(path: String, bytes: [UInt8]) throws(USDZError) -> USDModel {
        let entries = try USDZPackage.entries(of: bytes)
        guard let first = entries.first else { throw USDZError("an empty zip archive") }
        let ext = first.name.split(separator: ".").last.map { $0.lowercased() } ?? ""
        guard ["usda", "usdc", "usd"].contains(ext) else {
            throw USDZError("its first file is \(first.name), not a USD layer (usda, usdc or usd)")
        }
        if let compressed = entries.first(where: { $0.method != 0 }) {
            throw USDZError("\(compressed.name) is compressed; a USDZ package stores its files uncompressed")
        }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        var model = USDModel(path: path, name: name, bytes: bytes, rootLayer: first.name)
        let layer = Array(bytes[first.data])
        if layer.starts(with: Array("#usda".utf8)) {
            let text = String(decoding: layer, as: UTF8.self)
            model.scan(text)
            // (A text layer without points was said to be binary: an adversarial pass.)
            if model.bounds == nil { model.boundsUnknown = "\(first.name) is a text layer with no mesh points in it" }
        } else {
            model.boundsUnknown = "\(first.name) is binary (usdc), whose points wb does not read"
        }
        return model
    }

    init(path: String, name: String, bytes: [UInt8], rootLayer: String) {
        self.path = path
        self.name = name
        self.bytes = bytes
        self.rootLayer = rootLayer
    }

    /// `defaultPrim`, the first root prim, and the points of every `point3f[] points`.
    private mutating func scan(_ text: String) {
        let utf8 = Array(text.utf8)
        if let range = text.range(of: "defaultPrim = \"") {
            let rest = text[range.upperBound...]
            if let close = rest.firstIndex(of: "\"") { defaultPrim = String(rest[..<close]) }
        }
        // The first `def` at the start of a line, outside the layer's metadata.
        for line in text.split(separator: "\n") where line.hasPrefix("def ") {
            if let open = line.firstIndex(of: "\"") {
                let rest = line[line.index(after: open)...]
                if let close = rest.firstIndex(of: "\"") { firstRootPrim = String(rest[..<close]) }
            }
            break
        }
        var low = SIMD3<Double>(repeating: .infinity), high = SIMD3<Double>(repeating: -.infinity)
        let marker = Array("points = [".utf8)
        var i = 0
        while let start = utf8.firstRange(of: marker, from: i) {
            var j = start.upperBound
            var numbers: [Double] = []
            var token: [UInt8] = []
            while j < utf8.count, utf8[j] != 0x5D {
                let c = utf8[j]
                if (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x2B || c == 0x2E || c == 0x65 || c == 0x45 {
                    token.append(c)
                } else if !token.isEmpty {
                    if let v = Double(String(decoding: token, as: UTF8.self)) { numbers.append(v) }
                    token = []
                }
                j += 1
            }
            if !token.isEmpty, let v = Double(String(decoding: token, as: UTF8.self)) { numbers.append(v) }
            var k = 0
            while k + 2 < numbers.count {
                let p = SIMD3(numbers[k], numbers[k + 1], numbers[k + 2])
                low = pointwiseMin(low, p)
                high = pointwiseMax(high, p)
                k += 3
            }
            i = j
        }
        if low.x <= high.x { bounds = (low, high) }
    }
}

fileprivate extension Array where Element == UInt8 {
    mutating func le16(_ v: UInt16) {
        append(UInt8(v & 0xFF))
        append(UInt8(v >> 8))
    }

    mutating func le32(_ v: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { append(UInt8((v >> UInt32(shift)) & 0xFF)) }
    }

    func u16(_ i: Int) -> UInt16 {
        guard i + 2 <= count else { return 0 }
        return UInt16(self[i]) | UInt16(self[i + 1]) << 8
    }

    func u32(_ i: Int) -> UInt32 {
        guard i + 4 <= count else { return 0 }
        return UInt32(self[i]) | UInt32(self[i + 1]) << 8 | UInt32(self[i + 2]) << 16 | UInt32(self[i + 3]) << 24
    }

    func firstRange(of needle: [UInt8], from start: Int) -> Range<Int>? {
        guard !needle.isEmpty, count >= needle.count else { return nil }
        var i = Swift.max(0, start)
        while i + needle.count <= count {
            if self[i] == needle[0] && self[i..<(i + needle.count)].elementsEqual(needle) { return i..<(i + needle.count) }
            i += 1
        }
        return nil
    }
}
