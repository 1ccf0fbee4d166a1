import Foundation

/// How close two rooms' copies of one element must be to become one structure-level
/// element. The defaults fit real scans: two rooms see a wall up to its thickness apart
/// (interior walls 8–20 cm, exterior up to 40 cm), a few degrees off, and a door's two
/// sides a few centimetres different in width.
public struct MergeOptions: Sendable, Hashable {
    /// Walls more than this far from parallel stay apart, degrees.
    public var wallAngle = 5.0
    /// Copies of one wall are at most this far apart across it, metres.
    public var wallGap = 0.45
    /// Walls that overlap along their length by less than this only meet end to end and
    /// stay separate walls, as Apple keeps them, metres.
    public var minimumOverlap = 0.25
    /// The two sides of a door, window or opening are at most this far apart, metres.
    public var doorGap = 0.5
    /// ... and differ in width by at most this, metres.
    public var doorWidth = 0.25
    /// An object seen twice (a rescan): same category, centres this close, metres.
    public var objectDistance = 0.3
    /// Gaps between rooms' floors up to this wide (a wall's thickness) are closed in a
    /// story's floor outline, metres.
    public var floorGap = 0.5
    /// Merged walls whose ends stop short of (or run past) another wall by up to this meet
    /// it: rooms placed side by side leave gaps of up to a wall's thickness at corners, metres.
    public var cornerGap = 0.3
    /// Identifiers to keep where copies of one element join: the copy that has one is the
    /// survivor (its identifier, plane and facing). A re-merge passes the structure's own, so
    /// that an element nobody edited keeps its identifier, handle and judgement (Apple's merge,
    /// or another tool's, chose another copy than the first room's: a re-merge renamed an
    /// unedited door, turned it about and undid its "open").
    public var keepIdentifiers: Set<String> = []

    public init() {}
}

/// What a merge did, for a person to check.
public struct MergeReport: Sendable, Equatable {
    /// Per kind: elements in the rooms, and structure-level elements made of them.
    public var counts: [ElementKind: (rooms: Int, structure: Int)] = [:]
    /// Structure-level walls made of more than one room's walls.
    public var joinedWalls = 0
    /// Room walls a scan saw in two parts (or more) that became one wall (see `continues`).
    public var joinedParts = 0
    /// Wall ends moved to meet the wall they nearly met, and the longest such move, metres.
    public var closedCorners = 0
    public var longestCornerMove = 0.0
    /// Rooms (indices into the merged rooms, in order) that lie on one another over most of
    /// both floors: one room scanned twice, a rescan laid on its first scan. Their copies
    /// merge like any other room's; this says why more than two rooms saw one doorway.
    public var scannedTwice: [[Int]] = []
    /// Pairs of rooms (indices, the earlier first) that hold elements of one identifier, with
    /// how many: one scan's file copied for another room. Structure-level elements keep
    /// identifiers unique: a second survivor of one identifier gets one derived from it.
    public var sharedIdentifiers: [(rooms: [Int], count: Int)] = []
    /// Structure-level elements given an identifier of their own for that reason.
    public var renamed = 0
    /// Things a person should look at.
    public var findings: [String] = []

    public static func == (a: MergeReport, b: MergeReport) -> Bool {
        a.joinedWalls == b.joinedWalls && a.joinedParts == b.joinedParts && a.closedCorners == b.closedCorners && a.findings == b.findings
            && a.scannedTwice == b.scannedTwice && a.renamed == b.renamed
            && a.sharedIdentifiers.map { $0.rooms + [$0.count] } == b.sharedIdentifiers.map { $0.rooms + [$0.count] }
            && a.counts.mapValues { [$0.rooms, $0.structure] } == b.counts.mapValues { [$0.rooms, $0.structure] }
    }
}

/// The result of a merge: the structure, and for every room element the identifier of
/// the structure-level element it became (provenance), per room and kind.
public struct MergeResult: Sendable {
    public var structure: CapturedStructure
    /// `provenance[room][kind][identifier]` is the structure-level identifier.
    public var provenance: [[ElementKind: [String: String]]]
    public var report: MergeReport
}

