/// Free-text names of rooms and sections, and the space each room was scanned in, kept
/// next to the RoomPlan file in `NAME.wb.json` (for `NAME.json`), because RoomPlan's JSON
/// has no place for them and a key of wb's own in Apple's file could break readers that
/// check its keys.
///
/// Entries are tied to what survives a save, a re-export and a re-merge, not to array
/// positions alone: a room by the identifiers of its walls (its position only as a last
/// resort), a section by its room, then its position in the room with its label, then its
/// centre (within 0.5 m). Matching is linear in the file and the sidecar.
public struct Sidecar: Sendable, Equatable {
    public struct RoomEntry: Sendable, Equatable {
        public var index: Int?
        public var walls: [String]
        public var name: String
        /// The Hyperbasis space the room was scanned in, if a person said so.
        public var space: String? = nil
        public var sections: [SectionEntry] = []
    }

    public struct SectionEntry: Sendable, Equatable {
        /// Position among its room's sections (version 2 on).
        public var index: Int?
        public var label: String?
        /// Version 1 kept the room's position here, with sections listed apart from rooms.
        public var room: Int?
        public var center: SIMD3<Float>
        public var story: Int?
        public var name: String
    }

    /// A USDZ model attached to an object (`set o3 model chair.usdz`).
    public struct ModelEntry: Sendable, Equatable {
        /// The object's identifier.
        public var object: String
        /// The model, relative to the RoomPlan file's folder (or absolute).
        public var path: String
    }

    public var rooms: [RoomEntry] = []
    public var models: [ModelEntry] = []
    /// Sections of a version 1 sidecar, matched by centre alone.
    public var looseSections: [SectionEntry] = []

    /// One piece of a structure's provenance that its identifiers do not tell: a room
    /// element that became a structure-level element with another identifier (the other
    /// side of a shared wall, a door seen from the next room, a room's floor).
    public struct LinkEntry: Sendable, Equatable {
        /// The room's position among the structure's rooms.
        public var room: Int
        /// `walls`, `doors`, `windows`, `openings`, `floors` or `objects`.
        public var kind: String
        /// The room element's identifier, and the structure-level element's.
        public var element: String
        public var target: String
    }

    /// A structure's provenance as its merge made it (version 4 on): reopening the file
    /// it was saved with takes these rather than matching by place, so a merge made with
    /// wider tolerances, or elements edited since, keep what they came from.
    public var links: [LinkEntry] = []
    /// Whether the sidecar carries provenance at all (a structure saved by version 4 on).
    public var hasLinks = false
    /// Set by `resolved(for:)` when the sidecar was written with the very file being opened:
    /// only then does its provenance describe that file.
    public private(set) var linksFitFile = false
    /// The RoomPlan file these names were saved with (version 3 on; nil before).
    public var contents: ContentDigest?
    /// The names of the RoomPlan file this save replaced, with its digest (at most one
    /// level: an older one's own `previous` is dropped). A save renames the sidecar into
    /// place before the RoomPlan file: a crash between the two leaves the old RoomPlan file
    /// with the new sidecar, and this is what belongs to that file.
    public var previous: Sidecar? {
        get { earlier.first }
        set { earlier = newValue.map { var value = $0; value.earlier = []; return [value] } ?? [] }
    }
    private var earlier: [Sidecar] = []

    /// The newest version this wb writes; a sidecar of a later one comes from a newer wb and
    /// may hold what this one does not know (a save keeps a copy of it).
    public static let newestVersion = 4

    public init() {}

    /// How a sidecar relates to the RoomPlan file beside it.
    public enum Fit: Sendable, Equatable {
        /// Written with this very file.
        case matches
        /// Written before sidecars carried a digest: matched by wall identifiers, as always.
        case undated
        /// The new half of a save that stopped between its renames: its `previous` names
        /// are those of this (older) file.
        case interruptedSave
        /// Written for another version of the file (changed since by another program):
        /// matched by wall identifiers, which survive re-exports.
        case otherVersion
    }

    /// The names that belong to the RoomPlan file whose digest is `digest`.
    public func resolved(for digest: ContentDigest) -> (Sidecar, Fit) {
        guard let contents else { return (self, .undated) }
        if contents == digest {
            var fitting = self
            fitting.linksFitFile = true
            return (fitting, .matches)
        }
        if var previous, previous.contents == digest {
            previous.linksFitFile = true
            return (previous, .interruptedSave)
        }
        return (self, .otherVersion)
    }

