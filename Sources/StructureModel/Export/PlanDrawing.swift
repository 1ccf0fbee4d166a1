/// One story of an `ExportScene` as a drawing needs it, in plan metres (world x, z): walls
/// as filled bands with a thickness, joined at corners and cut where doors, windows and
/// openings sit; door leaves with their swing; window and opening symbols; where each
/// room's label fits; object footprints. It decides geometry only: the SVG writer chooses
/// texts, sizes and colours.
///
/// RoomPlan records no wall thickness (depth 0) for a room's walls; a merged structure's
/// walls may have one. A wall with a depth is drawn centred on its line with that depth;
/// one without is drawn `Options.wallThickness` thick, on the far side of the surface from
/// its room when the room is known (a scan sees a wall's face, so the room keeps the floor
/// it was measured with), centred otherwise.
public struct PlanDrawing: Sendable {
    public struct Options: Sendable {
        /// Metres, for walls whose file gives no depth.
        public var wallThickness: Double = 0.12
        /// Wall ends this close (metres) to another wall's end or side are joined to it.
        public var joinTolerance: Double = 0.35

        public init(wallThickness: Double = 0.12, joinTolerance: Double = 0.35) {
            self.wallThickness = wallThickness
            self.joinTolerance = joinTolerance
        }
    }

    public struct Wall: Sendable {
        public var handle: String
        /// The centre line (or scanned face) as the file gives it.
        public var segment: PlanSegment
        /// The band the wall fills, as offsets along `segment.normal`: from `low` to `high`.
        public var low: Double
        public var high: Double
        /// Whether the thickness is the file's own depth, not the default.
        public var thicknessFromFile: Bool
        /// The side of `segment` its room is on (+1: where `segment.normal` points), when known.
        public var roomSide: Int?
        /// The filled polygons: the band joined at its ends and cut at its doors, windows
        /// and openings. Empty for a wall wholly taken by them.
        public var pieces: [[PlanPoint]] = []

        public var thickness: Double { high - low }
        var axis: PlanPoint { segment.direction.normalized }
        var normal: PlanPoint { segment.normal }

        /// The point `along` metres from the segment's start and `across` along its normal.
        func point(along: Double, across: Double) -> PlanPoint {
            segment.start + axis * along + normal * across
        }

        func along(_ point: PlanPoint) -> Double { (point - segment.start).dot(axis) }
    }

    /// A door as plans draw it: the leaf standing open at a right angle into the room it
    /// swings into, and the arc its free edge sweeps back to the closed position.
    public struct Door: Sendable {
        public var handle: String
        public var hinge: PlanPoint
        /// The free end of the open leaf.
        public var leafEnd: PlanPoint
        /// Where the free end is when the door is shut: the other side of the doorway.
        public var closedEnd: PlanPoint
        /// The doorway cut through the wall's band, to be filled like the floor.
        public var gap: [PlanPoint]
        /// The wall it was drawn in, nil when none was found (drawn on its own).
        public var hostWall: String?
        public var radius: Double { hinge.distance(to: leafEnd) }
    }

    /// A window: its frame across the wall and the glass as two lines along it.
    public struct Window: Sendable {
        public var handle: String
        public var frame: [PlanPoint]
        public var glass: [PlanSegment]
        public var hostWall: String?
    }

    /// An opening: a gap in the wall, its two faces drawn as light lines across it.
    public struct Opening: Sendable {
        public var handle: String
        public var faces: [PlanSegment]
        /// The gap cut through the wall's band, to be filled like the floor.
        public var gap: [PlanPoint]
        public var hostWall: String?
    }

    public struct Room: Sendable {
        /// The position in `ExportScene.Story.rooms`.
        public var index: Int
        public var outlines: [[PlanPoint]]
        /// Where its label goes: inside its largest outline, as far from the outline's edges
        /// (and from its sections' labels) as possible. nil for a room without an outline.
        public var labelPoint: PlanPoint?
        /// How far (metres) `labelPoint` is from the nearest edge: room for the label.
        public var clearance: Double
        /// Section labels drawn at the sections' centres, for a capture of several sections.
        public var sectionLabels: [(text: String, point: PlanPoint)]
    }

    public struct Item: Sendable {
        public var handle: String
        public var category: String
        /// The footprint: the box's four bottom corners in plan.
        public var corners: [PlanPoint]
    }