/// wb's own StructureBuilder: one `CapturedStructure` from rooms that already share a frame
/// (one session, or aligned). Shared walls, doorways and objects seen from several rooms
/// become one structure-level element that keeps the identifier of one of them; windows
/// and sections are kept; each story gets one floor whose outline is the union of its
/// rooms' floors. Candidates are found through a grid, so the cost grows with the rooms,
/// not with their square.
public enum StructureMerger {
    public static func merge(_ rooms: [CapturedRoom], options: MergeOptions = MergeOptions()) -> MergeResult {
        var merged = CapturedRoom()
        merged.version = rooms.compactMap(\.version).max() ?? 2
        merged.absentArrays = []
        var provenance = Array(repeating: [ElementKind: [String: String]](), count: rooms.count)
        var report = MergeReport()
        var places = sameRoomTwice(rooms)
        report.scannedTwice = places.groups().filter { $0.count > 1 }
        report.sharedIdentifiers = sharedIdentifiers(rooms)
        var used = Set<String>()

        // Walls first: doors, windows and openings name their wall as parent.
        var (walls, _) = mergeSurfaces(rooms, .wall, options: options, places: &places, used: &used, report: &report, provenance: &provenance)
        let closed = CornerCloser.close(&walls, gap: options.cornerGap)
        if closed.ends > 0 {
            report.closedCorners = closed.ends
            report.longestCornerMove = closed.longest
        }
        merged.walls = walls
        let wallIndex = Dictionary(walls.enumerated().map { ($1.identifier, $0) }, uniquingKeysWith: { first, _ in first })
        var wallGrid = PlanGrid<Int>(cellSize: 1.0)
        for (index, wall) in walls.enumerated() { wallGrid.insert(index, covering: wall.planSegment.bounds) }
        for kind in [ElementKind.door, .window, .opening] {
            // An opening one room saw where another saw a door is that door (Apple's merge of
            // its 11-room home keeps the door: 9 openings became 6 where wb's made 7).
            let doorways = kind == .opening ? openingsSeenAsDoors(rooms, options: options) : []
            var (surfaces, owners) = mergeSurfaces(rooms, kind, options: options, places: &places, used: &used, report: &report,
                                                   provenance: &provenance, leaveOut: Set(doorways.map { [$0.room, $0.opening] }))
            for doorway in doorways {
                let opening = rooms[doorway.room].openings[doorway.opening].identifier
                provenance[doorway.room][.opening, default: [:]][opening] = provenance[doorway.door.room][.door]?[rooms[doorway.door.room].doors[doorway.door.index].identifier]
            }
            if !doorways.isEmpty {
                report.counts[.opening] = (report.counts[.opening]!.rooms + doorways.count, report.counts[.opening]!.structure)
                report.findings.append("\(doorways.count == 1 ? "1 opening" : "\(doorways.count) openings") one room saw where another saw a door became that door")
            }
            for index in surfaces.indices {
                var host: Int?
                // Its wall as its own room knew it (two rooms may hold one identifier).
                if let parent = surfaces[index].parentIdentifier, let wall = provenance[owners[index]][.wall]?[identifier: parent] ?? wallOf(parent, rooms, provenance) {
                    surfaces[index].parentIdentifier = wall
                    host = wallIndex[wall]
                } else {
                    // No parent to follow (iOS 16 writes none; or one not in its file): the
                    // merged wall it lies in. Left where its room saw it, a door of Apple's
                    // 11-room home written as iOS 16 does lay 17 cm off its merged wall, and
                    // the IFC export wrote it in no wall.
                    host = wallHolding(surfaces[index], walls, grid: wallGrid, reach: options.wallGap)
                }
                // The survivor was one room's copy, up to a wall's thickness from the merged
                // wall's plane: it moves across onto that plane, so it sits in its wall.
                if let host {
                    let line = walls[host].planSegment
                    let centre = surfaces[index].transform.translation
                    let across = line.signedDistance(to: PlanPoint(centre))
                    if line.length > 0, abs(across) <= options.wallGap {
                        let normal = line.normal
                        surfaces[index].transform.translation = SIMD3(centre.x - normal.x * across, centre.y, centre.z - normal.z * across)
                    }
                }
            }
            merged.withSurfaces(kind.surfaceArray!) { $0 = surfaces }
        }
        merged.objects = mergeObjects(rooms, options: options, used: &used, report: &report, provenance: &provenance)
        merged.sections = rooms.flatMap(\.sections)
        report.counts[.section] = (merged.sections.count, merged.sections.count)
        merged.floors = FloorMerger.floors(rooms, options: options, used: used, report: &report, provenance: &provenance)
        return MergeResult(structure: CapturedStructure(rooms: rooms, merged: merged), provenance: provenance, report: report)
    }

