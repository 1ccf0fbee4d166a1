/// One RoomPlan capture: `CapturedRoom` as `JSONEncoder` writes it.
///
/// A capture may cover several real rooms (one floor polygon, several labelled sections).
/// The private keys `coreModel` and `referenceOriginTransform` are kept exactly;
/// `coreModel` is an opaque blob that wb never interprets or changes.
public struct CapturedRoom: Sendable, Hashable {
    /// The element arrays a capture has; iOS 16 files lack `floors` and `sections`.
    public enum ArrayKey: String, Sendable, Hashable, CaseIterable {
        case doors, floors, objects, openings, sections, walls, windows
    }

    public var coreModel: String?
    public var doors: [Surface] = []
    public var floors: [Surface] = []
    /// Not in any real iOS 17 file; kept when a file has it.
    public var identifier: String?
    public var objects: [Object] = []
    public var openings: [Surface] = []
    public var referenceOriginTransform: Transform?
    public var sections: [Section] = []
    public var story: Int?
    public var version: Int?
    public var walls: [Surface] = []
    public var windows: [Surface] = []
    /// Arrays the file did not have; they are written back only once they hold something.
    public var absentArrays: Set<ArrayKey> = []
    /// `coreModel` or `referenceOriginTransform` in a shape wb does not read (a `coreModel`
    /// that is not a string, an origin that is not 16 numbers: another iOS version, another
    /// exporter), kept exactly as the file has it and not used. Such a file was refused whole,
    /// though wb never looks inside `coreModel`.
    public var privateAsFound: [String: JSONValue] = [:]
    public var extra = JSONObject()
    /// How the file spelled `referenceOriginTransform`, `story` and `version` where
    /// `JSONWriter` would print them otherwise; see `NumberSpellings`.
    public var numberSpellings = NumberSpellings()
    /// Whether the file began with a UTF-8 byte order mark, which is written back so that
    /// saving a file that was not edited changes no byte. Only a file's top-level object
    /// (a room, or a structure's `merged`) has one.
    public var hasByteOrderMark = false
    /// Whether the file wrote `/` in strings as it is rather than as `\/` (an app exporting
    /// with `JSONEncoder`'s `.withoutEscapingSlashes`): written back the same way, so that a
    /// save does not rewrite every slash of `coreModel`. Top-level object only, like the mark.
    public var slashesUnescaped = false

    /// The keys this type reads and writes itself; no key in `extra` may be one of them,
    /// nor `rooms` at the top of a file (where it makes the file a structure).
    static let modelledKeys: [StaticString] = [
        "coreModel", "doors", "floors", "identifier", "objects", "openings", "referenceOriginTransform",
        "sections", "story", "version", "walls", "windows",
    ]
    static let topLevelKeys: [StaticString] = modelledKeys + ["rooms"]

    /// The arrays every RoomPlan version writes: without them a file is not a room.
    static let requiredArrays: [ArrayKey] = [.walls, .doors, .windows, .openings, .objects]

    public init() {}

    /// Every surface with the array it lives in, in file order.
    public var surfaceGroups: [(key: ArrayKey, surfaces: [Surface])] {
        [(.walls, walls), (.doors, doors), (.windows, windows), (.openings, openings), (.floors, floors)]
    }

    public func surfaces(_ key: ArrayKey) -> [Surface] {
        switch key {
        case .walls: return walls
        case .doors: return doors
        case .windows: return windows
        case .openings: return openings
        case .floors: return floors
        case .objects, .sections: return []
        }
    }
}

/// A merged multi-room result: `CapturedStructure`. It holds each room whole, plus
/// structure-level arrays that Apple's merge computed (shared walls de-duplicated, one
/// floor). Those arrays are kept as they came, in `merged`, a room-shaped value.
public struct CapturedStructure: Sendable, Hashable {
    public var rooms: [CapturedRoom]
    public var merged: CapturedRoom

    public init(rooms: [CapturedRoom], merged: CapturedRoom) {
        self.rooms = rooms
        self.merged = merged
    }
}

/// What a RoomPlan JSON file holds.
public enum RoomPlanDocument: Sendable, Hashable {
    case room(CapturedRoom)
    case structure(CapturedStructure)

