import Foundation

/// One way a room could sit beside the rooms already placed, and how well it fits.
public struct Placement: Sendable, Equatable {
    /// The motion from where the room is now.
    public var motion: RigidMotion
    /// Metres of wall that agree plus a bonus per doorway that meets one, less the area by
    /// which the room would overlap the placed rooms (m², weighted).
    public var score: Double
    /// What agreed: walls matched, doorways matched, overlap with the placed rooms (m²).
    public var walls: Int
    public var doorways: Int
    /// Of `doorways`, those seen wider from one side than from the other (`AutoAligner.nests`).
    public var widerDoorways = 0
    public var overlap: Double
    /// What contradicts it: doorways that would open into a wall, windows that would look
    /// into a room.
    public var contradictions: Int
    /// Which pair of elements suggested it (indices into the room's and the placed elements).
    public var source: String
    /// The doorway pairs that met (the room's index, the placed scene's index), one doorway
    /// seen at two widths (`AutoAligner.nests`) among them.
    var matchedDoorways: [SIMD2<Int>] = []
    /// The room's walls that agreed (its own indices).
    var matchedWalls: [Int] = []
    /// The room lies on a room of the scene as a rescan lies on its first scan: the same
    /// outline, every doorway and window of one on the other's, on the same side.
    var isRescan = false
}

/// What a search for a room's place found: the best candidates, best first, each a
/// distinct place (candidates that put the room within a few centimetres and a degree of a
/// better one are folded into it).
public struct AutoAlignment: Sendable {
    public var candidates: [Placement]
    /// Whether the best and the runner-up are too close to call.
    public var isAmbiguous: Bool
    /// Whether the best agrees too little with the placed rooms to be taken unasked (see
    /// `Tolerances.minimumScore`).
    public var isWeak = false
    /// How many places were scored in full, of how many tried (see `search`).
    var scoredInFull = 0, tried = 0
}

/// Automatic alignment: hypotheses from every doorway pair (a door or opening of the room
/// against one of the placed rooms' of about its width, each room on its own side) and
/// every wall pair (centred, and end to end either way), each scored by how much of the
/// room's walls and doorways then agree with the placed rooms' and how little the room
/// overlaps them; the best refined by least squares over what agreed. Works at any yaw:
/// the turn comes from the pair, not from a search around the current heading.
public enum AutoAligner {
    public struct Tolerances: Sendable {
        public var parallel = 4.0 * .pi / 180
        /// Copies of one wall seen from two rooms are at most a wall's thickness apart.
        public var wallGap = 0.45
        public var minimumOverlap = 0.3
        public var doorWidth = 0.15
        public var doorDistance = 0.45
        /// Candidates closer than this are one place.
        public var samePlace = 0.08
        public var sameTurn = 2.0 * .pi / 180
        /// A runner-up scoring at least this fraction of the best makes the choice ambiguous.
        public var ambiguity = 0.85
        /// The least a place must score to be taken without being asked (`--best`): about 3 m
        /// of wall and a doorway agreeing. Real RoomPlan rooms scanned apart agree with their
        /// neighbours far less cleanly than generated ones (doorways seen from the two sides
        /// 6 to 8 cm apart in width, or as one double door against two doors, or from one side
        /// only; captures that reach through an opening into the next room): in a real 5-room
        /// home, every pair of rooms put together alone was placed, and wrongly, on a look-alike
        /// doorway and a metre or two of wall (scores 0.9 to 5.2: 12 of 20 pairs), where rooms
        /// of generated homes placed right score 6 or more (all but 2 of 519 over 100 homes).
        public var minimumScore = 6.0
        public init() {}
    }

    struct Wall {
        var segment: PlanSegment
        var inward: PlanPoint
        var bottom: Double
    }

    struct Doorway {
        var surface: Surface
        var segment: PlanSegment
        var inward: PlanPoint
        var bottom: Double
        /// The wall it is in also has a window: a wall to the outside (homes have windows in
        /// outside walls), so the doorway most likely leads out, not into another room.
        var outside = false
    }

    /// The placed rooms as one set of walls, doorways and outlines, with grids to find them.
    struct Scene {
        var walls: [Wall] = []
        var doorways: [Doorway] = []
        var outlines: [[PlanPoint]] = []
        /// Each outline cut into convex pieces, each with its bounds, and the outline's bounds:
        /// what the overlap of a room with the scene clips (cut once, not at every placement tried).
        var outlinePieces: [[(piece: [PlanPoint], bounds: PlanBounds)]] = []
        var outlineBounds: [PlanBounds?] = []
        var areas: [Double] = []
        var wallGrid = PlanGrid<Int>(cellSize: 1.0)
        var doorGrid = PlanGrid<Int>(cellSize: 1.0)
        var windows: [PlanSegment] = []
        /// Into the room each window looks out of.
        var windowInward: [PlanPoint] = []
        var windowGrid = PlanGrid<Int>(cellSize: 1.0)
        var floor: Double?
        /// Which of the scene's rooms each outline, doorway and window belongs to.
        var outlineRoom: [Int] = []
        var doorwayRoom: [Int] = []
        /// Which of its room's doors and openings each doorway is (`doors.count + i` for opening i).
        var doorwayElement: [Int] = []
        var windowRoom: [Int] = []

        init(_ rooms: [CapturedRoom]) {
            var floors: [Double] = []
            for (roomIndex, room) in rooms.enumerated() {
                for wall in room.walls {
                    guard let inward = room.inwardNormal(of: wall), wall.planSegment.length > 0.05 else { continue }
                    wallGrid.insert(walls.count, covering: wall.planSegment.bounds)
                    walls.append(Wall(segment: wall.planSegment, inward: inward, bottom: ManualAlignment.bottom(of: wall)))
                }
                let windowSegments = room.windows.map(\.planSegment)
                for (element, door) in (room.doors + room.openings).enumerated() {
                    guard let inward = room.inwardNormal(of: door) else { continue }
                    doorGrid.insert(doorways.count, at: door.planSegment.midpoint)
                    let segment = door.planSegment
                    let host = room.walls.map(\.planSegment).first { wall in
                        wall.length > 0.05 && abs(wall.signedDistance(to: segment.midpoint)) < 0.1
                            && abs(wall.direction.normalized.cross(segment.direction.normalized)) < 0.1
                            && (0...wall.length).contains((segment.midpoint - wall.start).dot(wall.direction.normalized))
                    }
                    let outside = host.map { wall in
                        windowSegments.contains { window in
                            abs(wall.signedDistance(to: window.midpoint)) < 0.1
                                && (0...wall.length).contains((window.midpoint - wall.start).dot(wall.direction.normalized))
                        }
                    } ?? false
                    doorways.append(Doorway(surface: door, segment: segment, inward: inward, bottom: ManualAlignment.bottom(of: door),
                                            outside: outside))
                    doorwayRoom.append(roomIndex)
                    doorwayElement.append(element)
                }
                for window in room.windows {
                    windowGrid.insert(windows.count, at: window.planSegment.midpoint)
                    windows.append(window.planSegment)
                    windowInward.append(room.inwardNormal(of: window) ?? PlanPoint(x: 0, z: 0))
                    windowRoom.append(roomIndex)
                }
                // A floor runs up to the walls' faces; a floorless room's outline (iOS 16), its
                // walls' loop, is drawn in by a scan's noise, lest neighbours whose copies of
                // one wall cross by a few centimetres count as overlapping all along it.
                // An outline of very many corners (a round room drawn in thousands, or a merged
                // structure's floor of such a room) is thinned to within 2 cm first: every place
                // tried clips it against the other side's, a cost of corners times corners.
                let own = (room.floors.isEmpty ? room.planOutlines.map { $0.inset(by: AutoAligner.floorlessInset) ?? $0 } : room.planOutlines)
                    .map { $0.count > AutoAligner.outlineCorners ? FloorMerger.simplify($0, tolerance: 0.02) : $0 }
                outlines += own
                outlinePieces += own.map { outline in outline.convexPieces.map { ($0, PlanBounds(containing: $0)!) } }
                outlineBounds += own.map { PlanBounds(containing: $0) }
                outlineRoom += own.map { _ in roomIndex }
                areas += own.map { abs(polygonArea($0)) }
                if let height = room.floorHeight { floors.append(height) }
            }
            floor = floors.min()
        }
    }