    /// Rooms of one story whose floors (or walls' outlines) lie on one another over at least
    /// `twiceShare` of each: one room scanned twice. Neighbours set across a wall overlap by a
    /// strip; a rescan covers nearly all of its first scan (a generated rescan 85 to 100 %).
    static func sameRoomTwice(_ rooms: [CapturedRoom]) -> DisjointSets {
        var sets = DisjointSets(count: rooms.count)
        let outlines = rooms.map(\.planOutlines)
        let areas = outlines.map { $0.reduce(0) { $0 + abs($1.signedArea) } }
        var grid = PlanGrid<Int>(cellSize: 4)
        let bounds = outlines.map { PlanBounds(containing: $0.joined()) }
        for (index, box) in bounds.enumerated() { if let box { grid.insert(index, covering: box) } }
        for (i, box) in bounds.enumerated() {
            guard let box, areas[i] > 0 else { continue }
            for j in grid.elements(intersecting: box) where j > i && areas[j] > 0 && rooms[i].effectiveStory == rooms[j].effectiveStory {
                // Already one place (copies of one room stacked many times cost one test each).
                guard sets.find(i) != sets.find(j) else { continue }
                let shared = outlines[i].reduce(0) { sum, a in outlines[j].reduce(sum) { $0 + a.overlapArea(with: $1) } }
                if shared >= twiceShare * areas[i] && shared >= twiceShare * areas[j] { sets.union(i, j) }
            }
        }
        return sets
    }
    static let twiceShare = 0.8

    /// The structure-level wall a room's wall became.
    private static func wallOf(_ identifier: String, _ rooms: [CapturedRoom], _ provenance: [[ElementKind: [String: String]]]) -> String? {
        for table in provenance { if let wall = table[.wall]?[identifier: identifier] { return wall } }
        return nil
    }

    struct Item {
        var room: Int
        var surface: Surface
    }