    /// Beside the file itself: for a scan opened or saved through a symbolic link, beside the
    /// link's target, so the names are found whichever way the scan is opened (beside the link,
    /// they were lost to anyone opening the scan by its own name).
    public static func path(for roomPlanPath: String) -> String {
        besideName((try? FileIO.linkTarget(of: roomPlanPath)) ?? roomPlanPath)
    }

    /// Another scan whose names these are, when the names file at `sidecarPath` goes with it
    /// as well as with `scanPath`: a scan named without `.json` (`a`) has the names file of the
    /// one named with it (`a.wb.json` is both `a`'s and `a.json`'s). Each read the other's
    /// names as its own (a room took another file's room's name), and each save wrote over
    /// the other's. Nil when they are `scanPath`'s, or when the scan they name is gone or is
    /// `scanPath` itself (renamed with its names file, or reached through a link). `fileName`
    /// is the file the names file says it was written for (`decodeVersioned`).
    public static func otherScan(named fileName: String?, at sidecarPath: String, than scanPath: String) -> String? {
        guard let fileName, !fileName.isEmpty, !fileName.contains("/"), fileName != FileIO.baseName(of: scanPath) else { return nil }
        let folder = FileIO.parentFolder(of: sidecarPath)
        let other = folder == "." && !sidecarPath.hasPrefix("./") ? fileName : folder.hasSuffix("/") ? folder + fileName : folder + "/" + fileName
        guard FileIO.isRegularFile(other), !FileIO.sameFile(other, scanPath), FileIO.sameFile(Self.path(for: other), sidecarPath) else { return nil }
        return other
    }

    /// Where the names file of `roomPlanPath` is, taking the path as it is spelled (before
    /// links were followed, names files of linked scans were written there).
    public static func besideName(_ roomPlanPath: String) -> String {
        (roomPlanPath.hasSuffix(".json") ? String(roomPlanPath.dropLast(5)) : roomPlanPath) + ".wb.json"
    }

    /// What `file` keeps that RoomPlan's JSON cannot: its names, space links and models
    /// (their paths relative to `folder`, the folder the sidecar is written to).
    public init(file: WorkspaceFile, folder: String? = nil) {
        let base = folder ?? FileIO.parentFolder(of: file.path)
        for object in file.models.keys.sorted() {
            models.append(ModelEntry(object: object, path: FileIO.relative(file.models[object]!, from: base)))
        }
        for (position, id) in file.roomIDs.enumerated() {
            let room = Identity.room(id, file: file.id)
            guard let capture = file.capture(room.scope) else { continue }
            var entry = RoomEntry(index: file.isStructure ? position : nil, walls: capture.walls.map(\.identifier),
                                  name: file.names[room] ?? "", space: file.spaceLinks[id])
            for (index, key) in file.keys(room.scope, .section).keys.enumerated() {
                guard let name = file.names[Identity(file: file.id, scope: room.scope, kind: .section, key: key)] else { continue }
                let section = capture.sections[index]
                entry.sections.append(SectionEntry(index: index, label: section.label, room: nil, center: section.center,
                                                   story: section.story, name: name))
            }
            if !entry.name.isEmpty || entry.space != nil || !entry.sections.isEmpty { rooms.append(entry) }
        }
        guard file.isStructure else { return }
        // Only provenance that matching by place would not find again is worth keeping: a
        // structure as Apple wrote it, or merged with the default tolerances and not edited
        // since, gets no sidecar for it.
        let derived = StructureTwins.find(file).filter { $0.key.key != $0.value.element.key }.mapValues(\.element)
        let current = file.links.filter { $0.key.key != $0.value.element.key }.mapValues(\.element)
        guard derived != current else { return }
        hasLinks = true
        for (position, id) in file.roomIDs.enumerated() {
            let scope = Scope.room(id)
            for kind in ElementKind.surfaceKinds + [.object] {
                for key in file.keys(scope, kind).keys {
                    let own = Identity(file: file.id, scope: scope, kind: kind, key: key)
                    guard let link = file.links[own], link.element.key != key else { continue }
                    links.append(LinkEntry(room: position, kind: kind.plural, element: key, target: link.element.key))
                }
            }
        }
    }

