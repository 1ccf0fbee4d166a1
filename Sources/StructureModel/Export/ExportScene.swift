/// What an export writes, as plain values, in world coordinates (metres, RoomPlan's frame:
/// Y up): stories, lowest first, each with its rooms and the walls, doors, windows,
/// openings, floors and objects on it. Every exporter (USD, SVG, IFC) draws from one of
/// these, so they cannot disagree on what a document holds. It knows nothing of the
/// workspace: the caller fills in handles, names and which room an element belongs to.
public struct ExportScene: Sendable {
    /// The document's short name (the file name without extension, or a merge's name).
    public var title: String
    /// True when the elements are a structure's own merged arrays (shared walls appear once).
    public var isStructure: Bool
    public var stories: [Story]
    /// The compass bearing (degrees) of world -Z, the plan's up direction, when the file
    /// stores one: a top-level `"azimuth"` number, which RoomPlan does not write but an app
    /// may add (wb keeps unknown keys).
    public var azimuth: Double?

    public init(title: String, isStructure: Bool, stories: [Story]) {
        self.title = title
        self.isStructure = isStructure
        self.stories = stories
    }

    public struct Story: Sendable {
        public var number: Int
        /// The world y of the story's floor, metres: the median floor height of its rooms.
        public var elevation: Double
        public var rooms: [Room]
        /// Every element on the story, in file order per kind (walls, doors, windows,
        /// openings, floors, objects).
        public var elements: [Element]

        public init(number: Int, elevation: Double, rooms: [Room] = [], elements: [Element] = []) {
            self.number = number
            self.elevation = elevation
            self.rooms = rooms
            self.elements = elements
        }

        public func elements(of kind: ElementKind) -> [Element] { elements.filter { $0.kind == kind } }
    }

    public struct Room: Sendable {
        /// The room's handle in the session (`r3`), unique within the scene.
        public var handle: String
        /// The name a person gave it (`name r3 Kitchen`), if any.
        public var name: String?
        /// Its sections' labels (or their names), in file order: RoomPlan's idea of what the room is.
        public var labels: [String]
        /// The room's own `identifier` (iOS 17), if any.
        public var identifier: String?
        public var story: Int
        /// The world y of its floor.
        public var floorHeight: Double
        /// m², from its floor polygons (or its walls' hull without floors).
        public var floorArea: Double
        /// Floor outlines in plan (x, z), metres; the hull of its wall ends without floors.
        public var outlines: [[PlanPoint]]
        /// The section centres in plan with their labels (or names).
        public var sections: [(label: String, center: PlanPoint)]

        /// What a person would call it: its name, else its labels, else its handle.
        public var displayName: String {
            if let name, !name.isEmpty { return name }
            if !labels.isEmpty { return labels.joined(separator: ", ") }
            return handle
        }

        public init(handle: String, name: String?, labels: [String], identifier: String?, story: Int, floorHeight: Double,
                    floorArea: Double, outlines: [[PlanPoint]], sections: [(label: String, center: PlanPoint)]) {
            self.handle = handle
            self.name = name
            self.labels = labels
            self.identifier = identifier
            self.story = story
            self.floorHeight = floorHeight
            self.floorArea = floorArea
            self.outlines = outlines
            self.sections = sections
        }
    }

    public struct Element: Sendable {
        public enum Body: Sendable {
            case surface(Surface)
            case object(Object)
        }

        public var kind: ElementKind
        /// The element's handle in the session (`w12`, `o3`), unique within the scene.
        public var handle: String
        public var body: Body
        /// The position in `Story.rooms` of the one room it belongs to; nil for an element
        /// several rooms share (a wall between two rooms, a structure's floor).
        public var room: Int?
        /// A name a person gave it, if any.
        public var name: String?

        public init(kind: ElementKind, handle: String, body: Body, room: Int?, name: String? = nil) {
            self.kind = kind
            self.handle = handle
            self.body = body
            self.room = room
            self.name = name
        }

        public var surface: Surface? { if case .surface(let s) = body { return s } else { return nil } }
        public var object: Object? { if case .object(let o) = body { return o } else { return nil } }
        public var identifier: String {
            switch body {
            case .surface(let s): return s.identifier
            case .object(let o): return o.identifier
            }
        }
        public var transform: Transform {
            switch body {
            case .surface(let s): return s.transform
            case .object(let o): return o.transform
            }
        }
        public var dimensions: SIMD3<Float> {
            switch body {
            case .surface(let s): return s.dimensions
            case .object(let o): return o.dimensions
            }
        }
        /// The category's name as RoomPlan writes it (`wall`, `door`, `storage`, …).
        public var category: String {
            switch body {
            case .surface(let s): return s.category.name
            case .object(let o): return o.category.name
            }
        }
    }

    /// Every element of the scene with its story, in story order.
    public var allElements: [(story: Int, element: Element)] {
        stories.flatMap { story in story.elements.map { (story.number, $0) } }
    }

    /// How many elements of each kind (and rooms) the scene has: what a `--dry-run` reports.
    public var counts: [ElementKind: Int] {
        var counts: [ElementKind: Int] = [:]
        for story in stories {
            counts[.room, default: 0] += story.rooms.count
            for element in story.elements { counts[element.kind, default: 0] += 1 }
        }
        return counts
    }

    /// "2 stories, 5 rooms, 31 walls, 6 doors, …" for messages.
    public var summary: String { summary(leavingOut: [:]) }

    /// The summary of what was written when an export left some elements out (no area).
    public func summary(leavingOut omitted: [ElementKind: Int]) -> String {
        var counts = self.counts
        for (kind, n) in omitted { counts[kind, default: 0] -= n }
        var parts = ["\(stories.count) stor\(stories.count == 1 ? "y" : "ies")"]
        for kind in [ElementKind.room, .wall, .door, .window, .opening, .floor, .object] {
            let n = counts[kind] ?? 0
            if n > 0 || kind == .room { parts.append("\(n) \(n == 1 ? kind.rawValue : kind.plural)") }
        }
        return parts.joined(separator: ", ")
    }
}
