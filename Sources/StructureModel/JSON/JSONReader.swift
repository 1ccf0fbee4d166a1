#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// A problem found while reading JSON, at a byte offset of the input.
///
/// The offset is turned into a line, a column and a key path only when the error is
/// reported (see `SourceLocator`), so the reader's hot path carries no bookkeeping.
public struct JSONReadError: Error, Sendable, Equatable {
    public var offset: Int
    public var message: String

    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }
}

/// The bytes of an object key, compared against known keys without building a `String`.
struct RawKey {
    let start: UnsafePointer<UInt8>
    let count: Int
    let hasEscapes: Bool
    let offset: Int

    static func ~= (pattern: StaticString, key: RawKey) -> Bool {
        key == pattern
    }

    static func == (key: RawKey, pattern: StaticString) -> Bool {
        if key.hasEscapes { return key.string == pattern.description }
        guard pattern.utf8CodeUnitCount == key.count else { return false }
        return memcmp(pattern.utf8Start, key.start, key.count) == 0
    }

    var string: String {
        if !hasEscapes {
            return String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
        }
        // Escaped keys are rare; they were validated when the key was scanned.
        var reader = JSONReader(start: start - 1, count: count + 2, baseOffset: offset - 1)
        return (try? reader.readString()) ?? ""
    }
}

/// A forward-only JSON reader over a byte buffer.
///
/// Typed decoders pull exactly the shapes they expect (`readFloat`, `readObject`, ...) so a
/// RoomPlan file is decoded in one pass without an intermediate tree; anything unknown is
/// read with `readValue` and kept. Grammar is RFC 8259, strictly: no comments, no trailing
/// commas, no NaN or Infinity, no leading zeros.
struct JSONReader {
    static let maximumDepth = 512

    let base: UnsafePointer<UInt8>
    let count: Int
    /// Added to positions in error reports, for readers over a part of a larger buffer.
    let baseOffset: Int
    var position = 0
    var depth = 0

    init(start: UnsafePointer<UInt8>, count: Int, baseOffset: Int = 0) {
        self.base = start
        self.count = count
        self.baseOffset = baseOffset
    }

    var offset: Int { baseOffset + position }

    func error(_ message: String, at position: Int? = nil) -> JSONReadError {
        JSONReadError(offset: baseOffset + (position ?? self.position), message: message)
    }

    // MARK: Structure

