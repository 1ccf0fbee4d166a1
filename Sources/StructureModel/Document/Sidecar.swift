/// Free-text names of rooms and sections, kept next to the RoomPlan file in
/// `NAME.wb.json` (for `NAME.json`), because RoomPlan's JSON has no place for them and a
/// key of wb's own in Apple's file could break readers that check its keys.
///
/// Names are tied to what survives a save, a re-export and a re-merge: a room by the
/// identifiers of its walls (falling back to its position), a section by its label's
/// centre and story (within 0.5 m), not by array positions alone.
public struct Sidecar: Sendable, Equatable {
    public struct RoomName: Sendable, Equatable {
        public var index: Int?
        public var walls: [String]
        public var name: String
        /// The Hyperbasis space the room was scanned in, if a person said so.
        public var space: String? = nil
    }

    public struct SectionName: Sendable, Equatable {
        public var room: Int?
        public var center: SIMD3<Float>
        public var story: Int?
        public var name: String
    }

    public var rooms: [RoomName] = []
    public var sections: [SectionName] = []

    public init() {}

    public static func path(for roomPlanPath: String) -> String {
        (roomPlanPath.hasSuffix(".json") ? String(roomPlanPath.dropLast(5)) : roomPlanPath) + ".wb.json"
    }

    static func scopeIndex(_ scope: Scope) -> Int? {
        if case .room(let index) = scope { return index }
        return nil
    }

    /// The names in `names`, described by what identifies their rooms and sections.
    public init(names: [NameKey: String], document: RoomPlanDocument, spaceLinks: [Scope: String] = [:]) {
        for (scope, space) in spaceLinks.sorted(by: { "\($0.key)" < "\($1.key)" }) where names[.room(scope)] == nil {
            let walls = document.room(scope)?.walls.map(\.identifier) ?? []
            rooms.append(RoomName(index: Self.scopeIndex(scope), walls: walls, name: "", space: space))
        }
        for (key, name) in names.sorted(by: { "\($0.key)" < "\($1.key)" }) {
            switch key {
            case .room(let scope):
                let walls = document.room(scope)?.walls.map(\.identifier) ?? []
                rooms.append(RoomName(index: Self.scopeIndex(scope), walls: walls, name: name, space: spaceLinks[scope]))
            case .section(let scope, let index):
                guard let section = document.room(scope)?.sections[safe: index] else { continue }
                sections.append(SectionName(room: Self.scopeIndex(scope), center: section.center, story: section.story, name: name))
            }
        }
    }

    /// Which space each room was scanned in, matched as names are.
    public func spaceLinks(for document: RoomPlanDocument) -> [Scope: String] {
        var result: [Scope: String] = [:]
        for room in rooms {
            if let space = room.space, let scope = Self.bestScope(document, walls: room.walls, index: room.index) { result[scope] = space }
        }
        return result
    }

    static func bestScope(_ document: RoomPlanDocument, walls: [String], index: Int?) -> Scope? {
        let scopes = document.roomScopes
        let wanted = Set(walls)
        var best: (Scope, Int)?
        for scope in scopes {
            let overlap = Set(document.room(scope)?.walls.map(\.identifier) ?? []).intersection(wanted).count
            if overlap > 0 && overlap > (best?.1 ?? 0) { best = (scope, overlap) }
        }
        if let best { return best.0 }
        if case .room = document, index == nil { return .capture }
        if let index, scopes.indices.contains(index) { return scopes[index] }
        return nil
    }

