/// One room of a story's plan: a grid polygon, its label, and the rectangle inside it that
/// furniture may use.
struct PlanRoom {
    var label: String
    var isHallway: Bool
    var polygon: [GridPoint]
    var core: GridRect
}

/// Two rooms of a story to join through their shared wall, by a door or by an opening (a
/// doorway without a door). Every room has one to its hallway or its neighbour, so a home's
/// rooms can all be reached; others are extra.
struct Connection {
    var a: Int
    var b: Int
    var isOpening: Bool
    /// Room ends of the wall come this close to the doorway at most (cm): half the thickest
    /// wall that may meet it there, and some play.
    var margin: Int = 30
}

/// A story's plan: rooms (indices local to the story), the connections between them, and
/// the rooms with a front door in an outside wall.
struct StoryPlan {
    var rooms: [PlanRoom] = []
    var connections: [Connection] = []
    var entrances: [Int] = []
}

/// Lays out a story the way homes are built: each home (a unit) is a row of rooms, a
/// hallway across its whole width, and a second row of rooms, every room opening onto the
/// hallway; large stories are blocks of such units side by side and back to back, all of
/// one width so the footprint has no gaps. Then shapes are varied: a notch of one room
/// goes to its neighbour (L-shapes, alcoves), bays stand out of outside walls, building
/// corners are cut at 45°. Every room keeps 4 to 10 corners. Linear in the room count.
enum FloorLayout {
    static let maximumWalls = 10

    static func story(_ story: Int, rooms count: Int, rng: inout SplitMix) -> StoryPlan {
        let sizes = unitSizes(count, &rng)
        var layout = LayoutState()
        if sizes.count == 1 && count <= 3 {
            rowHouse(story: story, count: count, into: &layout, &rng)
        } else {
            units(story: story, sizes: sizes, into: &layout, &rng)
        }
        layout.varyShapes(&rng)
        return layout.plan
    }

    /// Homes of 4 to 9 rooms (a hallway among them); a story of up to 9 rooms is one home.
    static func unitSizes(_ count: Int, _ rng: inout SplitMix) -> [Int] {
        if count <= 9 { return [count] }
        var sizes: [Int] = []
        var remaining = count
        while remaining > 0 {
            if remaining <= 8 {
                sizes.append(remaining)
                break
            }
            var size = rng.int(5...8)
            if remaining - size < 4 { size = remaining - 4 }
            sizes.append(size)
            remaining -= size
        }
        return sizes
    }

    static func labels(story: Int, unit: Int, count: Int, _ rng: inout SplitMix) -> [String] {
        let start: [String]
        if unit == 0 && story == 0 {
            start = ["livingRoom", "kitchen", "bathroom", "bedroom", "diningRoom"]
        } else if unit == 0 {
            start = ["bedroom", "bathroom", "bedroom", "livingRoom"]
        } else {
            start = ["livingRoom", "kitchen", "bathroom", "bedroom", "bedroom"]
        }
        let others = ["bedroom", "bedroom", "bathroom", "unidentified", "diningRoom", "kitchen", "livingRoom"]
        var result = Array(start.prefix(count))
        while result.count < count { result.append(rng.pick(others)) }
        return result
    }

    /// Living rooms, then kitchens and dining rooms, then the private rooms: the first row
    /// faces the street, the second the garden.
    static func rank(_ label: String) -> Int {
        switch label {
        case "livingRoom": return 0
        case "kitchen", "diningRoom": return 1
        case "bathroom": return 3
        default: return 2
        }
    }

    static func widthWeight(_ label: String) -> Double {
        switch label {
        case "livingRoom": return 1.45
        case "diningRoom": return 1.1
        case "bedroom": return 1.15
        case "bathroom": return 0.8
        case "unidentified": return 0.9
        default: return 1.0
        }
    }

    /// Splits [low, high] at whole centimetres in proportion to `weights`.
    static func split(_ low: Int, _ high: Int, _ weights: [Double]) -> [Int] {
        let total = weights.reduce(0, +)
        var cuts = [low]
        var sum = 0.0
        for weight in weights.dropLast() {
            sum += weight
            cuts.append(low + Int((Double(high - low) * sum / total).rounded()))
        }
        cuts.append(high)
        return cuts
    }

