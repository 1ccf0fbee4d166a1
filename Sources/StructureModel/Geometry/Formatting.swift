import Foundation

/// A number with a fixed count of decimals, in the C locale (a person's locale must not
/// turn a decimal point into a comma in output that scripts parse). Listings call this
/// for every cell, so the common case avoids `String(format:)`.
public func formatted(_ value: Double, digits: Int) -> String {
    guard value.isFinite, digits >= 0, digits <= 6, abs(value) < 1e12 else {
        return String(format: "%.\(digits)f", locale: nil, value)
    }
    var scale: Int64 = 1
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(value) * Double(scale)).rounded()
    let whole = Int64(scaled) / scale
    let fraction = Int64(scaled) % scale
    var text = (value < 0 && scaled != 0 ? "-" : "") + String(whole)
    if digits > 0 {
        let digitsText = String(fraction)
        text += "." + String(repeating: "0", count: digits - digitsText.count) + digitsText
    }
    return text
}

/// A length for a message, whatever its size: 2 decimals up to a million, then a power of
/// ten (`1.00e30`), never 31 digits.
public func magnitude(_ value: Double) -> String {
    guard value.isFinite else { return value.isNaN ? "NaN" : (value < 0 ? "-infinite" : "infinite") }
    guard abs(value) >= 1e6 else { return formatted(value, digits: 2) }
    let exponent = Int(log10(abs(value)).rounded(.down))
    var mantissa = value / pow(10, Double(exponent))
    var power = exponent
    if abs(mantissa) >= 9.995 { mantissa /= 10; power += 1 }
    return formatted(mantissa, digits: 2) + "e\(power)"
}

/// A measure for a person: `digits` decimals, or a power of ten from a million on (a broken
/// file's wall of 1e38 m printed 38 digits in `show` and `stats`).
public func readable(_ value: Double, digits: Int) -> String {
    abs(value) < 1e6 || !value.isFinite ? formatted(value, digits: digits) : magnitude(value)
}

/// How far a direction that should point up leans from the vertical, in degrees (either way
/// up); nil for a zero vector.
public func degreesFromUpright(_ up: SIMD3<Double>) -> Double? {
    let length = (up.x * up.x + up.y * up.y + up.z * up.z).squareRoot()
    guard length > 1e-9, length.isFinite else { return nil }
    return acos(min(1, abs(up.y) / length)) * 180 / .pi
}

/// 16 bytes as an upper-case UUID string with hyphens, as `UUID.uuidString` writes it.
func uuidString(_ bytes: [UInt8]) -> String {
    let hex = Array("0123456789ABCDEF")
    var text = ""
    for (index, byte) in bytes.enumerated() {
        if [4, 6, 8, 10].contains(index) { text.append("-") }
        text.append(hex[Int(byte >> 4)])
        text.append(hex[Int(byte & 0xF)])
    }
    return text
}

/// A float as `JSONEncoder` writes a `Float`: its shortest round-trip form, no trailing `.0`.
public func floatText(_ value: Float) -> String {
    var text = value.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    return text
}

extension Int {
    /// The nearest `Int` to `value`: `Int.max` or `Int.min` beyond the range, 0 for NaN.
    /// `Int(_:)` traps on those, and numbers from files (coordinates near 3e38, a width
    /// divided by a tiny scale) must never crash wb.
    public init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= 9.2e18 {
            self = .max
        } else if value <= -9.2e18 {
            self = .min
        } else {
            self = Int(value)
        }
    }
}

/// A noun with its indefinite article, for a message: "an opening", "an oven", "a door".
func indefinite(_ noun: String) -> String {
    (noun.first.map { "aeiouAEIOU".contains($0) } ?? false ? "an " : "a ") + noun
}
