/// Stories from floor heights: rooms whose floors lie within a tolerance of each other are
/// on one story, numbered from the lowest (0). What a person must look at is reported, not
/// forced: a room without a floor height, and a split-level room (floors more than the
/// tolerance apart in one capture).
public struct StoryAssignment: Sendable, Equatable {
    public struct Level: Sendable, Equatable {
        public var story: Int
        /// The median floor height of its rooms, metres.
        public var height: Double
        public var rooms: [Identity]
        /// Its lowest and highest room floor, metres.
        public var low: Double
        public var high: Double

        /// Floors further apart than half the tolerance: a step or a split level a person
        /// should look at (one story's floors lie within centimetres of each other).
        public func isSpread(tolerance: Double) -> Bool { high - low > tolerance / 2 }
    }

    public var levels: [Level] = []
    /// Rooms with no floor and no walls: no height to go by.
    public var unknown: [Identity] = []
    /// Rooms whose own floors are further apart than the tolerance, with their lowest and
    /// highest floor; they are put by their median floor.
    public var splitLevel: [(room: Identity, low: Double, high: Double)] = []

    public static func == (a: StoryAssignment, b: StoryAssignment) -> Bool {
        a.levels == b.levels && a.unknown == b.unknown
            && a.splitLevel.map(\.room) == b.splitLevel.map(\.room)
    }
}

extension Workspace {
    /// Clusters rooms by floor height: sorted by height, a new story starts where a room's
    /// floor is more than `tolerance` above the story's lowest (not the previous room's: floors
    /// 0.9 m apart each chained four rooms up to 2.7 m into one story). Linear after the sort.
    public func storiesByHeight(of rooms: [Identity], tolerance: Double = 1.0) -> StoryAssignment {
        var result = StoryAssignment()
        var heights: [(Identity, Double)] = []
        for room in rooms {
            guard let capture = capture(room), let height = capture.floorHeight else {
                result.unknown.append(room)
                continue
            }
            heights.append((room, height))
            let floors = capture.floors.map { $0.transform.translation.y }
            if let low = floors.min(), let high = floors.max(), high - low > tolerance {
                result.splitLevel.append((room, low, high))
            }
        }
        heights.sort { $0.1 < $1.1 }
        var current: [(Identity, Double)] = []
        func close() {
            guard !current.isEmpty else { return }
            let sorted = current.map(\.1)
            result.levels.append(StoryAssignment.Level(story: result.levels.count, height: sorted[sorted.count / 2],
                                                       rooms: current.map(\.0), low: sorted.first!, high: sorted.last!))
            current = []
        }
        for entry in heights {
            if let lowest = current.first, entry.1 - lowest.1 > tolerance { close() }
            current.append(entry)
        }
        close()
        return result
    }

    /// The edit that puts each room on its story by height (nothing for rooms already there).
    public func planStoriesByHeight(of rooms: [Identity], tolerance: Double = 1.0) throws(EditError) -> (EditPlan, StoryAssignment) {
        let assignment = storiesByHeight(of: rooms, tolerance: tolerance)
        var plan = EditPlan()
        for level in assignment.levels {
            for room in level.rooms where capture(room)?.effectiveStory != level.story || storyDisagrees(room, level.story) {
                let step = try planStory(room: room, story: level.story)
                plan.changes += step.changes
                plan.notes += step.notes
            }
        }
        return (plan, assignment)
    }

    /// Whether any element of a room is on another story than `story`.
    private func storyDisagrees(_ room: Identity, _ story: Int) -> Bool {
        guard let capture = capture(room) else { return false }
        return capture.story != story || capture.sections.contains { $0.story != story }
            || capture.surfaceGroups.contains { $0.surfaces.contains { $0.story != story } }
            || capture.objects.contains { $0.story != story }
    }
}
