/// A wall (or door, window, opening) seen from above: the segment its centre line covers.
public struct PlanSegment: Sendable, Hashable {
    public var start: PlanPoint
    public var end: PlanPoint

    public init(start: PlanPoint, end: PlanPoint) {
        self.start = start
        self.end = end
    }

    public var length: Double { start.distance(to: end) }

    /// The segment turned about its middle by `yaw` radians, in a yaw's sense (counter-clockwise
    /// seen from above).
    public func turned(by yaw: Double) -> PlanSegment {
        let turn = RigidMotion(yaw: yaw), m = midpoint
        func moved(_ p: PlanPoint) -> PlanPoint { m + PlanPoint(turn.rotate(SIMD3(p.x - m.x, 0, p.z - m.z))) }
        return PlanSegment(start: moved(start), end: moved(end))
    }

    /// From `start` to `end`, not normalised.
    public var direction: PlanPoint { end - start }

    public var midpoint: PlanPoint { (start + end) * 0.5 }

    /// The unit normal on the positive side (`side(of:)` is +1 there): the direction turned
    /// a quarter turn counter-clockwise seen from above. Zero for a zero-length segment.
    public var normal: PlanPoint { direction.perpendicular.normalized }

    /// The point at parameter `t` along the segment's line: `start` at 0, `end` at 1.
    public func point(at t: Double) -> PlanPoint { start + direction * t }

    /// Where `point` projects onto the segment's line, as a parameter (`start` 0, `end` 1),
    /// not clamped: values outside 0...1 say how far beyond an end the projection falls.
    /// A zero-length segment projects everything onto its start (0).
    public func parameter(of point: PlanPoint) -> Double {
        let d = direction
        let squared = d.dot(d)
        return squared > 0 ? (point - start).dot(d) / squared : 0
    }

    /// The foot of the perpendicular from `point` to the segment's (infinite) line.
    public func projection(of point: PlanPoint) -> PlanPoint { self.point(at: parameter(of: point)) }

    /// The parameter (0...1) of the point of the segment nearest to `point`.
    public func closestParameter(to point: PlanPoint) -> Double { min(1, max(0, parameter(of: point))) }

    public func closestPoint(to point: PlanPoint) -> PlanPoint { self.point(at: closestParameter(to: point)) }

    public func distance(to point: PlanPoint) -> Double { closestPoint(to: point).distance(to: point) }

    /// Distance from the line through the segment, positive on the side `normal` points to.
    public func signedDistance(to point: PlanPoint) -> Double {
        let l = length
        return l > 0 ? direction.cross(point - start) / l : 0
    }

    /// +1 when `point` lies on the side `normal` points to (counter-clockwise of the direction
    /// seen from above), -1 on the other side, 0 within `tolerance` metres of the line.
    public func side(of point: PlanPoint, tolerance: Double = 1e-9) -> Int {
        let d = signedDistance(to: point)
        return d > tolerance ? 1 : (d < -tolerance ? -1 : 0)
    }

    /// Whether the two segments share a point (touching ends and collinear overlaps count).
    public func intersects(_ other: PlanSegment) -> Bool {
        let d1 = direction.cross(other.start - start), d2 = direction.cross(other.end - start)
        let d3 = other.direction.cross(start - other.start), d4 = other.direction.cross(end - other.start)
        if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) { return true }
        // Touching or collinear: some end lies on the other segment.
        return distance(to: other.start) == 0 || distance(to: other.end) == 0
            || other.distance(to: start) == 0 || other.distance(to: end) == 0
    }

    /// The shortest distance between any point of one and any point of the other: 0 when they
    /// cross or touch, otherwise reached at an end of one of them.
    public func distance(to other: PlanSegment) -> Double {
        if intersects(other) { return 0 }
        return min(distance(to: other.start), distance(to: other.end), other.distance(to: start), other.distance(to: end))
    }

    /// How far apart the two segments' ends are, paired the way that fits better (start with
    /// start, or start with end): the larger of the two end distances of that pairing. The
    /// same wall seen from two rooms, or twice from one, runs either way round.
    public func endpointDistance(to other: PlanSegment) -> Double {
        let same = max(start.distance(to: other.start), end.distance(to: other.end))
        let reversed = max(start.distance(to: other.end), end.distance(to: other.start))
        return min(same, reversed)
    }

    public var bounds: PlanBounds {
        PlanBounds(min: PlanPoint(x: min(start.x, end.x), z: min(start.z, end.z)),
                   max: PlanPoint(x: max(start.x, end.x), z: max(start.z, end.z)))
    }
}