    /// How far a floorless room's outline is drawn in from its walls.
    static let floorlessInset = 0.05
    /// Outlines of more corners than this are thinned before the overlap test (a scanned
    /// room's floor has tens).
    static let outlineCorners = 64

    /// Whether two captures may be on one story: both say so, or either says nothing (iOS 16).
    public static func onOneStory(_ a: CapturedRoom, _ b: CapturedRoom) -> Bool {
        guard let x = a.effectiveStory, let y = b.effectiveStory else { return true }
        return x == y
    }

    /// How many of a room's walls (the longest) are paired with the placed rooms' walls.
    static let pairedWalls = 32

    /// How many distinct places a search refines and keeps.
    static let keptPlaces = 8

    /// How a hypothesis from a doorway seen from the same side (a rescan) is named.
    static let sameSide = " from the same side"

    /// Where `room` fits beside `placed` (rooms in the frame it should join).
    public static func search(_ room: CapturedRoom, beside placed: [CapturedRoom], tolerances: Tolerances = Tolerances()) -> AutoAlignment {
        search(room, beside: placed, tolerances: tolerances, scoringEveryPlace: false)
    }

    /// `scoringEveryPlace`: every place scored in full, none passed over by its bound (what the
    /// bound must not change: the tests compare the two).
    static func search(_ room: CapturedRoom, beside placed: [CapturedRoom], tolerances: Tolerances, scoringEveryPlace: Bool) -> AutoAlignment {
        // Rooms that say they are on another story share no doorway with this one, and may lie
        // over it: only rooms of its own story (or saying none) are what it is put beside.
        let scene = Scene(placed.filter { onOneStory($0, room) })
        let own = Scene([room])
        var hypotheses: [(RigidMotion, String)] = []
        // Doorway pairs: the strongest evidence (two rooms meet through it).
        for (i, door) in own.doorways.enumerated() {
            for (j, other) in scene.doorways.enumerated() where abs(door.segment.length - other.segment.length) <= tolerances.doorWidth {
                hypotheses.append((motion(door.segment, door.inward, door.bottom, onto: other.segment, other.inward, other.bottom, along: 0),
                                   "doorway \(i) onto \(j)"))
                // Seen from the same side: the room scanned again, lying on its first scan (a place
                // that is no rescan overlaps the room it lies on, and scores so).
                hypotheses.append((motion(door.segment, door.inward, door.bottom, onto: other.segment, other.inward * -1, other.bottom, along: 0),
                                   "doorway \(i) onto \(j)" + sameSide))
            }
        }
        // Wall pairs: centred, and with either end on an end. From the room's `pairedWalls`
        // longest walls only: a scan has tens, and a room of hundreds (a broken or synthetic file)
        // made this cubic in its walls (400 walls beside their copy: 198 s).
        let paired = own.walls.indices.sorted { (own.walls[$0].segment.length, $1) > (own.walls[$1].segment.length, $0) }
            .prefix(pairedWalls).sorted()
        for i in paired {
            let wall = own.walls[i]
            for (j, other) in scene.walls.enumerated() {
                let slack = (other.segment.length - wall.segment.length) / 2
                // (In this order every run: a Set's order changes from run to run, and so would ties.)
                for along in slack == 0 ? [0] : [0, slack, -slack] {
                    hypotheses.append((motion(wall.segment, wall.inward, wall.bottom, onto: other.segment, other.inward, other.bottom, along: along),
                                       "wall \(i) onto \(j)"))
                }
            }
        }
        let centre = PlanBounds(containing: own.walls.flatMap { [$0.segment.start, $0.segment.end] })?.centre ?? PlanPoint(x: 0, z: 0)
        // A room laid on its first scan is refined at once: only fitted to its walls does it lie
        // within `rescanGap` of them (the pair alone leaves a window 0.3 m off), and unrefined it
        // scores as a room lying on another.
        // Only the best `keptPlaces` distinct places go on, so a place need only be scored in
        // full (its overlap clipped, its contradictions looked for: most of the cost) while what
        // agrees there, which bounds its score, could still put it among them. Places are scored
        // in order of that bound until the next bound is under the last kept place's score; the
        // places kept are those scoring every place would keep, ties in the order tried.
        var scored: [(index: Int, placement: Placement)] = []
        var bounded: [(index: Int, agreement: Agreement)] = []
        for (index, hypothesis) in hypotheses.enumerated() {
            if hypothesis.1.hasSuffix(sameSide) {
                let placement = score(hypothesis.0, source: hypothesis.1, own: own, room: room, scene: scene, tolerances: tolerances)
                scored.append((index, refine(placement, own: own, room: room, scene: scene, tolerances: tolerances)))
            } else {
                bounded.append((index, agreement(hypothesis.0, own: own, scene: scene, tolerances: tolerances)))
            }
        }
        bounded.sort { ($0.agreement.bound, $1.index) > ($1.agreement.bound, $0.index) }
        func kept() -> [Placement] {
            var distinct: [Placement] = []
            for candidate in scored.sorted(by: { ($0.placement.score, $1.index) > ($1.placement.score, $0.index) }).map(\.placement)
            where !distinct.contains(where: { same($0.motion, candidate.motion, at: centre, tolerances) }) {
                distinct.append(candidate)
                if distinct.count == keptPlaces { break }
            }
            return distinct
        }
        var next = 0, batch = 32
        while next < bounded.count {
            for (index, agreement) in bounded[next..<min(next + batch, bounded.count)] {
                let hypothesis = hypotheses[index]
                scored.append((index, score(hypothesis.0, source: hypothesis.1, own: own, room: room, scene: scene, tolerances: tolerances,
                                            agreement: agreement)))
            }
            next = min(next + batch, bounded.count)
            batch *= 2
            let places = kept()
            if !scoringEveryPlace, next < bounded.count, places.count == keptPlaces,
               bounded[next].agreement.bound < places[keptPlaces - 1].score { break }
        }
        var distinct = kept()
        // Refined, near candidates become one place: fold them again, best first.
        let refined = distinct.map { refine($0, own: own, room: room, scene: scene, tolerances: tolerances) }.sorted { $0.score > $1.score }
        distinct = []
        // Two places that both lay the room on its first scan, a wall's thickness apart or less,
        // are one: what is left between them is noise (a rescan was "too close to call" between
        // two right places 9 cm apart).
        for candidate in refined where !distinct.contains(where: { kept in
            same(kept.motion, candidate.motion, at: centre, tolerances)
                || kept.isRescan && candidate.isRescan && !JointAssembly.distinct(kept.motion, candidate.motion, at: centre)
        }) {
            distinct.append(candidate)
        }
        let ambiguous = distinct.count > 1 && distinct[1].score >= tolerances.ambiguity * distinct[0].score
        return AutoAlignment(candidates: distinct, isAmbiguous: ambiguous || (distinct.first?.score ?? 0) <= 0,
                             isWeak: (distinct.first?.score ?? 0) < tolerances.minimumScore,
                             scoredInFull: scored.count, tried: hypotheses.count)
    }

