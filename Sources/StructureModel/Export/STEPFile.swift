/// A parameter of an entity instance in an ISO 10303-21 ("STEP physical file") data section.
enum STEPValue {
    case ref(STEPRef)
    case string(String)
    case real(Double)
    case integer(Int)
    /// `.NAME.`, the name without dots.
    case enumeration(String)
    case boolean(Bool)
    /// `$`: an optional attribute left unset.
    case unset
    /// `*`: an attribute the schema derives (a subcontext's dimension, a unit's dimensions).
    case derived
    case list([STEPValue])
    /// A select value that needs its type named: `IFCLABEL('Bedroom')`.
    indirect case typed(String, STEPValue)

    static func refs(_ refs: [STEPRef]) -> STEPValue { .list(refs.map { .ref($0) }) }
    static func reals(_ values: [Double]) -> STEPValue { .list(values.map { .real($0) }) }
    /// A string, or `$` when there is none.
    static func text(_ value: String?) -> STEPValue { value.map { .string($0) } ?? .unset }
}

/// An entity instance's number: `#12`.
struct STEPRef: Hashable {
    let number: Int
}

/// Builds the text of a STEP physical file: entities are numbered in the order they are
/// added, so the same calls give the same file, byte for byte.
struct STEPFile {
    private(set) var data: [UInt8] = []
    private(set) var count = 0

    init() {
        data.reserveCapacity(1 << 16)
    }

    /// Appends `#N=TYPE(params);` and returns `#N`. `type` is the upper-case entity name.
    @discardableResult
    mutating func add(_ type: String, _ parameters: [STEPValue]) -> STEPRef {
        count += 1
        data.append(UInt8(ascii: "#"))
        appendDecimal(count)
        data.append(UInt8(ascii: "="))
        data.append(contentsOf: type.utf8)
        data.append(UInt8(ascii: "("))
        appendList(parameters)
        data.append(contentsOf: ");\n".utf8)
        return STEPRef(number: count)
    }

    private mutating func appendList(_ values: [STEPValue]) {
        for (index, value) in values.enumerated() {
            if index > 0 { data.append(UInt8(ascii: ",")) }
            append(value)
        }
    }

    private mutating func append(_ value: STEPValue) {
        switch value {
        case .ref(let ref):
            data.append(UInt8(ascii: "#"))
            appendDecimal(ref.number)
        case .string(let text):
            STEPFile.encode(text, into: &data)
        case .real(let number):
            STEPFile.real(number, into: &data)
        case .integer(let number):
            if number < 0 { data.append(UInt8(ascii: "-")) }
            appendDecimal(number.magnitude)
        case .enumeration(let name):
            data.append(UInt8(ascii: "."))
            data.append(contentsOf: name.utf8)
            data.append(UInt8(ascii: "."))
        case .boolean(let flag):
            data.append(contentsOf: (flag ? ".T." : ".F.").utf8)
        case .unset:
            data.append(UInt8(ascii: "$"))
        case .derived:
            data.append(UInt8(ascii: "*"))
        case .list(let values):
            data.append(UInt8(ascii: "("))
            appendList(values)
            data.append(UInt8(ascii: ")"))
        case .typed(let type, let inner):
            data.append(contentsOf: type.utf8)
            data.append(UInt8(ascii: "("))
            append(inner)
            data.append(UInt8(ascii: ")"))
        }
    }

    private mutating func appendDecimal<T: BinaryInteger>(_ number: T) {
        STEPFile.appendDigits(UInt64(number), to: &data)
    }

    /// The whole file: header (description, name, schema) and the data section.
    func document(description: String, fileName: String, timestamp: String, system: String, schema: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(data.count + 512)
        func line(_ text: String) { out.append(contentsOf: text.utf8); out.append(UInt8(ascii: "\n")) }
        line("ISO-10303-21;")
        line("HEADER;")
        line("FILE_DESCRIPTION((\(Self.encode(description))),'2;1');")
        line("FILE_NAME(\(Self.encode(fileName)),\(Self.encode(timestamp)),(''),(''),\(Self.encode(system)),\(Self.encode(system)),'');")
        line("FILE_SCHEMA((\(Self.encode(schema))));")
        line("ENDSEC;")
        line("DATA;")
        out.append(contentsOf: data)
        line("ENDSEC;")
        line("END-ISO-10303-21;")
        return out
    }