    /// One to three rooms in a row, each door to the next: a cottage or a flat.
    static func rowHouse(story: Int, count: Int, into layout: inout LayoutState, _ rng: inout SplitMix) {
        let names = story == 0 ? ["livingRoom", "kitchen", "bedroom"] : ["bedroom", "bathroom", "bedroom"]
        let labels = Array(names.prefix(count))
        let weights = labels.map { widthWeight($0) * rng.double(0.85, 1.15) }
        let width = Int((weights.reduce(0, +) * 360).rounded())
        let depth = rng.int(340...480)
        let xs = split(0, width, weights)
        var row: [Int] = []
        for (i, label) in labels.enumerated() {
            let rect = GridRect(x0: xs[i], z0: 0, x1: xs[i + 1], z1: depth)
            row.append(layout.add(PlanRoom(label: label, isHallway: false, polygon: rect.corners, core: rect)))
            layout.exteriorSides.append((row[i], 0))
            layout.exteriorSides.append((row[i], 2))
        }
        layout.exteriorSides.append((row[0], 3))
        layout.exteriorSides.append((row[row.count - 1], 1))
        layout.plan.entrances.append(row[0])
        for i in row.indices.dropLast() {
            let pair = Set([labels[i], labels[i + 1]])
            layout.plan.connections.append(Connection(a: row[i], b: row[i + 1],
                                                      isOpening: pair == ["livingRoom", "kitchen"]))
            layout.boundaries.append(Boundary(left: row[i], right: row[i + 1], x: xs[i + 1], z0: 0, z1: depth,
                                              outerIsLow: rng.chance(0.5)))
        }
        layout.footprint = GridRect(x0: 0, z0: 0, x1: width, z1: depth)
    }

    /// Homes with a hallway, in rows of homes of one total width.
    static func units(story: Int, sizes: [Int], into layout: inout LayoutState, _ rng: inout SplitMix) {
        struct Draft {
            var top: [(label: String, weight: Double)]
            var bottom: [(label: String, weight: Double)]
            var natural: Double
        }
        var drafts: [Draft] = []
        for (unit, size) in sizes.enumerated() {
            let labels = labels(story: story, unit: unit, count: size - 1, &rng)
            let ordered = labels.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }
                .map(\.element)
            let topCount = (ordered.count + 1) / 2
            var top = ordered.prefix(topCount).map { ($0, widthWeight($0) * rng.double(0.85, 1.15)) }
            var bottom = ordered.dropFirst(topCount).map { ($0, widthWeight($0) * rng.double(0.85, 1.15)) }
            if rng.chance(0.5) { top.reverse() }
            if rng.chance(0.5) { bottom.reverse() }
            let natural = max(top.reduce(0) { $0 + $1.1 }, bottom.reduce(0) { $0 + $1.1 }) * 330
            drafts.append(Draft(top: top, bottom: bottom, natural: natural))
        }
        let rowCount = max(1, Int(Double(sizes.count).squareRoot().rounded()))
        var unitRows: [Range<Int>] = []
        var next = 0
        for r in 0..<rowCount {
            let n = (sizes.count - next) / (rowCount - r)
            unitRows.append(next..<(next + n))
            next += n
        }
        let width = Int(unitRows.map { row in row.reduce(0.0) { $0 + drafts[$1].natural } }.max()!.rounded())
        var z = 0
        var previousHallway: Int?
        for (r, row) in unitRows.enumerated() {
            let topDepth = rng.int(320...470), hallDepth = rng.int(120...160), bottomDepth = rng.int(290...430)
            let zHall = z + topDepth, zBottom = zHall + hallDepth, zEnd = zBottom + bottomDepth
            let unitXs = split(0, width, row.map { drafts[$0].natural })
            previousHallway = nil
            for (j, unit) in row.enumerated() {
                let draft = drafts[unit]
                let x0 = unitXs[j], x1 = unitXs[j + 1]
                // Rooms in reading order: the first row, the hallway, the second row.
                var unitRooms: [Int] = []
                var hallway = 0
                for (rowIndex, rooms) in [draft.top, draft.bottom].enumerated() {
                    let isTop = rowIndex == 0
                    if !isTop {
                        let hallRect = GridRect(x0: x0, z0: zHall, x1: x1, z1: zBottom)
                        hallway = layout.add(PlanRoom(label: "unidentified", isHallway: true, polygon: hallRect.corners,
                                                      core: hallRect))
                        if let previousHallway, rng.chance(0.6) {
                            // Hallways of neighbouring homes in one row line up: a corridor through the block.
                            layout.plan.connections.append(Connection(a: previousHallway, b: hallway, isOpening: true,
                                                                      margin: 20))
                        }
                        previousHallway = hallway
                    }
                    let (rz0, rz1) = isTop ? (z, zHall) : (zBottom, zEnd)
                    let xs = split(x0, x1, rooms.map(\.weight))
                    var indices: [Int] = []
                    for (i, room) in rooms.enumerated() {
                        let rect = GridRect(x0: xs[i], z0: rz0, x1: xs[i + 1], z1: rz1)
                        let index = layout.add(PlanRoom(label: room.label, isHallway: false, polygon: rect.corners,
                                                        core: rect))
                        indices.append(index)
                        unitRooms.append(index)
                        if isTop && r == 0 { layout.exteriorSides.append((index, 0)) }
                        if !isTop && r == unitRows.count - 1 { layout.exteriorSides.append((index, 2)) }
                        if i == 0 && j == 0 { layout.exteriorSides.append((index, 3)) }
                        if i == rooms.count - 1 && j == row.count - 1 { layout.exteriorSides.append((index, 1)) }
                    }
                    for i in indices.indices.dropLast() {
                        let pair = Set([rooms[i].label, rooms[i + 1].label])
                        if pair.isSubset(of: ["livingRoom", "kitchen", "diningRoom"]) && pair.count == 2 {
                            if rng.chance(0.7) {
                                layout.plan.connections.append(Connection(a: indices[i], b: indices[i + 1],
                                                                          isOpening: true))
                            }
                        } else if rng.chance(pair == ["bedroom", "bathroom"] ? 0.35 : 0.12) {
                            layout.plan.connections.append(Connection(a: indices[i], b: indices[i + 1],
                                                                      isOpening: false))
                        }
                        layout.boundaries.append(Boundary(left: indices[i], right: indices[i + 1], x: xs[i + 1],
                                                          z0: rz0, z1: rz1, outerIsLow: isTop))
                    }
                }
                for room in unitRooms {
                    layout.plan.connections.append(Connection(a: hallway, b: room, isOpening: false))
                }
                if j == 0 || j == row.count - 1 {
                    // The hallway reaches an outside wall: the front door is there.
                    layout.plan.entrances.append(hallway)
                }
            }
            z = zEnd
        }
        layout.footprint = GridRect(x0: 0, z0: 0, x1: width, z1: z)
    }
}