    public var kindName: String {
        switch self {
        case .room: return "CapturedRoom"
        case .structure: return "CapturedStructure"
        }
    }
}

// MARK: - Reading and writing the top level

/// The top level of either kind, read in one pass; which kind it is follows from the keys.
struct TopLevel {
    var room = CapturedRoom()
    var rooms: [CapturedRoom]?
    var presentArrays: Set<CapturedRoom.ArrayKey> = []
    var keys: [String] = []
    private var spellings = NumberSpellingsBuilder()

    init(reading reader: inout JSONReader, nested: Bool) throws {
        guard reader.peek() == UInt8(ascii: "{") else {
            throw reader.error(nested
                ? "expected a room object in \"rooms\", found \(reader.describeHere())"
                : "not a RoomPlan file: expected a JSON object at the top, found \(reader.describeHere())")
        }
        var seen = KeySet()
        try reader.readObject { reader, key in
            try seen.insert(key, reader: reader)
            keys.append(key.string)
            switch key {
            case "coreModel":
                if reader.peek() == UInt8(ascii: "\"") {
                    room.coreModel = try reader.readString()
                } else {
                    room.privateAsFound["coreModel"] = try reader.readValue()
                }
            case "doors": room.doors = try reader.readSurfaces(); presentArrays.insert(.doors)
            case "floors": room.floors = try reader.readSurfaces(); presentArrays.insert(.floors)
            case "identifier": room.identifier = try reader.readString()
            case "objects":
                var objects: [Object] = []
                try reader.readArray { reader, _ in objects.append(try Object(reading: &reader)) }
                room.objects = objects
                presentArrays.insert(.objects)
            case "openings": room.openings = try reader.readSurfaces(); presentArrays.insert(.openings)
            case "referenceOriginTransform":
                var attempt = reader, attemptSpellings = spellings
                if let origin = try? attempt.readTransform(
                    "referenceOriginTransform", spellings: &attemptSpellings, first: NumberSlot.of(.referenceOriginTransform, 0)) {
                    room.referenceOriginTransform = origin
                    reader = attempt
                    spellings = attemptSpellings
                } else {
                    room.privateAsFound["referenceOriginTransform"] = try reader.readValue()
                }
            case "rooms" where !nested:
                var rooms: [CapturedRoom] = []
                try reader.readArray { reader, _ in
                    let start = reader.offset
                    let nestedRoom = try TopLevel(reading: &reader, nested: true)
                    guard nestedRoom.looksLikeRoom else {
                        throw reader.error("a room in \"rooms\" needs \"walls\", \"doors\", \"windows\", "
                                           + "\"openings\" and \"objects\"", absolute: start)
                    }
                    rooms.append(nestedRoom.finishedRoom)
                }
                self.rooms = rooms
            case "sections":
                var sections: [Section] = []
                try reader.readArray { reader, _ in sections.append(try Section(reading: &reader)) }
                room.sections = sections
                presentArrays.insert(.sections)
            case "story": room.story = try reader.readInt(spellings: &spellings, slot: NumberSlot.of(.story, 0))
            case "version": room.version = try reader.readInt(spellings: &spellings, slot: NumberSlot.of(.version, 0))
            case "walls": room.walls = try reader.readSurfaces(); presentArrays.insert(.walls)
            case "windows": room.windows = try reader.readSurfaces(); presentArrays.insert(.windows)
            default: room.extra.members.append(JSONMember(key.string, try reader.readValue()))
            }
        }
    }

    /// Every RoomPlan version writes these five arrays.
    var looksLikeRoom: Bool {
        CapturedRoom.requiredArrays.allSatisfy(presentArrays.contains)
    }

    var finishedRoom: CapturedRoom {
        var result = room
        result.absentArrays = Set(CapturedRoom.ArrayKey.allCases).subtracting(presentArrays)
        result.numberSpellings = spellings.build()
        return result
    }
}

extension JSONReader {
    mutating func readSurfaces() throws -> [Surface] {
        var surfaces: [Surface] = []
        try readArray { reader, _ in surfaces.append(try Surface(reading: &reader)) }
        return surfaces
    }
}

