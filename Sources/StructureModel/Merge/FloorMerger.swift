import Foundation

/// One floor per story whose outline is the union of its rooms' floors, as Apple's merge
/// makes it. Rooms' floors do not touch (a wall's thickness lies between them), so the
/// union is taken on a fine raster in the story's own axes (those of its longest wall, so
/// that a building at any yaw gives straight edges), the gaps up to `floorGap` closed, and
/// the outer boundary traced and simplified to its corners.
enum FloorMerger {
    /// The finest raster cell, metres; a story larger than `cellBudget` cells gets coarser
    /// ones, so the cost stays in proportion to the rooms' area, whatever its extent.
    static let cell = 0.02
    static let cellBudget = 1_000_000.0
    /// Overlap of a story's room floors (m²) that merge reports: more than scan noise and
    /// the odd misjudged wall make.
    static let overlapLimit = 1.0
    /// No scanned floor has a corner further from its capture's origin (as `check` says).
    static let farthest = 10_000.0

    static func floors(_ rooms: [CapturedRoom], options: MergeOptions, used: Set<String>, report: inout MergeReport,
                       provenance: inout [[ElementKind: [String: String]]]) -> [Surface] {
        // What a floor made for an area of its own may not be called: another structure-level
        // element, or any room's floor (a reopen links a room's floor to the structure-level
        // one of its identifier), or a floor made before it.
        var taken = Set(used.map { $0.uppercased() })
        for room in rooms { for floor in room.floors { taken.insert(floor.identifier.uppercased()) } }
        var byStory: [Int: [Int]] = [:]
        for (index, room) in rooms.enumerated() where !room.floors.isEmpty {
            byStory[room.effectiveStory ?? 0, default: []].append(index)
        }
        var result: [Surface] = []
        var roomFloors = 0
        for story in byStory.keys.sorted() {
            let members = byStory[story]!
            let all = members.flatMap { index in rooms[index].floors.map { (index, $0) } }
            roomFloors += all.count
            // A floor with a corner no scan gives (a broken number in the file: 1e30 in its
            // transform) would stretch the story's raster past any memory; it is left out, and said.
            var floors: [(Int, Surface)] = []
            for (index, floor) in all {
                if floor.planPolygon.allSatisfy({ $0.x.isFinite && $0.z.isFinite && $0.length <= farthest }) {
                    floors.append((index, floor))
                } else {
                    report.findings.append("story \(story): a floor of room \(index + 1) (\(floor.identifier)) is left out of the story's floor: "
                                           + "a corner lies further than \(Int(farthest / 1000)) km from the origin (a broken number; `check` lists it)")
                }
            }
            guard !floors.isEmpty else { continue }
            // One floor is its story's floor as it is: through the union's raster a real flat's
            // 4 corners became 6, each rounded to a centimetre (an adversarial pass).
            if floors.count == 1, let (room, only) = floors.first {
                var floor = only
                floor.story = only.story == nil ? nil : story
                result.append(floor)
                provenance[room][.floor, default: [:]][only.identifier] = only.identifier
                continue
            }
            let survivor = floors.max { polygonArea($0.1.planPolygon) < polygonArea($1.1.planPolygon) }!.1
            // (Of the walls whose direction is a direction: a column of 3.4e38 made the axis NaN.)
            func direction(_ wall: Surface) -> PlanPoint? {
                let d = PlanPoint(wall.transform.column(0)).normalized
                return d.x.isFinite && d.z.isFinite && d.length > 0.5 ? d : nil
            }
            let axis = rooms[members[0]].walls.filter { direction($0) != nil }.max { $0.dimensions.x < $1.dimensions.x }
                .flatMap(direction) ?? PlanPoint(x: 1, z: 0)
            var overlap = 0.0
            let outlines = union(floors.map(\.1.planPolygon), axis: axis, gap: options.floorGap, overlap: &overlap)
            guard !outlines.isEmpty else { continue }
            // Rooms of one story lie side by side; floors over one another are rooms not yet
            // placed (or placed wrongly), or one room scanned twice.
            if overlap > overlapLimit {
                report.findings.append("story \(story): the rooms' floors overlap by \(formatted(overlap, digits: 1)) m² "
                                       + "(is every room placed? `check` names the rooms)")
            }
            if outlines.count > 1 {
                report.findings.append("story \(story): the rooms' floors make \(outlines.count) separate areas; "
                                       + "one floor each (are all rooms aligned?)")
            }
            let height = median(floors.map { $0.1.transform.translation.y }) ?? survivor.transform.translation.y
            // Each room's floor stands for the floor of the area it lies in (all stood for the
            // first, and the story's other floors for no room: listed as "(-)", unlike a reopen,
            // which finds a room's floor by where it lies). The survivor's identifier goes to the
            // floor of its own area, so that a reopen, finding it by identifier, agrees.
            let home = outlineIndex(of: survivor.planPolygon, among: outlines)
            var identifiers: [String] = []
            for (index, outline) in outlines.enumerated() {
                var floor = survivor
                if index != home { floor.identifier = freshIdentifier(survivor.identifier, index == 0 ? home : index, taken: &taken) }
                place(&floor, outline: outline, axis: axis, height: height)
                floor.story = survivor.story == nil ? nil : story
                result.append(floor)
                identifiers.append(floor.identifier)
            }
            for (room, floor) in floors {
                provenance[room][.floor, default: [:]][floor.identifier] = identifiers[outlineIndex(of: floor.planPolygon, among: outlines, otherwise: home)]
            }
        }
        report.counts[.floor] = (roomFloors, result.count)
        return result
    }

