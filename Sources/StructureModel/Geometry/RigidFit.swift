import Foundation

/// The rigid motion in plan that best carries one set of points onto another, and how well.
public struct RigidFit: Sendable, Hashable {
    /// A turn about world Y then a translation in plan (its y is 0).
    public var motion: RigidMotion
    /// The root-mean-square distance, metres, between the moved points and their targets
    /// (weighted like the fit).
    public var rmsResidual: Double
}

extension RigidMotion {
    /// Least squares without scaling (Kabsch, Procrustes in 2-D): the yaw and translation that
    /// minimise the weighted sum of squared distances from each moved `source` point to its
    /// `target`. Aligning two scans of the same room from matched corners, doors or wall ends
    /// is this fit.
    ///
    /// nil when the lists differ in length or are empty, or a weight is negative or not finite,
    /// or the weights add up to 0. With one point (or all points at one place) the turn is not
    /// determined and the fit only translates.
    public static func bestFit(from source: [PlanPoint], to target: [PlanPoint], weights: [Double]? = nil) -> RigidFit? {
        guard !source.isEmpty, source.count == target.count else { return nil }
        let weights = weights ?? Array(repeating: 1, count: source.count)
        guard weights.count == source.count, weights.allSatisfy({ $0 >= 0 && $0.isFinite }) else { return nil }
        let total = weights.reduce(0, +)
        guard total > 0 else { return nil }
        var sourceCentre = PlanPoint.zero, targetCentre = PlanPoint.zero
        for i in source.indices {
            sourceCentre = sourceCentre + source[i] * (weights[i] / total)
            targetCentre = targetCentre + target[i] * (weights[i] / total)
        }
        // Turning p by yaw θ gives (p.x cos θ + p.z sin θ, −p.x sin θ + p.z cos θ); its dot
        // with q is cos θ (p·q) + sin θ (p × q), largest at θ = atan2(Σ w p×q, Σ w p·q).
        var cosine = 0.0, sine = 0.0
        for i in source.indices {
            let p = source[i] - sourceCentre, q = target[i] - targetCentre
            cosine += weights[i] * p.dot(q)
            sine += weights[i] * p.cross(q)
        }
        let yaw = (cosine == 0 && sine == 0) ? 0 : atan2(sine, cosine)
        let shift = targetCentre - sourceCentre.rotated(by: yaw)
        let motion = RigidMotion(yaw: yaw, translation: SIMD3(shift.x, 0, shift.z))
        var squared = 0.0
        for i in source.indices {
            let moved = source[i].rotated(by: yaw) + shift
            let d = moved.distance(to: target[i])
            squared += weights[i] * d * d
        }
        return RigidFit(motion: motion, rmsResidual: (squared / total).squareRoot())
    }
}