    @inline(__always)
    mutating func skipWhitespace() {
        while position < count {
            switch base[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    /// The next significant byte, or nil at the end of input.
    @inline(__always)
    mutating func peek() -> UInt8? {
        skipWhitespace()
        return position < count ? base[position] : nil
    }

    func describeHere() -> String {
        guard position < count else { return "the end of the file" }
        let byte = base[position]
        switch byte {
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "{"): return "an object"
        case UInt8(ascii: "["): return "an array"
        case UInt8(ascii: "t") where count - position >= 4 && memcmp(base + position, "true", 4) == 0: return "true"
        case UInt8(ascii: "f") where count - position >= 5 && memcmp(base + position, "false", 5) == 0: return "false"
        case UInt8(ascii: "n") where count - position >= 4 && memcmp(base + position, "null", 4) == 0: return "null"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return "a number"
        default: break
        }
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    mutating func expect(_ byte: UInt8, _ what: String) throws {
        guard peek() == byte else { throw error("expected \(what), found \(describeHere())") }
        position += 1
    }

    /// Requires that only whitespace follows.
    mutating func expectEnd() throws {
        if peek() != nil { throw error("expected the end of the file after the JSON value, found \(describeHere())") }
    }

    /// Calls `body` once per member with the member's key; `body` must consume the value.
    mutating func readObject(
        _ body: (inout JSONReader, RawKey) throws -> Void
    ) throws {
        guard peek() == UInt8(ascii: "{") else { throw error("expected an object, found \(describeHere())") }
        position += 1
        depth += 1
        if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth) levels") }
        if peek() == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return
        }
        while true {
            guard peek() == UInt8(ascii: "\"") else {
                throw error("expected a key in quotes, found \(describeHere())")
            }
            let key = try scanKey()
            try expect(UInt8(ascii: ":"), "':' after a key")
            skipWhitespace()
            try body(&self, key)
            switch peek() {
            case UInt8(ascii: ","):
                let comma = position
                position += 1
                if peek() == UInt8(ascii: "}") { throw error("trailing ',' before '}'", at: comma) }
            case UInt8(ascii: "}"):
                position += 1
                depth -= 1
                return
            default:
                throw error("expected ',' or '}' in an object, found \(describeHere())")
            }
        }
    }

    /// Calls `body` once per element with its index; `body` must consume the element.
    mutating func readArray(
        _ body: (inout JSONReader, Int) throws -> Void
    ) throws {
        guard peek() == UInt8(ascii: "[") else { throw error("expected an array, found \(describeHere())") }
        position += 1
        depth += 1
        if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth) levels") }
        if peek() == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return
        }
        var index = 0
        while true {
            skipWhitespace()
            try body(&self, index)
            index += 1
            switch peek() {
            case UInt8(ascii: ","):
                let comma = position
                position += 1
                if peek() == UInt8(ascii: "]") { throw error("trailing ',' before ']'", at: comma) }
            case UInt8(ascii: "]"):
                position += 1
                depth -= 1
                return
            default:
                throw error("expected ',' or ']' in an array, found \(describeHere())")
            }
        }
    }

    // MARK: Scalars

    mutating func readNull() throws {
        guard peek() == UInt8(ascii: "n") else { throw error("expected null, found \(describeHere())") }
        try literal("null")
    }

    /// Consumes `null` when it comes next.
    mutating func readNullIfPresent() throws -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    mutating func readBool() throws -> Bool {
        switch peek() {
        case UInt8(ascii: "t"): try literal("true"); return true
        case UInt8(ascii: "f"): try literal("false"); return false
        default: throw error("expected true or false, found \(describeHere())")
        }
    }

    private mutating func literal(_ word: StaticString) throws {
        let n = word.utf8CodeUnitCount
        guard count - position >= n, memcmp(base + position, word.utf8Start, n) == 0 else {
            throw error("expected \(word), found \(describeHere())")
        }
        position += n
    }

    /// Scans JSON number syntax; returns its byte range and whether it is a plain integer.
    private mutating func scanNumber() throws -> (start: Int, end: Int, isInteger: Bool) {
        let start = position
        var p = position
        var isInteger = true
        if p < count && base[p] == UInt8(ascii: "-") { p += 1 }
        guard p < count, isDigit(base[p]) else {
            throw error(numberMessage(at: start), at: start)
        }
        if base[p] == UInt8(ascii: "0") {
            p += 1
            if p < count && isDigit(base[p]) { throw error("a number may not start with 0", at: start) }
        } else {
            while p < count && isDigit(base[p]) { p += 1 }
        }
        if p < count && base[p] == UInt8(ascii: ".") {
            isInteger = false
            p += 1
            guard p < count, isDigit(base[p]) else { throw error("expected a digit after '.'", at: p) }
            while p < count && isDigit(base[p]) { p += 1 }
        }
        if p < count && (base[p] == UInt8(ascii: "e") || base[p] == UInt8(ascii: "E")) {
            isInteger = false
            p += 1
            if p < count && (base[p] == UInt8(ascii: "+") || base[p] == UInt8(ascii: "-")) { p += 1 }
            guard p < count, isDigit(base[p]) else { throw error("expected a digit in the exponent", at: p) }
            while p < count && isDigit(base[p]) { p += 1 }
        }
        position = p
        return (start, p, isInteger)
    }

    private func numberMessage(at start: Int) -> String {
        var p = start
        if p < count && base[p] == UInt8(ascii: "-") { p += 1 }
        let rest = UnsafeBufferPointer(start: base + p, count: min(8, count - p))
        let word = String(decoding: rest, as: UTF8.self).lowercased()
        if word.hasPrefix("nan") { return "NaN is not a number JSON can hold" }
        if word.hasPrefix("inf") { return "Infinity is not a number JSON can hold" }
        // A minus sign alone (`-,`) read as "expected a number, found a number".
        if p > start { return "expected a digit after '-'" }
        return "expected a number, found \(describeHere())"
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// Reads a number as a 32-bit float, as RoomPlan stores every coordinate, and keeps
    /// its spelling in `spellings` under `slot` when it is not the one `JSONWriter` would
    /// print for the value.
    @inline(__always)
    mutating func readFloat(spellings: inout NumberSpellingsBuilder, slot: UInt32) throws -> Float {
        let (value, start, end) = try scanFloat()
        let source = UnsafeBufferPointer(start: base + start, count: end - start)
        let canonical = JSONWriter.withCanonicalText(value) { text in
            text.count == source.count && memcmp(text.baseAddress!, source.baseAddress!, text.count) == 0
        }
        if !canonical { spellings.record(slot, value: value.bitPattern, spelled: source) }
        return value
    }

    private mutating func scanFloat() throws -> (value: Float, start: Int, end: Int) {
        guard let next = peek() else { throw error("expected a number, found the end of the file") }
        guard next == UInt8(ascii: "-") || isDigit(next) else {
            throw error(next == UInt8(ascii: "N") || next == UInt8(ascii: "I")
                ? numberMessage(at: position) : "expected a number, found \(describeHere())")
        }
        let (start, end, _) = try scanNumber()
        // The syntax is already checked, so strtof (which rounds the decimal correctly to
        // the nearest float) stops where the scan did: the byte after a JSON number cannot
        // continue a C one, except at the very end of the buffer, which gets a copy.
        let value: Float
        if end < count {
            value = strtof(UnsafeRawPointer(base + start).assumingMemoryBound(to: CChar.self), nil)
        } else {
            var copy = Array(UnsafeBufferPointer(start: base + start, count: end - start).map { CChar(bitPattern: $0) })
            copy.append(0)
            value = strtof(copy, nil)
        }
        guard value.isFinite else {
            throw error("the number \(Abbreviated.number(text(start, end))) is too large for a 32-bit float", at: start)
        }
        return (value, start, end)
    }

    /// Reads a number that must be a whole number (story, version).
    mutating func readInt() throws -> Int {
        var ignored = NumberSpellingsBuilder()
        return try readInt(spellings: &ignored, slot: 0)
    }

    /// Reads a whole number, and keeps its spelling when it is not plain digits (`2.0`, `2e0`, `-0`).
    mutating func readInt(spellings: inout NumberSpellingsBuilder, slot: UInt32) throws -> Int {
        guard let next = peek(), next == UInt8(ascii: "-") || isDigit(next) else {
            throw error("expected a whole number, found \(describeHere())")
        }
        let (start, end, isInteger) = try scanNumber()
        let source = text(start, end)
        let value: Int
        if isInteger, let whole = Int(source) {
            value = whole
        } else if let number = Double(source), number.rounded() == number, abs(number) < 9.0e15 {
            value = Int(number)
        } else {
            throw error("expected a whole number, found \(Abbreviated.number(source))", at: start)
        }
        if String(value) != source {
            spellings.record(slot, value: UInt32(truncatingIfNeeded: value),
                             spelled: UnsafeBufferPointer(start: base + start, count: end - start))
        }
        return value
    }

    private func text(_ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: base + start, count: end - start), as: UTF8.self)
    }

    /// Scans a quoted key, returning its raw bytes (escapes and UTF-8 validated, not decoded):
    /// a key is held to the same rules as a string value, so no key is ever repaired into
    /// another (two repaired keys could even collide).
    private mutating func scanKey() throws -> RawKey {
        let open = position
        position += 1
        let start = position
        var hasEscapes = false
        var bits: UInt8 = 0
        while true {
            guard position < count else { throw error("unterminated string", at: open) }
            let byte = base[position]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                position += 2
                continue
            }
            if byte < 0x20 { throw error("a control character must be escaped in a string") }
            bits |= byte
            position += 1
        }
        let key = RawKey(start: base + start, count: position - start, hasEscapes: hasEscapes,
                         offset: baseOffset + start)
        position += 1
        if hasEscapes {
            var check = JSONReader(start: base + open, count: position - open, baseOffset: baseOffset + open)
            _ = try check.readString()
        } else if bits >= 0x80, String(validating: UnsafeBufferPointer(start: key.start, count: key.count), as: UTF8.self) == nil {
            throw error("a key that is not valid UTF-8", at: start + Self.firstInvalidUTF8(UnsafeBufferPointer(start: key.start, count: key.count)))
        }
        return key
    }

    mutating func readString() throws -> String {
        guard peek() == UInt8(ascii: "\"") else { throw error("expected a string, found \(describeHere())") }
        let open = position
        position += 1
        let start = position
        // Fast path: no escapes, the common case (and all of coreModel but its "\/").
        while position < count {
            if position + 8 <= count, !Self.wordEndsPlainRun(UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)) {
                position += 8
                continue
            }
            let byte = base[position]
            if byte == UInt8(ascii: "\"") {
                let bytes = UnsafeBufferPointer(start: base + start, count: position - start)
                position += 1
                return try validatedString(bytes, at: start)
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("a control character must be escaped in a string") }
            position += 1
        }
        guard position < count else { throw error("unterminated string", at: open) }
        var decoded = [UInt8]()
        decoded.reserveCapacity(position - start + 64)
        decoded.append(contentsOf: UnsafeBufferPointer(start: base + start, count: position - start))
        while true {
            guard position < count else { throw error("unterminated string", at: open) }
            let byte = base[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                let source = UnsafeBufferPointer(start: base + start, count: position - 1 - start)
                return try decoded.withUnsafeBufferPointer { buffer in
                    try validatedString(buffer, at: start, source: source)
                }
            }
            if byte < 0x20 { throw error("a control character must be escaped in a string") }
            if byte != UInt8(ascii: "\\") {
                // Copy the run up to the next quote or backslash in one go.
                var end = position + 1
                while end + 8 <= count,
                      !Self.wordEndsPlainRun(UnsafeRawPointer(base + end).loadUnaligned(as: UInt64.self)) {
                    end += 8
                }
                while end < count {
                    let b = base[end]
                    if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < 0x20 { break }
                    end += 1
                }
                decoded.append(contentsOf: UnsafeBufferPointer(start: base + position, count: end - position))
                position = end
                continue
            }
            position += 1
            guard position < count else { throw error("unterminated string", at: open) }
            let escaped = base[position]
            position += 1
            switch escaped {
            case UInt8(ascii: "\""): decoded.append(0x22)
            case UInt8(ascii: "\\"): decoded.append(0x5C)
            case UInt8(ascii: "/"): decoded.append(0x2F)
            case UInt8(ascii: "b"): decoded.append(0x08)
            case UInt8(ascii: "f"): decoded.append(0x0C)
            case UInt8(ascii: "n"): decoded.append(0x0A)
            case UInt8(ascii: "r"): decoded.append(0x0D)
            case UInt8(ascii: "t"): decoded.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try readHex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    guard position + 1 < count, base[position] == UInt8(ascii: "\\"),
                          base[position + 1] == UInt8(ascii: "u") else {
                        throw error("a lone UTF-16 surrogate in a \\u escape", at: position - 6)
                    }
                    position += 2
                    let low = try readHex4()
                    guard (0xDC00..<0xE000).contains(low) else {
                        throw error("a lone UTF-16 surrogate in a \\u escape", at: position - 6)
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(scalar) {
                    throw error("a lone UTF-16 surrogate in a \\u escape", at: position - 6)
                }
                let character = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                decoded.append(contentsOf: Array(String(character).utf8))
            default:
                throw error("unknown escape '\\\(Character(Unicode.Scalar(escaped)))' in a string", at: position - 2)
            }
        }
    }

    /// Whether any of eight bytes is a quote, a backslash or a control character: the
    /// bytes that end a plain run inside a string (the has-a-zero-byte word trick).
    @inline(__always)
    static func wordEndsPlainRun(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ v: UInt64) -> Bool { (v &- ones) & ~v & highs != 0 }
        return hasZero(word & (0xE0 &* ones)) || hasZero(word ^ (0x22 &* ones)) || hasZero(word ^ (0x5C &* ones))
    }

    private mutating func readHex4() throws -> UInt32 {
        guard count - position >= 4 else { throw error("expected 4 hex digits after \\u") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = base[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("expected 4 hex digits after \\u")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    /// `bytes` as a string; else an error at the first byte of `source` (the string as the
    /// file has it, from `start`) that is not UTF-8: in a 200 KB `coreModel` it pointed at
    /// the string's start (an adversarial pass).
    private func validatedString(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, source: UnsafeBufferPointer<UInt8>? = nil) throws -> String {
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw error("a string that is not valid UTF-8", at: start + Self.firstInvalidUTF8(source ?? bytes))
        }
        return string
    }

    /// Where the first byte sequence of `bytes` that is not UTF-8 starts (0 when none is found).
    static func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length: Int, smallest: UInt32
            var scalar: UInt32
            switch lead {
            case 0..<0x80:
                index += 1
                continue
            case 0xC2...0xDF: (length, smallest, scalar) = (2, 0x80, UInt32(lead & 0x1F))
            case 0xE0...0xEF: (length, smallest, scalar) = (3, 0x800, UInt32(lead & 0x0F))
            case 0xF0...0xF4: (length, smallest, scalar) = (4, 0x10000, UInt32(lead & 0x07))
            default: return index
            }
            guard index + length <= bytes.count else { return index }
            for next in bytes[(index + 1)..<(index + length)] {
                guard next & 0xC0 == 0x80 else { return index }
                scalar = scalar << 6 | UInt32(next & 0x3F)
            }
            if scalar < smallest || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) { return index }
            index += length
        }
        return 0
    }

    // MARK: Any value

    /// Reads any JSON value, keeping numbers as their text and objects in their order.
    mutating func readValue() throws -> JSONValue {
        guard let next = peek() else { throw error("expected a value, found the end of the file") }
        switch next {
        case UInt8(ascii: "{"):
            var members: [JSONMember] = []
            var seen = KeySet(capacity: 0)
            try readObject { reader, key in
                try seen.insert(key, reader: reader)
                members.append(JSONMember(key.string, try reader.readValue()))
            }
            return .object(JSONObject(members))
        case UInt8(ascii: "["):
            var elements: [JSONValue] = []
            try readArray { reader, _ in elements.append(try reader.readValue()) }
            return .array(elements)
        case UInt8(ascii: "\""):
            return .string(try readString())
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            return .bool(try readBool())
        case UInt8(ascii: "n"):
            try readNull()
            return .null
        default:
            let (start, end, _) = try scanNumber()
            return .number(JSONNumber(text: text(start, end)))
        }
    }

    /// Skips one value of any kind, checking its syntax.
    mutating func skipValue() throws {
        _ = try readValue()
    }
}

/// Whether `bytes` start with a UTF-8 byte order mark, which some editors put at the
/// start of a file. RFC 8259 lets a reader ignore it, and wb does.
func startsWithByteOrderMark(_ bytes: [UInt8]) -> Bool {
    bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
}

/// Runs `body` with a reader over `bytes`, past a byte order mark if there is one
/// (positions in errors stay positions in `bytes`).
func withJSONReader<T>(
    _ bytes: [UInt8],
    _ body: (inout JSONReader) throws -> T
) throws -> T {
    try bytes.withUnsafeBufferPointer { buffer in
        // An empty array may have no storage; the reader still needs a valid pointer.
        guard let base = buffer.baseAddress, buffer.count > 0 else {
            let empty: [UInt8] = [0]
            return try empty.withUnsafeBufferPointer { one in
                var reader = JSONReader(start: one.baseAddress!, count: 0)
                return try body(&reader)
            }
        }
        var reader = JSONReader(start: base, count: buffer.count)
        if startsWithByteOrderMark(bytes) { reader.position = 3 }
        return try body(&reader)
    }
}
