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
                var room = topLevel.finishedRoom
                room.hasByteOrderMark = startsWithByteOrderMark(bytes)
                room.slashesUnescaped = writesSlashesUnescaped(bytes)
                if let rooms = topLevel.rooms {
                    return .structure(CapturedStructure(rooms: rooms, merged: room))
                }
                guard topLevel.looksLikeRoom else {
                    let found = topLevel.keys.isEmpty ? "an empty object"
                        : "keys " + topLevel.keys.prefix(8).map { "\"\(Abbreviated.text($0))\"" }.joined(separator: ", ")
                    throw reader.error("not a RoomPlan room or structure: expected \"walls\", \"doors\", \"windows\", "
                                       + "\"openings\" and \"objects\" (a CapturedRoom) or \"rooms\" (a CapturedStructure), "
                                       + "found \(found)", absolute: 0)
                }
                return .room(room)
            }
        } catch let error as JSONReadError {
            // A file of another shape whose arrays come first (an app's own format with an
            // "objects" array) was told what its objects lack, one key at a time, rather than
            // that it is not RoomPlan's: said so when its top level holds none of RoomPlan's keys.
            if let keys = topLevelKeys(bytes), Set(keys).count == keys.count, !keys.contains(where: { ["walls", "doors", "windows", "openings", "floors", "rooms"].contains($0) }) {
                let found = keys.isEmpty ? "an empty object" : "keys " + keys.prefix(8).map { "\"\(Abbreviated.text($0))\"" }.joined(separator: ", ")
                throw RoomPlanDecodeError(message: "not a RoomPlan room or structure: expected \"walls\", \"doors\", \"windows\", "
                                          + "\"openings\" and \"objects\" (a CapturedRoom) or \"rooms\" (a CapturedStructure), found \(found)",
                                          offset: 0, location: SourceLocation(line: 1, column: 1, keyPath: ""),
                                          lineText: String(decoding: bytes.prefix(200).prefix { $0 != 0x0A }, as: UTF8.self))
            }
            throw locate(error, in: bytes)
        } catch {
            throw RoomPlanDecodeError(message: "\(error)", offset: 0,
                                      location: SourceLocation(line: 1, column: 1, keyPath: ""), lineText: "")
        }
    }

    /// The keys of the file's top-level object, in order, when it is well-formed JSON with an
    /// object at the top (only asked once reading it as RoomPlan failed).
    static func topLevelKeys(_ bytes: [UInt8]) -> [String]? {
        try? withJSONReader(bytes) { reader in
            var keys: [String] = []
            try reader.readObject { reader, key in
                keys.append(key.string)
                try reader.skipValue()
            }
            try reader.expectEnd()
            return keys
        }
    }

    /// Whether the file's strings hold more plain `/` than escaped `\/`. A slash can only
    /// be inside a string in JSON, and it is escaped when an odd run of backslashes comes
    /// before it. One pass over the bytes, most of them skipped by `firstIndex`.
    static func writesSlashesUnescaped(_ bytes: [UInt8]) -> Bool {
        var plain = 0, escaped = 0
        bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            while let slash = buffer[index...].firstIndex(of: 0x2F) {
                var backslashes = 0
                var before = slash - 1
                while before >= 0 && buffer[before] == 0x5C { backslashes += 1; before -= 1 }
                if backslashes % 2 == 1 { escaped += 1 } else { plain += 1 }
                index = slash + 1
            }
        }
        return plain > escaped
    }

    static func locate(_ error: JSONReadError, in bytes: [UInt8]) -> RoomPlanDecodeError {
        let location = SourceLocator.locate(offset: error.offset, in: bytes)
        return RoomPlanDecodeError(message: error.message, offset: error.offset, location: location,
                                   lineText: SourceLocator.lineText(location.line, in: bytes))
    }

    /// Apple's canonical form: pretty-printed, sorted keys, no trailing newline; numbers
    /// that were not edited as their file spelled them.
    ///
    /// For a document that came from `decode` (and any edit of it through wb's edits),
    /// the bytes read back to the same document. A value built in code can hold what JSON
    /// cannot say (a NaN); whatever goes in a file goes through `encodeChecked`.
    public static func encode(_ document: RoomPlanDocument, capacityHint: Int = 1 << 20) -> [UInt8] {
        write(document, capacityHint: capacityHint).bytes
    }

    /// `encode`, refusing a document the bytes would not read back as: a number that is
    /// not finite, an unknown key that is also a modelled one or is there twice, a tagged
    /// value that is not a one-key object, a room without its five arrays, nesting deeper
    /// than the reader takes. The writer notes these as it writes, so the check is free;
    /// with the reader refusing whatever it would have to repair (invalid UTF-8 anywhere,
    /// a key twice), wb never saves a file it cannot read back to the same model.
    public static func encodeChecked(_ document: RoomPlanDocument, capacityHint: Int = 1 << 20) throws(RoomPlanEncodeError) -> [UInt8] {
        let writer = write(document, capacityHint: capacityHint)
        if let problem = writer.problem {
            throw RoomPlanEncodeError(message: problem.message,
                                      keyPath: SourceLocator.keyPath(at: problem.offset, in: writer.bytes))
        }
        return writer.bytes
    }

    private static func write(_ document: RoomPlanDocument, capacityHint: Int) -> JSONWriter {
        var writer = JSONWriter(capacity: capacityHint)
        switch document {
        case .room(let room):
            room.write(to: &writer)
        case .structure(let structure):
            structure.merged.write(to: &writer, rooms: structure.rooms)
        }
        return writer
    }
}

/// A document that cannot be written so that it reads back the same, with where.
public struct RoomPlanEncodeError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    /// Like `walls[3].transform[12]`; empty for the top level.
    public var keyPath: String

    public var description: String {
        keyPath.isEmpty ? message : "\(keyPath): \(message)"
    }
}