/// Two rooms of one row side by side along x = `x`; `outerIsLow` says which end of the
/// boundary (z0 or z1) is away from the hallway.
struct Boundary {
    var left: Int
    var right: Int
    var x: Int
    var z0: Int
    var z1: Int
    var outerIsLow: Bool
}

/// A story's plan while it is laid out and its shapes varied.
struct LayoutState {
    var plan = StoryPlan()
    var boundaries: [Boundary] = []
    /// Sides of the rooms' first rectangles that face outside: 0 low z, 1 high x, 2 high z, 3 low x.
    var exteriorSides: [(room: Int, side: Int)] = []
    var footprint = GridRect(x0: 0, z0: 0, x1: 0, z1: 0)

    mutating func add(_ room: PlanRoom) -> Int {
        plan.rooms.append(room)
        return plan.rooms.count - 1
    }

    /// Gives the rooms their new polygons only if every one exists and has 4 to 10 walls.
    private mutating func tryChange(_ changes: [(room: Int, polygon: [GridPoint]?)]) -> Bool {
        for (_, polygon) in changes {
            guard let polygon, polygon.count >= 4, polygon.count <= FloorLayout.maximumWalls else { return false }
        }
        for (room, polygon) in changes { plan.rooms[room].polygon = polygon! }
        return true
    }

    mutating func varyShapes(_ rng: inout SplitMix) {
        for boundary in boundaries where rng.chance(0.55) { notch(boundary, &rng) }
        for (room, side) in exteriorSides where rng.chance(0.3) { bay(room: room, side: side, &rng) }
        let f = footprint
        for corner in [GridPoint(x: f.x0, z: f.z0), GridPoint(x: f.x1, z: f.z0),
                       GridPoint(x: f.x1, z: f.z1), GridPoint(x: f.x0, z: f.z1)] where rng.chance(0.5) {
            cutCorner(corner, &rng)
        }
    }