    /// A doorway of a room meeting a placed room's in a placement, each named by its index among
    /// its room's doors and then openings (`doors.count + i` for opening i): what a person
    /// needs to check the place, or to take it by hand (`align ROOM using DOOR to DOOR`).
    public struct DoorwayMeeting: Sendable, Equatable {
        public var doorway: Int
        /// The index into the `placed` rooms given to `doorwayMeetings`.
        public var placedRoom: Int
        public var placedDoorway: Int
    }

    /// Which doorways meet in `placement`, a candidate `search(room, beside: placed)` gave.
    public static func doorwayMeetings(_ placement: Placement, room: CapturedRoom, beside placed: [CapturedRoom]) -> [DoorwayMeeting] {
        let sameStory = placed.indices.filter { onOneStory(placed[$0], room) }
        let scene = Scene(sameStory.map { placed[$0] }), own = Scene([room])
        return placement.matchedDoorways.compactMap { pair in
            guard own.doorwayElement.indices.contains(pair.x), scene.doorwayElement.indices.contains(pair.y) else { return nil }
            return DoorwayMeeting(doorway: own.doorwayElement[pair.x], placedRoom: sameStory[scene.doorwayRoom[pair.y]],
                                  placedDoorway: scene.doorwayElement[pair.y])
        }
    }

    /// Whether `room`, where it is, already meets `placed` as a room exported from their session
    /// does: a doorway meeting one of theirs, or walls in two directions along theirs, nothing
    /// contradicting, next to no overlap (`align --all auto` keeps such rooms exactly where
    /// they are; see `JointAssembly.alreadyInPlace`).
    public static func isInPlace(_ room: CapturedRoom, beside placed: [CapturedRoom], tolerances: Tolerances = Tolerances()) -> Bool {
        let rooms = placed + [room]
        let sameStory = rooms.map { a in rooms.map { b in onOneStory(a, b) } }
        return !JointAssembly.alreadyInPlace(rooms, infos: rooms.map(JointAssembly.info), anchors: Set(placed.indices),
                                             sameStory: sameStory, tolerances: tolerances).isEmpty
    }

    /// How far `placement` moves the room, at its middle (up or down as well): metres and degrees.
    /// How far apart two placements of `room` put its middle (in plan), and how far they turn it apart.
    public static func separation(of placement: Placement, from other: Placement, for room: CapturedRoom) -> (metres: Double, degrees: Double) {
        let centre = JointAssembly.info(room).centre
        return (move(centre, placement.motion).distance(to: move(centre, other.motion)),
                abs(normalizedAngle(placement.motion.yaw - other.motion.yaw)) * 180 / .pi)
    }

    public static func distance(of placement: Placement, for room: CapturedRoom) -> (metres: Double, degrees: Double) {
        let centre = JointAssembly.info(room).centre
        let across = move(centre, placement.motion).distance(to: centre), up = placement.motion.translation.y
        return ((across * across + up * up).squareRoot(), abs(normalizedAngle(placement.motion.yaw)) * 180 / .pi)
    }

    /// `placement` set across the walls it shares by where the room's capture lays them, told
    /// by the placed rooms near it (see `WallFaces`): the placed rooms stay, the room moves by at
    /// most a wall's thickness and a fraction of a degree. The habit is nil when nothing near
    /// the room meets it.
    public static func settle(_ placement: Placement, room: CapturedRoom, beside placed: [CapturedRoom]) -> (placement: Placement, habit: WallHabit?) {
        let own = Scene([room])
        let points = own.outlines.flatMap { $0 } + own.walls.flatMap { [$0.segment.start, $0.segment.end] }
        guard let bounds = PlanBounds(containing: points.map { move($0, placement.motion) })?.expanded(by: 1) else { return (placement, nil) }
        let near = placed.filter { other in
            onOneStory(other, room) && other.walls.contains { bounds.intersects($0.planSegment.bounds) }
        }
        let rooms = near + [room]
        guard rooms.count <= WallFaces.roomLimit else { return (placement, nil) }
        var poses: [RigidMotion?] = Array(repeating: .identity, count: near.count)
        poses.append(placement.motion)
        let sameStory = rooms.map { a in rooms.map { b in onOneStory(a, b) } }
        let settled = WallFaces.settle(rooms, poses: poses, fixed: Set(near.indices), skip: [], sameStory: sameStory)
        var result = placement
        result.motion = settled.poses[near.count] ?? placement.motion
        return (result, settled.habits[near.count])
    }

    /// The motion that puts segment `a` (room on side `inA`) on segment `b` (room on side
    /// `inB`), each room on its own side, middles `along` apart, bottoms level.
    static func motion(_ a: PlanSegment, _ inA: PlanPoint, _ bottomA: Double, onto b: PlanSegment, _ inB: PlanPoint, _ bottomB: Double,
                       along: Double) -> RigidMotion {
        let yaw = ManualAlignment.turn(from: inA, to: inB * -1)
        let middle = RigidMotion(yaw: yaw).apply(toPoint: SIMD3(a.midpoint.x, 0, a.midpoint.z))
        let goal = b.midpoint + b.direction.normalized * along
        return RigidMotion(yaw: yaw, translation: SIMD3(goal.x - middle.x, bottomB - bottomA, goal.z - middle.z))
    }

    /// Whether two motions put `room` in one place, give or take the search's tolerances.
    public static func samePlace(_ a: RigidMotion, _ b: RigidMotion, for room: CapturedRoom) -> Bool {
        same(a, b, at: JointAssembly.info(room).centre, Tolerances())
    }

    /// Whether two motions put the room (its middle `centre`, in its own frame) in one place.
    /// Measured at the room, not at its frame's origin: a capture's origin is where its session
    /// began, often metres from the room (10 m for half the generator's), and there half a
    /// degree apart is 9 cm.
    static func same(_ a: RigidMotion, _ b: RigidMotion, at centre: PlanPoint, _ t: Tolerances) -> Bool {
        abs(normalizedAngle(a.yaw - b.yaw)) < t.sameTurn && move(centre, a).distance(to: move(centre, b)) < t.samePlace
    }

    /// What agrees when the room is moved by `motion`.
    static func matches(_ motion: RigidMotion, own: Scene, scene: Scene, tolerances t: Tolerances)
        -> (walls: [(Int, Int, Double)], doorways: [(Int, Int)]) {
        let motion = Mover(motion)
        var walls: [(Int, Int, Double)] = []
        for (i, wall) in own.walls.enumerated() {
            let moved = move(wall.segment, motion)
            var best: (Int, Double)?
            scene.wallGrid.visit(intersecting: moved.bounds.expanded(by: t.wallGap)) { j in
                let overlap = moved.overlap(with: scene.walls[j].segment)
                guard overlap.angle <= t.parallel, abs(overlap.offset) <= t.wallGap, overlap.length >= t.minimumOverlap else { return true }
                if overlap.length > (best?.1 ?? 0) { best = (j, overlap.length) }
                return true
            }
            if let best { walls.append((i, best.0, best.1)) }
        }
        var doorways: [(Int, Int)] = []
        for (i, door) in own.doorways.enumerated() {
            let moved = move(door.segment, motion)
            if let j = scene.doorGrid.elements(within: t.doorDistance, of: moved.midpoint)
                .filter({ abs(scene.doorways[$0].segment.length - moved.length) <= t.doorWidth })
                .min(by: { abs(scene.doorways[$0].segment.length - moved.length) < abs(scene.doorways[$1].segment.length - moved.length) }) {
                doorways.append((i, j))
            }
        }
        return (walls, doorways)
    }