    /// Which of a story's floor outlines a room's floor lies in: the one holding its middle,
    /// else the one holding most of its corners (an L-shaped room's middle can lie outside
    /// it), else `otherwise`.
    static func outlineIndex(of polygon: [PlanPoint], among outlines: [[PlanPoint]], otherwise: Int = 0) -> Int {
        if let middle = polygon.centroid, let index = outlines.firstIndex(where: { $0.count >= 3 && $0.encloses(middle) }) {
            return index
        }
        let held = outlines.map { outline in outline.count >= 3 ? polygon.filter(outline.encloses).count : 0 }
        guard let best = held.indices.max(by: { held[$0] < held[$1] }), held[best] > 0 else { return otherwise }
        return best
    }

    /// A floor surface over `outline`: local Z up (as RoomPlan's floors), local X along the
    /// story's axis, centred on the outline's extent, corners in local coordinates.
    static func place(_ floor: inout Surface, outline: [PlanPoint], axis: PlanPoint, height: Double) {
        let side = PlanPoint(x: axis.z, z: -axis.x)
        let xs = outline.map { $0.dot(axis) }, ys = outline.map { $0.dot(side) }
        let cx = (xs.min()! + xs.max()!) / 2, cy = (ys.min()! + ys.max()!) / 2
        let centre = axis * cx + side * cy
        floor.transform = Transform(elements: SIMD16<Float>(
            Float(axis.x), 0, Float(axis.z), 0,
            Float(side.x), 0, Float(side.z), 0,
            0, 1, 0, 0,
            Float(centre.x), Float(height), Float(centre.z), 1))
        floor.polygonCorners = outline.map { SIMD3(Float($0.dot(axis) - cx), Float($0.dot(side) - cy), 0) }
        floor.dimensions = SIMD3(Float(xs.max()! - xs.min()!), Float(ys.max()! - ys.min()!), 0)
    }

    /// An identifier for the floor of a story's `index`-th area, made from the survivor's and
    /// the same every time: its last hex digit stepped by `index`, and where that is taken (the
    /// digit comes round again after 16 areas, and a file's identifiers may run in sequence),
    /// the survivor's last eight digits stepped on until one is free.
    static func freshIdentifier(_ identifier: String, _ index: Int, taken: inout Set<String>) -> String {
        var candidate = derivedIdentifier(identifier, index)
        var step = index
        while !taken.insert(candidate.uppercased()).inserted {
            candidate = StructureMerger.offsetIdentifier(identifier, step)
            step += 1
        }
        return candidate
    }

    /// A new identifier made from another, the same every time.
    static func derivedIdentifier(_ identifier: String, _ index: Int) -> String {
        var hex = Array(identifier.uppercased())
        let digits = Array("0123456789ABCDEF")
        if let last = hex.lastIndex(where: \.isHexDigit), let value = digits.firstIndex(of: hex[last]) {
            hex[last] = digits[(value + index) % 16]
        }
        return String(hex)
    }

    /// The outer outlines of the union of `polygons`, gaps up to `gap` closed, in plan,
    /// holes left out.
    static func union(_ polygons: [[PlanPoint]], axis: PlanPoint, gap: Double) -> [[PlanPoint]] {
        var overlap = 0.0
        return union(polygons, axis: axis, gap: gap, overlap: &overlap)
    }

