import XCTest
@testable import StructureModel

final class RigidFitGeometryTests: XCTestCase {
    /// Random corners, moved by a known yaw and translation: the fit finds both, and applying
    /// the fitted `RigidMotion` to the source lands on the targets.
    func testRecoversAKnownMotion() throws {
        var rng = SplitMix(seed: 31)
        let yaws = [0, 0.3, -2.1, .pi - 1e-7, -.pi + 1e-7, .pi] + (0..<40).map { _ in rng.double(-.pi, .pi) }
        for yaw in yaws {
            let truth = RigidMotion(yaw: yaw, translation: SIMD3(rng.double(-30, 30), 0, rng.double(-30, 30)))
            let source = (0..<8).map { _ in PlanPoint(x: rng.double(-6, 6), z: rng.double(-6, 6)) }
            let target = source.map { PlanPoint(truth.apply(toPoint: SIMD3($0.x, 0, $0.z))) }
            let fit = try XCTUnwrap(RigidMotion.bestFit(from: source, to: target))
            XCTAssertEqual(normalizedAngle(fit.motion.yaw - yaw), 0, accuracy: 1e-9, "yaw \(yaw)")
            XCTAssertEqual(fit.motion.translation.x, truth.translation.x, accuracy: 1e-8)
            XCTAssertEqual(fit.motion.translation.y, 0)
            XCTAssertEqual(fit.motion.translation.z, truth.translation.z, accuracy: 1e-8)
            XCTAssertEqual(fit.rmsResidual, 0, accuracy: 1e-9)
            for (p, q) in zip(source, target) {
                let moved = fit.motion.apply(toPoint: SIMD3(p.x, 1.2, p.z))
                XCTAssertEqual(moved.x, q.x, accuracy: 1e-9)
                XCTAssertEqual(moved.z, q.z, accuracy: 1e-9)
                XCTAssertEqual(moved.y, 1.2, "heights stay")
            }
        }
    }

    func testWithNoise() throws {
        var rng = SplitMix(seed: 37)
        for _ in 0..<20 {
            let truth = RigidMotion(yaw: rng.double(-.pi, .pi), translation: SIMD3(rng.double(-10, 10), 0, rng.double(-10, 10)))
            let source = (0..<200).map { _ in PlanPoint(x: rng.double(-5, 5), z: rng.double(-5, 5)) }
            // Noise of ±2 cm on each coordinate: uniform, so its RMS per point is 0.02 · √(2/3).
            let target = source.map {
                PlanPoint(truth.apply(toPoint: SIMD3($0.x, 0, $0.z))) + PlanPoint(x: rng.double(-0.02, 0.02), z: rng.double(-0.02, 0.02))
            }
            let fit = try XCTUnwrap(RigidMotion.bestFit(from: source, to: target))
            XCTAssertEqual(normalizedAngle(fit.motion.yaw - truth.yaw), 0, accuracy: 0.002)
            XCTAssertEqual(fit.motion.translation.x, truth.translation.x, accuracy: 0.01)
            XCTAssertEqual(fit.motion.translation.z, truth.translation.z, accuracy: 0.01)
            XCTAssertEqual(fit.rmsResidual, 0.02 * (2.0 / 3).squareRoot(), accuracy: 0.003)
        }
    }

    func testWeightsAndKnownResidual() throws {
        // Three points fit exactly; a fourth, far off, is ignored with weight 0.
        let source = [PlanPoint(x: 0, z: 0), PlanPoint(x: 2, z: 0), PlanPoint(x: 0, z: 1), PlanPoint(x: 5, z: 5)]
        let truth = RigidMotion(yawDegrees: 90, translation: SIMD3(1, 0, 1))
        var target = source.map { PlanPoint(truth.apply(toPoint: SIMD3($0.x, 0, $0.z))) }
        target[3] = target[3] + PlanPoint(x: 3, z: 0)
        let weighted = try XCTUnwrap(RigidMotion.bestFit(from: source, to: target, weights: [1, 1, 1, 0]))
        XCTAssertEqual(weighted.motion.yaw, .pi / 2, accuracy: 1e-12)
        XCTAssertEqual(weighted.rmsResidual, 0, accuracy: 1e-12)
        // Two points 2 m apart against targets 2.2 m apart: the best fit leaves 0.1 m at each end.
        let stretched = try XCTUnwrap(RigidMotion.bestFit(from: [PlanPoint(x: -1, z: 0), PlanPoint(x: 1, z: 0)],
                                                          to: [PlanPoint(x: 3, z: -1.1), PlanPoint(x: 3, z: 1.1)]))
        XCTAssertEqual(stretched.motion.yaw, -.pi / 2, accuracy: 1e-12, "+X onto +Z is a clockwise quarter turn")
        XCTAssertEqual(stretched.motion.translation.x, 3, accuracy: 1e-12)
        XCTAssertEqual(stretched.rmsResidual, 0.1, accuracy: 1e-12)
    }

    func testDegenerateInput() throws {
        XCTAssertNil(RigidMotion.bestFit(from: [], to: []))
        XCTAssertNil(RigidMotion.bestFit(from: [.zero], to: [.zero, .zero]))
        XCTAssertNil(RigidMotion.bestFit(from: [.zero], to: [.zero], weights: [0]))
        XCTAssertNil(RigidMotion.bestFit(from: [.zero, .zero], to: [.zero, .zero], weights: [1, -1]))
        let one = try XCTUnwrap(RigidMotion.bestFit(from: [PlanPoint(x: 1, z: 2)], to: [PlanPoint(x: 4, z: 6)]))
        XCTAssertEqual(one.motion, RigidMotion(translation: SIMD3(3, 0, 4)), "one pair only translates")
    }
}

final class MotionTransformGeometryTests: XCTestCase {
    func testRoundTrips() {
        var rng = SplitMix(seed: 41)
        for _ in 0..<200 {
            let motion = RigidMotion(yaw: rng.double(-.pi, .pi), translation: SIMD3(rng.double(-9, 9), rng.double(-2, 2), rng.double(-9, 9)))
            let transform = motion.transform
            XCTAssertTrue(transform.isRigid)
            XCTAssertEqual(transform.yaw, motion.yaw, accuracy: 1e-6)
            let back = RigidMotion(yawAndTranslationOf: transform)
            XCTAssertEqual(normalizedAngle(back.yaw - motion.yaw), 0, accuracy: 1e-6)
            XCTAssertEqual(back.translation.x, motion.translation.x, accuracy: 1e-5)
            XCTAssertEqual(back.translation.y, motion.translation.y, accuracy: 1e-5)
            XCTAssertEqual(back.translation.z, motion.translation.z, accuracy: 1e-5)
            // And from a level transform (a wall's, say) through its motion back to it.
            let again = back.transform
            for i in 0..<16 { XCTAssertEqual(again[i], transform[i], accuracy: 1e-6) }
            // The motion moves local points as the transform maps them.
            let local = SIMD3(rng.double(-2, 2), rng.double(-2, 2), rng.double(-2, 2))
            let byTransform = transform.apply(toPoint: local), byMotion = motion.apply(toPoint: local)
            XCTAssertLessThan(((byTransform - byMotion) * (byTransform - byMotion)).sum().squareRoot(), 1e-5)
        }
    }

    func testKnownTransform() {
        let motion = RigidMotion(yawAndTranslationOf: RigidMotion(yawDegrees: 90, translation: SIMD3(1, 2, 3)).transform)
        XCTAssertEqual(motion, RigidMotion(yawDegrees: 90, translation: SIMD3(1, 2, 3)))
        XCTAssertEqual(RigidMotion.identity.transform, .identity)
    }
}