    /// What a doorway seen at two widths adds to a placement (see `nests`): a little, as the two
    /// sides agree that the rooms meet there but not on where along the wall. Over 200 homes of
    /// real doorways at noise 1, 0.5 placed 2.1 % of the rooms of seeds 201 to 400 wrongly where
    /// 0 placed 2.8 % and 1 placed 1.7 %; 1 left 0.7 % more rooms of the iOS 16 homes unplaced
    /// (two look-alike assemblies of a small home then scored within the margin), 0.5 left 0.2 %.
    static let nestedDoorwayValue = 0.5
    /// How much wider one side's doorway may be seen than the other's and still be one doorway.
    static let nestedDoorwaySlack = 4.0

    /// Whether doorways `a` and `b` (in one frame) are one doorway seen at two widths: on one
    /// line, the narrower within the wider, wider by more than a measurement's noise. A real
    /// RoomPlan home showed one room seeing a double door as one 1.93 m door where the next saw
    /// two, and a door 3.78 m wide against 0.62 m; scored as two doorways each opening into a
    /// wall, the true place lost to look-alike doorways.
    static func nests(_ a: PlanSegment, _ b: PlanSegment, _ t: Tolerances) -> Bool {
        let (narrow, wide) = a.length <= b.length ? (a, b) : (b, a)
        guard seenWider(by: wide.length - narrow.length, t),
              narrow.midpoint.distance(to: wide.midpoint) <= wide.length / 2 + t.wallGap else { return false }
        let overlap = wide.overlap(with: narrow)
        return overlap.angle <= t.parallel && abs(overlap.offset) <= t.wallGap && overlap.length >= narrow.length - t.doorWidth
    }

    /// Where along doorway `onto` to put the middle of doorway `door` when one is seen wider than
    /// the other (see `nests`): with the narrower at either end of the wider. None otherwise.
    static func nestedSlides(_ door: PlanSegment, _ onto: PlanSegment, _ t: Tolerances) -> [Double] {
        let extra = abs(onto.length - door.length)
        guard seenWider(by: extra, t) else { return [] }
        return [extra / 2, -extra / 2]
    }

    /// Whether one side of a doorway seen `extra` metres wider than the other is a width
    /// `nests` takes: more than a measurement's noise, at most `nestedDoorwaySlack`.
    static func seenWider(by extra: Double, _ t: Tolerances) -> Bool {
        extra > t.doorWidth && extra <= nestedDoorwaySlack
    }

    /// Doorways of the moved room that met none of the scene's (`matched` did) but nest with one.
    static func nestedDoorways(_ motion: RigidMotion, own: Scene, scene: Scene, matched: [(Int, Int)], tolerances t: Tolerances) -> [(Int, Int)] {
        let motion = Mover(motion)
        let mine = Set(matched.map(\.0))
        var taken = Set(matched.map(\.1))
        var pairs: [(Int, Int)] = []
        for (i, door) in own.doorways.enumerated() where !mine.contains(i) {
            let moved = move(door.segment, motion)
            // (Straight through the doorways, not the grid: scenes here are a room or a few, and a
            // grid query per doorway cost more than the comparisons. First in order: ties go one way.)
            if let j = scene.doorways.indices.first(where: { !taken.contains($0) && nests(moved, scene.doorways[$0].segment, t) }) {
                pairs.append((i, j))
                taken.insert(j)
            }
        }
        return pairs
    }

    /// What agrees when the room is moved by `motion`, and what it adds to the place's score:
    /// the only part of `score` that adds. Everything else a place is charged (overlap,
    /// doorways and windows against a wall) is taken from it, so `value` bounds the score
    /// from above.
    struct Agreement {
        var walls: [(Int, Int, Double)]
        var doorways: [(Int, Int)]
        var nested: [(Int, Int)]
        var value: Double
        /// Doorways and windows that would lie against a wall there.
        var against: (doorways: Int, windows: Int)
        /// `value` less what `against` costs: the most the place can score.
        var bound: Double {
            value - doorwayContradictionCost * Double(against.doorways) - windowContradictionCost * Double(against.windows)
        }
    }

    static func agreement(_ motion: RigidMotion, own: Scene, scene: Scene, tolerances: Tolerances) -> Agreement {
        let (walls, doorways) = matches(motion, own: own, scene: scene, tolerances: tolerances)
        let nested = nestedDoorways(motion, own: own, scene: scene, matched: doorways, tolerances: tolerances)
        let mover = Mover(motion)
        let wallLength = walls.reduce(0) { $0 + $1.2 }
        // A doorway counts the more, the closer its two sides' widths (the same doorway
        // measured twice differs by a few centimetres at most).
        // ... and the closer its two middles along the wall (across, the scans may have seen
        // the two faces of a thick wall).
        let turn = Mover(RigidMotion(yaw: motion.yaw))
        let doorwayValue = doorways.reduce(0.0) { sum, pair in
            let mine = move(own.doorways[pair.0].segment, mover), theirs = scene.doorways[pair.1].segment
            let difference = abs(mine.length - theirs.length)
            let along = abs((mine.midpoint - theirs.midpoint).dot(theirs.direction.normalized))
            // Through a doorway in an outside wall (a front door) only a rescan of the same room
            // meets it, from the same side; another room meeting it is weak evidence.
            let across = move(own.doorways[pair.0].inward, turn).dot(scene.doorways[pair.1].inward) < 0
            let outside = across && (own.doorways[pair.0].outside || scene.doorways[pair.1].outside)
            let weight = outside ? 0.4 : 1
            return sum + weight * 2.5 * (1 - difference / tolerances.doorWidth) * max(0, 1 - along / tolerances.doorDistance)
        }
        return Agreement(walls: walls, doorways: doorways, nested: nested,
                         value: wallLength + doorwayValue + nestedDoorwayValue * Double(nested.count),
                         against: contradictions(motion, own: own, scene: scene, tolerances: tolerances))
    }

