// libFuzzer harness: the raw-DEFLATE reader (compressed world maps).
//
// The first byte picks the output limit (so the too-large path is reached with small
// inputs); the rest is the stream. The laws: no traps; an inflated result is never longer
// than the limit; deflating it and inflating again gives the same bytes; and any input,
// deflated, inflates back to itself.
@testable import StructureModel

@_cdecl("LLVMFuzzerTestOneInput")
public func deflateFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    guard let first = input.first else {
        _ = try? RawDeflate.inflate([], limit: 0)
        return 0
    }
    let stream = Array(input.dropFirst())
    let limit = first == 0xFF ? 1 << 20 : Int(first) * 64
    do {
        let raw = try RawDeflate.inflate(stream, limit: limit)
        if raw.count > limit { violation("inflated \(raw.count) bytes past the limit \(limit)") }
        let again = RawDeflate.deflate(raw)
        guard let back = try? RawDeflate.inflate(again, limit: max(limit, raw.count)) else {
            violation("re-deflated \(raw.count) bytes do not inflate")
        }
        if back != raw { violation("re-deflated bytes inflate to something else") }
    } catch {
        _ = error.description
    }
    let packed = RawDeflate.deflate(stream)
    guard let unpacked = try? RawDeflate.inflate(packed, limit: stream.count) else {
        violation("deflated \(stream.count) bytes do not inflate within their own size")
    }
    if unpacked != stream { violation("deflate then inflate changed \(stream.count) bytes") }
    // As a store reads a compressed world map.
    _ = HyperbasisStore.inspectWorldMap(stream, compressed: true)
    return 0
}