    /// The links of `file` with this sidecar's provenance in place of what matching by place
    /// found, where the sidecar was written with this very file; else `found` as it is.
    public func links(for file: WorkspaceFile, found: [Identity: StructureLink]) -> [Identity: StructureLink] {
        guard hasLinks, linksFitFile, file.isStructure, let merged = file.capture(.structure) else { return found }
        // Links by identifier stay; those by place give way to the saved ones, but for sections
        // (which have no identifiers, and which the sidecar does not keep).
        var result = found.filter { $0.key.key == $0.value.element.key || $0.key.kind == .section }
        for entry in links {
            guard let kind = ElementKind.allCases.first(where: { $0.plural == entry.kind }), kind != .room, kind != .section,
                  let roomID = file.roomIDs[safe: entry.room], let room = file.capture(.room(roomID)),
                  let ownIndex = file.keys(.room(roomID), kind).index(of: entry.element),
                  let targetIndex = file.keys(.structure, kind).index(of: entry.target),
                  let ownElement = room.element(kind, at: ownIndex), let targetElement = merged.element(kind, at: targetIndex) else { continue }
            let own = Identity(file: file.id, scope: .room(roomID), kind: kind, key: entry.element)
            let target = Identity(file: file.id, scope: .structure, kind: kind, key: entry.target)
            result[own] = StructureTwins.link(own: ownElement, target: targetElement, identity: target)
        }
        return result
    }

    /// For each entry, the room of `file` it belongs to: the one with most of its walls (of
    /// those, the one at its position), else the one at its position.
    private func matchRooms(_ file: WorkspaceFile) -> [RoomID?] {
        // A wall counts for every room holding it: rooms may share wall identifiers (a room
        // merged with a copy of its own file). When the last room holding a wall took its
        // vote, every such entry went to that room and the other rooms' names were lost.
        var roomsOfWall: [String: [RoomID]] = [:]
        for id in file.roomIDs {
            for wall in Set(file.capture(.room(id))?.walls.map(\.identifier) ?? []) { roomsOfWall[wall, default: []].append(id) }
        }
        return rooms.map { entry in
            var votes: [RoomID: Int] = [:]
            for wall in entry.walls { for id in roomsOfWall[wall] ?? [] { votes[id, default: 0] += 1 } }
            if let most = votes.values.max() {
                if let index = entry.index, let room = file.roomIDs[safe: index], votes[room] == most { return room }
                return votes.filter { $0.value == most }.keys.min()
            }
            if !file.isStructure, entry.index == nil { return file.roomIDs.first }
            if let index = entry.index, file.roomIDs.indices.contains(index) { return file.roomIDs[index] }
            return nil
        }
    }

    /// Which space each room was scanned in.
    public func spaceLinks(for file: WorkspaceFile) -> [RoomID: String] {
        var result: [RoomID: String] = [:]
        for (entry, room) in zip(rooms, matchRooms(file)) {
            if let space = entry.space, let room { result[room] = space }
        }
        return result
    }

    /// Finds, for each saved name, the room or section it belongs to now.
    public func names(for file: WorkspaceFile) -> [Identity: String] {
        var result: [Identity: String] = [:]
        for (entry, room) in zip(rooms, matchRooms(file)) {
            guard let room else { continue }
            let identity = Identity.room(room, file: file.id)
            if !entry.name.isEmpty { result[identity] = entry.name }
            guard let capture = file.capture(identity.scope) else { continue }
            let keys = file.keys(identity.scope, .section).keys
            for section in entry.sections {
                if let index = Self.matchSection(section, in: capture.sections) {
                    result[Identity(file: file.id, scope: identity.scope, kind: .section, key: keys[index])] = section.name
                }
            }
        }
        for section in looseSections {
            var best: (Identity, Double)?
            for id in file.roomIDs {
                let scope = Scope.room(id)
                guard let capture = file.capture(scope) else { continue }
                let keys = file.keys(scope, .section).keys
                for (index, candidate) in capture.sections.enumerated() where candidate.story == section.story {
                    let distance = Self.distance(candidate.center, section.center)
                    if distance < 0.5 && distance < (best?.1 ?? .infinity) {
                        best = (Identity(file: file.id, scope: scope, kind: .section, key: keys[index]), distance)
                    }
                }
            }
            if let best { result[best.0] = section.name }
        }
        return result
    }