    static func score(_ motion: RigidMotion, source: String, own: Scene, room: CapturedRoom, scene: Scene, tolerances: Tolerances,
                      agreement known: Agreement? = nil) -> Placement {
        let agreed = known ?? agreement(motion, own: own, scene: scene, tolerances: tolerances)
        let (walls, doorways, nested) = (agreed.walls, agreed.doorways, agreed.nested)
        let mover = Mover(motion)
        let moved = own.outlines.map { $0.map { move($0, mover) } }
        var overlap = 0.0
        // A room scanned twice (a rescan) lies on its first scan: the same outline, and every
        // doorway and window of one on the other's, on the same side. Only then is lying on
        // another room no overlap; two look-alike rooms differ in their doors and windows.
        var rescanOverlap = 0.0
        var lyingOn: Set<Int> = []
        for (index, outline) in moved.enumerated() {
            guard let bounds = PlanBounds(containing: outline) else { continue }
            // The room's own pieces (cut once, with its scene), moved: cutting the moved outline
            // again for every place tried took a floor of 4,000 corners 3.5 s a room.
            var pieces: [(piece: [PlanPoint], bounds: PlanBounds)]?
            for otherIndex in scene.outlines.indices {
                guard let otherBounds = scene.outlineBounds[otherIndex], bounds.intersects(otherBounds) else { continue }
                if pieces == nil {
                    pieces = own.outlinePieces[index].map { piece in
                        let points = piece.piece.map { move($0, mover) }
                        return (points, PlanBounds(containing: points)!)
                    }
                }
                // (As `overlapArea(with:)` adds it up: each of ours clipped by each of theirs, in order.)
                var area = 0.0
                for mine in pieces! {
                    for theirs in scene.outlinePieces[otherIndex] where mine.bounds.intersects(theirs.bounds) {
                        let shared = mine.piece.clipped(toConvex: theirs.piece).signedArea
                        if shared > 0 { area += shared }
                    }
                }
                let union = own.areas[index] + scene.areas[otherIndex] - area
                if union > 0, area / union >= rescanShare {
                    rescanOverlap += area
                    lyingOn.insert(scene.outlineRoom[otherIndex])
                } else {
                    overlap += area
                }
            }
        }
        var isRescan = false
        if rescanOverlap > 0 {
            // Both ways round: a room with fewer doorways or windows lying on one with more (a
            // windowless one-door bathroom on a living room of its shape) is not its rescan. Each
            // doorway of the rooms lain on has one of this room's on it, and each of this room's
            // lies on one of theirs, within `rescanGap`. (Looked at, not taken from `matches`:
            // among placed rooms a doorway's other side, in the next room, is as near and may be
            // the one matched, and a room scanned again beside its placed home was never taken for
            // its first scan's rescan.)
            let mine = own.doorways.map { move($0.segment, mover) }
            let theirs = scene.doorways.indices.filter { lyingOn.contains(scene.doorwayRoom[$0]) }.map { scene.doorways[$0].segment }
            // (Or one seen wider than the other, as the two sides of a real doorway may be: a living
            // room's rescan that saw its door so was no rescan, and the room went 10.6 m off, an
            // adversarial pass found. Real-doorway homes with 2 rescans, 60: right 17.6 -> 18.4 %,
            // wrong 3 -> 2 rooms of 380; with the generator's doorways, as before.)
            func same(_ a: PlanSegment, _ b: PlanSegment) -> Bool {
                a.midpoint.distance(to: b.midpoint) <= rescanGap && abs(a.length - b.length) <= tolerances.doorWidth
                    || nests(a, b, tolerances)
            }
            let doorwaysMet = theirs.allSatisfy { door in mine.contains { same($0, door) } } && mine.allSatisfy { door in theirs.contains { same(door, $0) } }
            // And its walls lie on walls nearly all along, each against every wall along it (a
            // scan may split a wall the other saw whole): a room of that shape whose door is 0.6 m
            // further along, laid door on door, leaves its end walls 0.6 m off.
            var ownWallLength = 0.0, wallLengthOn = 0.0
            for wall in own.walls {
                let moved = move(wall.segment, mover)
                var along = 0.0
                scene.wallGrid.visit(intersecting: moved.bounds.expanded(by: tolerances.wallGap)) { j in
                    let overlap = moved.overlap(with: scene.walls[j].segment)
                    if overlap.angle <= tolerances.parallel, abs(overlap.offset) <= rescanGap { along += overlap.length }
                    return true
                }
                ownWallLength += moved.length
                wallLengthOn += min(along, moved.length)
            }
            let wallsOn = wallLengthOn >= rescanWalls * ownWallLength
            if doorwaysMet && wallsOn && windowsCoincide(motion, own: own, scene: scene, tolerances: tolerances)
                && windowsMet(motion, own: own, scene: scene, rooms: lyingOn, tolerances: tolerances) {
                isRescan = true
            } else {
                overlap += rescanOverlap
            }
        }
        let (doorwaysAgainst, windowsAgainst) = agreed.against
        let contradictions = doorwaysAgainst + windowsAgainst
        let value = agreed.value - 3 * overlap
            - doorwayContradictionCost * Double(doorwaysAgainst) - windowContradictionCost * Double(windowsAgainst)
        return Placement(motion: motion, score: value, walls: walls.count, doorways: doorways.count + nested.count, widerDoorways: nested.count,
                         overlap: overlap, contradictions: contradictions, source: source,
                         matchedDoorways: (doorways + nested).map { SIMD2($0.0, $0.1) }, matchedWalls: walls.map(\.0), isRescan: isRescan)
    }

    /// How much of two rooms' floor one must share with the other (of their union) to lie on it
    /// as a rescan does (two scans of one room may differ by half a wall's thickness all round).
    static let rescanShare = 0.7
    /// How much of a rescan's wall length must lie on walls where it lies.
    static let rescanWalls = 0.8
    /// How far a rescan's walls, doorways and windows may lie from its first scan's, once fitted:
    /// half the thickest wall (one scan saw a wall's face, the other its middle; a generated
    /// rescan's windows lie up to 18 cm from its first scan's at the truth) and a phone's noise.
    /// Not `wallGap`, a wall's whole thickness: with it a copy of a room whose door is 0.6 m
    /// along was laid on the room as its rescan.
    static let rescanGap = 0.3

    /// Whether every window of the room, moved, lies on one of the scene's of about its
    /// width, looking the same way.
    static func windowsCoincide(_ motion: RigidMotion, own: Scene, scene: Scene, tolerances t: Tolerances) -> Bool {
        let (motion, turn) = (Mover(motion), Mover(RigidMotion(yaw: motion.yaw)))
        return own.windows.indices.allSatisfy { index in
            let moved = move(own.windows[index], motion), inward = move(own.windowInward[index], turn)
            return scene.windowGrid.elements(within: rescanGap, of: moved.midpoint).contains { j in
                abs(scene.windows[j].length - moved.length) <= t.doorWidth && scene.windowInward[j].dot(inward) > 0.9
            }
        }
    }

    /// Whether every window of the scene's `rooms` has one of the moved room's on it, of about
    /// its width, looking the same way.
    static func windowsMet(_ motion: RigidMotion, own: Scene, scene: Scene, rooms: Set<Int>, tolerances t: Tolerances) -> Bool {
        let (motion, turn) = (Mover(motion), Mover(RigidMotion(yaw: motion.yaw)))
        let mine = own.windows.indices.map { (segment: move(own.windows[$0], motion), inward: move(own.windowInward[$0], turn)) }
        return scene.windows.indices.allSatisfy { j in
            guard rooms.contains(scene.windowRoom[j]) else { return true }
            return mine.contains { window in
                window.segment.midpoint.distance(to: scene.windows[j].midpoint) <= rescanGap
                    && abs(window.segment.length - scene.windows[j].length) <= t.doorWidth && window.inward.dot(scene.windowInward[j]) > 0.9
            }
        }
    }

