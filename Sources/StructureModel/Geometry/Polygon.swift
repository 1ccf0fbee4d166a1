/// Polygons in plan are arrays of their corners, closed implicitly (the last corner joins the
/// first), as floors' `polygonCorners` are. "Counter-clockwise" means seen from above, the
/// sense of a positive yaw (see `PlanPoint`).
extension Array where Element == PlanPoint {
    /// Shoelace area: positive when the corners run counter-clockwise, negative clockwise.
    public var signedArea: Double {
        guard count >= 3 else { return 0 }
        var twice = 0.0
        for i in indices {
            twice += self[i].cross(self[(i + 1) % count])
        }
        return twice / 2
    }

    /// The centre of the enclosed area (a label's natural place). For a polygon that encloses
    /// nothing (all corners on a line) the mean of its corners; nil without corners.
    public var centroid: PlanPoint? {
        guard let origin = first else { return nil }
        // Relative to a corner: world coordinates can be metres away from 0, and the products
        // of large coordinates would cancel away the digits that matter.
        var twice = 0.0, sum = PlanPoint.zero
        for i in indices {
            let a = self[i] - origin, b = self[(i + 1) % count] - origin
            let c = a.cross(b)
            twice += c
            sum = sum + (a + b) * c
        }
        guard abs(twice) > 1e-12 else {
            return reduce(PlanPoint.zero, +) * (1 / Double(count))
        }
        return origin + sum * (1 / (3 * twice))
    }

    /// A point inside the polygon (even-odd, as `encloses` counts): the middle of the widest
    /// span of a line across it parallel to x, at a few heights; nil when none encloses one.
    /// Linear in the corners but for a sort of the crossings.
    func pointInsideAcross() -> PlanPoint? {
        guard count >= 3, let bounds = PlanBounds(containing: self), bounds.max.z > bounds.min.z else { return nil }
        for share in [0.5, 0.381966, 0.618034, 0.236068, 0.763932] {
            let z = bounds.min.z + (bounds.max.z - bounds.min.z) * share
            var crossings: [Double] = []
            var j = count - 1
            for i in indices {
                let a = self[i], b = self[j]
                if (a.z > z) != (b.z > z) { crossings.append(a.x + (z - a.z) / (b.z - a.z) * (b.x - a.x)) }
                j = i
            }
            crossings.sort()
            var best: (width: Double, middle: Double)?
            for pair in stride(from: 0, to: crossings.count - 1, by: 2) {
                let width = crossings[pair + 1] - crossings[pair]
                if width > (best?.width ?? 0) { best = (width, (crossings[pair] + crossings[pair + 1]) / 2) }
            }
            if let best {
                let point = PlanPoint(x: best.middle, z: z)
                if encloses(point) { return point }
            }
        }
        return nil
    }

    /// Ray casting: whether `point` lies inside. Holds for concave polygons; a point exactly
    /// on an edge may count as either.
    public func encloses(_ point: PlanPoint) -> Bool {
        var inside = false
        var j = count - 1
        for i in indices {
            let a = self[i], b = self[j]
            if (a.z > point.z) != (b.z > point.z) {
                let x = a.x + (point.z - a.z) / (b.z - a.z) * (b.x - a.x)
                if point.x < x { inside.toggle() }
            }
            j = i
        }
        return inside
    }

    /// Whether every turn goes the same way (corners in a straight line allowed, turning
    /// back on itself not): such a polygon can clip others directly.
    public var isConvex: Bool {
        var sign = 0.0
        for i in indices {
            let a = self[i], b = self[(i + 1) % count], c = self[(i + 2) % count]
            let turn = (b - a).cross(c - b)
            if turn == 0 {
                if (b - a).dot(c - b) < 0 { return false }
                continue
            }
            if sign == 0 { sign = turn } else if (sign > 0) != (turn > 0) { return false }
        }
        return true
    }
}

extension Array where Element == PlanPoint {
    /// Whether no two edges that do not follow one another touch (quadratic in corners).
    public var isSimplePolygon: Bool {
        guard count >= 3 else { return false }
        let edges = indices.map { PlanSegment(start: self[$0], end: self[($0 + 1) % count]) }
        for i in edges.indices {
            for j in (i + 2)..<Swift.max(i + 2, edges.count) where !(i == 0 && j == edges.count - 1) {
                if edges[i].intersects(edges[j]) { return false }
            }
        }
        return true
    }

    /// The polygon with every edge moved `distance` into it, corners where the moved edges
    /// meet (at most 3 × `distance` from the old one, at a sharp corner); nil when that is no
    /// longer a simple polygon of the same turning sense.
    public func inset(by distance: Double) -> [PlanPoint]? {
        guard count >= 3 else { return nil }
        let sense: Double = signedArea > 0 ? 1 : -1
        let inward = indices.map { i in (self[(i + 1) % count] - self[i]).normalized.perpendicular * sense }
        var moved: [PlanPoint] = []
        for i in indices {
            let before = (i + count - 1) % count
            let a = inward[before], b = inward[i]
            // The corner moves along the bisector by distance / cos(half the turn).
            let bisector = (a + b).normalized
            let cosine = bisector.dot(b)
            let shift = cosine > 1.0 / 3 ? distance / cosine : 3 * distance
            moved.append(self[i] + (bisector == .zero ? b : bisector) * shift)
        }
        guard moved.isSimplePolygon, moved.signedArea * sense > 0 else { return nil }
        return moved
    }
}

/// Shoelace area of a simple polygon, always positive.
public func polygonArea(_ points: [PlanPoint]) -> Double {
    abs(points.signedArea)
}

/// The convex hull of a set of plan points (Andrew's monotone chain), counter-clockwise;
/// points on its edges are left out.
public func convexHull(_ points: [PlanPoint]) -> [PlanPoint] {
    let sorted = Set(points).sorted { ($0.x, $0.z) < ($1.x, $1.z) }
    guard sorted.count >= 3 else { return sorted }
    func turnsCounterClockwise(_ o: PlanPoint, _ a: PlanPoint, _ b: PlanPoint) -> Bool {
        (a - o).cross(b - o) > 0
    }
    var lower: [PlanPoint] = []
    for p in sorted {
        while lower.count >= 2 && !turnsCounterClockwise(lower[lower.count - 2], lower[lower.count - 1], p) { lower.removeLast() }
        lower.append(p)
    }
    var upper: [PlanPoint] = []
    for p in sorted.reversed() {
        while upper.count >= 2 && !turnsCounterClockwise(upper[upper.count - 2], upper[upper.count - 1], p) { upper.removeLast() }
        upper.append(p)
    }
    return Array(lower.dropLast() + upper.dropLast())
}
