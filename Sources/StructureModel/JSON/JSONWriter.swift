/// Writes JSON in the form Apple's `JSONEncoder` with `[.prettyPrinted, .sortedKeys]`
/// gives on iOS 17+: two-space indentation, `"key" : value`, empty containers spread over
/// a blank line, `/` escaped as `\/`, floats in their shortest round-trip form, no
/// trailing newline. Files Apple wrote come back byte for byte; anything else is
/// normalised into that form.
///
/// Callers write keys in sorted order themselves: typed encoders know their keys, and
/// `ExtraMembers` merges the keys wb does not model into the right places.
///
/// What the writer is given but could not write so that it reads back the same (a number
/// that is not finite, a key twice in one object, nesting deeper than the reader takes) is
/// noted in `problem` rather than trapped on: the bytes are then not fit to save, and
/// `RoomPlanCodec.encodeChecked` refuses them. The checks cost next to nothing, because
/// they sit on paths the writer takes anyway or on rare ones.
public struct JSONWriter {
    /// Something written that would not read back as it was meant, and where.
    public struct Problem: Sendable, Equatable {
        /// The length of the output when it happened: the key path there names the value.
        public var offset: Int
        public var message: String
    }

    public private(set) var bytes: [UInt8] = []
    /// The first problem, if any.
    public private(set) var problem: Problem?
    private var level = 0
    /// Whether the current container has had a member yet, one entry per open container.
    private var hasMembers: [Bool] = []
    /// Set after a key, so the value that follows does not start a new line.
    private var afterKey = false
    /// One line, no blanks: the form of default `JSONEncoder()` and of JSON Lines.
    private let compact: Bool
    /// `/` written as `\/` (`JSONEncoder`'s default); false for a file that wrote it plain.
    public var escapesSlashes = true

    public init(capacity: Int = 1 << 16, compact: Bool = false) {
        self.compact = compact
        bytes.reserveCapacity(capacity)
    }

    // MARK: Containers

    public mutating func beginObject() { open(UInt8(ascii: "{")) }
    public mutating func endObject() { close(UInt8(ascii: "}")) }
    public mutating func beginArray() { open(UInt8(ascii: "[")) }
    public mutating func endArray() { close(UInt8(ascii: "]")) }

    private mutating func open(_ bracket: UInt8) {
        startValue()
        bytes.append(bracket)
        level += 1
        hasMembers.append(false)
        if level > JSONReader.maximumDepth { reject("nesting deeper than \(JSONReader.maximumDepth) levels") }
    }

    /// Notes a problem at the current end of the output (the first one is kept).
    mutating func reject(_ message: String) {
        if problem == nil { problem = Problem(offset: bytes.count, message: message) }
    }

    private mutating func close(_ bracket: UInt8) {
        let hadMembers = hasMembers.removeLast()
        level -= 1
        if compact {
            bytes.append(bracket)
            return
        }
        // An empty container still spans lines, with an empty line inside.
        bytes.append(0x0A)
        if !hadMembers { bytes.append(0x0A) }
        indent()
        bytes.append(bracket)
    }

    @inline(__always)
    private mutating func startValue() {
        if afterKey {
            afterKey = false
            return
        }
        guard !hasMembers.isEmpty else { return }
        if hasMembers[hasMembers.count - 1] {
            bytes.append(UInt8(ascii: ","))
        } else {
            hasMembers[hasMembers.count - 1] = true
        }
        if compact { return }
        bytes.append(0x0A)
        indent()
    }

    @inline(__always)
    private mutating func indent() {
        for _ in 0..<level {
            bytes.append(0x20)
            bytes.append(0x20)
        }
    }

    /// A UTF-8 byte order mark, only at the very start.
    mutating func byteOrderMark() {
        guard bytes.isEmpty else { return reject("a byte order mark after the start") }
        bytes.append(contentsOf: [0xEF, 0xBB, 0xBF])
    }

    // MARK: Keys

    public mutating func key(_ name: StaticString) {
        startValue()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        separator()
        afterKey = true
    }

    public mutating func key(_ name: String) {
        startValue()
        writeQuoted(name)
        separator()
        afterKey = true
    }