    /// Doorways of either side that would open into the other's wall (no doorway there),
    /// and windows of either side in a wall the other room is behind.
    /// What each doorway against the other room's wall takes off a place's score. A doorway
    /// seen from one side only (a bathroom door its hallway did not see: real homes have them,
    /// and `wbgen --real-doorways` one in ten) lies against the wall of its true neighbour too,
    /// so the true place pays it as well. At 1 instead of 2: real-doorway homes of 3 to 10 rooms
    /// (200) placed 58.2 % of the rooms a doorway chain reaches right, not 56.5 (noise 0 94.5,
    /// not 94.8; other settings as before); blocks of 20 rooms (30 homes, 5 settings) 220 rooms
    /// wrongly, not 239; Apple's home in 3 sessions 1.4 % wrongly, not 2.7 (in 2, one room more).
    static let doorwayContradictionCost = 1.0
    /// What each window in a wall the other room is behind takes off: no scan misses that a
    /// window looks into a room, so it stays at 2. (At 1 too, blocks of 20 rooms placed far
    /// fewer rooms wrongly, for reasons not understood, and the first flat of a 12-room block
    /// of two flats was left whole, a look-alike place no longer told apart.)
    static let windowContradictionCost = 2.0
    static func contradictions(_ motion: RigidMotion, own: Scene, scene: Scene, tolerances t: Tolerances) -> (doorways: Int, windows: Int) {
        func lies(on wall: PlanSegment, _ opening: PlanSegment) -> Bool {
            let overlap = wall.overlap(with: opening)
            return overlap.angle <= t.parallel && abs(overlap.offset) <= t.wallGap && overlap.length >= 0.5 * opening.length
        }
        var count = 0, windows = 0
        let (motion, turn) = (Mover(motion), Mover(RigidMotion(yaw: motion.yaw)))
        let movedWalls = own.walls.map { move($0.segment, motion) }
        // Own doorways and windows against the placed walls.
        for door in own.doorways {
            let moved = move(door.segment, motion)
            var onWall = false
            scene.wallGrid.visit(intersecting: moved.bounds.expanded(by: t.wallGap)) { j in
                onWall = lies(on: scene.walls[j].segment, moved)
                return !onWall
            }
            if onWall,
               !scene.doorGrid.elements(within: t.doorDistance, of: moved.midpoint).contains(where: { abs(scene.doorways[$0].segment.length - moved.length) <= t.doorWidth }),
               !scene.doorways.contains(where: { nests(moved, $0.segment, t) }) {
                count += 1
            }
        }
        for (index, window) in own.windows.enumerated() {
            let moved = move(window, motion), inward = move(own.windowInward[index], turn)
            // Behind a wall of the other room facing away from this one's: looking into it.
            var behind = false
            scene.wallGrid.visit(intersecting: moved.bounds.expanded(by: t.wallGap)) { j in
                behind = lies(on: scene.walls[j].segment, moved) && scene.walls[j].inward.dot(inward) < 0
                return !behind
            }
            if behind { windows += 1 }
        }
        // The placed rooms' doorways and windows against the moved room's walls.
        let movedDoors = own.doorways.map { move($0.segment, motion) }
        let movedInward = own.walls.map { move($0.inward, turn) }
        for (wallIndex, wall) in movedWalls.enumerated() {
            let area = wall.bounds.expanded(by: t.wallGap)
            scene.doorGrid.visit(intersecting: area) { j in
                guard lies(on: wall, scene.doorways[j].segment) else { return true }
                let other = scene.doorways[j].segment
                if !movedDoors.contains(where: { $0.midpoint.distance(to: other.midpoint) <= t.doorDistance || nests($0, other, t) }) { count += 1 }
                return true
            }
            scene.windowGrid.visit(intersecting: area) { j in
                if lies(on: wall, scene.windows[j]), movedInward[wallIndex].dot(scene.windowInward[j]) < 0 { windows += 1 }
                return true
            }
        }
        return (count, windows)
    }

    /// A small correction by least squares: the turn that makes matched walls parallel, then
    /// the shift that puts matched doorways' middles together along their walls and collinear
    /// walls (same side, nearly on one line) on one line. Kept only if it scores no worse.
    static func refine(_ placement: Placement, own: Scene, room: CapturedRoom, scene: Scene, tolerances: Tolerances) -> Placement {
        var current = placement
        for _ in 0..<2 {
            let (walls, doorways) = matches(current.motion, own: own, scene: scene, tolerances: tolerances)
            guard !walls.isEmpty else { break }
            // Turn: length-weighted mean of the angle from each moved wall to its partner's line.
            var turn = 0.0, weight = 0.0
            for (i, j, length) in walls {
                let a = move(own.walls[i].segment, current.motion).direction, b = scene.walls[j].segment.direction
                var angle = atan2(a.cross(b), a.dot(b))
                if angle > .pi / 2 { angle -= .pi } else if angle < -.pi / 2 { angle += .pi }
                turn += angle * length
                weight += length
            }
            // atan2 of cross and dot measures the turn in yaw's own sense.
            let correction = turn / weight
            // Turning about the room's middle keeps the rest of the fit where it was.
            let pivot = own.outlines.first.flatMap { PlanBounds(containing: $0.map { move($0, current.motion) }) }?.centre ?? PlanPoint(x: 0, z: 0)
            let pivot3 = SIMD3(pivot.x, 0, pivot.z)
            let turnAbout = RigidMotion(translation: pivot3).composed(after: RigidMotion(yaw: correction).composed(after: RigidMotion(translation: -pivot3)))
            var motion = turnAbout.composed(after: current.motion)
            // Shift: normal equations over point-to-line (collinear walls) and along-wall (doorways) terms.
            var a11 = 0.0, a12 = 0.0, a22 = 0.0, b1 = 0.0, b2 = 0.0
            func add(_ n: PlanPoint, _ residual: Double, _ w: Double) {
                a11 += w * n.x * n.x; a12 += w * n.x * n.z; a22 += w * n.z * n.z
                b1 -= w * n.x * residual; b2 -= w * n.z * residual
            }
            for (i, j, length) in walls {
                let moved = move(own.walls[i].segment, motion), target = scene.walls[j]
                let sameSide = move(own.walls[i].inward, RigidMotion(yaw: motion.yaw)).dot(target.inward) > 0
                let offset = target.segment.signedDistance(to: moved.midpoint)
                // Walls on one side and one line (a facade along two rooms, a rescan) should meet.
                if sameSide && abs(offset) < 0.1 { add(target.segment.normal, offset, length) }
            }
            for (i, j) in doorways {
                let moved = move(own.doorways[i].segment, motion), target = scene.doorways[j].segment
                let direction = target.direction.normalized
                add(direction, (moved.midpoint - target.midpoint).dot(direction), 1.5)
                // Across a doorway with nothing else to go by, its two sides meet.
                add(target.normal, target.signedDistance(to: moved.midpoint), 0.2)
            }
            let determinant = a11 * a22 - a12 * a12
            if determinant > 1e-9 {
                let dx = (b1 * a22 - b2 * a12) / determinant, dz = (a11 * b2 - a12 * b1) / determinant
                motion = RigidMotion(yaw: motion.yaw, translation: motion.translation + SIMD3(dx, 0, dz))
            }
            let refined = score(motion, source: current.source, own: own, room: room, scene: scene, tolerances: tolerances)
            guard refined.score >= current.score - 1e-6 else { break }
            current = refined
        }
        return current
    }

    static func move(_ segment: PlanSegment, _ motion: RigidMotion) -> PlanSegment {
        PlanSegment(start: move(segment.start, motion), end: move(segment.end, motion))
    }

    static func move(_ point: PlanPoint, _ motion: RigidMotion) -> PlanPoint {
        PlanPoint(motion.apply(toPoint: SIMD3(point.x, 0, point.z)))
    }

    /// A motion with the cosine and sine of its turn worked out once: moving a room's points one
    /// by one worked them out for every point, a tenth of `align --all auto`. It moves a point
    /// exactly as `move(_:_:)` with the motion does, to the last bit.
    struct Mover {
        let yaw: Double
        private let cosine: Double, sine: Double
        private let translation: SIMD3<Double>

        init(_ motion: RigidMotion) {
            yaw = motion.yaw
            (cosine, sine) = motion.cosSin
            translation = motion.translation
        }

        func apply(_ point: PlanPoint) -> PlanPoint {
            // `RigidMotion.rotate` then the translation, in the same order of operations.
            PlanPoint(SIMD3(cosine * point.x + sine * point.z + 0, 0 + 0, -sine * point.x + cosine * point.z + 0) + translation)
        }
    }

    static func move(_ segment: PlanSegment, _ mover: Mover) -> PlanSegment {
        PlanSegment(start: mover.apply(segment.start), end: mover.apply(segment.end))
    }

    static func move(_ point: PlanPoint, _ mover: Mover) -> PlanPoint {
        mover.apply(point)
    }
}