    /// Finds, for each saved name, the room or section it belongs to now.
    public func names(for document: RoomPlanDocument) -> [NameKey: String] {
        var result: [NameKey: String] = [:]
        let scopes = document.roomScopes
        func bestScope(walls: [String], index: Int?) -> Scope? { Self.bestScope(document, walls: walls, index: index) }
        for room in rooms where !room.name.isEmpty {
            if let scope = bestScope(walls: room.walls, index: room.index) { result[.room(scope)] = room.name }
        }
        for section in sections {
            var best: (NameKey, Double)?
            for scope in scopes {
                for (index, candidate) in (document.room(scope)?.sections ?? []).enumerated()
                where candidate.story == section.story {
                    let d = SIMD3<Double>(candidate.center) - SIMD3<Double>(section.center)
                    let distance = (d * d).sum().squareRoot()
                    if distance < 0.5 && distance < (best?.1 ?? .infinity) { best = (.section(scope, index), distance) }
                }
            }
            if let best { result[best.0] = section.name }
        }
        return result
    }

    public func encoded(fileName: String) -> [UInt8] {
        var writer = JSONWriter(capacity: 4096)
        writer.beginObject()
        writer.key("about")
        writer.string("What wb keeps for rooms and sections of \(fileName) that RoomPlan's JSON has no place for: "
                      + "free-text names, and the Hyperbasis space each room was scanned in.")
        writer.key("file")
        writer.string(fileName)
        writer.key("format")
        writer.string("wb-names")
        writer.key("rooms")
        writer.beginArray()
        for room in rooms {
            writer.beginObject()
            if let index = room.index {
                writer.key("index")
                writer.int(index)
            }
            if !room.name.isEmpty {
                writer.key("name")
                writer.string(room.name)
            }
            if let space = room.space {
                writer.key("space")
                writer.string(space)
            }
            writer.key("walls")
            writer.beginArray()
            for wall in room.walls { writer.string(wall) }
            writer.endArray()
            writer.endObject()
        }
        writer.endArray()
        writer.key("sections")
        writer.beginArray()
        for section in sections {
            writer.beginObject()
            writer.key("center")
            writer.vector(section.center)
            writer.key("name")
            writer.string(section.name)
            if let room = section.room {
                writer.key("room")
                writer.int(room)
            }
            if let story = section.story {
                writer.key("story")
                writer.int(story)
            }
            writer.endObject()
        }
        writer.endArray()
        writer.key("version")
        writer.int(1)
        writer.endObject()
        return writer.bytes + [0x0A]
    }

    /// Reads a sidecar; a malformed one is an error for the caller to report as a warning.
    public static func decode(_ bytes: [UInt8]) throws(RoomPlanDecodeError) -> Sidecar {
        do {
            return try withJSONReader(bytes) { reader in
                var sidecar = Sidecar()
                try reader.readObject { reader, key in
                    switch key {
                    case "rooms":
                        try reader.readArray { reader, _ in
                            var room = RoomName(index: nil, walls: [], name: "")
                            try reader.readObject { reader, key in
                                switch key {
                                case "index": room.index = try reader.readInt()
                                case "name": room.name = try reader.readString()
                                case "space": room.space = try reader.readString()
                                case "walls": try reader.readArray { reader, _ in room.walls.append(try reader.readString()) }
                                default: try reader.skipValue()
                                }
                            }
                            sidecar.rooms.append(room)
                        }
                    case "sections":
                        try reader.readArray { reader, _ in
                            var section = SectionName(room: nil, center: .zero, story: nil, name: "")
                            try reader.readObject { reader, key in
                                switch key {
                                case "center": section.center = try reader.readVector("center")
                                case "name": section.name = try reader.readString()
                                case "room": section.room = try reader.readInt()
                                case "story": section.story = try reader.readInt()
                                default: try reader.skipValue()
                                }
                            }
                            sidecar.sections.append(section)
                        }
                    default:
                        try reader.skipValue()
                    }
                }
                try reader.expectEnd()
                return sidecar
            }
        } catch let error as JSONReadError {
            throw RoomPlanCodec.locate(error, in: bytes)
        } catch {
            throw RoomPlanDecodeError(message: "\(error)", offset: 0, location: SourceLocation(line: 1, column: 1, keyPath: ""),
                                      lineText: "")
        }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? {
        index >= 0 && index < count ? self[index] : nil
    }
}
