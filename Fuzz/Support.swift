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