    private mutating func separator() {
        if compact {
            bytes.append(UInt8(ascii: ":"))
        } else {
            bytes.append(contentsOf: [0x20, UInt8(ascii: ":"), 0x20])
        }
    }

    // MARK: Scalars

    public mutating func null() {
        startValue()
        bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
    }

    public mutating func bool(_ value: Bool) {
        startValue()
        if value {
            bytes.append(contentsOf: [0x74, 0x72, 0x75, 0x65])
        } else {
            bytes.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])
        }
    }

    public mutating func int(_ value: Int) {
        startValue()
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A float as `JSONEncoder` writes a `Float`: its shortest round-trip decimal with a
    /// trailing `.0` removed (`1`, `0.6787059`, `5.9843063e-05`, `-0`).
    public mutating func float(_ value: Float) {
        startValue()
        guard value.isFinite else {
            reject("\(value) is not a number JSON can hold")
            bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
            return
        }
        Self.withCanonicalText(value) { bytes.append(contentsOf: $0) }
    }

    /// A float as its file spelled it, while it still has the value it was read as;
    /// otherwise as `float(_:)` writes it.
    @inline(__always)
    mutating func float(_ value: Float, spellings: NumberSpellings, slot: UInt32) {
        if let kept = spellings.spelling(slot, value: value) {
            startValue()
            bytes.append(contentsOf: kept)
        } else {
            float(value)
        }
    }

    /// The text `float(_:)` writes for a finite `value`, without allocating.
    @inline(__always)
    static func withCanonicalText<R>(_ value: Float, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        // A float's description fits a small (inline) string.
        var text = value.description
        return text.withUTF8 { utf8 in
            var count = utf8.count
            if count >= 2 && utf8[count - 2] == UInt8(ascii: ".") && utf8[count - 1] == UInt8(ascii: "0") { count -= 2 }
            return body(UnsafeBufferPointer(rebasing: utf8[0..<count]))
        }
    }

    /// A whole number as its file spelled it (`2.0`), while it still has that value.
    mutating func int(_ value: Int, spellings: NumberSpellings, slot: UInt32) {
        if let kept = spellings.spelling(slot, value: value) {
            startValue()
            bytes.append(contentsOf: kept)
        } else {
            int(value)
        }
    }

    public mutating func number(_ number: JSONNumber) {
        startValue()
        if !number.isValidSyntax { reject("\"\(Abbreviated.number(number.text))\" is not a JSON number") }
        bytes.append(contentsOf: number.text.utf8)
    }

    public mutating func string(_ value: String) {
        startValue()
        writeQuoted(value)
    }

    private mutating func writeQuoted(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            let count = utf8.count
            var runStart = 0
            var index = 0
            let base = utf8.baseAddress
            while index < count {
                // Skip eight plain bytes at a time while no byte in the word needs an escape.
                if let base, index + 8 <= count,
                   !wordNeedsEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self), slash: escapesSlashes) {
                    index += 8
                    continue
                }
                let byte = utf8[index]
                if byte >= 0x20 && byte != 0x22 && byte != 0x5C && (byte != 0x2F || !escapesSlashes) {
                    index += 1
                    continue
                }
                if runStart < index {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                }
                appendEscape(byte)
                index += 1
                runStart = index
            }
            if runStart < count {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<count]))
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Whether any of the eight bytes is a control character, `"`, `\\` or (`slash`) `/`, by the
    /// usual has-a-zero-byte word trick (exact for "any", which is all that is asked).
    @inline(__always)
    private func wordNeedsEscape(_ word: UInt64, slash: Bool) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ v: UInt64) -> Bool { (v &- ones) & ~v & highs != 0 }
        // A byte below 0x20 has none of the bits 0x20, 0x40, 0x80 set.
        let control = hasZero(word & (0xE0 &* ones))
        return control || hasZero(word ^ (0x22 &* ones)) || hasZero(word ^ (0x5C &* ones)) || (slash && hasZero(word ^ (0x2F &* ones)))
    }

    /// The escape `JSONEncoder` writes for a byte that needs one.
    private mutating func appendEscape(_ byte: UInt8) {
        let short: UInt8
        switch byte {
        case 0x22: short = 0x22
        case 0x5C: short = 0x5C
        case 0x2F: short = 0x2F
        case 0x08: short = UInt8(ascii: "b")
        case 0x0C: short = UInt8(ascii: "f")
        case 0x0A: short = UInt8(ascii: "n")
        case 0x0D: short = UInt8(ascii: "r")
        case 0x09: short = UInt8(ascii: "t")
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                      hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            return
        }
        bytes.append(0x5C)
        bytes.append(short)
    }

    // MARK: Compound helpers

    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .number(let number): self.number(number)
        case .string(let text): string(text)
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element) }
            endArray()
        case .object(let object):
            beginObject()
            for member in sortedMembers(of: object) {
                key(member.key)
                self.value(member.value)
            }
            endObject()
        }
    }

    /// The members in key order; a key given twice is a problem.
    mutating func sortedMembers(of object: JSONObject) -> [JSONMember] {
        let (members, duplicate) = object.sortedMembersAndDuplicate
        if let duplicate { reject("the key \"\(Abbreviated.text(duplicate))\" twice in one object") }
        return members
    }

    /// A tagged value (`{"wall":{}}`), which must be an object of one key to read back.
    mutating func tagged(_ value: JSONValue) {
        if case .object(let object) = value, object.count == 1 {} else {
            reject("a tagged value (like {\"high\":{}}) must be an object with one key, not \(value.typeName)")
        }
        self.value(value)
    }

    public mutating func floats(_ values: some Sequence<Float>) {
        beginArray()
        for value in values { float(value) }
        endArray()
    }

    public mutating func vector(_ value: SIMD3<Float>) {
        beginArray()
        float(value.x)
        float(value.y)
        float(value.z)
        endArray()
    }

    /// A vector whose components are the slots from `first` on.
    mutating func vector(_ value: SIMD3<Float>, spellings: NumberSpellings, first: UInt32) {
        beginArray()
        float(value.x, spellings: spellings, slot: first)
        float(value.y, spellings: spellings, slot: first &+ 1)
        float(value.z, spellings: spellings, slot: first &+ 2)
        endArray()
    }

    mutating func transform(_ value: Transform, spellings: NumberSpellings, first: UInt32 = NumberSlot.of(.transform, 0)) {
        beginArray()
        for index in 0..<16 {
            float(value.elements[index], spellings: spellings, slot: first &+ UInt32(index))
        }
        endArray()
    }

    /// Polygon corner `i`'s coordinates are the slots from `NumberSlot.of(.polygonCorners, 3 * i)`.
    mutating func corners(_ corners: [SIMD3<Float>], spellings: NumberSpellings) {
        beginArray()
        for (index, corner) in corners.enumerated() {
            vector(corner, spellings: spellings, first: NumberSlot.of(.polygonCorners, 3 * index))
        }
        endArray()
    }
}