    /// The union, and in `overlap` the area (m²) covered by more than one polygon (but for a
    /// polygon lying mostly on earlier ones, as a rescan lies on its first scan).
    static func union(_ polygons: [[PlanPoint]], axis: PlanPoint, gap: Double, overlap: inout Double) -> [[PlanPoint]] {
        let side = PlanPoint(x: axis.z, z: -axis.x)
        let local = polygons.filter { $0.count >= 3 }.map { $0.map { PlanPoint(x: $0.dot(axis), z: $0.dot(side)) } }
        guard let bounds = PlanBounds(containing: local.joined()) else { return [] }
        let extent = (bounds.width + gap * 2) * (bounds.depth + gap * 2)
        guard extent.isFinite else { return [] }
        let cell = max(Self.cell, (extent / Self.cellBudget).squareRoot())
        let radius = Int(saturating: (gap / 2 / cell).rounded(.up))
        let margin = Double(radius + 2) * cell
        let origin = PlanPoint(x: bounds.min.x - margin, z: bounds.min.z - margin)
        let width = Int(saturating: ((bounds.width + 2 * margin) / cell).rounded(.up)) + 1
        let height = Int(saturating: ((bounds.depth + 2 * margin) / cell).rounded(.up)) + 1
        var raster = Raster(width: width, height: height)
        var twice = 0
        for polygon in local {
            let (already, covered) = raster.fill(polygon, origin: origin, cell: cell)
            // A floor lying mostly on one filled before is a rescan of that room: not an overlap.
            if Double(already) < 0.7 * Double(covered) { twice += already }
        }
        overlap = Double(twice) * cell * cell
        raster.dilate(radius)
        raster.erode(radius)
        return raster.outlines().map { loop in
            let points = loop.map { PlanPoint(x: origin.x + Double($0.x) * cell, z: origin.z + Double($0.y) * cell) }
            let simplified = simplify(points, tolerance: cell * 1.5)
            return simplified.map { axis * $0.x + side * $0.z }
        }
    }

    /// Douglas–Peucker on a closed ring: the fewest corners within `tolerance` of it.
    static func simplify(_ ring: [PlanPoint], tolerance: Double) -> [PlanPoint] {
        guard ring.count > 4 else { return ring }
        // Split the ring at its two points farthest apart and simplify each half.
        let first = 0
        let second = ring.indices.max { ring[$0].distance(to: ring[first]) < ring[$1].distance(to: ring[first]) }!
        func reduce(_ points: ArraySlice<PlanPoint>) -> [PlanPoint] {
            guard points.count > 2, let a = points.first, let b = points.last else { return Array(points) }
            let line = PlanSegment(start: a, end: b)
            var farthest = points.startIndex, distance = 0.0
            for index in points.indices.dropFirst().dropLast() {
                let d = line.length > 0 ? abs(line.signedDistance(to: points[index])) : points[index].distance(to: a)
                if d > distance { distance = d; farthest = index }
            }
            guard distance > tolerance else { return [a, b] }
            return reduce(points[points.startIndex...farthest]).dropLast() + reduce(points[farthest...points.endIndex - 1])
        }
        let closed = ring + [ring[0]]
        let left = reduce(closed[first...second]), right = reduce(closed[second...])
        return Array(left.dropLast() + right.dropLast())
    }
}