    public var walls: [Wall] = []
    public var doors: [Door] = []
    public var windows: [Window] = []
    public var openings: [Opening] = []
    public var rooms: [Room] = []
    public var items: [Item] = []
    /// Handles of walls too short to draw (zero width).
    public var skippedWalls: [String] = []

    public init(story: ExportScene.Story, options: Options = Options()) {
        let roomOutlines = story.rooms.map(\.outlines)
        for element in story.elements(of: .wall) {
            guard let surface = element.surface else { continue }
            let segment = surface.planSegment
            guard segment.length > 1e-3, segment.length.isFinite else {
                skippedWalls.append(element.handle)
                continue
            }
            let depth = Double(surface.dimensions.z)
            let side = element.room.flatMap { Self.side(of: segment, in: roomOutlines[$0], reach: 0.2) }
            var wall = Wall(handle: element.handle, segment: segment, low: 0, high: 0, thicknessFromFile: depth > 0.01, roomSide: side)
            if depth > 0.01 {
                (wall.low, wall.high) = (-depth / 2, depth / 2)
            } else if let side {
                (wall.low, wall.high) = side > 0 ? (-options.wallThickness, 0) : (0, options.wallThickness)
            } else {
                (wall.low, wall.high) = (-options.wallThickness / 2, options.wallThickness / 2)
            }
            walls.append(wall)
        }
        let ends = Self.joinedEnds(walls, tolerance: options.joinTolerance)
        let wallGrid = Self.grid(of: walls)
        var cuts = Array(repeating: [ClosedRange<Double>](), count: walls.count)
        placeInserts(story, roomOutlines: roomOutlines, options: options, cuts: &cuts)
        for index in walls.indices {
            walls[index].pieces = Self.pieces(of: walls[index], ends: ends[index], cuts: cuts[index])
        }
        for (index, room) in story.rooms.enumerated() {
            var sectionLabels: [(text: String, point: PlanPoint)] = []
            if room.sections.count > 1 {
                sectionLabels = room.sections.filter { section in room.outlines.contains { $0.encloses(section.center) } }
                    .map { (text: $0.label, point: $0.center) }
            }
            let largest = room.outlines.filter { $0.count >= 3 }.max { polygonArea($0) < polygonArea($1) }
            let spot = largest.flatMap { outline -> (point: PlanPoint, clearance: Double)? in
                guard let bounds = PlanBounds(containing: outline) else { return nil }
                let nearby = wallGrid.elements(intersecting: bounds).map { walls[$0] }
                let swings = doors.filter { bounds.expanded(by: $0.radius).contains($0.hinge) }
                return Self.labelSpot(in: outline, walls: nearby,
                                      avoiding: sectionLabels.map { ($0.point, 0.0) } + swings.map { ($0.hinge, $0.radius) })
            }
            rooms.append(Room(index: index, outlines: room.outlines, labelPoint: spot?.point, clearance: spot?.clearance ?? 0,
                              sectionLabels: sectionLabels))
        }
        for element in story.elements(of: .object) {
            guard let object = element.object else { continue }
            let t = object.transform
            let centre = PlanPoint(t.translation)
            let x = PlanPoint(t.column(0)).normalized * (Double(object.dimensions.x) / 2)
            let z = PlanPoint(t.column(2)).normalized * (Double(object.dimensions.z) / 2)
            let corners = [centre - x - z, centre + x - z, centre + x + z, centre - x + z]
            guard corners.allSatisfy({ $0.x.isFinite && $0.z.isFinite }) else { continue }
            items.append(Item(handle: element.handle, category: element.category, corners: corners))
        }
    }

    // MARK: Joining walls

    /// Where a wall's band ends: the point on its `low` edge and the one on its `high` edge.
    struct End {
        var low: PlanPoint
        var high: PlanPoint
    }

    /// Both ends of every wall after joining: two walls whose ends meet are mitred (their
    /// bands' edges run on to meet, at any angle, so the corner is one sharp outline), two
    /// in line are butted where they meet, and an end that stops at another wall's side
    /// runs on into that wall's band. Ends are paired best first, each at most once.
    /// The most partners an end is paired with, best first (see `joinedEnds`).
    static let partnersKept = 8