    // MARK: Encoding

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// A string literal as ISO 10303-21 (2nd edition) spells it: quoted with `'`, a quote
    /// doubled, a backslash doubled, and everything outside printable ASCII as `\X2\…\X0\`
    /// (UTF-16 code units, four hex digits each), or `\X4\…\X0\` beyond the BMP, so the file
    /// itself stays pure ASCII whatever people named their rooms.
    static func encode(_ text: String) -> String {
        var out: [UInt8] = []
        encode(text, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func encode(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "'"))
        var wide: [UInt32] = []
        func flushWide() {
            guard !wide.isEmpty else { return }
            let beyondBMP = wide.contains { $0 > 0xFFFF }
            out.append(contentsOf: (beyondBMP ? "\\X4\\" : "\\X2\\").utf8)
            for scalar in wide {
                let width = beyondBMP ? 8 : 4
                for shift in stride(from: (width - 1) * 4, through: 0, by: -4) {
                    out.append(hexDigits[Int((scalar >> UInt32(shift)) & 0xF)])
                }
            }
            out.append(contentsOf: "\\X0\\".utf8)
            wide.removeAll(keepingCapacity: true)
        }
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value >= 0x20 && value < 0x7F {
                flushWide()
                if value == 0x27 { out.append(contentsOf: [0x27, 0x27]) }
                else if value == 0x5C { out.append(contentsOf: [0x5C, 0x5C]) }
                else { out.append(UInt8(value)) }
            } else {
                wide.append(value)
            }
        }
        flushWide()
        out.append(UInt8(ascii: "'"))
    }

    /// A REAL as STEP requires it: always with a decimal point (`2.`, `-0.25`, `1.5E-07`).
    /// Values are rounded to a micrometre (a millionth of a unit), far finer than RoomPlan
    /// measures, which keeps the file short and free of float noise such as 0.30000000000000004.
    static func real(_ value: Double) -> String {
        var out: [UInt8] = []
        real(value, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func real(_ value: Double, into out: inout [UInt8]) {
        let zero = UInt8(ascii: "0")
        guard value.isFinite else { return out.append(contentsOf: [zero, UInt8(ascii: ".")]) }
        let magnitude = value.magnitude
        if magnitude < 1e12 {
            let micro = UInt64((magnitude * 1e6).rounded())
            if micro == 0 { return out.append(contentsOf: [zero, UInt8(ascii: ".")]) }
            if value < 0 { out.append(UInt8(ascii: "-")) }
            appendDigits(micro / 1_000_000, to: &out)
            out.append(UInt8(ascii: "."))
            var fraction = micro % 1_000_000
            if fraction > 0 {
                var digits = 6
                while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
                var buffer = [UInt8](repeating: zero, count: digits)
                for index in stride(from: digits - 1, through: 0, by: -1) {
                    buffer[index] = zero + UInt8(fraction % 10)
                    fraction /= 10
                }
                out.append(contentsOf: buffer)
            }
            return
        }
        out.append(contentsOf: hugeReal(value).utf8)
    }

    private static func appendDigits(_ number: UInt64, to out: inout [UInt8]) {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = number
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            for index in stride(from: count - 1, through: 0, by: -1) { out.append(buffer[index]) }
        }
    }

    private static func hugeReal(_ value: Double) -> String {
        // Huge values: Swift's shortest spelling, made into STEP's (a point in the mantissa, E).
        var text = "\(value)".uppercased()
        if let e = text.firstIndex(of: "E"), !text[..<e].contains(".") {
            text.insert(".", at: e)
        } else if !text.contains(".") && !text.contains("E") {
            text += "."
        }
        return text
    }
}
