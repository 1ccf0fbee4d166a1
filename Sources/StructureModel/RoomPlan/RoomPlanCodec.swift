/// A RoomPlan file that could not be read, with where and why.
public struct RoomPlanDecodeError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var offset: Int
    public var location: SourceLocation
    /// The source line the error is on, for a caret display.
    public var lineText: String

    public var description: String {
        let path = location.keyPath.isEmpty ? "" : " (at \(location.keyPath))"
        return "\(location.line):\(location.column): \(message)\(path)"
    }
}

/// Reads and writes RoomPlan JSON.
///
/// Reading is tolerant of how a file is written (compact or pretty, any key order, floats
/// at double precision, iOS 16 key sets) and strict about what it says (types, lengths,
/// finite numbers). Writing produces Apple's canonical form, so a file from a device that
/// was not edited comes back byte for byte.
public enum RoomPlanCodec {
    public static func decode(_ bytes: [UInt8]) throws(RoomPlanDecodeError) -> RoomPlanDocument {
        do {
            return try withJSONReader(bytes) { reader in
                if reader.peek() == nil {
                    throw reader.error("the file is empty", at: 0)
                }
                let topLevel = try TopLevel(reading: &reader, nested: false)
                try reader.expectEnd()
                if let rooms = topLevel.rooms {
                    return .structure(CapturedStructure(rooms: rooms, merged: topLevel.finishedRoom))
                }
                guard topLevel.looksLikeRoom else {
                    let found = topLevel.keys.isEmpty ? "an empty object"
                        : "keys " + topLevel.keys.prefix(8).map { "\"\($0)\"" }.joined(separator: ", ")
                    throw reader.error("not a RoomPlan room or structure: expected \"walls\", \"doors\", \"windows\", "
                                       + "\"openings\" and \"objects\" (a CapturedRoom) or \"rooms\" (a CapturedStructure), "
                                       + "found \(found)", absolute: 0)
                }
                return .room(topLevel.finishedRoom)
            }
        } catch let error as JSONReadError {
            throw locate(error, in: bytes)
        } catch {
            throw RoomPlanDecodeError(message: "\(error)", offset: 0,
                                      location: SourceLocation(line: 1, column: 1, keyPath: ""), lineText: "")
        }
    }

    static func locate(_ error: JSONReadError, in bytes: [UInt8]) -> RoomPlanDecodeError {
        let location = SourceLocator.locate(offset: error.offset, in: bytes)
        return RoomPlanDecodeError(message: error.message, offset: error.offset, location: location,
                                   lineText: SourceLocator.lineText(location.line, in: bytes))
    }

    /// Apple's canonical form: pretty-printed, sorted keys, no trailing newline.
    public static func encode(_ document: RoomPlanDocument, capacityHint: Int = 1 << 20) -> [UInt8] {
        var writer = JSONWriter(capacity: capacityHint)
        switch document {
        case .room(let room):
            room.write(to: &writer)
        case .structure(let structure):
            structure.merged.write(to: &writer, rooms: structure.rooms)
        }
        return writer.bytes
    }
}
