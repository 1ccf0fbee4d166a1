/// A floor plan as plain values: per story, what a drawing of it shows, in plan metres. The
/// terminal plan draws from it and an SVG plan can draw from the same values, so the two cannot
/// disagree on what is on a story. It knows nothing of handles or of the workspace: the caller
/// passes the texts to label rooms and anchors with.
public struct FloorPlanModel: Sendable, Hashable {
    /// Every story some room is on, lowest first, including stories with nothing to draw.
    public var stories: [Story]

    public func story(_ number: Int) -> Story? {
        stories.first { $0.number == number }
    }

    /// What one story shows.
    public struct Story: Sendable, Hashable {
        public var number: Int
        public var rooms: [Room] = []
        public var walls: [Wall] = []
        public var doors: [Door] = []
        public var windows: [Insert] = []
        public var openings: [Insert] = []
        /// Section labels at the sections' centres; a room without sections by its own label.
        public var labels: [Label] = []
        public var anchors: [Label] = []

        public init(number: Int) {
            self.number = number
        }

        /// The extent a drawing is scaled to: every wall end and every label (doors and windows
        /// lie in walls, floors within them). nil when the story has neither.
        public var bounds: PlanBounds? {
            PlanBounds(containing: walls.flatMap { [$0.segment.start, $0.segment.end] } + labels.map(\.point))
        }
    }

    public struct Room: Sendable, Hashable {
        public var label: String
        /// Floor polygons, or the hull of the walls for a capture without floors.
        public var outlines: [[PlanPoint]]
    }

    public struct Wall: Sendable, Hashable {
        /// The centre line.
        public var segment: PlanSegment
        public var identifier: String
        /// Metres, when the file gives one (the depth in `dimensions`; RoomPlan writes 0 for
        /// the walls of a room, which says nothing).
        public var thickness: Double?
        /// The unit normal pointing into the room the wall was captured in; nil when the room
        /// has no outline to tell by.
        public var inwardNormal: PlanPoint?
        /// The text to label it by, when the caller gave one (`RoomInput.handles`).
        public var handle: String?
    }

    /// RoomPlan records neither a door's hinges nor which way it swings: `segment` spans the
    /// doorway along the door's local X, and `inwardNormal` says which side the room is on, so
    /// a drawing can swing the leaf into the room from either end.
    public struct Door: Sendable, Hashable {
        public var segment: PlanSegment
        public var identifier: String
        /// nil when the category is not one wb knows.
        public var isOpen: Bool?
        /// The wall the door sits in (`parentIdentifier`).
        public var hostWall: String?
        public var inwardNormal: PlanPoint?
        public var handle: String?
    }

    /// A window or an opening: a span of a wall without a leaf.
    public struct Insert: Sendable, Hashable {
        public var segment: PlanSegment
        public var identifier: String
        public var hostWall: String?
        public var inwardNormal: PlanPoint?
        public var handle: String?
    }

    public struct Label: Sendable, Hashable {
        public var text: String
        public var point: PlanPoint

        public init(text: String, point: PlanPoint) {
            self.text = text
            self.point = point
        }
    }

    /// One room to draw, with the texts to label it by.
    public struct RoomInput: Sendable, Hashable {
        public var room: CapturedRoom
        /// Drawn at the room's centre when it has no sections (its handle, say).
        public var label: String
        /// One per section, in order; a section without one is labelled by its RoomPlan label.
        public var sectionLabels: [String]
        /// Texts to label walls, doors, windows and openings by (their handles), each array in
        /// the room's order; a kind left out is drawn unlabelled.
        public var handles: [ElementKind: [String]]

        public init(room: CapturedRoom, label: String, sectionLabels: [String], handles: [ElementKind: [String]] = [:]) {
            self.room = room
            self.label = label
            self.sectionLabels = sectionLabels
            self.handles = handles
        }
    }

    /// An anchor (of a Hyperbasis space) standing in one of the rooms, drawn on its story.
    public struct AnchorInput: Sendable, Hashable {
        public var label: Label
        /// The position of the room in the list given to `init(rooms:anchors:)`.
        public var room: Int

        public init(label: Label, room: Int) {
            self.label = label
            self.room = room
        }
    }

    /// The plan of `rooms`, each on its `effectiveStory` (story 0 for a capture that names
    /// none, as iOS 16 captures do). Everything keeps the order it is given in.
    public init(rooms: [RoomInput], anchors: [AnchorInput] = []) {
        var stories: [Int: Story] = [:]
        let storyOfRoom = rooms.map { $0.room.effectiveStory ?? 0 }
        for (input, number) in zip(rooms, storyOfRoom) {
            stories[number, default: Story(number: number)].add(input)
        }
        for anchor in anchors where rooms.indices.contains(anchor.room) {
            stories[storyOfRoom[anchor.room]]?.anchors.append(anchor.label)
        }
        self.stories = stories.keys.sorted().map { stories[$0]! }
    }
}

extension FloorPlanModel.Story {
    fileprivate mutating func add(_ input: FloorPlanModel.RoomInput) {
        let room = input.room
        func handle(_ kind: ElementKind, _ index: Int) -> String? {
            input.handles[kind].flatMap { $0.indices.contains(index) ? $0[index] : nil }
        }
        rooms.append(FloorPlanModel.Room(label: input.label, outlines: room.planOutlines))
        walls += room.walls.enumerated().map { index, wall in
            let depth = Double(wall.dimensions.z)
            return FloorPlanModel.Wall(segment: wall.planSegment, identifier: wall.identifier,
                                       thickness: depth > 0 ? depth : nil, inwardNormal: room.inwardNormal(of: wall),
                                       handle: handle(.wall, index))
        }
        doors += room.doors.enumerated().map { index, door in
            FloorPlanModel.Door(segment: door.planSegment, identifier: door.identifier, isOpen: door.category.doorIsOpen,
                                hostWall: door.parentIdentifier, inwardNormal: room.inwardNormal(of: door), handle: handle(.door, index))
        }
        func insert(_ kind: ElementKind) -> (Int, Surface) -> FloorPlanModel.Insert {
            { index, surface in
                FloorPlanModel.Insert(segment: surface.planSegment, identifier: surface.identifier,
                                      hostWall: surface.parentIdentifier, inwardNormal: room.inwardNormal(of: surface),
                                      handle: handle(kind, index))
            }
        }
        windows += room.windows.enumerated().map(insert(.window))
        openings += room.openings.enumerated().map(insert(.opening))
        for (index, section) in room.sections.enumerated() {
            let text = index < input.sectionLabels.count ? input.sectionLabels[index] : section.label
            labels.append(FloorPlanModel.Label(text: text, point: PlanPoint(SIMD3<Double>(section.center))))
        }
        if room.sections.isEmpty, let centre = room.planCentre {
            labels.append(FloorPlanModel.Label(text: input.label, point: centre))
        }
    }
}