    /// Union of the rooms' surfaces of one kind, copies of one element joined.
    private static func mergeSurfaces(_ rooms: [CapturedRoom], _ kind: ElementKind, options: MergeOptions, places: inout DisjointSets,
                                      used: inout Set<String>, report: inout MergeReport,
                                      provenance: inout [[ElementKind: [String: String]]],
                                      leaveOut: Set<[Int]> = []) -> (surfaces: [Surface], owners: [Int]) {
        var items: [Item] = []
        for (index, room) in rooms.enumerated() {
            for (position, surface) in room.surfaces(kind.surfaceArray!).enumerated() where !leaveOut.contains([index, position]) {
                items.append(Item(room: index, surface: surface))
            }
        }
        var grid = PlanGrid<Int>(cellSize: 1.0)
        for (index, item) in items.enumerated() { grid.insert(index, covering: item.surface.planSegment.bounds) }
        var sets = DisjointSets(count: items.count)
        // A room's parts of one wall, kept apart from the copies other rooms saw, each with its
        // longest part: parts join only on its line (a round room of 200 short walls, each
        // 1.8 degrees from the next, chained into one wall from pair to pair).
        var parts = DisjointSets(count: kind == .wall ? items.count : 0)
        var longestPart = kind == .wall ? Array(items.indices) : []
        var partSets: [Int] = []
        let reach = kind == .wall ? options.wallGap : options.doorGap
        let crowded = kind == .wall ? crowdedWalls(items) : []
        // Where each room's elements of this kind lie: an element that can join nothing of its
        // own room (a door, or a wall in a stack of copies) and lies near no other room's need
        // not look for partners (each such look cost as much as the stack).
        var roomBounds = [PlanBounds?](repeating: nil, count: rooms.count)
        for item in items { roomBounds[item.room] = roomBounds[item.room].map { $0.union(item.surface.planSegment.bounds) } ?? item.surface.planSegment.bounds }
        var roomGrid = PlanGrid<Int>(cellSize: 4.0)
        for (room, bounds) in roomBounds.enumerated() { if let bounds { roomGrid.insert(room, covering: bounds) } }
        for (i, item) in items.enumerated() {
            let area = item.surface.planSegment.bounds.expanded(by: reach)
            if kind != .wall || crowded[i] {
                var otherRoomNear = false
                roomGrid.visitUnordered(intersecting: area) { room in
                    otherRoomNear = room != item.room
                    return !otherRoomNear
                }
                if !otherRoomNear { continue }
            }
            for j in grid.elements(intersecting: area) where j > i {
                guard items[j].room != item.room else {
                    // One room's wall in two parts, the second where the first stops, is one wall.
                    guard kind == .wall, !crowded[i], !crowded[j], sets.find(i) != sets.find(j) else { continue }
                    let room = item.room
                    func otherEnds(near point: PlanPoint) -> Bool {
                        grid.elements(within: partGap, of: point).contains { k in
                            guard k != i, k != j, items[k].room == room else { return false }
                            let segment = items[k].surface.planSegment
                            return segment.start.distance(to: point) <= partGap || segment.end.distance(to: point) <= partGap
                        }
                    }
                    guard continues(item.surface, items[j].surface, otherEndsAt: otherEnds) else { continue }
                    let (pi, pj) = (parts.find(i), parts.find(j))
                    if onOneLine(items[longestPart[pi]].surface, items[longestPart[pj]].surface) {
                        sets.union(i, j)
                        parts.union(i, j)
                        let (a, b) = (longestPart[pi], longestPart[pj])
                        longestPart[parts.find(i)] = items[b].surface.dimensions.x > items[a].surface.dimensions.x ? b : a
                        partSets.append(i)
                    }
                    continue
                }
                let same = kind == .wall ? sameWall(item.surface, items[j].surface, options)
                                         : sameOpening(item.surface, items[j].surface, options)
                if same { sets.union(i, j) }
            }
        }
        if kind == .wall { report.joinedParts = Set(partSets.map { sets.find($0) }).count }
        var result: [Surface] = []
        var owners: [Int] = []
        let groups = kind == .wall ? sets.groups() : sets.groups().flatMap { group in leaves(group.map { items[$0] }).map { $0.map { group[$0] } } }
        for group in groups {
            let members = group.map { items[$0] }
            var survivor: Surface
            let kept = options.keepIdentifiers.isEmpty ? nil : members.first { options.keepIdentifiers.contains($0.surface.identifier) }
            if kind == .wall {
                survivor = joinedWall(members.map(\.surface), base: kept?.surface)
                if Set(members.map(\.room)).count > 1 { report.joinedWalls += 1 }
            } else if let kept {
                survivor = kept.surface
            } else {
                // The first room's copy; where the copies are of unlike widths (one side saw a
                // double door as one, or a doorway run into what is beside it), the widest, as
                // Apple's merge keeps it.
                let widths = members.map { Double($0.surface.dimensions.x) }
                survivor = widths.max()! - widths.min()! > options.doorWidth
                    ? members[widths.firstIndex(of: widths.max()!)!].surface : members[0].surface
                // More than two sides: more than two places (a room scanned twice is one place),
                // or one room seeing it twice (a double door's two leaves).
                let seenBy = Set(members.map(\.room))
                if Set(members.map { places.find($0.room) }).count > 2 || members.count > seenBy.count {
                    report.findings.append("\(members.count) \(kind.plural) from \(seenBy.count) rooms became one "
                                           + "(\(survivor.identifier.prefix(8))): more than the two sides of one doorway")
                }
            }
            owners.append(members.first { $0.surface.identifier == survivor.identifier }?.room ?? members[0].room)
            survivor.identifier = unique(survivor.identifier, &used, &report)
            for member in members { provenance[member.room][kind, default: [:]][member.surface.identifier] = survivor.identifier }
            result.append(survivor)
        }
        report.counts[kind] = (items.count, result.count)
        return (result, owners)
    }

    /// The wall `surface` (a door, window or opening) lies in, by where it is: along the wall
    /// (within 10 degrees), its middle within the wall's length and height, and at most `reach`
    /// across from its plane (a room's copy lies up to a wall's thickness from the merged
    /// wall); the nearest across when several are.
    static func wallHolding(_ surface: Surface, _ walls: [Surface], grid: PlanGrid<Int>, reach: Double) -> Int? {
        let segment = surface.planSegment
        let middle = segment.midpoint
        let height = surface.transform.translation.y
        var best: (index: Int, across: Double)?
        for index in grid.elements(intersecting: PlanBounds(min: middle, max: middle).expanded(by: reach)) {
            let wall = walls[index], line = walls[index].planSegment
            guard line.length > 0.001 else { continue }
            if segment.length > 0.001, line.overlap(with: segment).angle * 180 / .pi > 10 { continue }
            let across = abs(line.signedDistance(to: middle))
            let t = line.parameter(of: middle), slack = 0.05 / line.length
            guard across <= reach, t >= -slack, t <= 1 + slack else { continue }
            let bottom = wall.transform.translation.y - Double(wall.dimensions.y) / 2
            guard height >= bottom - 0.05, height <= bottom + Double(wall.dimensions.y) + 0.05 else { continue }
            if best == nil || across < best!.across || (across == best!.across && index < best!.index) { best = (index, across) }
        }
        return best?.index
    }

