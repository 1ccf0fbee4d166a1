/// A right-handed orthonormal frame in IFC coordinates (metres, Z up): what an
/// `IfcAxis2Placement3D` says. IFC places an element relative to its container's placement,
/// so frames are worked out in one space (the storey's) and made relative when written.
struct IFCFrame {
    var origin: SIMD3<Double>
    /// Local X; unit length, perpendicular to `z`.
    var x: SIMD3<Double>
    /// Local Z; unit length.
    var z: SIMD3<Double>

    static let identity = IFCFrame(origin: .zero, x: SIMD3(1, 0, 0), z: SIMD3(0, 0, 1))

    var y: SIMD3<Double> { cross(z, x) }

    /// A frame with local Z along `zAxis` and local X as near `xAxis` as is perpendicular to
    /// it; degenerate axes (zero, or X along Z) fall back to world axes rather than fail.
    init(origin: SIMD3<Double>, x xAxis: SIMD3<Double>, z zAxis: SIMD3<Double>) {
        self.origin = origin
        var z = zAxis
        let zLength = (z * z).sum().squareRoot()
        z = zLength > 1e-9 ? z / zLength : SIMD3(0, 0, 1)
        var x = xAxis - z * (xAxis * z).sum()
        var xLength = (x * x).sum().squareRoot()
        if xLength < 1e-9 {
            // Any direction across z will do.
            let helper: SIMD3<Double> = abs(z.x) < 0.9 ? SIMD3(1, 0, 0) : SIMD3(0, 1, 0)
            x = helper - z * (helper * z).sum()
            xLength = (x * x).sum().squareRoot()
        }
        self.x = x / xLength
        self.z = z
    }

    /// A point of the parent's space in this frame's coordinates.
    func local(_ point: SIMD3<Double>) -> SIMD3<Double> {
        localDirection(point - origin)
    }

    func localDirection(_ vector: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3((vector * x).sum(), (vector * y).sum(), (vector * z).sum())
    }

    /// This frame as seen from `parent` (both given in the same space).
    func relative(to parent: IFCFrame) -> IFCFrame {
        IFCFrame(origin: parent.local(origin), x: parent.localDirection(x), z: parent.localDirection(z))
    }

    /// A point given in this frame's coordinates, in the parent's space.
    func point(_ local: SIMD3<Double>) -> SIMD3<Double> {
        origin + x * local.x + y * local.y + z * local.z
    }
}

/// RoomPlan's world (right-handed, Y up) to IFC's (right-handed, Z up): (x, y, z) → (x, −z, y),
/// a rotation of a quarter turn about X, so lengths, areas and handedness are kept.
@inline(__always)
func ifcVector(_ v: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(v.x, -v.z + 0, v.y)
}
