import Foundation
@testable import StructureModel

/// Test helpers that rewrite how the numbers of a JSON text are spelled, leaving everything
/// else (layout, strings, keys) as it is.
enum Respelling {
    /// Calls `respell` on every number outside strings, with its running index, and puts
    /// back what it returns.
    static func numbers(in text: String, _ respell: (_ number: String, _ index: Int) -> String) -> String {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 4)
        var index = 0
        var position = 0
        var inString = false
        while position < bytes.count {
            let byte = bytes[position]
            if inString {
                output.append(byte)
                if byte == UInt8(ascii: "\\") {
                    output.append(bytes[position + 1])
                    position += 2
                    continue
                }
                if byte == UInt8(ascii: "\"") { inString = false }
                position += 1
                continue
            }
            if byte == UInt8(ascii: "\"") {
                inString = true
                output.append(byte)
                position += 1
                continue
            }
            if byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                var end = position + 1
                while end < bytes.count, "0123456789+-.eE".utf8.contains(bytes[end]) { end += 1 }
                let number = String(decoding: bytes[position..<end], as: UTF8.self)
                output.append(contentsOf: respell(number, index).utf8)
                index += 1
                position = end
                continue
            }
            output.append(byte)
            position += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Other spellings of the float `text` stands for, none of them the canonical one:
    /// other digits, many digits, exponents in either case, trailing zeros.
    static func sameFloat(_ text: String) -> [String] {
        guard let value = Float(text) else { return [] }
        let double = Double(value)
        var candidates = [
            String(format: "%.9g", double),
            "\(double)",
            String(format: "%.8e", double),
            String(format: "%.8E", double),
            String(format: "%.30f", double),
        ]
        if !text.contains("e") && !text.contains("E") {
            candidates.append(text.contains(".") ? text + "00" : text + ".0")
        }
        if value == 0 { candidates.append(value.sign == .minus ? "-0.0" : "0e5") }
        var seen = Set<String>()
        return candidates.filter { candidate in
            guard candidate != text, seen.insert(candidate).inserted, let back = Float(candidate) else { return false }
            return back.bitPattern == value.bitPattern && JSONNumber(text: candidate).isValidSyntax
        }
    }

    /// Other spellings of the whole number `text`: `2.0`, `2e0`, `20E-1`.
    static func sameInt(_ text: String) -> [String] {
        guard let value = Int(text) else { return [] }
        return (["\(value).0", "\(value)e0", "\(value)0E-1"] + (value == 0 ? ["-0"] : [])).filter { JSONNumber(text: $0).isValidSyntax }
    }

    /// `text` with about one number in `every` given another spelling of the same value.
    static func sameValues(in text: String, every: Int = 1, seed: Int = 0) -> String {
        numbers(in: text) { number, index in
            guard (index + seed) % every == 0 else { return number }
            let isWhole = !number.contains(".") && !number.contains("e") && !number.contains("E")
            let options = isWhole ? sameInt(number) : sameFloat(number)
            return options.isEmpty ? number : options[(index + seed) % options.count]
        }
    }
}
