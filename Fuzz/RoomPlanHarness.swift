// libFuzzer harness: the RoomPlan JSON reader and writer.
//
// The law: whatever `RoomPlanCodec.decode` accepts, `encode` writes back to bytes that
// decode again to the same document, and writing that document again gives the same
// bytes; and what it accepts is UTF-8. Anything else (a rejected file) must be a thrown RoomPlanDecodeError, never a trap.
//
// "The same document" is up to the order of members the model keeps as JSON (unknown
// keys, attributes): the writer puts those in Apple's sorted-key order by design, and
// JSONObject's == is order-sensitive, so `{"b":1,"a":2,"rooms":[]}` reads back with its
// unknown keys swapped. When == says no, the two documents are compared again with every
// JSONObject's members sorted (and sets in a fixed order); only a difference that
// survives that is a violation.
@testable import StructureModel

@_cdecl("LLVMFuzzerTestOneInput")
public func roomPlanFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    let document: RoomPlanDocument
    do {
        document = try RoomPlanCodec.decode(bytes)
    } catch {
        // The error must describe a place inside (or just past) the file.
        if error.offset < 0 || error.offset > bytes.count {
            violation("decode error offset \(error.offset) outside a \(bytes.count)-byte file: \(error.message)")
        }
        _ = error.description
        return 0
    }
    checkAcceptedUTF8(bytes, "the RoomPlan reader")
    let written = RoomPlanCodec.encode(document)
    let reread: RoomPlanDocument
    do {
        reread = try RoomPlanCodec.decode(written)
    } catch {
        violation("an accepted file was written back to bytes that do not read: \(error)\n"
                  + String(decoding: written.prefix(2000), as: UTF8.self))
    }
    if reread != document {
        let before = canonicalDescription(document), after = canonicalDescription(reread)
        if before != after {
            violation("an accepted file read back as a different document after writing:\n"
                      + String(before.prefix(3000)) + "\nbecame\n" + String(after.prefix(3000)))
        }
    }
    let rewritten = RoomPlanCodec.encode(reread)
    if rewritten != written {
        violation("writing the re-read document gave different bytes (\(written.count) then \(rewritten.count))")
    }
    // What `wb check` does with any opened file.
    _ = RoomPlanDiagnostics.check(document)
    return 0
}

/// A description of a value in which JSON objects' members are in key order and sets'
/// and dictionaries' elements in a fixed order, so that two models that differ only in
/// those orders describe alike.
func canonicalDescription(_ value: Any) -> String {
    if let object = value as? JSONObject {
        return "{" + object.sortedMembers.map { "\($0.key.debugDescription): " + canonicalDescription($0.value) }
            .joined(separator: ", ") + "}"
    }
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .set, .dictionary:
        return "[" + mirror.children.map { canonicalDescription($0.value) }.sorted().joined(separator: ", ") + "]"
    case .struct, .class, .tuple, .collection, .optional, .enum:
        if mirror.children.isEmpty { return String(reflecting: value) }
        let parts = mirror.children.map { ($0.label ?? "") + ": " + canonicalDescription($0.value) }
        return "\(mirror.subjectType)(" + parts.joined(separator: ", ") + ")"
    default:
        return String(reflecting: value)
    }
}