extension CapturedRoom {
    /// Writes the room's keys in sorted order; `rooms` (for a structure) goes between
    /// `referenceOriginTransform` and `sections`, where it sorts. `nested`: a room in a
    /// structure's `rooms`. A room (not a structure's `merged`) must have the five arrays
    /// every RoomPlan version writes, or it would not read back as a room.
    func write(to writer: inout JSONWriter, rooms: [CapturedRoom]? = nil, nested: Bool = false) {
        if hasByteOrderMark && !nested { writer.byteOrderMark() }
        if slashesUnescaped && !nested { writer.escapesSlashes = false }
        writer.beginObject()
        var extras = ExtraMembers(extra, modelled: nested ? Self.modelledKeys : Self.topLevelKeys, writer: &writer)
        if rooms == nil, let missing = Self.requiredArrays.first(where: { absentArrays.contains($0) && surfacesOrObjectsAreEmpty($0) }) {
            writer.reject("a room without \"\(missing.rawValue)\" would not read back as a room")
        }
        if let coreModel {
            extras.flush(before: "coreModel", into: &writer)
            writer.key("coreModel")
            writer.string(coreModel)
        } else if let found = privateAsFound["coreModel"] {
            extras.flush(before: "coreModel", into: &writer)
            writer.key("coreModel")
            writer.value(found)
        }
        writeSurfaces(.doors, "doors", doors, &writer, &extras)
        writeSurfaces(.floors, "floors", floors, &writer, &extras)
        if let identifier {
            extras.flush(before: "identifier", into: &writer)
            writer.key("identifier")
            writer.string(identifier)
        }
        if !absentArrays.contains(.objects) || !objects.isEmpty {
            extras.flush(before: "objects", into: &writer)
            writer.key("objects")
            writer.beginArray()
            for object in objects { object.write(to: &writer) }
            writer.endArray()
        }
        writeSurfaces(.openings, "openings", openings, &writer, &extras)
        if let referenceOriginTransform {
            extras.flush(before: "referenceOriginTransform", into: &writer)
            writer.key("referenceOriginTransform")
            writer.transform(referenceOriginTransform, spellings: numberSpellings, first: NumberSlot.of(.referenceOriginTransform, 0))
        } else if let found = privateAsFound["referenceOriginTransform"] {
            extras.flush(before: "referenceOriginTransform", into: &writer)
            writer.key("referenceOriginTransform")
            writer.value(found)
        }
        if let rooms {
            extras.flush(before: "rooms", into: &writer)
            writer.key("rooms")
            writer.beginArray()
            for room in rooms { room.write(to: &writer, nested: true) }
            writer.endArray()
        }
        if !absentArrays.contains(.sections) || !sections.isEmpty {
            extras.flush(before: "sections", into: &writer)
            writer.key("sections")
            writer.beginArray()
            for section in sections { section.write(to: &writer) }
            writer.endArray()
        }
        if let story {
            extras.flush(before: "story", into: &writer)
            writer.key("story")
            writer.int(story, spellings: numberSpellings, slot: NumberSlot.of(.story, 0))
        }
        if let version {
            extras.flush(before: "version", into: &writer)
            writer.key("version")
            writer.int(version, spellings: numberSpellings, slot: NumberSlot.of(.version, 0))
        }
        writeSurfaces(.walls, "walls", walls, &writer, &extras)
        writeSurfaces(.windows, "windows", windows, &writer, &extras)
        extras.flushRest(into: &writer)
        writer.endObject()
    }

    private func surfacesOrObjectsAreEmpty(_ array: ArrayKey) -> Bool {
        array == .objects ? objects.isEmpty : surfaces(array).isEmpty
    }

    private func writeSurfaces(
        _ array: ArrayKey, _ key: StaticString, _ surfaces: [Surface],
        _ writer: inout JSONWriter, _ extras: inout ExtraMembers
    ) {
        guard !absentArrays.contains(array) || !surfaces.isEmpty else { return }
        extras.flush(before: key, into: &writer)
        writer.key(key)
        writer.beginArray()
        for surface in surfaces { surface.write(to: &writer) }
        writer.endArray()
    }
}
