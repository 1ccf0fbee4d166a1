// libFuzzer harness: the Hyperbasis store reader, a folder of files.
//
// The input is the store's files one after another, separated by a line "====":
//   0 spaces/<ID>.json   1 worldmaps/<ID>.bin   2 anchors/<ANCHOR>.json
//   3 events/<ID>/events.jsonl   4 pending_operations.json
// (a missing piece is a missing file; ID is the fixed space identifier below, so an input
// whose space says another "id" finds no world map, as a real store would). The harness
// writes them into a private temporary store, loads it, and also reads piece 0 as a
// single-file HBSpace. The laws: no traps; a folder with spaces/ always loads (problems
// are reported, not thrown); and any JSON piece the reader accepts is written by
// JSONWriter (compact and pretty) to bytes that read back to the same value (up to the
// order of object members: the writer sorts keys by design), and is UTF-8.
import Foundation
@testable import StructureModel

let spaceID = "A1B2C3D4-E5F6-4789-8ABC-DEF012345678"
let anchorID = "7C6B5A49-3827-4165-9F8E-7D6C5B4A3928"
let storeRoot: String = {
    let root = NSTemporaryDirectory() + "wb-fuzz-store-\(getpid())"
    for folder in ["spaces", "worldmaps", "anchors", "events/" + spaceID] {
        try? FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
    }
    atexit { try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "wb-fuzz-store-\(getpid())") }
    return root
}()
let pieceFiles = ["spaces/\(spaceID).json", "worldmaps/\(spaceID).bin", "anchors/\(anchorID).json",
                  "events/\(spaceID)/events.jsonl", "pending_operations.json"]

func splitPieces(_ bytes: [UInt8]) -> [[UInt8]] {
    let separator = Array("\n====\n".utf8)
    var pieces: [[UInt8]] = []
    var start = 0, i = 0
    while i + separator.count <= bytes.count {
        if bytes[i..<(i + separator.count)].elementsEqual(separator) {
            pieces.append(Array(bytes[start..<i]))
            i += separator.count
            start = i
        } else {
            i += 1
        }
    }
    pieces.append(Array(bytes[start...]))
    return pieces
}

/// `value` with every object's members in key order.
func sortedJSON(_ value: JSONValue) -> JSONValue {
    switch value {
    case .array(let elements): return .array(elements.map(sortedJSON))
    case .object(let object): return .object(JSONObject(object.sortedMembers.map { JSONMember($0.key, sortedJSON($0.value)) }))
    default: return value
    }
}

func checkJSONRoundTrip(_ bytes: [UInt8]) {
    guard let value = try? withJSONReader(bytes, { reader -> JSONValue in
        let value = try reader.readValue()
        try reader.expectEnd()
        return value
    }) else { return }
    checkAcceptedUTF8(bytes, "the JSON reader")
    for compact in [true, false] {
        var writer = JSONWriter(compact: compact)
        writer.value(value)
        let reread: JSONValue
        do {
            reread = try withJSONReader(writer.bytes) { reader -> JSONValue in
                let value = try reader.readValue()
                try reader.expectEnd()
                return value
            }
        } catch {
            violation("accepted JSON written \(compact ? "compact" : "pretty") does not read back: \(error)\n"
                      + String(decoding: writer.bytes.prefix(1000), as: UTF8.self))
        }
        if sortedJSON(reread) != sortedJSON(value) { violation("accepted JSON written \(compact ? "compact" : "pretty") reads back different") }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func hyperbasisFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let pieces = splitPieces(fuzzInput(data, size))
    for (index, file) in pieceFiles.enumerated() {
        let path = storeRoot + "/" + file
        if index < pieces.count {
            if !FileManager.default.createFile(atPath: path, contents: Data(pieces[index])) {
                violation("the harness could not write \(path)")
            }
        } else {
            unlink(path)
        }
    }
    do {
        let store = try HyperbasisStore.load(storeRoot)
        _ = store.problems.count
    } catch {
        violation("a folder with spaces/ did not load: \(error)")
    }
    _ = try? HyperbasisStore.loadSpaceFile(storeRoot + "/" + pieceFiles[0])
    for index in [0, 2, 4] where index < pieces.count {
        checkJSONRoundTrip(pieces[index])
    }
    if pieces.count > 3 {
        for line in pieces[3].split(separator: 0x0A) { checkJSONRoundTrip(Array(line)) }
    }
    return 0
}
