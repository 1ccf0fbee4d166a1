// Shared by every harness in this folder: the bytes libFuzzer hands over, and a trap
// that says which law broke (libFuzzer saves the input as crash-… when it fires).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The fuzzer's input as an array (an empty input has no valid pointer to copy from).
func fuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}

/// Stops the run on a broken law, with what broke on standard error.
func violation(_ message: String) -> Never {
    let line = Array("fuzz law violated: \(message)\n".utf8)
    _ = line.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count) }
    fatalError(message)
}

/// Whether a law about a bug already being fixed elsewhere is switched off for this run
/// (`WB_FUZZ_SKIP=utf8,…`), so the fuzzer can look past it for new ones.
func skipping(_ law: String) -> Bool {
    guard let list = getenv("WB_FUZZ_SKIP") else { return false }
    return String(cString: list).split(separator: ",").contains { $0 == law }
}

/// JSON is UTF-8 (RFC 8259 §8.1): a reader that accepts a file accepts only UTF-8.
func checkAcceptedUTF8(_ bytes: [UInt8], _ what: String) {
    if !skipping("utf8") && String(validating: bytes, as: UTF8.self) == nil {
        violation("\(what) accepted bytes that are not UTF-8 (WB_FUZZ_SKIP=utf8 to look past this)")
    }
}
