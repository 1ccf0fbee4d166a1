// libFuzzer harness: the RoomPlan JSON reader and writer.
//
// The law: whatever `RoomPlanCodec.decode` accepts, `encode` writes back to bytes that
// decode again to the same document, and writing that document again gives the same
// bytes. Anything else (a rejected file) must be a thrown RoomPlanDecodeError, never a trap.
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
    let written = RoomPlanCodec.encode(document)
    let reread: RoomPlanDocument
    do {
        reread = try RoomPlanCodec.decode(written)
    } catch {
        violation("an accepted file was written back to bytes that do not read: \(error)\n"
                  + String(decoding: written.prefix(2000), as: UTF8.self))
    }
    if reread != document {
        violation("an accepted file read back as a different document after writing")
    }
    let rewritten = RoomPlanCodec.encode(reread)
    if rewritten != written {
        violation("writing the re-read document gave different bytes (\(written.count) then \(rewritten.count))")
    }
    // What `wb check` does with any opened file.
    _ = RoomPlanDiagnostics.check(document)
    return 0
}
