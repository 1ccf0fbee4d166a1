import Foundation

/// A point in the floor plan, or a vector between two: world X and world Z, metres.
///
/// Seen from above (looking down world Y) with X to the right, Z points down the page, so
/// "counter-clockwise seen from above" is the sense in which `RigidMotion`'s yaw turns.
/// `cross`, `perpendicular`, `rotated(by:)` and every signed area and angle in `Geometry`
/// follow that one sense, so a sign computed by one primitive can be fed to another.
public struct PlanPoint: Sendable, Hashable {
    public var x: Double
    public var z: Double

    public init(x: Double, z: Double) {
        self.x = x
        self.z = z
    }

    /// The plan position of a world point: its height is dropped.
    public init(_ world: SIMD3<Double>) {
        self.init(x: world.x, z: world.z)
    }

    public static let zero = PlanPoint(x: 0, z: 0)

    public func distance(to other: PlanPoint) -> Double {
        (self - other).length
    }
}

extension PlanPoint {
    public static func + (a: PlanPoint, b: PlanPoint) -> PlanPoint { PlanPoint(x: a.x + b.x, z: a.z + b.z) }
    public static func - (a: PlanPoint, b: PlanPoint) -> PlanPoint { PlanPoint(x: a.x - b.x, z: a.z - b.z) }
    public static prefix func - (a: PlanPoint) -> PlanPoint { PlanPoint(x: -a.x, z: -a.z) }
    public static func * (a: PlanPoint, k: Double) -> PlanPoint { PlanPoint(x: a.x * k, z: a.z * k) }
    public static func * (k: Double, a: PlanPoint) -> PlanPoint { a * k }

    public func dot(_ other: PlanPoint) -> Double { x * other.x + z * other.z }

    /// The vertical (world Y) component of the 3-D cross product of the two plan vectors:
    /// positive when `other` is turned counter-clockwise from `self` seen from above (the
    /// sense of a positive yaw), |self| |other| sin of the angle between them.
    public func cross(_ other: PlanPoint) -> Double { z * other.x - x * other.z }

    public var length: Double { (x * x + z * z).squareRoot() }

    /// The unit vector in the same direction; `.zero` stays `.zero` rather than becoming NaN,
    /// so degenerate walls (zero width) do not poison sums they take part in.
    public var normalized: PlanPoint {
        let l = length
        return l > 0 ? PlanPoint(x: x / l, z: z / l) : .zero
    }

    /// Turned a quarter turn counter-clockwise seen from above; `cross` of a vector with its
    /// perpendicular is positive.
    public var perpendicular: PlanPoint { PlanPoint(x: z, z: -x) }

    /// Turned about the vertical axis by `angle` radians, exactly as `RigidMotion(yaw: angle)`
    /// turns a world point (quarter turns exact).
    public func rotated(by angle: Double) -> PlanPoint {
        let (c, s) = RigidMotion(yaw: angle).cosSin
        return PlanPoint(x: c * x + s * z + 0, z: -s * x + c * z + 0)
    }
}
