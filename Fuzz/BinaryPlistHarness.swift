// libFuzzer harness: the binary property-list reader and the ARWorldMap archive inspector
// on top of it (world maps in a Hyperbasis store).
//
// Every object of an accepted list is decoded, every dictionary read by key, and the
// bytes are inspected as a world map. The laws: no traps; a data object's range lies
// inside the buffer; references that decode point at objects that exist or throw.
@testable import StructureModel

@_cdecl("LLVMFuzzerTestOneInput")
public func binaryPlistFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    if let plist = try? BinaryPlist(bytes) {
        if !(0..<plist.objectCount).contains(plist.top) { violation("top object \(plist.top) of \(plist.objectCount)") }
        // Bounded, so a list of a million one-byte objects does not time out.
        for index in 0..<min(plist.objectCount, 4096) {
            guard let object = try? plist.object(index) else { continue }
            switch object {
            case .data(let range):
                if range.lowerBound < 0 || range.upperBound > bytes.count {
                    violation("data object \(index) spans \(range) of a \(bytes.count)-byte list")
                }
            case .dict:
                _ = try? plist.dictionary(index)
            case .array(let references):
                for reference in references.prefix(64) { _ = try? plist.object(reference) }
            default:
                break
            }
            _ = plist.string(index)
        }
        _ = try? plist.object(-1)
        _ = try? plist.object(plist.objectCount)
    }
    _ = try? WorldMapArchive.inspect(bytes)
    _ = HyperbasisStore.inspectWorldMap(bytes, compressed: false)
    return 0
}
