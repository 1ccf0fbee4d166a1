import Foundation

/// A number with a fixed count of decimals, in the C locale (a person's locale must not
/// turn a decimal point into a comma in output that scripts parse).
public func formatted(_ value: Double, digits: Int) -> String {
    String(format: "%.\(digits)f", locale: nil, value)
}