/// A grid of filled and empty cells.
struct Raster {
    let width: Int
    let height: Int
    var cells: [Bool]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        cells = Array(repeating: false, count: width * height)
    }

    subscript(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < width && y < height && cells[y * width + x]
    }

    /// Fills the cells whose centres lie inside `polygon` (even–odd, row by row).
    /// Fills the cells whose centres lie inside `polygon`; returns how many were filled
    /// already, and how many it covers.
    @discardableResult
    mutating func fill(_ polygon: [PlanPoint], origin: PlanPoint, cell: Double) -> (already: Int, covered: Int) {
        var already = 0, covered = 0
        for y in 0..<height {
            let z = origin.z + (Double(y) + 0.5) * cell
            var crossings: [Double] = []
            var j = polygon.count - 1
            for i in polygon.indices {
                let a = polygon[i], b = polygon[j]
                if (a.z > z) != (b.z > z) { crossings.append(a.x + (z - a.z) / (b.z - a.z) * (b.x - a.x)) }
                j = i
            }
            crossings.sort()
            var index = 0
            while index + 1 < crossings.count {
                let from = max(0, Int(saturating: ((crossings[index] - origin.x) / cell - 0.5).rounded(.up)))
                let to = min(width - 1, Int(saturating: ((crossings[index + 1] - origin.x) / cell - 0.5).rounded(.down)))
                if from <= to {
                    for x in from...to {
                        if cells[y * width + x] { already += 1 }
                        covered += 1
                        cells[y * width + x] = true
                    }
                }
                index += 2
            }
        }
        return (already, covered)
    }

    /// Grows the filled area by `radius` cells (a square), in two passes.
    mutating func dilate(_ radius: Int) { spread(radius, filled: true) }

    /// Shrinks it by `radius` cells.
    mutating func erode(_ radius: Int) { spread(radius, filled: false) }

    /// Sets every cell within `radius` of a cell that is `filled` to `filled`, along rows
    /// then columns (a running count keeps each pass linear).
    private mutating func spread(_ radius: Int, filled: Bool) {
        guard radius > 0 else { return }
        let (width, height) = (self.width, self.height)
        var next = cells
        // Through buffer pointers: this pass is most of a merge's time (a third at 100 rooms on
        // five stories), and the arrays' bounds checks were much of that.
        cells.withUnsafeBufferPointer { cells in
            next.withUnsafeMutableBufferPointer { next in
                for y in 0..<height {
                    let row = y * width
                    var count = 0
                    for x in 0..<min(width, radius) where cells[row + x] == filled { count += 1 }
                    for x in 0..<width {
                        if x + radius < width, cells[row + x + radius] == filled { count += 1 }
                        if x - radius - 1 >= 0, cells[row + x - radius - 1] == filled { count -= 1 }
                        next[row + x] = count > 0 ? filled : !filled
                    }
                }
            }
        }
        cells = next
        // Columns: a running count per column, advanced a whole row at a time (rows are
        // contiguous in memory; walking down a column is not).
        var counts = [Int32](repeating: 0, count: width)
        cells.withUnsafeBufferPointer { cells in
            next.withUnsafeMutableBufferPointer { next in
                counts.withUnsafeMutableBufferPointer { counts in
                    for y in 0..<min(height, radius) {
                        for x in 0..<width where cells[y * width + x] == filled { counts[x] += 1 }
                    }
                    for y in 0..<height {
                        if y + radius < height {
                            let row = (y + radius) * width
                            for x in 0..<width where cells[row + x] == filled { counts[x] += 1 }
                        }
                        if y - radius - 1 >= 0 {
                            let row = (y - radius - 1) * width
                            for x in 0..<width where cells[row + x] == filled { counts[x] -= 1 }
                        }
                        let row = y * width
                        for x in 0..<width { next[row + x] = counts[x] > 0 ? filled : !filled }
                    }
                }
            }
        }
        cells = next
    }

    /// The outer boundaries of the filled regions, as loops of cell corners, clockwise in
    /// the raster's axes (filled on the right; RoomPlan's floors list their corners this
    /// way round), holes left out.
    func outlines() -> [[SIMD2<Int>]] {
        // Every edge between a filled and an empty cell (cell (x, y) covering x...x+1,
        // y...y+1), directed with the filled cell on its right; loops follow them, taking
        // the same turn first where two loops touch at a corner.
        var outgoing: [SIMD2<Int>: [SIMD2<Int>]] = [:]
        for y in 0..<height {
            for x in 0..<width where self[x, y] {
                if !self[x, y - 1] { outgoing[SIMD2(x + 1, y), default: []].append(SIMD2(x, y)) }
                if !self[x, y + 1] { outgoing[SIMD2(x, y + 1), default: []].append(SIMD2(x + 1, y + 1)) }
                if !self[x - 1, y] { outgoing[SIMD2(x, y), default: []].append(SIMD2(x, y + 1)) }
                if !self[x + 1, y] { outgoing[SIMD2(x + 1, y + 1), default: []].append(SIMD2(x + 1, y)) }
            }
        }
        var loops: [[SIMD2<Int>]] = []
        let starts = outgoing.keys.sorted { ($0.y, $0.x) < ($1.y, $1.x) }
        for start in starts {
            while let firstNext = outgoing[start]?.first {
                var loop = [start]
                var previous = start
                var current = firstNext
                remove(&outgoing, from: start, to: firstNext)
                while current != start {
                    loop.append(current)
                    guard let choices = outgoing[current], !choices.isEmpty else { break }
                    let heading = current &- previous
                    let next = choices.min { turnRank(heading, $0 &- current) < turnRank(heading, $1 &- current) }!
                    remove(&outgoing, from: current, to: next)
                    previous = current
                    current = next
                }
                // Keep the corners only, and only outer loops (clockwise: negative area).
                let corners = loop.indices.filter { index in
                    let a = loop[(index + loop.count - 1) % loop.count], b = loop[index], c = loop[(index + 1) % loop.count]
                    return (b &- a) != (c &- b)
                }.map { loop[$0] }
                if corners.count >= 3, Self.twiceArea(corners) < 0 { loops.append(corners) }
            }
        }
        return loops
    }

    private func remove(_ outgoing: inout [SIMD2<Int>: [SIMD2<Int>]], from: SIMD2<Int>, to: SIMD2<Int>) {
        outgoing[from]?.removeAll { $0 == to }
        if outgoing[from]?.isEmpty == true { outgoing[from] = nil }
    }

    /// Left turns first, then straight, then right: loops around a shared corner separate.
    private func turnRank(_ heading: SIMD2<Int>, _ step: SIMD2<Int>) -> Int {
        let cross = heading.x * step.y - heading.y * step.x
        if cross > 0 { return 0 }
        if cross == 0 { return 1 }
        return 2
    }

    static func twiceArea(_ loop: [SIMD2<Int>]) -> Int {
        var sum = 0
        for index in loop.indices {
            let a = loop[index], b = loop[(index + 1) % loop.count]
            sum += a.x * b.y - b.x * a.y
        }
        return sum
    }
}