    /// Openings (room, index) that are a door another room saw: one doorway (`sameOpening`) with a
    /// door of another room that has no opening of its own there (a room that saw a door and
    /// an opening side by side keeps both), and with no opening of another room either (a
    /// doorway two rooms saw as an opening stays an opening). A door left open, or seen from
    /// one side only as a gap, is an opening from that side: Apple's merge keeps the door.
    static func openingsSeenAsDoors(_ rooms: [CapturedRoom], options: MergeOptions) -> [(room: Int, opening: Int, door: (room: Int, index: Int))] {
        var doors = PlanGrid<[Int]>(cellSize: 1.0), openings = PlanGrid<[Int]>(cellSize: 1.0)
        for (r, room) in rooms.enumerated() {
            for (i, door) in room.doors.enumerated() { doors.insert([r, i], covering: door.planSegment.bounds) }
            for (i, opening) in room.openings.enumerated() { openings.insert([r, i], covering: opening.planSegment.bounds) }
        }
        var result: [(room: Int, opening: Int, door: (room: Int, index: Int))] = []
        for (r, room) in rooms.enumerated() {
            for (i, opening) in room.openings.enumerated() {
                let area = opening.planSegment.bounds.expanded(by: options.doorGap)
                let others = openings.elements(intersecting: area).filter { $0[0] != r && sameOpening(opening, rooms[$0[0]].openings[$0[1]], options) }
                guard others.isEmpty else { continue }
                let candidates = doors.elements(intersecting: area).filter { $0[0] != r && sameOpening(opening, rooms[$0[0]].doors[$0[1]], options) }
                    .sorted { $0.lexicographicallyPrecedes($1) }
                guard let door = candidates.first(where: { candidate in
                    !room.doors.contains { sameOpening(opening, $0, options) && $0.planSegment.midpoint.distance(to: opening.planSegment.midpoint) < options.doorGap }
                        && !rooms[candidate[0]].openings.contains { sameOpening(opening, $0, options) }
                }) else { continue }
                result.append((r, i, (door[0], door[1])))
            }
        }
        return result
    }

    /// A group of copies of one door, window or opening split into its leaves: where one room
    /// saw two or more of them side by side (a double door's two leaves), and no copy from
    /// anyone spans two of those (a double door seen as one, which Apple's merge makes one door),
    /// each leaf stays a door of its own with the copies that lie along it. The other room's
    /// two leaves are as alike and close as the two sides of one leaf, so the copies chain into
    /// one group; kept as one, a double door whose leaves both rooms saw became one leaf, half
    /// the doorway's width. Indices into `copies`; one group where nothing is to be split.
    static func leaves(_ copies: [Item]) -> [[Int]] {
        let whole = [Array(copies.indices)]
        guard copies.count > 2 else { return whole }
        let segments = copies.map(\.surface.planSegment)
        guard segments.allSatisfy({ $0.length > 0 }) else { return whole }
        func shared(_ a: Int, _ b: Int) -> Double { segments[a].overlap(with: segments[b]).length }
        // The leaves: the copies of the room that saw the most, side by side (copies of one
        // leaf that one room holds twice lie along each other, and are one).
        var byRoom: [Int: [Int]] = [:]
        for (index, copy) in copies.enumerated() { byRoom[copy.room, default: []].append(index) }
        guard let seeds = byRoom.values.max(by: { $0.count < $1.count || ($0.count == $1.count && $0[0] > $1[0]) }), seeds.count > 1 else { return whole }
        for (n, a) in seeds.enumerated() {
            for b in seeds[(n + 1)...] where shared(a, b) >= 0.5 * min(segments[a].length, segments[b].length) { return whole }
        }
        var parts = seeds.map { [$0] }
        for index in copies.indices where !seeds.contains(index) {
            let along = seeds.map { shared($0, index) }
            // A copy over two leaves (or more) for half of each: the doorway seen as one.
            if zip(seeds, along).filter({ $1 >= 0.5 * segments[$0].length }).count > 1 { return whole }
            let distances = seeds.map { segments[$0].midpoint.distance(to: segments[index].midpoint) }
            let best = seeds.indices.max { along[$0] < along[$1] || (along[$0] == along[$1] && distances[$0] > distances[$1]) }!
            parts[best].append(index)
        }
        return parts.map { $0.sorted() }
    }

