/// A byte buffer that USDA text is written into: numbers in a fixed, compact spelling
/// (micrometres for lengths, so two runs on one input give the same bytes and a viewer
/// gets mm and better), strings escaped, identifiers made valid.
struct USDText {
    private(set) var bytes: [UInt8] = []
    private var indentLevel = 0

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    mutating func byte(_ b: UInt8) {
        bytes.append(b)
    }

    /// A line at the current indentation.
    mutating func line(_ text: String) {
        indent()
        raw(text)
        bytes.append(0x0A)
    }

    mutating func indent() {
        for _ in 0..<indentLevel { bytes.append(contentsOf: [0x20, 0x20, 0x20, 0x20]) }
    }

    mutating func open(_ header: String) {
        line(header)
        line("{")
        indentLevel += 1
    }

    mutating func close() {
        indentLevel -= 1
        line("}")
    }

    mutating func push() { indentLevel += 1 }
    mutating func pop() { indentLevel -= 1 }

    /// A number rounded to a millionth: `0`, `-1.5`, `2.392500`→`2.3925`. Values too large
    /// for that (beyond a million kilometres) are written in exponent form.
    mutating func number(_ value: Double) {
        guard value.isFinite else {
            bytes.append(0x30)
            return
        }
        let scaled = (value * 1_000_000).rounded()
        guard abs(scaled) < 9e17 else {
            raw("\(value)")
            return
        }
        var n = Int64(scaled)
        if n == 0 {
            bytes.append(0x30)
            return
        }
        if n < 0 {
            bytes.append(0x2D)
            n = -n
        }
        let whole = n / 1_000_000
        var fraction = n % 1_000_000
        digits(UInt64(whole))
        if fraction != 0 {
            bytes.append(0x2E)
            var width = 6
            while fraction % 10 == 0 {
                fraction /= 10
                width -= 1
            }
            var buffer = [UInt8](repeating: 0x30, count: width)
            var i = width - 1
            while fraction > 0 {
                buffer[i] = UInt8(0x30 + fraction % 10)
                fraction /= 10
                i -= 1
            }
            bytes.append(contentsOf: buffer)
        }
    }

    private mutating func digits(_ value: UInt64) {
        if value >= 10 { digits(value / 10) }
        bytes.append(UInt8(0x30 + value % 10))
    }

    /// (By magnitude: -Int.min overflows, and a file may say story -9223372036854775808.)
    mutating func integer(_ value: Int) {
        if value < 0 { bytes.append(0x2D) }
        digits(UInt64(value.magnitude))
    }

    /// `(x, y, z)`
    mutating func tuple(_ v: SIMD3<Double>) {
        bytes.append(0x28)
        number(v.x)
        bytes.append(contentsOf: [0x2C, 0x20])
        number(v.y)
        bytes.append(contentsOf: [0x2C, 0x20])
        number(v.z)
        bytes.append(0x29)
    }

    /// `[(x, y, z), …]`
    mutating func tuples(_ values: [SIMD3<Double>]) {
        bytes.append(0x5B)
        for (index, v) in values.enumerated() {
            if index > 0 { bytes.append(contentsOf: [0x2C, 0x20]) }
            tuple(v)
        }
        bytes.append(0x5D)
    }

    /// `[1, 2, 3]`
    mutating func integers(_ values: [Int]) {
        bytes.append(0x5B)
        for (index, v) in values.enumerated() {
            if index > 0 { bytes.append(contentsOf: [0x2C, 0x20]) }
            integer(v)
        }
        bytes.append(0x5D)
    }

    /// A quoted string with `"`, `\` and control characters escaped; other text is UTF-8 as it is.
    mutating func string(_ text: String) {
        bytes.append(0x22)
        for b in text.utf8 {
            switch b {
            case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
            case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
            case 0x0D: bytes.append(contentsOf: [0x5C, 0x72])
            case 0x09: bytes.append(contentsOf: [0x5C, 0x74])
            case 0..<0x20, 0x7F:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [0x5C, 0x78, hex[Int(b >> 4)], hex[Int(b & 0xF)]])
            default: bytes.append(b)
            }
        }
        bytes.append(0x22)
    }

    /// A row-major `matrix4d` value from RoomPlan's column-major transform (USD's rows are
    /// RoomPlan's columns: USD multiplies row vectors).
    mutating func matrix(_ t: Transform) {
        raw("( ")
        for row in 0..<4 {
            if row > 0 { raw(", ") }
            bytes.append(0x28)
            for column in 0..<4 {
                if column > 0 { raw(", ") }
                number(Double(t.elements[row * 4 + column]))
            }
            bytes.append(0x29)
        }
        raw(" )")
    }
}

/// Prim names: USD identifiers (`[A-Za-z_][A-Za-z0-9_]*`) made from free text, and kept
/// unique among siblings.
enum USDName {
    /// `Guest bedroom` → `Guest_bedroom`, `2nd floor` → `_2nd_floor`, `Küche` → `K_che`.
    static func identifier(_ text: String) -> String {
        var out: [UInt8] = []
        var lastUnderscore = false
        for b in text.utf8 {
            let keep = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
            if keep {
                out.append(b)
                lastUnderscore = false
            } else if !lastUnderscore {
                out.append(0x5F)
                lastUnderscore = true
            }
            if out.count >= 64 { break }
        }
        // A multi-byte character leaves one underscore, not one per byte (collapsed above);
        // trailing underscores say nothing.
        while out.count > 1, out.last == 0x5F { out.removeLast() }
        if out.isEmpty { return "_" }
        if out[0] >= 0x30 && out[0] <= 0x39 { out.insert(0x5F, at: 0) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Sibling names handed out so far, so a second `Wall` becomes `Wall_2`.
    struct Siblings {
        private var used: Set<String> = []

        mutating func unique(_ base: String) -> String {
            var name = base
            var n = 2
            while used.contains(name) {
                name = "\(base)_\(n)"
                n += 1
            }
            used.insert(name)
            return name
        }
    }
}
