import Foundation

/// How one segment (B) lies along another (A): what deciding "these are one wall seen from two
/// rooms" or "this door sits in this wall" needs — how much of A they share, how far apart
/// their lines are, and how far they are turned from each other.
public struct SegmentOverlap: Sendable, Hashable {
    /// The part of A that B's projection onto A's line covers, as parameters along A
    /// (0 at A's start, 1 at its end); nil when the projection misses A.
    public var interval: ClosedRange<Double>?
    /// The length of that shared part, metres (0 when `interval` is nil).
    public var length: Double
    /// The distance from A's line to B's midpoint, positive on the side A's `normal` points to.
    public var offset: Double
    /// The angle between the two lines, 0...π/2: parallel and anti-parallel both give 0, as a
    /// wall seen from the two rooms it divides runs one way in one room and the other in the other.
    public var angle: Double
    /// The turn, in radians (-π...π), from A's direction to B's, counter-clockwise seen from
    /// above positive as yaw is: near ±π for anti-parallel segments.
    public var signedAngle: Double
}

extension PlanSegment {
    /// How `other` lies along this segment.
    public func overlap(with other: PlanSegment) -> SegmentOverlap {
        let t0 = parameter(of: other.start), t1 = parameter(of: other.end)
        let low = max(0, min(t0, t1)), high = min(1, max(t0, t1))
        let interval = low <= high ? low...high : nil
        let signedAngle = atan2(direction.cross(other.direction), direction.dot(other.direction))
        let turned = abs(signedAngle)
        return SegmentOverlap(
            interval: interval,
            length: interval.map { ($0.upperBound - $0.lowerBound) * length } ?? 0,
            offset: signedDistance(to: other.midpoint),
            angle: turned > .pi / 2 ? .pi - turned : turned,
            signedAngle: signedAngle)
    }
}