    static func joinedEnds(_ walls: [Wall], tolerance: Double) -> [[End]] {
        var ends = walls.map { wall in
            [End(low: wall.point(along: 0, across: wall.low), high: wall.point(along: 0, across: wall.high)),
             End(low: wall.point(along: wall.segment.length, across: wall.low),
                 high: wall.point(along: wall.segment.length, across: wall.high))]
        }
        func endPoint(_ i: Int, _ e: Int) -> PlanPoint { e == 0 ? walls[i].segment.start : walls[i].segment.end }
        let minimumSine = 0.17  // about 10°: closer to parallel, walls are in line, not at a corner
        var grid = PlanGrid<Int>(cellSize: max(tolerance, 0.05))
        for i in walls.indices {
            grid.insert(2 * i, at: endPoint(i, 0))
            grid.insert(2 * i + 1, at: endPoint(i, 1))
        }
        let wallGrid = Self.grid(of: walls)

        typealias Candidate = (score: Double, i: Int, e: Int, j: Int, f: Int)
        var candidates: [Candidate] = []
        for i in walls.indices {
            for e in 0...1 {
                let p = endPoint(i, e)
                // Each end keeps its best few partners: a corner has two to four walls, and
                // 10,000 walls ending at one point (a broken file) listed every pair, 5 GB.
                var best: [Candidate] = []
                func offer(_ c: Candidate) {
                    if best.count == Self.partnersKept, let last = best.last, (last.score, last.j, last.f) <= (c.score, c.j, c.f) { return }
                    best.insert(c, at: best.firstIndex { (c.score, c.j, c.f) < ($0.score, $0.j, $0.f) } ?? best.count)
                    if best.count > Self.partnersKept { best.removeLast() }
                }
                for other in grid.elements(within: tolerance, of: p) {
                    let j = other / 2, f = other % 2
                    guard j > i else { continue }
                    let q = endPoint(j, f)
                    let sine = abs(walls[i].axis.cross(walls[j].axis))
                    if sine < minimumSine {
                        // In line: only when the two run on along one line.
                        guard abs(walls[i].segment.signedDistance(to: q)) < 0.05 else { continue }
                        offer((p.distance(to: q), i, e, j, f))
                    } else if let x = intersection(walls[i].segment.start, walls[i].axis, walls[j].segment.start, walls[j].axis),
                              x.distance(to: p) <= tolerance, x.distance(to: q) <= tolerance {
                        offer((x.distance(to: p) + x.distance(to: q), i, e, j, f))
                    }
                }
                candidates += best
            }
        }
        candidates.sort { ($0.score, $0.i, $0.e, $0.j, $0.f) < ($1.score, $1.i, $1.e, $1.j, $1.f) }
        var joined = Set<Int>()
        for c in candidates where !joined.contains(2 * c.i + c.e) && !joined.contains(2 * c.j + c.f) {
            if let (a, b) = join(walls[c.i], c.e, walls[c.j], c.f) {
                ends[c.i][c.e] = a
                ends[c.j][c.f] = b
                joined.insert(2 * c.i + c.e)
                joined.insert(2 * c.j + c.f)
            }
        }
        // Ends left over: run into the side of a wall they stop at.
        for i in walls.indices {
            for e in 0...1 where !joined.contains(2 * i + e) {
                let p = endPoint(i, e)
                var best: (distance: Double, j: Int)?
                for j in wallGrid.elements(within: tolerance, of: p) where j != i {
                    let other = walls[j]
                    guard abs(walls[i].axis.cross(other.axis)) >= minimumSine,
                          let x = intersection(walls[i].segment.start, walls[i].axis, other.segment.start, other.axis) else { continue }
                    let along = other.along(x)
                    let distance = x.distance(to: p)
                    guard distance <= tolerance, along >= -0.05, along <= other.segment.length + 0.05 else { continue }
                    if best == nil || distance < best!.distance { best = (distance, j) }
                }
                guard let best else { continue }
                let other = walls[best.j]
                let middle = other.point(along: 0, across: (other.low + other.high) / 2)
                if let low = intersection(walls[i].point(along: 0, across: walls[i].low), walls[i].axis, middle, other.axis),
                   let high = intersection(walls[i].point(along: 0, across: walls[i].high), walls[i].axis, middle, other.axis) {
                    ends[i][e] = End(low: low, high: high)
                }
            }
        }
        return ends
    }

