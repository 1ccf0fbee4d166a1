import Foundation

/// A 4x4 affine transform as RoomPlan stores a `simd_float4x4`: 16 floats in
/// column-major order. Column 0 is the element's local X (a wall's length direction),
/// column 1 local Y, column 2 local Z (a wall's normal; world up for floors), column 3
/// the centre. World space is ARKit's: metres, Y up.
public struct Transform: Sendable, Hashable {
    public var elements: SIMD16<Float>

    public init(elements: SIMD16<Float>) {
        self.elements = elements
    }

    /// From exactly 16 column-major values.
    public init?(_ values: [Float]) {
        guard values.count == 16 else { return nil }
        var e = SIMD16<Float>()
        for i in 0..<16 { e[i] = values[i] }
        elements = e
    }

    public static let identity = Transform(elements: SIMD16<Float>(
        1, 0, 0, 0,
        0, 1, 0, 0,
        0, 0, 1, 0,
        0, 0, 0, 1))

    public subscript(index: Int) -> Float {
        get { elements[index] }
        set { elements[index] = newValue }
    }

    public func column(_ index: Int) -> SIMD3<Double> {
        SIMD3(Double(elements[index * 4]), Double(elements[index * 4 + 1]), Double(elements[index * 4 + 2]))
    }

    /// The centre (translation), column 3.
    public var translation: SIMD3<Double> {
        get { column(3) }
        set {
            elements[12] = Float(newValue.x)
            elements[13] = Float(newValue.y)
            elements[14] = Float(newValue.z)
        }
    }

    /// The heading of local X in the floor plan, in radians, counter-clockwise seen from
    /// above (the angle `RigidMotion(yaw:)` turns by).
    public var yaw: Double {
        let x = column(0)
        return atan2(-x.z, x.x)
    }

    /// Maps a point in the element's local frame to world space.
    public func apply(toPoint p: SIMD3<Double>) -> SIMD3<Double> {
        column(0) * p.x + column(1) * p.y + column(2) * p.z + column(3)
    }

    /// How far the 3x3 part is from a rotation and the last row from (0, 0, 0, 1):
    /// the largest deviation of any dot product or component. RoomPlan's own transforms
    /// are within about 1e-6.
    public var rigidityError: Double {
        let c = [column(0), column(1), column(2)]
        var worst = 0.0
        for i in 0..<3 {
            for j in i..<3 {
                let dot = (c[i] * c[j]).sum()
                worst = max(worst, abs(dot - (i == j ? 1 : 0)))
            }
        }
        let lastRow = [Double(elements[3]), Double(elements[7]), Double(elements[11]), Double(elements[15]) - 1]
        for value in lastRow { worst = max(worst, abs(value)) }
        // A reflection has orthonormal columns too; it is not a rigid motion.
        let determinant = (c[0] * cross(c[1], c[2])).sum()
        if determinant < 0 { worst = max(worst, 2) }
        return worst
    }

    public var isRigid: Bool { rigidityError < 1e-3 }
}

/// A rigid motion of the kind rooms need: a turn about the vertical axis, then a translation.
/// `apply` maps p to R(yaw)·p + translation.
public struct RigidMotion: Sendable, Hashable {
    /// Radians, counter-clockwise seen from above (+Y).
    public var yaw: Double
    public var translation: SIMD3<Double>

    public init(yaw: Double = 0, translation: SIMD3<Double> = .zero) {
        self.yaw = yaw
        self.translation = translation
    }

    public static let identity = RigidMotion()

    public init(yawDegrees: Double, translation: SIMD3<Double> = .zero) {
        self.init(yaw: yawDegrees * .pi / 180, translation: translation)
    }

    /// The cosine and sine of the yaw, exact for multiples of a quarter turn so that
    /// repeated quarter turns never drift.
    var cosSin: (Double, Double) {
        let quarterTurns = yaw / (.pi / 2)
        let nearest = quarterTurns.rounded()
        if abs(quarterTurns - nearest) < 1e-12 {
            switch ((Int(nearest) % 4) + 4) % 4 {
            case 0: return (1, 0)
            case 1: return (0, 1)
            case 2: return (-1, 0)
            default: return (0, -1)
            }
        }
        return (cos(yaw), sin(yaw))
    }

    public func rotate(_ v: SIMD3<Double>) -> SIMD3<Double> {
        let (c, s) = cosSin
        // Adding 0 turns a -0 (from 0 times a negative sine) into 0, as a person would write it.
        return SIMD3(c * v.x + s * v.z + 0, v.y + 0, -s * v.x + c * v.z + 0)
    }

    public func apply(toPoint p: SIMD3<Double>) -> SIMD3<Double> {
        rotate(p) + translation
    }

    /// `self` after `other`: first `other`, then `self`.
    public func composed(after other: RigidMotion) -> RigidMotion {
        RigidMotion(yaw: normalizedAngle(yaw + other.yaw), translation: rotate(other.translation) + translation)
    }

    public var inverse: RigidMotion {
        let back = RigidMotion(yaw: -yaw)
        return RigidMotion(yaw: normalizedAngle(-yaw), translation: -back.rotate(translation))
    }

    /// Moves a transform rigidly: its axes turn, its centre turns and translates.
    public func apply(to transform: Transform) -> Transform {
        var result = transform
        for columnIndex in 0..<3 {
            let v = rotate(transform.column(columnIndex))
            result.elements[columnIndex * 4] = Float(v.x)
            result.elements[columnIndex * 4 + 1] = Float(v.y)
            result.elements[columnIndex * 4 + 2] = Float(v.z)
        }
        result.translation = apply(toPoint: transform.translation)
        return result
    }
}

extension RigidMotion {
    /// The motion that carries the world axes onto a transform's: its yaw and centre. A tilt
    /// is dropped, so the round trip through `transform` is exact only for level transforms
    /// (local Y up, as walls, doors, windows and objects have; floors have local Z up).
    public init(yawAndTranslationOf transform: Transform) {
        self.init(yaw: transform.yaw, translation: transform.translation)
    }

    /// The world axes moved by this motion, as an element's transform.
    public var transform: Transform { apply(to: .identity) }
}

func normalizedAngle(_ angle: Double) -> Double {
    var a = angle.truncatingRemainder(dividingBy: 2 * .pi)
    if a <= -.pi { a += 2 * .pi }
    if a > .pi { a -= 2 * .pi }
    return a
}

func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}