    /// Walls that continue no other wall of their room: at each of their ends, two more walls of
    /// the room end within half `partGap`. Whichever wall it is tried with, one of those two is
    /// another wall ending within `partGap` of where the pair would meet, which `continues`
    /// refuses; so the pair need not be tried. Without this, a room of thousands of copies of one
    /// wall stacked in one place tried every pair of them.
    static func crowdedWalls(_ items: [Item]) -> [Bool] {
        var ends = PlanGrid<Int>(cellSize: 0.25)
        let segments = items.map(\.surface.planSegment)
        for (index, segment) in segments.enumerated() {
            ends.insert(2 * index, at: segment.start)
            ends.insert(2 * index + 1, at: segment.end)
        }
        let radius = partGap / 2
        func crowded(_ index: Int, at point: PlanPoint) -> Bool {
            // Two distinct walls (a short one may end here twice; a visit may repeat).
            var first: Int?, second: Int?
            ends.visitUnordered(intersecting: PlanBounds(min: point, max: point).expanded(by: radius)) { end in
                let other = end / 2
                guard other != index, other != first, items[other].room == items[index].room else { return true }
                let at = end % 2 == 0 ? segments[other].start : segments[other].end
                if at.distance(to: point) <= radius {
                    if first == nil { first = other } else { second = other }
                }
                return second == nil
            }
            return second != nil
        }
        return segments.indices.map { crowded($0, at: segments[$0].start) && crowded($0, at: segments[$0].end) }
    }

    /// `identifier`, or one derived from it when a structure-level element already has it.
    private static func unique(_ identifier: String, _ used: inout Set<String>, _ report: inout MergeReport) -> String {
        if used.insert(identifier).inserted { return identifier }
        report.renamed += 1
        var step = 1
        while true {
            let candidate = offsetIdentifier(identifier, step)
            if used.insert(candidate).inserted { return candidate }
            step += 1
        }
    }

    /// `identifier` with `step` added to its last eight hex digits (wrapping): deterministic,
    /// still a UUID's shape, and 4 billion apart before it repeats.
    static func offsetIdentifier(_ identifier: String, _ step: Int) -> String {
        var characters = Array(identifier.uppercased())
        let digits = Array("0123456789ABCDEF")
        var carry = step
        for index in characters.indices.reversed() where carry > 0 {
            guard let value = digits.firstIndex(of: characters[index]) else { continue }
            let sum = value + carry
            characters[index] = digits[sum % 16]
            carry = sum / 16
        }
        return String(characters)
    }

    /// Rooms holding elements of one identifier: for each room, the earlier room it shares
    /// the most with, and how many (walls, doors, windows, openings, objects).
    static func sharedIdentifiers(_ rooms: [CapturedRoom]) -> [(rooms: [Int], count: Int)] {
        var owner: [String: Int] = [:]
        var shared: [[Int]: Int] = [:]
        for (index, room) in rooms.enumerated() {
            var own = Set<String>()
            let identifiers = room.walls.map(\.identifier) + room.doors.map(\.identifier) + room.windows.map(\.identifier)
                + room.openings.map(\.identifier) + room.objects.map(\.identifier)
            for identifier in identifiers where own.insert(identifier).inserted {
                if let earlier = owner[identifier], earlier != index { shared[[earlier, index], default: 0] += 1 } else { owner[identifier] = index }
            }
        }
        return shared.keys.sorted { $0.lexicographicallyPrecedes($1) }.map { ($0, shared[$0]!) }
    }

    /// One wall seen from two rooms: nearly parallel (either way round), at most a wall's
    /// thickness apart across, and overlapping along its length by more than where two
    /// collinear walls only meet at their ends.
    static func sameWall(_ a: Surface, _ b: Surface, _ options: MergeOptions) -> Bool {
        let s = a.planSegment, t = b.planSegment
        guard s.length > 0, t.length > 0 else { return false }
        let overlap = s.overlap(with: t)
        guard overlap.angle * 180 / .pi <= options.wallAngle, abs(overlap.offset) <= options.wallGap else { return false }
        let bottomA = a.transform.translation.y - Double(a.dimensions.y) / 2
        let bottomB = b.transform.translation.y - Double(b.dimensions.y) / 2
        guard abs(bottomA - bottomB) < 1.0 else { return false }
        return overlap.length >= min(options.minimumOverlap, 0.5 * min(s.length, t.length))
    }

