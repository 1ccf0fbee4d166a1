import XCTest
@testable import StructureModel

final class PlanVectorGeometryTests: XCTestCase {
    let a = PlanPoint(x: 3, z: -1)
    let b = PlanPoint(x: -2, z: 4)

    func testArithmetic() {
        XCTAssertEqual(a + b, PlanPoint(x: 1, z: 3))
        XCTAssertEqual(a - b, PlanPoint(x: 5, z: -5))
        XCTAssertEqual(-a, PlanPoint(x: -3, z: 1))
        XCTAssertEqual(a * 2, PlanPoint(x: 6, z: -2))
        XCTAssertEqual(0.5 * b, PlanPoint(x: -1, z: 2))
        XCTAssertEqual(a.dot(b), -10)
        XCTAssertEqual(PlanPoint(x: 3, z: 4).length, 5)
        XCTAssertEqual(a.distance(to: b), 50.0.squareRoot(), accuracy: 1e-12)
    }

    func testCrossIsPositiveInTheSenseOfYaw() {
        // The sign is the one a positive yaw turns in: X turned by +90° of yaw is −Z.
        let x = PlanPoint(x: 1, z: 0)
        let turned = x.rotated(by: .pi / 2)
        XCTAssertEqual(turned, PlanPoint(x: 0, z: -1), "quarter turns are exact")
        XCTAssertEqual(x.cross(turned), 1)
        XCTAssertEqual(turned.cross(x), -1)
        XCTAssertEqual(a.cross(b), -1 * -2 - 3 * 4, "z·other.x − x·other.z")
        XCTAssertEqual(a.cross(a * 3), 0, "parallel vectors")
        // The same sign as the world-Y component of the 3-D cross product.
        let world = cross(SIMD3(a.x, 0, a.z), SIMD3(b.x, 0, b.z))
        XCTAssertEqual(world.y, a.cross(b))
    }

    func testRotationMatchesRigidMotion() {
        var rng = SplitMix(seed: 11)
        for _ in 0..<100 {
            let angle = rng.double(-7, 7)
            let p = PlanPoint(x: rng.double(-5, 5), z: rng.double(-5, 5))
            let world = RigidMotion(yaw: angle).apply(toPoint: SIMD3(p.x, 1.5, p.z))
            let rotated = p.rotated(by: angle)
            XCTAssertEqual(rotated.x, world.x, accuracy: 1e-12)
            XCTAssertEqual(rotated.z, world.z, accuracy: 1e-12)
            XCTAssertEqual(rotated.length, p.length, accuracy: 1e-12)
        }
        let q = PlanPoint(x: 1, z: 0).rotated(by: .pi / 6)
        XCTAssertEqual(q.x, 3.0.squareRoot() / 2, accuracy: 1e-12)
        XCTAssertEqual(q.z, -0.5, accuracy: 1e-12)
    }

    func testNormalizedAndPerpendicular() {
        let n = PlanPoint(x: 3, z: 4).normalized
        XCTAssertEqual(n.x, 0.6, accuracy: 1e-15)
        XCTAssertEqual(n.z, 0.8, accuracy: 1e-15)
        XCTAssertEqual(PlanPoint.zero.normalized, .zero, "no NaN from a zero vector")
        XCTAssertEqual(a.perpendicular, PlanPoint(x: -1, z: -3))
        XCTAssertEqual(a.perpendicular.dot(a), 0)
        XCTAssertEqual(a.cross(a.perpendicular), 10, "|a|² on the counter-clockwise side")
        XCTAssertEqual(a.perpendicular, a.rotated(by: .pi / 2), "a quarter turn of yaw")
    }

    func testWorldPointDropsHeight() {
        XCTAssertEqual(PlanPoint(SIMD3(1.5, -9, 2.5)), PlanPoint(x: 1.5, z: 2.5))
    }
}
