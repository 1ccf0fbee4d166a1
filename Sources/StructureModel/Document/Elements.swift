/// The kinds of thing a person can point at.
public enum ElementKind: String, Sendable, Hashable, CaseIterable {
    case room, section, wall, door, window, opening, floor, object

    /// The letter of its handles: `r2`, `s1`, `w4`, `d1`, `n3`, `p1`, `f1`, `o12`.
    public var handlePrefix: String {
        switch self {
        case .room: return "r"
        case .section: return "s"
        case .wall: return "w"
        case .door: return "d"
        case .window: return "n"
        case .opening: return "p"
        case .floor: return "f"
        case .object: return "o"
        }
    }

    /// The kind a handle's letter names.
    public static let byHandlePrefix: [Character: ElementKind] = Dictionary(
        uniqueKeysWithValues: allCases.map { (Character($0.handlePrefix), $0) })

    /// The plural, as `ls` takes it and RoomPlan names its arrays.
    public var plural: String {
        switch self {
        case .room: return "rooms"
        case .section: return "sections"
        case .wall: return "walls"
        case .door: return "doors"
        case .window: return "windows"
        case .opening: return "openings"
        case .floor: return "floors"
        case .object: return "objects"
        }
    }

    public var surfaceArray: CapturedRoom.ArrayKey? {
        switch self {
        case .wall: return .walls
        case .door: return .doors
        case .window: return .windows
        case .opening: return .openings
        case .floor: return .floors
        case .room, .section, .object: return nil
        }
    }

    public static let surfaceKinds: [ElementKind] = [.wall, .door, .window, .opening, .floor]
}

/// One surface, object or section, for code that handles any of them.
public enum Element: Sendable, Hashable {
    case surface(Surface)
    case object(Object)
    case section(Section)

    public var identifier: String? {
        switch self {
        case .surface(let surface): return surface.identifier
        case .object(let object): return object.identifier
        case .section: return nil
        }
    }
}

extension CapturedRoom {
    public func count(of kind: ElementKind) -> Int {
        switch kind {
        case .room: return 1
        case .section: return sections.count
        case .object: return objects.count
        default: return surfaces(kind.surfaceArray!).count
        }
    }

    public func element(_ kind: ElementKind, at index: Int) -> Element? {
        guard index >= 0 && index < count(of: kind) else { return nil }
        switch kind {
        case .room: return nil
        case .section: return .section(sections[index])
        case .object: return .object(objects[index])
        default: return .surface(surfaces(kind.surfaceArray!)[index])
        }
    }

    /// Replaces, inserts or removes in place (the arrays are uniquely held, so nothing else
    /// is copied).
    mutating func withSurfaces<T>(_ key: ArrayKey, _ body: (inout [Surface]) -> T) -> T {
        switch key {
        case .walls: return body(&walls)
        case .doors: return body(&doors)
        case .windows: return body(&windows)
        case .openings: return body(&openings)
        case .floors: return body(&floors)
        case .objects, .sections: preconditionFailure("not a surface array")
        }
    }

    mutating func replace(_ kind: ElementKind, at index: Int, with element: Element) {
        switch (kind, element) {
        case (.section, .section(let section)): sections[index] = section
        case (.object, .object(let object)): objects[index] = object
        case (_, .surface(let surface)): withSurfaces(kind.surfaceArray!) { $0[index] = surface }
        default: preconditionFailure("element does not match its kind")
        }
    }

    mutating func insert(_ kind: ElementKind, _ element: Element, at index: Int) {
        switch (kind, element) {
        case (.section, .section(let section)): sections.insert(section, at: index)
        case (.object, .object(let object)): objects.insert(object, at: index)
        case (_, .surface(let surface)): withSurfaces(kind.surfaceArray!) { $0.insert(surface, at: index) }
        default: preconditionFailure("element does not match its kind")
        }
    }

    mutating func remove(_ kind: ElementKind, at index: Int) -> Element {
        switch kind {
        case .section: return .section(sections.remove(at: index))
        case .object: return .object(objects.remove(at: index))
        case .room: preconditionFailure("rooms are not removed")
        default: return .surface(withSurfaces(kind.surfaceArray!) { $0.remove(at: index) })
        }
    }
}

extension RoomPlanDocument {
    /// The capture at a position: a nested room of a structure, the only room of a room
    /// file, or (nil) a structure's own arrays.
    public func capture(at position: Int?) -> CapturedRoom? {
        switch (self, position) {
        case (.room(let room), 0): return room
        case (.structure(let structure), .some(let index)):
            return index >= 0 && index < structure.rooms.count ? structure.rooms[index] : nil
        case (.structure(let structure), nil): return structure.merged
        default: return nil
        }
    }

    /// How many rooms a person edits: one for a room file, the nested rooms of a structure.
    public var roomCount: Int {
        switch self {
        case .room: return 1
        case .structure(let structure): return structure.rooms.count
        }
    }

    /// Runs `body` on one capture in place. The enum's payload is moved out first so that
    /// its arrays stay uniquely referenced and an edit copies nothing else.
    public mutating func withCapture<T>(at position: Int?, _ body: (inout CapturedRoom) -> T) -> T {
        switch self {
        case .room(var room):
            self = .room(CapturedRoom())
            defer { self = .room(room) }
            return body(&room)
        case .structure(var structure):
            self = .room(CapturedRoom())
            defer { self = .structure(structure) }
            if let position { return body(&structure.rooms[position]) }
            return body(&structure.merged)
        }
    }

    /// Inserts or removes a nested room of a structure, in place.
    mutating func withRooms<T>(_ body: (inout [CapturedRoom]) -> T) -> T? {
        guard case .structure(var structure) = self else { return nil }
        self = .room(CapturedRoom())
        defer { self = .structure(structure) }
        return body(&structure.rooms)
    }
}

extension CapturedRoom {
    /// Swaps a whole array with `elements` (for `Change.replaceArray`).
    mutating func swapArray(_ kind: ElementKind, _ elements: inout [Element]) {
        let old: [Element]
        switch kind {
        case .room:
            return
        case .section:
            old = sections.map { .section($0) }
            sections = elements.compactMap { if case .section(let s) = $0 { return s } else { return nil } }
        case .object:
            old = objects.map { .object($0) }
            objects = elements.compactMap { if case .object(let o) = $0 { return o } else { return nil } }
        default:
            let key = kind.surfaceArray!
            old = surfaces(key).map { .surface($0) }
            let new = elements.compactMap { element -> Surface? in if case .surface(let s) = element { return s } else { return nil } }
            withSurfaces(key) { $0 = new }
            if !new.isEmpty { absentArrays.remove(key) }
        }
        elements = old
    }
}
