/// Overlap of floor outlines: how much two rooms cover the same floor, which merging and
/// aligning rooms score. Rooms are often concave (L-shaped), so a general polygon is cut into
/// convex pieces first, and convex pieces are clipped against each other.
extension Array where Element == PlanPoint {
    /// The part of this polygon inside `convexClipper` (Sutherland–Hodgman), counter-clockwise
    /// when this polygon is. The clipper must be convex; its orientation does not matter.
    /// Empty when they do not overlap. For a concave polygon the result may run along the
    /// clipper's edges between its parts (zero-width bridges), which adds no area.
    public func clipped(toConvex convexClipper: [PlanPoint]) -> [PlanPoint] {
        let clipperArea = convexClipper.signedArea
        guard clipperArea != 0 else { return [] }
        let clipper = clipperArea > 0 ? convexClipper : convexClipper.reversed()
        // Two buffers passed back and forth, not a new array for every edge (allocation was
        // most of the clipping when `align ROOM auto` tries a room beside 30 others).
        var output = self
        var input: [PlanPoint] = []
        output.reserveCapacity(count + clipper.count)
        input.reserveCapacity(count + clipper.count)
        for i in clipper.indices {
            guard !output.isEmpty else { break }
            let edgeStart = clipper[i], edge = clipper[(i + 1) % clipper.count] - edgeStart
            // Positive on the inner side of a counter-clockwise polygon's edge.
            func height(_ p: PlanPoint) -> Double { edge.cross(p - edgeStart) }
            swap(&input, &output)
            output.removeAll(keepingCapacity: true)
            var previous = input[input.count - 1]
            for current in input {
                let hp = height(previous), hc = height(current)
                if hc >= 0 {
                    if hp < 0 { output.append(previous + (current - previous) * (hp / (hp - hc))) }
                    output.append(current)
                } else if hp >= 0 {
                    output.append(previous + (current - previous) * (hp / (hp - hc)))
                }
                previous = current
            }
        }
        return output.count >= 3 ? output : []
    }

    /// Triangles that tile the polygon (ear clipping), counter-clockwise. Works for any simple
    /// polygon, concave ones included; repeated and collinear corners are dropped.
    public func triangulated() -> [[PlanPoint]] {
        var polygon = withoutRepeatedCorners
        let area = polygon.signedArea
        guard polygon.count >= 3, area != 0 else { return [] }
        if area < 0 { polygon.reverse() }
        var triangles: [[PlanPoint]] = []
        while polygon.count > 3 {
            guard let ear = polygon.earIndex(strict: true) ?? polygon.earIndex(strict: false) else {
                // Only a polygon that crosses itself has no ear; cut at its first convex corner
                // rather than loop.
                guard let convex = polygon.indices.first(where: { polygon.turn(at: $0) > 0 }) else { break }
                triangles.append(polygon.triangle(at: convex))
                polygon.remove(at: convex)
                continue
            }
            if polygon.turn(at: ear) > 0 { triangles.append(polygon.triangle(at: ear)) }
            polygon.remove(at: ear)
        }
        if polygon.count == 3, polygon.signedArea > 0 { triangles.append(polygon) }
        return triangles
    }

    /// Convex polygons that tile this one: itself when it is convex, else its triangles.
    public var convexPieces: [[PlanPoint]] {
        let polygon = withoutRepeatedCorners
        guard polygon.count >= 3 else { return [] }
        if polygon.isConvex {
            let area = polygon.signedArea
            if area == 0 { return [] }
            return area > 0 ? [polygon] : [polygon.reversed()]
        }
        return polygon.triangulated()
    }

    /// Convex pieces whose union is the area the two polygons share (pieces of one polygon
    /// clipped by pieces of the other); empty when they do not overlap.
    public func intersection(with other: [PlanPoint]) -> [[PlanPoint]] {
        guard let bounds = PlanBounds(containing: self), let otherBounds = PlanBounds(containing: other),
              bounds.intersects(otherBounds) else { return [] }
        let theirs = other.convexPieces.map { ($0, PlanBounds(containing: $0)!) }
        var pieces: [[PlanPoint]] = []
        for mine in convexPieces {
            let mineBounds = PlanBounds(containing: mine)!
            for (piece, pieceBounds) in theirs where mineBounds.intersects(pieceBounds) {
                let shared = mine.clipped(toConvex: piece)
                if shared.signedArea > 0 { pieces.append(shared) }
            }
        }
        return pieces
    }

    /// The area, m², that the two polygons share.
    public func overlapArea(with other: [PlanPoint]) -> Double {
        intersection(with: other).reduce(0) { $0 + $1.signedArea }
    }

    /// The area, m², the two polygons cover together: each one's area less what they share.
    public func unionArea(with other: [PlanPoint]) -> Double {
        polygonArea(self) + polygonArea(other) - overlapArea(with: other)
    }

    // MARK: Ear clipping

    private var withoutRepeatedCorners: [PlanPoint] {
        var result: [PlanPoint] = []
        for point in self where point != result.last { result.append(point) }
        while result.count > 1, result.first == result.last { result.removeLast() }
        return result
    }

    /// Positive where the boundary turns counter-clockwise at corner `i`.
    private func turn(at i: Int) -> Double {
        let a = self[(i + count - 1) % count], b = self[i], c = self[(i + 1) % count]
        return (b - a).cross(c - b)
    }

    private func triangle(at i: Int) -> [PlanPoint] {
        [self[(i + count - 1) % count], self[i], self[(i + 1) % count]]
    }

    /// A corner that can be cut off: a straight corner (cutting it loses nothing), or a convex
    /// one whose triangle holds no other corner. `strict` also refuses corners on the
    /// triangle's edges; the relaxed pass lets polygons that touch themselves finish.
    private func earIndex(strict: Bool) -> Int? {
        for i in indices {
            let turn = turn(at: i)
            if turn == 0 { return i }
            guard turn > 0 else { continue }
            let a = self[(i + count - 1) % count], b = self[i], c = self[(i + 1) % count]
            let blocked = indices.contains { j in
                let p = self[j]
                guard p != a, p != b, p != c else { return false }
                let ab = (b - a).cross(p - a), bc = (c - b).cross(p - b), ca = (a - c).cross(p - c)
                return strict ? (ab >= 0 && bc >= 0 && ca >= 0) : (ab > 0 && bc > 0 && ca > 0)
            }
            if !blocked { return i }
        }
        return nil
    }
}