/// Walks a sorted list of members a typed encoder does not model, writing each one just
/// before the first known key that sorts after it, so the merged object stays sorted.
/// A member that has the name of a modelled key (possible only in a value built in code,
/// never in one read from a file) would be written twice or read back as the modelled
/// value: it is a problem for the writer.
struct ExtraMembers {
    private let members: [JSONMember]
    private var next = 0

    /// Call just after the object is opened, so a problem is reported at the object.
    init(_ object: JSONObject, modelled: [StaticString], writer: inout JSONWriter) {
        guard !object.isEmpty else {
            members = []
            return
        }
        members = writer.sortedMembers(of: object)
        for member in members where modelled.contains(where: {
            member.key.utf8.elementsEqual(UnsafeBufferPointer(start: $0.utf8Start, count: $0.utf8CodeUnitCount))
        }) {
            writer.reject("\"\(member.key)\" is a key wb models; it cannot also be kept as an unknown one")
        }
    }

    mutating func flush(before key: StaticString, into writer: inout JSONWriter) {
        while next < members.count {
            let member = members[next]
            let precedes = member.key.utf8.lexicographicallyPrecedes(
                UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
            guard precedes else { return }
            writer.key(member.key)
            writer.value(member.value)
            next += 1
        }
    }

    mutating func flushRest(into writer: inout JSONWriter) {
        while next < members.count {
            writer.key(members[next].key)
            writer.value(members[next].value)
            next += 1
        }
    }
}
