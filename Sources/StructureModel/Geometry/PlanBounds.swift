/// An axis-aligned rectangle in plan: the extent a drawing is scaled to, and the cheap first
/// test before an exact one (two elements whose bounds are apart cannot touch).
public struct PlanBounds: Sendable, Hashable {
    /// The corner with the smallest x and z.
    public var min: PlanPoint
    /// The corner with the largest x and z.
    public var max: PlanPoint

    public init(min: PlanPoint, max: PlanPoint) {
        self.min = min
        self.max = max
    }

    /// The smallest bounds holding every point; nil for none, as there is no empty rectangle
    /// that a later union would leave alone.
    public init?<Points: Sequence<PlanPoint>>(containing points: Points) {
        var iterator = points.makeIterator()
        guard let first = iterator.next() else { return nil }
        var bounds = PlanBounds(min: first, max: first)
        while let point = iterator.next() {
            bounds.min = PlanPoint(x: Swift.min(bounds.min.x, point.x), z: Swift.min(bounds.min.z, point.z))
            bounds.max = PlanPoint(x: Swift.max(bounds.max.x, point.x), z: Swift.max(bounds.max.z, point.z))
        }
        self = bounds
    }

    /// Extent along world X, metres.
    public var width: Double { max.x - min.x }
    /// Extent along world Z, metres.
    public var depth: Double { max.z - min.z }
    public var centre: PlanPoint { PlanPoint(x: (min.x + max.x) / 2, z: (min.z + max.z) / 2) }

    public func union(_ other: PlanBounds) -> PlanBounds {
        PlanBounds(min: PlanPoint(x: Swift.min(min.x, other.min.x), z: Swift.min(min.z, other.min.z)),
                   max: PlanPoint(x: Swift.max(max.x, other.max.x), z: Swift.max(max.z, other.max.z)))
    }

    /// Grown by `margin` metres on every side (shrunk for a negative margin).
    public func expanded(by margin: Double) -> PlanBounds {
        PlanBounds(min: PlanPoint(x: min.x - margin, z: min.z - margin), max: PlanPoint(x: max.x + margin, z: max.z + margin))
    }

    /// Edges count as inside.
    public func contains(_ point: PlanPoint) -> Bool {
        point.x >= min.x && point.x <= max.x && point.z >= min.z && point.z <= max.z
    }

    /// Whether the two share a point (touching edges count).
    public func intersects(_ other: PlanBounds) -> Bool {
        min.x <= other.max.x && other.min.x <= max.x && min.z <= other.max.z && other.min.z <= max.z
    }

    /// How far `point` is from the nearest point of the rectangle (0 inside).
    public func distance(to point: PlanPoint) -> Double {
        let dx = Swift.max(min.x - point.x, 0, point.x - max.x)
        let dz = Swift.max(min.z - point.z, 0, point.z - max.z)
        return (dx * dx + dz * dz).squareRoot()
    }
}