    /// How far apart the two parts of one room's wall may end and still be one wall, metres.
    static let partGap = 0.12
    /// How far from one heading the two parts may be, degrees.
    static let partAngle = 2.0

    /// Whether two walls of one room are one wall the scan saw in two parts: on one line
    /// (within `partAngle`), the second beginning within `partGap` of where the first ends,
    /// running on from it (not alongside), on the same floor and about as tall, and no other
    /// wall of the room ending where they meet (`otherEndsAt`). A generated capture splits a wall
    /// so now and then (its two rooms' copies join it only where they overlap, and may miss a
    /// part: 40 of 100 homes merged, each room at its true place, had one to three walls more
    /// than the truth). Where a third wall meets them the room's outline turns there (a step of
    /// 10 cm, an alcove), and Apple's merge of a real 5-room home kept such parts apart twice
    /// (a bedroom's 1.92 m and 1.91 m parts at its alcove; a 0.49 m and a 1.32 m part at a
    /// corner); once it joined them (a hallway's 1.41 m and 1.0 m parts, where a 0.49 m wall
    /// met them), which this does not. Two rooms' walls that only meet end to end stay apart
    /// (see `sameWall`).
    static func continues(_ a: Surface, _ b: Surface, otherEndsAt: (PlanPoint) -> Bool) -> Bool {
        let s = a.planSegment, t = b.planSegment
        guard s.length > 0, t.length > 0 else { return false }
        let cosine = abs(s.direction.dot(t.direction)) / (s.length * t.length)
        guard cosine >= cos(partAngle * .pi / 180) else { return false }
        // The nearest ends and the farthest (no arrays: one room's walls are compared pairwise,
        // and a room of thousands of walls in one place made that the merge's cost).
        var near = (s.start, t.start), gap = Double.infinity, far = 0.0
        func consider(_ p: PlanPoint, _ q: PlanPoint) {
            let distance = p.distance(to: q)
            if distance < gap { (near, gap) = ((p, q), distance) }
            far = max(far, distance)
        }
        consider(s.start, t.start); consider(s.start, t.end); consider(s.end, t.start); consider(s.end, t.end)
        // End to end: as far apart at their far ends as both together, give or take the gap (two
        // copies of one wall, one a few millimetres along the other, have their near ends as close).
        guard gap <= partGap, far >= s.length + t.length - partGap else { return false }
        let bottomA = a.transform.translation.y - Double(a.dimensions.y) / 2
        let bottomB = b.transform.translation.y - Double(b.dimensions.y) / 2
        guard abs(bottomA - bottomB) <= 0.3, abs(Double(a.dimensions.y) - Double(b.dimensions.y)) <= 0.3 else { return false }
        return !otherEndsAt(PlanPoint(x: (near.0.x + near.1.x) / 2, z: (near.0.z + near.1.z) / 2))
    }

    /// Whether two walls lie on one line: within `partAngle` of one heading, and each one's ends
    /// within `partGap` of the other's line.
    static func onOneLine(_ a: Surface, _ b: Surface) -> Bool {
        let s = a.planSegment, t = b.planSegment
        guard s.length > 0, t.length > 0 else { return false }
        guard abs(s.direction.dot(t.direction)) / (s.length * t.length) >= cos(partAngle * .pi / 180) else { return false }
        return [t.start, t.end].allSatisfy { abs(s.signedDistance(to: $0)) <= partGap }
            && [s.start, s.end].allSatisfy { abs(t.signedDistance(to: $0)) <= partGap }
    }

    /// Two sides of one door, window or opening: parallel, close, about as wide, at the
    /// same height. Or, at the same height, on one line (a wall's thickness apart at most)
    /// and sharing at least half the narrower's width however unlike their widths: real
    /// rooms see one doorway very differently (in a real 5-room home merged by Apple, one
    /// room saw a double door as one 1.93 m door where the next saw two of 0.82 and 0.92 m,
    /// another a 3.78 m door where its neighbour saw 0.62 m; Apple's merge made each one
    /// door). Rooms to be merged are in place, so a look-alike elsewhere cannot pass for it.
    static func sameOpening(_ a: Surface, _ b: Surface, _ options: MergeOptions) -> Bool {
        let s = a.planSegment, t = b.planSegment
        guard abs(a.transform.translation.y - b.transform.translation.y) <= 0.3 else { return false }
        let alike = abs(Double(a.dimensions.x) - Double(b.dimensions.x)) <= options.doorWidth
        guard s.length > 0, t.length > 0 else { return alike && s.midpoint.distance(to: t.midpoint) <= options.doorGap }
        let overlap = s.overlap(with: t)
        guard overlap.angle * 180 / .pi <= 10 else { return false }
        if alike && s.midpoint.distance(to: t.midpoint) <= options.doorGap { return true }
        return abs(overlap.offset) <= options.doorGap && overlap.length >= 0.5 * min(s.length, t.length)
    }