    /// The section of a room an entry names: at its position with its label, else at its
    /// position near its centre, else the nearest within 0.5 m.
    static func matchSection(_ entry: SectionEntry, in sections: [Section]) -> Int? {
        if let index = entry.index, sections.indices.contains(index) {
            if sections[index].label == entry.label || distance(sections[index].center, entry.center) < 0.5 { return index }
        }
        var best: (Int, Double)?
        for (index, candidate) in sections.enumerated() {
            let d = distance(candidate.center, entry.center)
            if d < 0.5 && d < (best?.1 ?? .infinity) { best = (index, d) }
        }
        return best?.0
    }

    private static func distance(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Double {
        SIMD3<Double>(a).distance(to: SIMD3<Double>(b))
    }

    public func encoded(fileName: String) -> [UInt8] {
        var writer = JSONWriter(capacity: 4096)
        writer.beginObject()
        writer.key("about")
        writer.string("What wb keeps for rooms and sections of \(fileName) that RoomPlan's JSON has no place for: "
                      + "free-text names, the Hyperbasis space each room was scanned in, and models attached to objects.")
        if let contents {
            writer.key("contents")
            writer.string(contents.description)
        }
        writer.key("file")
        writer.string(fileName)
        writer.key("format")
        writer.string("wb-names")
        writeLinks(to: &writer)
        if let previous {
            writer.key("previous")
            writer.beginObject()
            if let contents = previous.contents {
                writer.key("contents")
                writer.string(contents.description)
            }
            previous.writeLinks(to: &writer)
            previous.writeEntries(to: &writer)
            writer.endObject()
        }
        writeEntries(to: &writer)
        writer.key("version")
        writer.int(contents == nil ? 2 : hasLinks ? 4 : 3)
        writer.endObject()
        return writer.bytes + [0x0A]
    }

    private func writeLinks(to writer: inout JSONWriter) {
        guard hasLinks else { return }
        writer.key("links")
        writer.beginArray()
        for link in links {
            writer.beginObject()
            writer.key("element")
            writer.string(link.element)
            writer.key("kind")
            writer.string(link.kind)
            writer.key("room")
            writer.int(link.room)
            writer.key("target")
            writer.string(link.target)
            writer.endObject()
        }
        writer.endArray()
    }

    /// `rooms` (and a version 1 sidecar's loose `sections`, kept as they were read).
    private func writeEntries(to writer: inout JSONWriter) {
        if !models.isEmpty {
            writer.key("models")
            writer.beginArray()
            for model in models {
                writer.beginObject()
                writer.key("object")
                writer.string(model.object)
                writer.key("path")
                writer.string(model.path)
                writer.endObject()
            }
            writer.endArray()
        }
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
            if !room.sections.isEmpty {
                writer.key("sections")
                writer.beginArray()
                for section in room.sections { Self.write(section, to: &writer) }
                writer.endArray()
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
        if !looseSections.isEmpty {
            writer.key("sections")
            writer.beginArray()
            for section in looseSections { Self.write(section, to: &writer) }
            writer.endArray()
        }
    }

    private static func write(_ section: SectionEntry, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("center")
        writer.vector(section.center)
        if let index = section.index {
            writer.key("index")
            writer.int(index)
        }
        if let label = section.label {
            writer.key("label")
            writer.string(label)
        }
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

    private static func readSection(_ reader: inout JSONReader) throws -> SectionEntry {
        var section = SectionEntry(index: nil, label: nil, room: nil, center: .zero, story: nil, name: "")
        try reader.readObject { reader, key in
            switch key {
            case "center": section.center = try reader.readVector("center")
            case "index": section.index = try reader.readInt()
            case "label": section.label = try reader.readString()
            case "name": section.name = try reader.readString()
            case "room": section.room = try reader.readInt()
            case "story": section.story = try reader.readInt()
            default: try reader.skipValue()
            }
        }
        return section
    }

    /// Reads a sidecar (version 1, 2 or 3); a malformed one is an error for the caller to
    /// report as a warning.
    public static func decode(_ bytes: [UInt8]) throws(RoomPlanDecodeError) -> Sidecar {
        try decodeVersioned(bytes).sidecar
    }

    /// `decode`, with the version the file says it is (nil: it says none) and the name of the
    /// RoomPlan file it says it was written for (nil: it says none).
    public static func decodeVersioned(_ bytes: [UInt8]) throws(RoomPlanDecodeError) -> (sidecar: Sidecar, version: Int?, fileName: String?) {
        do {
            return try withJSONReader(bytes) { reader in
                var version: Int?
                var fileName: String?
                let sidecar = try read(&reader, version: &version, fileName: &fileName)
                try reader.expectEnd()
                return (sidecar, version, fileName)
            }
        } catch let error as JSONReadError {
            throw RoomPlanCodec.locate(error, in: bytes)
        } catch {
            throw RoomPlanDecodeError(message: "\(error)", offset: 0, location: SourceLocation(line: 1, column: 1, keyPath: ""),
                                      lineText: "")
        }
    }

    private static func read(_ reader: inout JSONReader) throws -> Sidecar {
        var version: Int?
        var fileName: String?
        return try read(&reader, version: &version, fileName: &fileName)
    }

    private static func read(_ reader: inout JSONReader, version: inout Int?, fileName: inout String?) throws -> Sidecar {
        var sidecar = Sidecar()
        // Keys, and whether any is wb's: an object of none of them is another program's file of
        // that name, to be kept aside as unreadable, not taken for an empty sidecar and replaced.
        var keys = 0, ours = 0
        try reader.readObject { reader, key in
            keys += 1
            ours += 1
            switch key {
            case "contents":
                let text = try reader.readString()
                guard let digest = ContentDigest(text) else {
                    throw SidecarFormatError(message: "\"contents\" is not SIZE:HASH (\(text))")
                }
                sidecar.contents = digest
            case "file":
                // (Only a string names a file; anything else is left as it was.)
                if case .string(let name) = try reader.readValue() { fileName = name }
            case "previous":
                sidecar.previous = try read(&reader)
            case "links":
                sidecar.hasLinks = true
                try reader.readArray { reader, _ in
                    var link = LinkEntry(room: -1, kind: "", element: "", target: "")
                    try reader.readObject { reader, key in
                        switch key {
                        case "element": link.element = try reader.readString()
                        case "kind": link.kind = try reader.readString()
                        case "room": link.room = try reader.readInt()
                        case "target": link.target = try reader.readString()
                        default: try reader.skipValue()
                        }
                    }
                    sidecar.links.append(link)
                }
            case "models":
                try reader.readArray { reader, _ in
                    var entry = ModelEntry(object: "", path: "")
                    try reader.readObject { reader, key in
                        switch key {
                        case "object": entry.object = try reader.readString()
                        case "path": entry.path = try reader.readString()
                        default: try reader.skipValue()
                        }
                    }
                    if !entry.object.isEmpty && !entry.path.isEmpty { sidecar.models.append(entry) }
                }
            case "rooms":
                try reader.readArray { reader, _ in
                    var room = RoomEntry(index: nil, walls: [], name: "")
                    try reader.readObject { reader, key in
                        switch key {
                        case "index": room.index = try reader.readInt()
                        case "name": room.name = try reader.readString()
                        case "space": room.space = try reader.readString()
                        case "sections": try reader.readArray { reader, _ in room.sections.append(try readSection(&reader)) }
                        case "walls": try reader.readArray { reader, _ in room.walls.append(try reader.readString()) }
                        default: try reader.skipValue()
                        }
                    }
                    sidecar.rooms.append(room)
                }
            case "sections":
                try reader.readArray { reader, _ in sidecar.looseSections.append(try readSection(&reader)) }
            case "version":
                version = try reader.readInt()
            default:
                ours -= 1
                try reader.skipValue()
            }
        }
        if keys > 0 && ours == 0 {
            throw SidecarFormatError(message: "none of its keys is one a wb sidecar has (another program's file?)")
        }
        return sidecar
    }
}

struct SidecarFormatError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

extension Array {
    subscript(safe index: Int) -> Element? {
        index >= 0 && index < count ? self[index] : nil
    }
}
