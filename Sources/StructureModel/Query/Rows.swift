/// A value a query can compare.
public enum FieldValue: Sendable, Hashable {
    /// Metres.
    case length(Double)
    /// Square metres.
    case area(Double)
    case number(Double)
    case text(String)
    case confidence(Int, String)
    case flag(Bool)
    /// A handle, like a parent's or a room's.
    case reference(String)

    public var display: String {
        switch self {
        case .length(let v): return formatted(v, digits: 3)
        case .area(let v): return formatted(v, digits: 2)
        case .number(let v): return v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : formatted(v, digits: 3)
        case .text(let s), .reference(let s): return s
        case .confidence(_, let name): return name
        case .flag(let b): return b ? "true" : "false"
        }
    }
}

/// One thing open in the workspace, as listings and queries see it.
public struct Row: Sendable {
    public var identity: Identity
    public var handle: String
    public var kind: ElementKind
    public var identifier: String?
    public var roomHandle: String?
    /// For a structure-level element, the rooms whose elements it stands for.
    public var roomHandles: [String] = []
    /// "room" for a room's own element, "structure" for a structure-level one.
    public var level: String { identity.scope == .structure ? "structure" : "room" }
    /// The section the element is in: its room's only section, or for a capture with
    /// several sections the nearest one (then `sectionInferred`).
    public var sectionHandle: String?
    public var sectionInferred = false
    public var story: Int?
    public var category: String?
    public var confidence: Confidence?
    public var dimensions: SIMD3<Float>?
    public var attributes: JSONObject?
    public var label: String?
    public var name: String?
    public var parentHandle: String?
    public var parentIdentifier: String?
    public var isOpen: Bool?
    public var area: Double?
    public var centre: SIMD3<Double>?

    /// The value of a field by its query name; attributes by their own names.
    public func value(_ field: String) -> FieldValue? {
        switch field {
        case "kind": return .text(kind.rawValue)
        case "handle": return .reference(handle)
        case "identifier": return identifier.map { .text($0) }
        case "category": return category.map { .text($0) }
        case "confidence": return confidence.map { .confidence($0.rank, $0.name) }
        case "story": return story.map { .number(Double($0)) }
        case "room": return roomHandle.map { .reference($0) } ?? (roomHandles.isEmpty ? nil : .reference(roomHandles.joined(separator: ",")))
        case "level": return .text(level)
        case "section": return sectionHandle.map { .reference($0) }
        case "label": return label.map { .text($0) }
        case "name": return name.map { .text($0) }
        case "width": return dimensions.map { .length(Double($0.x)) }
        case "height": return dimensions.map { .length(Double($0.y)) }
        case "depth": return dimensions.map { .length(Double($0.z)) }
        case "area": return area.map { .area($0) }
        case "open": return isOpen.map { .flag($0) }
        case "parent": return parentHandle.map { .reference($0) } ?? parentIdentifier.map { .text($0) }
        default:
            guard case .string(let text)? = attributes?[field] else { return nil }
            return .text(text)
        }
    }

    public static let fieldNames = ["kind", "handle", "identifier", "category", "confidence", "story", "room", "section",
                                    "label", "name", "width", "height", "depth", "area", "open", "parent", "level"]
}

extension Workspace {
    /// The rows of one kind, in handle order: rooms' own elements and structure-level
    /// ones. Deleted and closed things are not listed.
    public func rows(_ kind: ElementKind) -> [Row] {
        var result: [Row] = []
        let order = handles.order[kind] ?? []
        result.reserveCapacity(order.count)
        // Identities come grouped by capture: fetch each capture once, not once per element.
        var current: (file: Int, scope: Scope)?
        var currentFile: WorkspaceFile?
        var currentRoom: CapturedRoom?
        var context = RoomContext(roomHandle: nil, sectionKeys: [], sectionHandles: [])
        for identity in order {
            if current == nil || current!.file != identity.file || current!.scope != identity.scope {
                if currentFile?.id != identity.file { currentFile = file(id: identity.file) }
                currentRoom = currentFile?.capture(identity.scope)
                current = (identity.file, identity.scope)
                if let file = currentFile, currentRoom != nil { context = self.context(identity, file) }
            }
            guard let file = currentFile, let room = currentRoom else { continue }
            if let row = makeRow(identity, file: file, room: room, context: context) { result.append(row) }
        }
        return result
    }

    /// What every row of one capture shares: handles of the room and its sections.
    struct RoomContext {
        var roomHandle: String?
        var sectionKeys: [String]
        var sectionHandles: [String?]
        /// For a structure's own elements: the structure-level sections (by position) that
        /// stand for each room's sections.
        var sectionsOfRoom: [RoomID: [Int]] = [:]
    }

    func context(_ identity: Identity, _ file: WorkspaceFile) -> RoomContext {
        let sections = file.identities(identity.scope, .section)
        var context = RoomContext(roomHandle: identity.room.flatMap { handles.handle(for: $0) },
                                  sectionKeys: sections.map(\.key),
                                  sectionHandles: sections.map { handles.handle(for: $0) })
        if identity.scope == .structure {
            for (index, section) in sections.enumerated() {
                for room in Set((file.owners[section] ?? []).compactMap(\.scope.roomID)) {
                    context.sectionsOfRoom[room, default: []].append(index)
                }
            }
        }
        return context
    }

    public func row(for identity: Identity) -> Row? {
        guard let file = file(id: identity.file), let room = file.capture(identity.scope) else { return nil }
        return makeRow(identity, file: file, room: room, context: context(identity, file))
    }