    /// The structure-level wall for copies of one wall: the longest copy, keeping its
    /// identifier and plane, stretched along its line over every copy and as tall as the
    /// tallest (Apple extends a wall where it joins a taller neighbour).
    static func joinedWall(_ copies: [Surface], base: Surface? = nil) -> Surface {
        var wall = base ?? copies.max { ($0.dimensions.x, $1.identifier) < ($1.dimensions.x, $0.identifier) }!
        guard copies.count > 1 else { return wall }
        let before = wall
        let line = wall.planSegment
        var low = 0.0, high = 1.0
        var top = wall.transform.translation.y + Double(wall.dimensions.y) / 2
        let bottom = wall.transform.translation.y - Double(wall.dimensions.y) / 2
        for copy in copies {
            let segment = copy.planSegment
            for point in [segment.start, segment.end] {
                let t = line.parameter(of: point)
                low = min(low, t)
                high = max(high, t)
            }
            top = max(top, copy.transform.translation.y + Double(copy.dimensions.y) / 2)
        }
        let middle = line.point(at: (low + high) / 2)
        let width = (high - low) * line.length
        wall.transform.translation = SIMD3(middle.x, (bottom + top) / 2, middle.z)
        wall.dimensions.x = Float(width)
        wall.dimensions.y = Float(top - bottom)
        wall.refitOutline(from: before)
        return wall
    }

    /// Objects: every room's, an object seen twice (in a rescan) once.
    private static func mergeObjects(_ rooms: [CapturedRoom], options: MergeOptions, used: inout Set<String>, report: inout MergeReport,
                                     provenance: inout [[ElementKind: [String: String]]]) -> [Object] {
        var items: [(room: Int, object: Object)] = []
        for (index, room) in rooms.enumerated() { for object in room.objects { items.append((index, object)) } }
        var grid = PlanGrid<Int>(cellSize: 1.0)
        for (index, item) in items.enumerated() { grid.insert(index, at: PlanPoint(item.object.transform.translation)) }
        var sets = DisjointSets(count: items.count)
        for (i, item) in items.enumerated() {
            for j in grid.elements(within: options.objectDistance, of: PlanPoint(item.object.transform.translation)) where j > i {
                let other = items[j]
                guard other.room != item.room, other.object.category == item.object.category,
                      abs(other.object.transform.translation.y - item.object.transform.translation.y) < options.objectDistance else { continue }
                sets.union(i, j)
            }
        }
        var result: [Object] = []
        for group in sets.groups() {
            let members = group.map { items[$0] }
            var survivor = members.first { options.keepIdentifiers.contains($0.object.identifier) }?.object
                ?? members.max { ($0.object.confidence?.rank ?? 0) < ($1.object.confidence?.rank ?? 0) }!.object
            survivor.identifier = unique(survivor.identifier, &used, &report)
            for member in members { provenance[member.room][.object, default: [:]][member.object.identifier] = survivor.identifier }
            result.append(survivor)
        }
        report.counts[.object] = (items.count, result.count)
        return result
    }
}

/// Union–find over item numbers, with groups listed in the order of their first item.
struct DisjointSets {
    private var parent: [Int]

    init(count: Int) {
        parent = Array(0..<count)
    }

    mutating func find(_ x: Int) -> Int {
        var root = x
        while parent[root] != root { root = parent[root] }
        var node = x
        while parent[node] != root {
            let next = parent[node]
            parent[node] = root
            node = next
        }
        return root
    }

    mutating func union(_ a: Int, _ b: Int) {
        let ra = find(a), rb = find(b)
        if ra != rb { parent[max(ra, rb)] = min(ra, rb) }
    }

    mutating func groups() -> [[Int]] {
        var byRoot: [Int: Int] = [:]
        var result: [[Int]] = []
        for item in parent.indices {
            let root = find(item)
            if let index = byRoot[root] {
                result[index].append(item)
            } else {
                byRoot[root] = result.count
                result.append([item])
            }
        }
        return result
    }
}