    /// A notch of one room goes to the other: at the outer end or the hallway end of their
    /// boundary (both rooms become L-shaped) or in its middle (an alcove in one, a bump in
    /// the other).
    private mutating func notch(_ b: Boundary, _ rng: inout SplitMix) {
        let leftGives = rng.chance(0.5)
        let giver = leftGives ? b.left : b.right
        let core = plan.rooms[giver].core
        let depth = b.z1 - b.z0
        let maxNotch = min(120, core.width - 200)
        guard maxNotch >= 60 else { return }
        let d = rng.int(60...maxNotch)
        let p: Int, q: Int
        let kind = rng.double(0, 1)
        if kind < 0.6 || depth < 340 {
            let length = rng.int(100...(depth - 140))
            let atLow = kind < 0.3 ? b.outerIsLow : !b.outerIsLow
            (p, q) = atLow ? (b.z0, b.z0 + length) : (b.z1 - length, b.z1)
        } else {
            let length = rng.int(100...min(200, depth - 240))
            p = rng.int((b.z0 + 100)...(b.z1 - 100 - length))
            q = p + length
        }
        let nx = leftGives ? b.x - d : b.x + d
        let hole = GridRect(x0: min(nx, b.x), z0: p, x1: max(nx, b.x), z1: q)
        let left = GridPolygon.insertingDetour(plan.rooms[b.left].polygon, from: GridPoint(x: b.x, z: p),
                                               to: GridPoint(x: b.x, z: q),
                                               via: [GridPoint(x: nx, z: p), GridPoint(x: nx, z: q)])
        let right = GridPolygon.insertingDetour(plan.rooms[b.right].polygon, from: GridPoint(x: b.x, z: q),
                                                to: GridPoint(x: b.x, z: p),
                                                via: [GridPoint(x: nx, z: q), GridPoint(x: nx, z: p)])
        if tryChange([(b.left, left), (b.right, right)]) {
            plan.rooms[giver].core = core.largestPart(avoiding: hole)
        }
    }

    /// A bay window's box (or a three-sided bay, its sides at 45°) standing out of an outside wall.
    private mutating func bay(room: Int, side: Int, _ rng: inout SplitMix) {
        guard !plan.rooms[room].isHallway else { return }
        let rect = boundingRect(room)
        let ends = rect.corners
        let start = ends[side], end = ends[(side + 1) % 4]
        let length = max(abs(end.x - start.x), abs(end.z - start.z))
        guard length >= 390 else { return }
        let direction = (end - start).sign
        let outward = GridPoint(x: direction.z, z: -direction.x)
        let width = rng.int(120...min(260, length - 260))
        let offset = rng.int(130...(length - 130 - width))
        let depth = rng.int(50...90)
        let p = start + direction * offset, q = p + direction * width
        let via: [GridPoint]
        if width >= 2 * depth + 60 && rng.chance(0.5) {
            via = [p + direction * depth + outward * depth, q - direction * depth + outward * depth]
        } else {
            via = [p + outward * depth, q + outward * depth]
        }
        _ = tryChange([(room, GridPolygon.insertingDetour(plan.rooms[room].polygon, from: p, to: q, via: via))])
    }

    /// The box around a room. A notch never reaches across a room, so an outside side of
    /// the box is the room's outside wall, less at most 120 cm at one end.
    private func boundingRect(_ room: Int) -> GridRect {
        let points = plan.rooms[room].polygon
        return GridRect(x0: points.map(\.x).min()!, z0: points.map(\.z).min()!,
                        x1: points.map(\.x).max()!, z1: points.map(\.z).max()!)
    }

    private mutating func cutCorner(_ corner: GridPoint, _ rng: inout SplitMix) {
        guard let room = plan.rooms.firstIndex(where: { $0.polygon.contains(corner) }),
              let (a, b) = GridPolygon.edgeSpans(plan.rooms[room].polygon, at: corner) else { return }
        let leg = rng.int(60...120)
        guard min(a, b) >= leg + 50 else { return }
        guard tryChange([(room, GridPolygon.cuttingCorner(plan.rooms[room].polygon, at: corner, leg: leg))]) else { return }
        var core = plan.rooms[room].core
        let nearX = abs(core.x0 - corner.x) < leg ? 0 : abs(core.x1 - corner.x) < leg ? 1 : -1
        let nearZ = abs(core.z0 - corner.z) < leg ? 0 : abs(core.z1 - corner.z) < leg ? 1 : -1
        guard nearX >= 0, nearZ >= 0 else { return }
        var shrunkX = core, shrunkZ = core
        if nearX == 0 { shrunkX.x0 = corner.x + leg } else { shrunkX.x1 = corner.x - leg }
        if nearZ == 0 { shrunkZ.z0 = corner.z + leg } else { shrunkZ.z1 = corner.z - leg }
        core = shrunkX.area >= shrunkZ.area ? shrunkX : shrunkZ
        plan.rooms[room].core = core
    }
}
