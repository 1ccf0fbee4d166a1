/// Where merged walls nearly meet, makes them meet. Rooms put side by side (by `align`, or
/// scanned in separate sessions) see a shared wall up to its thickness apart; once the two
/// copies become one structure-level wall, the walls that ran up to the other copy stop
/// short of it (or run past it) by as much. Apple's merged structures have walls that meet
/// at corners and T-junctions, and so do wb's: each loose wall end within `cornerGap` of
/// another wall's line, not parallel to it, is moved along its own line onto that line.
/// Walls keep their identifiers, planes and directions; only lengths and centres change, by
/// at most `cornerGap` at each end. Linear in the walls but for neighbours found through a grid.
enum CornerCloser {
    struct Move {
        var wall: Int
        var atStart: Bool
        var to: PlanPoint
    }

    /// Moves loose ends of `walls` onto the walls they nearly meet. Returns how many ends moved
    /// and the longest move, metres.
    static func close(_ walls: inout [Surface], gap: Double) -> (ends: Int, longest: Double) {
        // Where three walls nearly meet, each end goes to the nearest other line, and those
        // points differ by the scan's noise: a second pass brings them within millimetres.
        let first = closeOnce(&walls, gap: gap)
        let second = closeOnce(&walls, gap: gap)
        return (first.ends, max(first.longest, second.longest))
    }

    private static func closeOnce(_ walls: inout [Surface], gap: Double) -> (ends: Int, longest: Double) {
        guard gap > 0 else { return (0, 0) }
        let segments = walls.map(\.planSegment)
        var grid = PlanGrid<Int>(cellSize: 1.0)
        for (index, segment) in segments.enumerated() { grid.insert(index, covering: segment.bounds) }
        var moves: [Move] = []
        for (i, segment) in segments.enumerated() where segment.length > 0.05 {
            for atStart in [true, false] {
                let end = atStart ? segment.start : segment.end
                // An end that already touches a wall (a corner, or a collinear neighbour end to end)
                // stays: the first such wall found answers it (each end of a wall stacked thousands
                // of times looked at the whole stack). Else the nearest meeting point, the first of
                // equals by index, whatever order the grid gives the walls in.
                var touches = false
                var best: (distance: Double, wall: Int, point: PlanPoint)?
                grid.visitUnordered(intersecting: PlanBounds(min: end, max: end).expanded(by: gap)) { j in
                    guard j != i, segments[j].length > 0.05, walls[i].overlapsInHeight(walls[j]) else { return true }
                    let other = segments[j]
                    if other.distance(to: end) < 0.005 {
                        touches = true
                        return false
                    }
                    // Within the gap of the end, as the ordered search had it (its bounds within the gap).
                    guard other.bounds.distance(to: end) <= gap else { return true }
                    let sine = abs(segment.direction.normalized.cross(other.direction.normalized))
                    guard sine > 0.5, let point = segment.lineIntersection(with: other) else { return true } // 30° or more apart
                    let distance = point.distance(to: end)
                    guard distance <= gap else { return true }
                    // The meeting point lies on the other wall, or within the gap beyond its end
                    // (an L corner where both stop short).
                    let t = other.parameter(of: point), reach = gap / other.length
                    guard t >= -reach, t <= 1 + reach else { return true }
                    // The end moves along its own wall and never past its other end.
                    let along = segment.parameter(of: point)
                    guard atStart ? along < 0.5 : along > 0.5 else { return true }
                    if best.map({ (distance, j) < ($0.distance, $0.wall) }) ?? true { best = (distance, j, point) }
                    return true
                }
                if !touches, let best, best.distance >= 0.005 { moves.append(Move(wall: i, atStart: atStart, to: best.point)) }
            }
        }
        // Both ends of a wall from where they were, in one change: a wall of negative width (a
        // broken file) has its start where its direction ends, and once made whole by the first
        // move, its second move took the other end (a 3 m wall became 0.24 m, "up to 354 cm").
        var longest = 0.0
        var ends: [Int: (start: PlanPoint, end: PlanPoint)] = [:]
        for move in moves {
            let segment = segments[move.wall]
            longest = max(longest, (move.atStart ? segment.start : segment.end).distance(to: move.to))
            var pair = ends[move.wall] ?? (segment.start, segment.end)
            if move.atStart { pair.start = move.to } else { pair.end = move.to }
            ends[move.wall] = pair
        }
        for (wall, pair) in ends.sorted(by: { $0.key < $1.key }) { walls[wall].setPlanEnds(start: pair.start, end: pair.end) }
        return (moves.count, longest)
    }
}

extension PlanSegment {
    /// Where the lines through this segment and `other` cross; nil when they are parallel.
    func lineIntersection(with other: PlanSegment) -> PlanPoint? {
        let d1 = direction, d2 = other.direction
        let denominator = d1.cross(d2)
        guard abs(denominator) > 1e-12 else { return nil }
        let t = (other.start - start).cross(d2) / denominator
        return point(at: t)
    }
}

extension Surface {
    func overlapsInHeight(_ other: Surface) -> Bool {
        let a = transform.translation.y, b = other.transform.translation.y
        let ha = Double(dimensions.y) / 2, hb = Double(other.dimensions.y) / 2
        return min(a + ha, b + hb) - max(a - ha, b - hb) > 0.1
    }

    /// Makes the surface span `start` to `end` in plan, both on its own line: its centre moves
    /// and its width changes; height, direction and everything else stay.
    mutating func setPlanEnds(start: PlanPoint, end: PlanPoint) {
        let before = self
        let middle = (start + end) * 0.5
        let width = start.distance(to: end)
        transform.translation = SIMD3(middle.x, transform.translation.y, middle.z)
        dimensions.x = Float(width)
        refitOutline(from: before)
    }

    /// The outline (`polygonCorners`) of a wall whose width, height or centre changed from
    /// `before`'s: a plain rectangle becomes the new rectangle; any other outline (a sloped
    /// or gable wall) keeps its shape, its ends stretched to the new ends and every corner at
    /// the height it had. (Every outline became a rectangle: a merge that moved a gable
    /// wall's end by a centimetre, or joined two views of it, cut its gable off.)
    mutating func refitOutline(from before: Surface) {
        guard let corners = polygonCorners, !corners.isEmpty else { return }
        let w = dimensions.x / 2, h = dimensions.y / 2
        let w0 = before.dimensions.x / 2, h0 = before.dimensions.y / 2
        let rectangle = [SIMD2(-w0, -h0), SIMD2(w0, -h0), SIMD2(w0, h0), SIMD2(-w0, h0)]
        let isRectangle = corners.count == 4 && corners.allSatisfy { corner in
            abs(corner.z) < 1e-3 && rectangle.contains { abs($0.x - corner.x) < 1e-3 && abs($0.y - corner.y) < 1e-3 }
        }
        guard !isRectangle, abs(w0) > 1e-4, (w / w0).isFinite else {
            polygonCorners = [SIMD3(-w, -h, 0), SIMD3(w, -h, 0), SIMD3(w, h, 0), SIMD3(-w, h, 0)]
            return
        }
        let stretch = w / w0
        let rise = Float(before.transform.translation.y - transform.translation.y)
        polygonCorners = corners.map { SIMD3($0.x * stretch, $0.y + rise, $0.z) }
    }
}