/// What `align --all auto` did.
public struct AssemblyResult: Sendable {
    public var plan: EditPlan
    /// The rooms placed, in order, each with the placement chosen.
    public var placed: [(room: Identity, placement: Placement)]
    /// Rooms no place was certain enough for.
    public var unplaced: [Identity]
    /// Where each room settled across its walls found its capture put the walls it shares
    /// (the anchors too), in the order of the rooms.
    public var habits: [(room: Identity, habit: WallHabit)] = []
    /// The first room (the one that stays) fits beside the others in more than one place about
    /// equally well, so none of them was placed around it (unless asked to take the best).
    public var firstRoomUnsure = false
    /// Parts that met the rest only through one pair of doors that left neither side a way
    /// out (two homes joined front door to front door?): not placed.
    public var separateHomes: [[Identity]] = []
    /// Parts whose rooms fit one another through their doorways but that no doorway joins to
    /// the placed rooms (a second home, scanned with the first): not placed, in the order of the rooms.
    public var apart: [[Identity]] = []
    /// Rooms that already met the placed rooms where they were (one session's rooms share its
    /// frame): left exactly there, in the order of the rooms.
    public var inPlace: [Identity] = []
    /// Rooms that lay alone along the placed rooms as one session's room would, but that the
    /// search put elsewhere, placing more of the home: moved, in the order of the rooms.
    public var notInPlace: [Identity] = []
    /// Rooms put where their scan session's record puts them beside the first room (iOS 18 and
    /// later write each room in a frame of its own, with `referenceOriginTransform`).
    public var bySession: [Identity] = []
    /// Rooms that lay in one frame of their own, meeting one another as one scan session's rooms
    /// do: searched for and moved as one piece, in the order of the rooms.
    public var sessions: [[Identity]] = []
}

extension Workspace {
    /// Where a room's frame lies in its scan session: `referenceOriginTransform`, a turn about
    /// the vertical and a translation, read as the room's frame seen from the session's origin
    /// (a room's coordinates in the session are its inverse applied to them). Only for a room
    /// file whose record is a rigid turn about the vertical; a move, turn or alignment moves the
    /// record with the room, so an edited room's record still holds.
    func sessionFrame(_ room: Identity) -> RigidMotion? {
        guard case .room = room.scope, let file = file(id: room.file), !file.isStructure,
              let capture = capture(room), let origin = capture.referenceOriginTransform, origin.rigidityError < 1e-3 else { return nil }
        let x = origin.column(0), up = origin.column(1), t = origin.translation
        guard up.y > cos(1 * Double.pi / 180), [x.x, x.z, t.x, t.y, t.z].allSatisfy(\.isFinite),
              abs(t.x) < 1e4, abs(t.y) < 1e4, abs(t.z) < 1e4 else { return nil }
        return RigidMotion(yaw: atan2(-x.z, x.x), translation: t)
    }

    /// For each waiting room that shares a session record with the first anchor that has one,
    /// the motion that puts it where that session puts it beside the anchor: on the anchor's
    /// level (to be confirmed by what meets there), or a story away over the placed rooms.
    public func sessionMotions(anchors: [Identity], waiting: [Identity]) -> (sameLevel: [Identity: RigidMotion], otherLevel: [(Identity, RigidMotion)]) {
        guard let anchor = anchors.first(where: { sessionFrame($0) != nil }), let anchorFrame = sessionFrame(anchor),
              let anchorCapture = capture(anchor) else { return ([:], []) }
        let floors = anchors.compactMap { capture($0)?.floorHeight }
        guard !floors.isEmpty else { return ([:], []) }
        // A room already where its session puts it (placed so before, and saved: its record
        // moved with it) needs no motion: a level of its own is then in place as it is.
        func isStill(_ motion: RigidMotion) -> Bool {
            abs(normalizedAngle(motion.yaw)) < 1e-6 && (motion.translation * motion.translation).sum() < 1e-8
        }
        var sameLevel: [Identity: RigidMotion] = [:]
        var otherLevel: [(Identity, RigidMotion)] = []
        var others: [(Identity, RigidMotion, CapturedRoom, Double, RigidMotion)] = []
        for room in waiting {
            guard let frame = sessionFrame(room), let capture = capture(room) else { continue }
            let motion = anchorFrame.composed(after: frame.inverse)
            let moved = capture.moved(by: motion)
            guard let floor = moved.floorHeight else { continue }
            let apart = floors.map { abs($0 - floor) }.min()!
            if apart < 1 {
                if !isStill(motion) { sameLevel[room] = motion }
            } else {
                others.append((room, motion, moved, apart, frame))
            }
        }
        // Rooms of one session tile their level where the records put them; records of separate
        // sessions (each room's own, near its own origin) pile the rooms on one another. Any two
        // that overlap by more than a wall's width along a side: the records are not one session's.
        let level = anchors.compactMap { capture($0) } + waiting.compactMap { room in sameLevel[room].flatMap { capture(room)?.moved(by: $0) } }
        if !sameLevel.isEmpty && Self.pileUp(level) { sameLevel = [:] }
        // Each is also where the search finds it beside the others, or it is searched for.
        if !sameLevel.isEmpty {
            let movedRooms = waiting.compactMap { room in sameLevel[room].flatMap { motion in capture(room).map { (room, $0.moved(by: motion)) } } }
            let anchorRooms = anchors.compactMap { capture($0) }
            for (room, moved) in movedRooms {
                let beside = anchorRooms + movedRooms.filter { $0.0 != room }.map(\.1)
                if !Self.searchAgrees(moved, beside: beside) { sameLevel[room] = nil }
            }
        }
        // The placed rooms and those the session puts on their level: what another level lies over.
        let outlines = anchors.compactMap { capture($0) }.flatMap(\.planOutlines)
            + waiting.compactMap { room in sameLevel[room].flatMap { capture(room)?.moved(by: $0) } }.flatMap(\.planOutlines)
        for (room, motion, moved, apart, frame) in others {
            // A story away (2 to 30 m), of the same session's heading as the anchor (a room of
            // another session has a record of its own heading), and over or under the placed
            // rooms for at least half its floor: nothing else could say where it is.
            let turn = abs(normalizedAngle(frame.yaw - anchorFrame.yaw)) * 180 / .pi
            guard apart >= 2, apart <= 30, turn < 0.5 || abs(turn - 180) < 0.5 else { continue }
            let own = moved.planOutlines
            let area = own.reduce(0) { $0 + abs($1.signedArea) }
            let shared = own.reduce(0.0) { sum, mine in
                sum + outlines.reduce(0.0) { $0 + abs(counterClockwise(mine).overlapArea(with: counterClockwise($1))) }
            }
            // Nor may it overlap a room already put on that level (a record a metre off put a room
            // into its neighbours there, said only as a level nothing confirms).
            var taken: [CapturedRoom] = []
            for (other, otherMotion) in otherLevel {
                if let room = capture(other) { taken.append(room.moved(by: otherMotion)) }
            }
            let level = moved.floorHeight ?? 0
            for anchor in anchors {
                if let room = capture(anchor), let height = room.floorHeight, abs(height - level) < 1 { taken.append(room) }
            }
            if area > 1, shared >= 0.5 * area, anchorCapture.walls.count > 0, !Self.pileUp(taken + [moved]) {
                otherLevel.append((room, isStill(motion) ? .identity : motion))
            }
        }
        return (sameLevel, otherLevel)
    }