    /// The joined ends of wall `a` (end `ea`) and wall `b` (end `eb`); nil when the join
    /// would reach absurdly far (walls at a very sharp angle), which leaves both ends as they are.
    static func join(_ a: Wall, _ ea: Int, _ b: Wall, _ eb: Int) -> (End, End)? {
        let pa = ea == 0 ? a.segment.start : a.segment.end, pb = eb == 0 ? b.segment.start : b.segment.end
        if abs(a.axis.cross(b.axis)) < 0.17 {
            // In line: both run on to the point halfway between their ends, cut square.
            let middle = (pa + pb) * 0.5
            let ta = a.along(middle), tb = b.along(middle)
            return (End(low: a.point(along: ta, across: a.low), high: a.point(along: ta, across: a.high)),
                    End(low: b.point(along: tb, across: b.low), high: b.point(along: tb, across: b.high)))
        }
        // Each wall's body runs away from the corner; the edge of one that faces the other's
        // body meets that one's facing edge (the inner corner), the far edges the outer corner.
        let intoA = ea == 0 ? a.axis : -a.axis, intoB = eb == 0 ? b.axis : -b.axis
        let aFacesB = a.normal.dot(intoB) > 0, bFacesA = b.normal.dot(intoA) > 0
        let innerA = aFacesB ? a.high : a.low, outerA = aFacesB ? a.low : a.high
        let innerB = bFacesA ? b.high : b.low, outerB = bFacesA ? b.low : b.high
        guard let inner = intersection(a.point(along: 0, across: innerA), a.axis, b.point(along: 0, across: innerB), b.axis),
              let outer = intersection(a.point(along: 0, across: outerA), a.axis, b.point(along: 0, across: outerB), b.axis)
        else { return nil }
        let reach = 4 * max(a.thickness, b.thickness) + pa.distance(to: pb) + 0.1
        guard inner.distance(to: pa) <= reach, outer.distance(to: pa) <= reach else { return nil }
        let endA = aFacesB ? End(low: outer, high: inner) : End(low: inner, high: outer)
        let endB = bFacesA ? End(low: outer, high: inner) : End(low: inner, high: outer)
        return (endA, endB)
    }

    /// The walls' indices by where their centre lines lie.
    static func grid(of walls: [Wall]) -> PlanGrid<Int> {
        var grid = PlanGrid<Int>(cellSize: 1)
        for (index, wall) in walls.enumerated() { grid.insert(index, covering: wall.segment.bounds) }
        return grid
    }

    /// Where the line through `p` along `d` meets the line through `q` along `e`; nil when parallel.
    static func intersection(_ p: PlanPoint, _ d: PlanPoint, _ q: PlanPoint, _ e: PlanPoint) -> PlanPoint? {
        let denominator = d.cross(e)
        guard abs(denominator) > 1e-9 else { return nil }
        return p + d * ((q - p).cross(e) / denominator)
    }