    private func makeRow(_ identity: Identity, file: WorkspaceFile, room: CapturedRoom, context: RoomContext) -> Row? {
        var row = Row(identity: identity, handle: handles.handle(for: identity) ?? "?", kind: identity.kind,
                      identifier: nil, roomHandle: context.roomHandle)
        // The room elements a structure-level element stands for now: a deleted one no longer
        // (a reopen finds it in none), so its room leaves the list. A lookup per owner.
        let standingFor = identity.scope == .structure ? (file.owners[identity] ?? []).filter { file.position(of: $0) != nil } : []
        func sectionHandle(_ index: Int) -> String? {
            index < context.sectionHandles.count ? context.sectionHandles[index] : nil
        }
        func placeInSection(_ centre: SIMD3<Double>) {
            guard !room.sections.isEmpty else { return }
            // A structure's own element is in a section of the rooms it stands for (the nearest
            // of any room's put a hallway's wall in the bathroom across it: an adversarial pass).
            var candidates = Array(room.sections.indices)
            if identity.scope == .structure, !context.sectionsOfRoom.isEmpty {
                let theirs = Set(standingFor.compactMap(\.scope.roomID).flatMap { context.sectionsOfRoom[$0] ?? [] })
                if !theirs.isEmpty { candidates = theirs.sorted() }
            }
            var best = candidates[0]
            var bestDistance = Double.infinity
            for index in candidates {
                let section = room.sections[index]
                let dx = Double(section.center.x) - centre.x, dz = Double(section.center.z) - centre.z
                let distance = dx * dx + dz * dz
                if distance < bestDistance { bestDistance = distance; best = index }
            }
            row.sectionHandle = sectionHandle(best)
            row.sectionInferred = candidates.count > 1
            row.label = room.sections[best].label
            let sectionIdentity = Identity(file: identity.file, scope: identity.scope, kind: .section, key: context.sectionKeys[best])
            row.name = file.names[sectionIdentity] ?? identity.room.flatMap { file.names[$0] }
        }
        switch identity.kind {
        case .room:
            row.story = room.effectiveStory
            row.label = room.sections.map(\.label).joined(separator: ",")
            row.name = file.names[identity]
            let m = room.measurements
            row.area = m.floorArea
            row.category = "room"
        case .section:
            guard let index = file.position(of: identity) else { return nil }
            let section = room.sections[index]
            row.story = section.story
            row.label = section.label
            row.name = file.names[identity]
            row.centre = SIMD3<Double>(section.center)
            row.category = "section"
            row.sectionHandle = row.handle
        case .object:
            guard let index = file.position(of: identity) else { return nil }
            let object = room.objects[index]
            row.identifier = object.identifier
            row.story = object.story
            row.category = object.category.name
            row.confidence = object.confidence
            row.dimensions = object.dimensions
            row.attributes = object.attributes ?? JSONObject()
            row.parentIdentifier = object.parentIdentifier
            row.area = abs(Double(object.dimensions.x) * Double(object.dimensions.z))
            row.centre = object.transform.translation
            placeInSection(object.transform.translation)
        default:
            guard let index = file.position(of: identity) else { return nil }
            let surface = room.surfaces(identity.kind.surfaceArray!)[index]
            row.identifier = surface.identifier
            row.story = surface.story
            row.category = surface.category.name
            row.confidence = surface.confidence
            row.dimensions = surface.dimensions
            row.parentIdentifier = surface.parentIdentifier
            row.isOpen = surface.category.doorIsOpen
            row.area = identity.kind == .floor ? polygonArea(surface.planPolygon) : surface.faceArea
            row.centre = surface.transform.translation
            placeInSection(surface.transform.translation)
        }
        if let parent = row.parentIdentifier {
            for kind in [ElementKind.wall, .object, .door, .window, .opening, .floor] {
                guard let found = file.keys(identity.scope, kind).index(ofIdentifier: parent) else { continue }
                row.parentHandle = handles.handle(for: Identity(file: identity.file, scope: identity.scope, kind: kind, key: found.key))
                break
            }
        }
        if identity.scope == .structure {
            var seen: Set<RoomID> = []
            let rooms = standingFor.compactMap(\.scope.roomID).filter { seen.insert($0).inserted }.sorted()
            row.roomHandles = rooms.compactMap { handles.handle(for: Identity.room($0, file: file.id)) }
        }
        return row
    }

    /// What points at an element as its parent: a wall's doors and windows, a table's chairs.
    public func children(of identity: Identity) -> [Identity] {
        guard let file = file(id: identity.file), let room = file.capture(identity.scope), let identifier = identity.identifier else { return [] }
        var result: [Identity] = []
        for kind in [ElementKind.door, .window, .opening, .wall, .floor, .object] {
            let keys = file.keys(identity.scope, kind).keys
            for index in keys.indices where room.parentIdentifier(of: kind, at: index).map({ identifierSpellings($0).contains(identifier) }) == true {
                result.append(Identity(file: identity.file, scope: identity.scope, kind: kind, key: keys[index]))
            }
        }
        return result
    }
}

extension CapturedRoom {
    func parentIdentifier(of kind: ElementKind, at index: Int) -> String? {
        switch kind {
        case .object: return objects[index].parentIdentifier
        case .room, .section: return nil
        default: return surfaces(kind.surfaceArray!)[index].parentIdentifier
        }
    }
}