    /// Whether two of the rooms with floors within 1 m of each other overlap by more than half
    /// a square metre and a tenth of the smaller one. Pairs only where their bounds meet.
    static func pileUp(_ rooms: [CapturedRoom]) -> Bool {
        let shapes = rooms.map { room -> (floor: Double?, outlines: [[PlanPoint]], area: Double, bounds: PlanBounds?) in
            let outlines = room.planOutlines.map { $0.signedArea < 0 ? Array($0.reversed()) : $0 }
            return (room.floorHeight, outlines, outlines.reduce(0) { $0 + $1.signedArea },
                    PlanBounds(containing: outlines.flatMap { $0 }))
        }
        for i in shapes.indices {
            for j in shapes.indices where j > i {
                let (a, b) = (shapes[i], shapes[j])
                guard let fa = a.floor, let fb = b.floor, abs(fa - fb) < 1, let ba = a.bounds, let bb = b.bounds, ba.intersects(bb) else { continue }
                let shared = a.outlines.reduce(0.0) { sum, mine in sum + b.outlines.reduce(0.0) { $0 + mine.overlapArea(with: $1) } }
                if shared > 0.5 && shared > 0.1 * min(a.area, b.area) { return true }
            }
        }
        return false
    }

    /// Whether the search, run on a room where its session record puts it, finds it there give
    /// or take noise (8 cm, 2°): a record 20 cm off was followed and said to be confirmed, as
    /// walls along one another passed the in-place test across a wall's thickness.
    public static func searchAgrees(_ moved: CapturedRoom, beside placed: [CapturedRoom]) -> Bool {
        let search = AutoAligner.search(moved, beside: placed)
        guard let best = search.candidates.first, best.score > 0 else { return false }
        let (chosen, _) = AutoAligner.settle(best, room: moved, beside: placed)
        let offset = AutoAligner.distance(of: chosen, for: moved)
        let tolerances = AutoAligner.Tolerances()
        return offset.metres < tolerances.samePlace && offset.degrees < tolerances.sameTurn * 180 / .pi
    }

    private func counterClockwise(_ polygon: [PlanPoint]) -> [PlanPoint] {
        polygon.signedArea < 0 ? polygon.reversed() : polygon
    }

    /// Places every room of `waiting` beside `placed`, the most certain first: each round
    /// scores every waiting room beside all placed so far (so a room placed through a chain
    /// of others must agree with all of them) and places the one whose best candidate scores
    /// highest without being ambiguous. Rooms left are reported, not guessed.
    /// With `best`, the others are placed around the first room at its best place even when it
    /// fits another about as well (`firstRoomUnsure` says so).
    /// `stop` is asked as the search goes (Ctrl-C in the shell): when it says yes, this throws
    /// and nothing is planned.
    public func planAssembly(placed anchors: [Identity], waiting start: [Identity], best: Bool = false,
                             stop: @escaping () -> Bool = { false }) throws(EditError) -> AssemblyResult {
        let interrupted = EditError("interrupted (Ctrl-C): no room was moved")
        var working = self
        var placed = anchors
        var waiting = start
        var result = AssemblyResult(plan: EditPlan(), placed: [], unplaced: [])
        // Rooms of one scan session, each written in a frame of its own with where that frame
        // lies in the session (iOS 18 and later): tried first where the session puts them.
        let session = sessionMotions(anchors: anchors, waiting: start)
        // Another level of the same session (upstairs over downstairs) meets nothing through a
        // doorway: where the session puts it, a story away, over the placed rooms, it is taken.
        for (room, motion) in session.otherLevel {
            placed.append(room)
            waiting.removeAll { $0 == room }
            // Where the session puts it already (placed so and saved): in place as it is.
            if motion == .identity {
                result.inPlace.append(room)
                continue
            }
            let plan = try working.planMove(room: room, by: motion)
            _ = working.perform(plan.changes)
            result.plan.changes += plan.changes
            for note in plan.notes where !result.plan.notes.contains(note) { result.plan.notes.append(note) }
            result.bySession.append(room)
        }
        // First jointly, through doorways; what that leaves undecided stays where it is.
        let everyone = placed + waiting
        let captures = everyone.compactMap { room in working.capture(room).map { capture in session.sameLevel[room].map(capture.moved) ?? capture } }
        var undecided: [Identity] = []
        if captures.count == everyone.count {
            // Rooms as opened (not moved since) may lie in one session's frame with the anchors.
            let asOpened = Set(everyone.indices.filter { isAsOpened(everyone[$0]) && session.sameLevel[everyone[$0]] == nil })
            let joint = JointAssembly.assembleSessions(captures, anchors: Set(placed.indices), asOpened: asOpened, trustingAnchor: best, stop: stop)
            if joint.interrupted { throw interrupted }
            result.sessions = joint.sessions.map { group in group.sorted().map { everyone[$0] } }
            result.firstRoomUnsure = joint.anchorUnsure
            result.notInPlace = joint.notInPlace.sorted().map { everyone[$0] }
            result.separateHomes = joint.separateHomes.map { part in part.sorted().map { everyone[$0] } }
            result.apart = joint.apart.map { part in part.sorted().map { everyone[$0] } }
            for (index, habit) in joint.habits.enumerated() {
                if let habit { result.habits.append((everyone[index], habit)) }
            }
            let anchorCount = placed.count
            for index in joint.inPlace.sorted() {
                let room = everyone[index]
                // Met where the session put it: moved there, which the search saw it at.
                if let motion = session.sameLevel[room] {
                    let plan = try working.planMove(room: room, by: motion)
                    _ = working.perform(plan.changes)
                    result.plan.changes += plan.changes
                    for note in plan.notes where !result.plan.notes.contains(note) { result.plan.notes.append(note) }
                    result.bySession.append(room)
                } else {
                    result.inPlace.append(room)
                }
                placed.append(room)
                waiting.removeAll { $0 == room }
            }
            // Nearest the anchors first, so the report reads as the building grows.
            for index in everyone.indices where index >= anchorCount && !joint.inPlace.contains(index) {
                let room = everyone[index]
                if var motion = joint.poses[index], var placement = joint.placements[index] {
                    // The search moved the room from where the session put it.
                    if let first = session.sameLevel[room] { motion = motion.composed(after: first) }
                    let plan = try working.planMove(room: room, by: motion)
                    _ = working.perform(plan.changes)
                    result.plan.changes += plan.changes
                    for note in plan.notes where !result.plan.notes.contains(note) { result.plan.notes.append(note) }
                    placement.motion = motion
                    placed.append(room)
                    result.placed.append((room, placement))
                    waiting.removeAll { $0 == room }
                } else if joint.unsure.contains(index) {
                    undecided.append(room)
                    waiting.removeAll { $0 == room }
                }
            }
        }
        // Rooms no doorway reached: one at a time, the most certain first, by walls as well.
        var cache: [Identity: (count: Int, alignment: AutoAlignment)] = [:]
        while !waiting.isEmpty {
            if stop() { throw interrupted }
            let scene = placed.compactMap { working.capture($0) }
            var best: (index: Int, placement: Placement)?
            for (index, room) in waiting.enumerated() {
                guard let capture = working.capture(room) else { continue }
                // A room's candidates change only when rooms were placed since it was scored.
                let alignment: AutoAlignment
                if let cached = cache[room], cached.count == placed.count {
                    alignment = cached.alignment
                } else {
                    alignment = AutoAligner.search(capture, beside: scene)
                    cache[room] = (placed.count, alignment)
                }
                guard let top = alignment.candidates.first, top.score > 0, !alignment.isAmbiguous, !alignment.isWeak else { continue }
                if top.score > (best?.placement.score ?? -.infinity) { best = (index, top) }
            }
            guard let chosen = best else { break }
            let room = waiting.remove(at: chosen.index)
            let plan = try working.planMove(room: room, by: chosen.placement.motion)
            _ = working.perform(plan.changes)
            result.plan.changes += plan.changes
            for note in plan.notes where !result.plan.notes.contains(note) { result.plan.notes.append(note) }
            placed.append(room)
            result.placed.append((room, chosen.placement))
        }
        result.unplaced = undecided + waiting
        return result
    }
}