    /// The band between its joined ends, less the spans `cuts` (metres along the wall).
    static func pieces(of wall: Wall, ends: [End], cuts: [ClosedRange<Double>]) -> [[PlanPoint]] {
        let first = ends[0], last = ends[1]
        // Cuts stay within the part of the band both edges share, so they never cross a mitre.
        let lower = max(wall.along(first.low), wall.along(first.high))
        let upper = min(wall.along(last.low), wall.along(last.high))
        var spans: [ClosedRange<Double>] = []
        for cut in cuts.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            let clamped = max(cut.lowerBound, lower)...max(min(cut.upperBound, upper), max(cut.lowerBound, lower))
            if let previous = spans.last, clamped.lowerBound <= previous.upperBound {
                spans[spans.count - 1] = previous.lowerBound...max(previous.upperBound, clamped.upperBound)
            } else {
                spans.append(clamped)
            }
        }
        var boundaries: [End] = [first]
        for span in spans {
            boundaries.append(End(low: wall.point(along: span.lowerBound, across: wall.low),
                                  high: wall.point(along: span.lowerBound, across: wall.high)))
            boundaries.append(End(low: wall.point(along: span.upperBound, across: wall.low),
                                  high: wall.point(along: span.upperBound, across: wall.high)))
        }
        boundaries.append(last)
        var pieces: [[PlanPoint]] = []
        for k in stride(from: 0, to: boundaries.count, by: 2) {
            let from = boundaries[k], to = boundaries[k + 1]
            let lowLength = wall.along(to.low) - wall.along(from.low), highLength = wall.along(to.high) - wall.along(from.high)
            guard max(lowLength, highLength) > 0.001 else { continue }
            var piece = [from.low, to.low, to.high, from.high]
            if lowLength < 0 || highLength < 0 {
                // A wall shorter than its mitres: the edges cross; draw what they span.
                piece = convexHull(piece)
            }
            if piece.count >= 3 { pieces.append(piece) }
        }
        return pieces
    }

    // MARK: Doors, windows, openings

    private mutating func placeInserts(_ story: ExportScene.Story, roomOutlines: [[[PlanPoint]]], options: Options,
                                       cuts: inout [[ClosedRange<Double>]]) {
        var wallByIdentifier: [String: Int] = [:]
        let wallElements = story.elements(of: .wall)
        let identifiers = Dictionary(wallElements.map { ($0.handle, $0.identifier) }, uniquingKeysWith: { a, _ in a })
        for (index, wall) in walls.enumerated() {
            if let identifier = identifiers[wall.handle] { wallByIdentifier[identifier] = index }
        }
        let areas = roomOutlines.map { $0.reduce(0) { $0 + polygonArea($1) } }
        let wallGrid = Self.grid(of: walls)
        for element in story.elements where [.door, .window, .opening].contains(element.kind) {
            guard let surface = element.surface else { continue }
            let segment = surface.planSegment
            guard segment.length > 1e-3, segment.length.isFinite else { continue }
            var host = surface.parentIdentifier.flatMap { wallByIdentifier[identifier: $0] }
            if let index = host, !Self.holds(walls[index], segment, slack: 0.5, distance: 0.5) { host = nil }
            if host == nil { host = hostWall(for: segment, grid: wallGrid) }
            // Without a wall to sit in, it is drawn in a wall of its own that is not filled.
            let wall = host.map { walls[$0] } ?? Wall(handle: "", segment: segment, low: -options.wallThickness / 2,
                                                      high: options.wallThickness / 2, thicknessFromFile: false, roomSide: nil)
            let a = min(wall.along(segment.start), wall.along(segment.end))
            let b = max(wall.along(segment.start), wall.along(segment.end))
            if let host { cuts[host].append(a...b) }
            let hostHandle = host.map { walls[$0].handle }
            let band = [wall.point(along: a, across: wall.low), wall.point(along: b, across: wall.low),
                        wall.point(along: b, across: wall.high), wall.point(along: a, across: wall.high)]
            switch element.kind {
            case .door:
                let side = doorSide(wall, a: a, b: b, room: element.room, roomOutlines: roomOutlines, areas: areas)
                let face = side > 0 ? wall.high : wall.low
                // Hinged at the end nearer the wall's end, so it opens against the corner.
                let hingeAtStart = a <= wall.segment.length - b
                let hinge = wall.point(along: hingeAtStart ? a : b, across: face)
                let closed = wall.point(along: hingeAtStart ? b : a, across: face)
                doors.append(Door(handle: element.handle, hinge: hinge,
                                  leafEnd: hinge + wall.normal * (Double(side) * (b - a)), closedEnd: closed, gap: band,
                                  hostWall: hostHandle))
            case .window:
                let middle = (wall.low + wall.high) / 2, gap = min(0.025, wall.thickness / 4)
                windows.append(Window(
                    handle: element.handle,
                    frame: band,
                    glass: [-gap, gap].map { PlanSegment(start: wall.point(along: a, across: middle + $0),
                                                         end: wall.point(along: b, across: middle + $0)) },
                    hostWall: hostHandle))
            default:
                openings.append(Opening(
                    handle: element.handle,
                    faces: [wall.low, wall.high].map { PlanSegment(start: wall.point(along: a, across: $0),
                                                                   end: wall.point(along: b, across: $0)) },
                    gap: band, hostWall: hostHandle))
            }
        }
    }

    /// Whether `segment` lies in `wall`: nearly parallel, within `distance` of its line and
    /// no more than `slack` beyond its ends.
    static func holds(_ wall: Wall, _ segment: PlanSegment, slack: Double, distance: Double) -> Bool {
        guard abs(wall.axis.dot(segment.direction.normalized)) >= 0.94 else { return false }  // within 20°
        let middle = segment.midpoint
        let along = wall.along(middle)
        return abs(wall.segment.signedDistance(to: middle)) <= distance && along >= -slack && along <= wall.segment.length + slack
    }

    /// The wall a door, window or opening without a (known) parent sits in: the nearest
    /// parallel one that holds its middle.
    private func hostWall(for segment: PlanSegment, grid: PlanGrid<Int>) -> Int? {
        var best: (distance: Double, index: Int)?
        for index in grid.elements(within: 0.5, of: segment.midpoint) {
            let wall = walls[index]
            guard Self.holds(wall, segment, slack: 0.05, distance: max(0.3, wall.thickness + 0.1)) else { continue }
            let distance = abs(wall.segment.signedDistance(to: segment.midpoint))
            if best == nil || distance < best!.distance { best = (distance, index) }
        }
        return best?.index
    }

    /// Which side of `wall` a door spans `a...b` of swings into: its own room's side; for a
    /// door two rooms share, the smaller room's (a bathroom's, not the hallway's); into the
    /// building for a door to the outside. +1 is where the wall's normal points.
    private func doorSide(_ wall: Wall, a: Double, b: Double, room: Int?, roomOutlines: [[[PlanPoint]]], areas: [Double]) -> Int {
        let middle = (a + b) / 2
        let reach = max(abs(wall.low), abs(wall.high)) + 0.3
        let plus = wall.point(along: middle, across: reach), minus = wall.point(along: middle, across: -reach)
        if let room {
            let inPlus = roomOutlines[room].contains { $0.encloses(plus) }, inMinus = roomOutlines[room].contains { $0.encloses(minus) }
            if inPlus != inMinus { return inPlus ? 1 : -1 }
        }
        func smallestRoom(at point: PlanPoint) -> Double? {
            roomOutlines.indices.filter { roomOutlines[$0].contains { $0.encloses(point) } }.map { areas[$0] }.min()
        }
        switch (smallestRoom(at: plus), smallestRoom(at: minus)) {
        case (let p?, let m?): return p <= m ? 1 : -1
        case (_?, nil): return 1
        case (nil, _?): return -1
        case (nil, nil): return wall.roomSide ?? 1
        }
    }

    /// The side of `segment` that `outlines` lie on, judged a little way out from its middle;
    /// nil when both sides or neither are inside.
    static func side(of segment: PlanSegment, in outlines: [[PlanPoint]], reach: Double) -> Int? {
        let probe = segment.normal * reach
        let plus = outlines.contains { $0.encloses(segment.midpoint + probe) }
        let minus = outlines.contains { $0.encloses(segment.midpoint - probe) }
        return plus == minus ? nil : (plus ? 1 : -1)
    }

    // MARK: Labels

    /// The point of `outline` farthest from its edges and from the walls in it (and, at 0.8
    /// of the weight, from the discs in `avoiding`: other labels, door swings), found on a grid
    /// and refined around the best cell: the middle of the widest free part of an L-shaped
    /// room, never a centroid that falls outside it.
    static func labelSpot(in outline: [PlanPoint], walls: [Wall] = [],
                          avoiding: [(centre: PlanPoint, radius: Double)]) -> (point: PlanPoint, clearance: Double)? {
        guard let bounds = PlanBounds(containing: outline), bounds.width > 0, bounds.depth > 0 else { return nil }
        let edges = outline.indices.map { PlanSegment(start: outline[$0], end: outline[($0 + 1) % outline.count]) }
        let bands = walls.map { wall -> (PlanSegment, Double) in
            let shift = wall.normal * ((wall.low + wall.high) / 2)
            return (PlanSegment(start: wall.segment.start + shift, end: wall.segment.end + shift), wall.thickness / 2)
        }
        func clearance(_ p: PlanPoint) -> Double {
            let fromEdges = edges.reduce(Double.infinity) { min($0, $1.distance(to: p)) }
            return bands.reduce(fromEdges) { min($0, max(0, $1.0.distance(to: p) - $1.1)) }
        }
        // Beyond what a label needs, being near the middle counts more than more room.
        let middle = outline.centroid.flatMap { outline.encloses($0) ? $0 : nil } ?? bounds.centre
        func score(_ p: PlanPoint) -> Double {
            let free = avoiding.reduce(clearance(p)) { min($0, 0.8 * ($1.centre.distance(to: p) - $1.radius)) }
            return min(free, 1.2) - 0.02 * middle.distance(to: p)
        }
        var best: (point: PlanPoint, score: Double)?
        var step = max(bounds.width, bounds.depth) / 32
        var centre = bounds.centre, half = 16
        for _ in 0..<3 {
            for i in -half...half {
                for k in -half...half {
                    let p = PlanPoint(x: centre.x + Double(i) * step, z: centre.z + Double(k) * step)
                    guard bounds.contains(p), outline.encloses(p) else { continue }
                    let s = score(p)
                    if best == nil || s > best!.score + 1e-12 { best = (p, s) }
                }
            }
            guard let found = best else { break }
            centre = found.point
            step /= 8
            half = 8
        }
        guard let best else {
            // Too thin for the grid to land inside: the middle of its largest triangle.
            return outline.triangulated().max { polygonArea($0) < polygonArea($1) }?.centroid.map { ($0, 0) }
        }
        return (best.point, clearance(best.point))
    }
}
