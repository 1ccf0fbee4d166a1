import XCTest
@testable import StructureModel

final class SegmentGeometryTests: XCTestCase {
    let wall = PlanSegment(start: PlanPoint(x: 0, z: 0), end: PlanPoint(x: 4, z: 0))

    func testParameterProjectionAndClosestPoint() {
        XCTAssertEqual(wall.parameter(of: PlanPoint(x: 1, z: 3)), 0.25)
        XCTAssertEqual(wall.parameter(of: PlanPoint(x: 6, z: -1)), 1.5, "not clamped")
        XCTAssertEqual(wall.projection(of: PlanPoint(x: 6, z: -1)), PlanPoint(x: 6, z: 0))
        XCTAssertEqual(wall.closestParameter(to: PlanPoint(x: 6, z: -1)), 1)
        XCTAssertEqual(wall.closestPoint(to: PlanPoint(x: 6, z: -1)), PlanPoint(x: 4, z: 0))
        XCTAssertEqual(wall.closestPoint(to: PlanPoint(x: -3, z: 2)), PlanPoint(x: 0, z: 0))
        XCTAssertEqual(wall.closestPoint(to: PlanPoint(x: 2.5, z: 7)), PlanPoint(x: 2.5, z: 0))
        XCTAssertEqual(wall.point(at: 0.75), PlanPoint(x: 3, z: 0))
        XCTAssertEqual(wall.midpoint, PlanPoint(x: 2, z: 0))
    }

    func testPointDistance() {
        XCTAssertEqual(wall.distance(to: PlanPoint(x: 2, z: -1.5)), 1.5)
        XCTAssertEqual(wall.distance(to: PlanPoint(x: 7, z: 4)), 5, "beyond the end: to the end point")
        XCTAssertEqual(wall.distance(to: PlanPoint(x: 3, z: 0)), 0)
        let slanted = PlanSegment(start: PlanPoint(x: 1, z: 1), end: PlanPoint(x: 3, z: 3))
        XCTAssertEqual(slanted.distance(to: PlanPoint(x: 3, z: 1)), 2.0.squareRoot(), accuracy: 1e-12)
        let point = PlanSegment(start: PlanPoint(x: 1, z: 1), end: PlanPoint(x: 1, z: 1))
        XCTAssertEqual(point.distance(to: PlanPoint(x: 4, z: 5)), 5, "a zero-length segment is its point")
    }

    func testSideAndSignedDistance() {
        // The wall runs along +X; its normal is X turned a quarter of yaw: −Z.
        XCTAssertEqual(wall.normal, PlanPoint(x: 0, z: -1))
        XCTAssertEqual(wall.signedDistance(to: PlanPoint(x: 1, z: -2)), 2)
        XCTAssertEqual(wall.signedDistance(to: PlanPoint(x: 9, z: 3)), -3)
        XCTAssertEqual(wall.side(of: PlanPoint(x: 1, z: -2)), 1)
        XCTAssertEqual(wall.side(of: PlanPoint(x: 1, z: 2)), -1)
        XCTAssertEqual(wall.side(of: PlanPoint(x: 10, z: 0)), 0)
    }

    func testSegmentDistance() {
        let crossing = PlanSegment(start: PlanPoint(x: 1, z: -1), end: PlanPoint(x: 2, z: 3))
        XCTAssertTrue(wall.intersects(crossing))
        XCTAssertEqual(wall.distance(to: crossing), 0, "crossing segments")
        let touching = PlanSegment(start: PlanPoint(x: 4, z: 0), end: PlanPoint(x: 4, z: 3))
        XCTAssertEqual(wall.distance(to: touching), 0, "a corner")
        let parallel = PlanSegment(start: PlanPoint(x: 1, z: 0.3), end: PlanPoint(x: 3, z: 0.3))
        XCTAssertFalse(wall.intersects(parallel))
        XCTAssertEqual(wall.distance(to: parallel), 0.3, accuracy: 1e-15)
        let apart = PlanSegment(start: PlanPoint(x: 7, z: 4), end: PlanPoint(x: 9, z: 9))
        XCTAssertEqual(wall.distance(to: apart), 5, accuracy: 1e-12, "end to end: (4,0)–(7,4)")
        let nearMiss = PlanSegment(start: PlanPoint(x: 2, z: 0.5), end: PlanPoint(x: 3, z: 2))
        XCTAssertEqual(wall.distance(to: nearMiss), 0.5, accuracy: 1e-15, "an end of one to the inside of the other")
        XCTAssertEqual(nearMiss.distance(to: wall), 0.5, accuracy: 1e-15, "symmetric")
        let collinear = PlanSegment(start: PlanPoint(x: 3, z: 0), end: PlanPoint(x: 6, z: 0))
        XCTAssertTrue(wall.intersects(collinear))
        XCTAssertEqual(wall.distance(to: collinear), 0)
    }

    func testSegmentDistanceAgreesWithSampling() {
        var rng = SplitMix(seed: 7)
        for _ in 0..<300 {
            func random() -> PlanSegment {
                PlanSegment(start: PlanPoint(x: rng.double(-3, 3), z: rng.double(-3, 3)),
                            end: PlanPoint(x: rng.double(-3, 3), z: rng.double(-3, 3)))
            }
            let s = random(), t = random()
            let exact = s.distance(to: t)
            // Dense sampling of one segment against the exact point distance to the other
            // can only over-estimate the true minimum, and by little.
            let sampled = (0...400).map { t.distance(to: s.point(at: Double($0) / 400)) }.min()!
            XCTAssertLessThanOrEqual(exact, sampled + 1e-12)
            XCTAssertEqual(exact, sampled, accuracy: s.length / 400 + 1e-9)
        }
    }

    func testOverlapOfCollinearSegments() {
        let other = PlanSegment(start: PlanPoint(x: 3, z: 0.05), end: PlanPoint(x: 6, z: 0.05))
        let overlap = wall.overlap(with: other)
        XCTAssertEqual(overlap.interval?.lowerBound ?? -1, 0.75, accuracy: 1e-12)
        XCTAssertEqual(overlap.interval?.upperBound ?? -1, 1, accuracy: 1e-12)
        XCTAssertEqual(overlap.length, 1, accuracy: 1e-12)
        XCTAssertEqual(overlap.offset, -0.05, accuracy: 1e-12, "on the side away from the normal (−Z)")
        XCTAssertEqual(overlap.angle, 0, accuracy: 1e-12)
        XCTAssertEqual(overlap.signedAngle, 0, accuracy: 1e-12)
    }

    func testAntiParallelCountsAsParallel() {
        // The same wall seen from the room on its other side: reversed, 2° off, 4 cm away.
        let turn = 2 * Double.pi / 180
        let direction = PlanPoint(x: -1, z: 0).rotated(by: turn)
        let start = PlanPoint(x: 3.5, z: -0.04)
        let reversed = PlanSegment(start: start, end: start + direction * 3)
        let overlap = wall.overlap(with: reversed)
        XCTAssertEqual(overlap.angle, turn, accuracy: 1e-12)
        XCTAssertEqual(overlap.signedAngle, -(.pi - turn), accuracy: 1e-12, "a half turn less 2°, clockwise")
        XCTAssertEqual(overlap.interval?.upperBound ?? -1, 0.875, accuracy: 1e-12)
        XCTAssertEqual(overlap.interval?.lowerBound ?? -1, (3.5 - 3 * cos(turn)) / 4, accuracy: 1e-12)
        XCTAssertEqual(overlap.length, 3 * cos(turn), accuracy: 1e-12)
        let mid = reversed.midpoint
        XCTAssertEqual(overlap.offset, -mid.z, accuracy: 1e-12)

        let turnedTheOtherWay = PlanSegment(start: .zero, end: PlanPoint(x: 1, z: 0).rotated(by: -0.3))
        XCTAssertEqual(wall.overlap(with: turnedTheOtherWay).signedAngle, -0.3, accuracy: 1e-12)
        XCTAssertEqual(wall.overlap(with: turnedTheOtherWay).angle, 0.3, accuracy: 1e-12)
    }

    func testSegmentsThatDoNotOverlap() {
        let beyond = PlanSegment(start: PlanPoint(x: 5, z: 1), end: PlanPoint(x: 8, z: 1))
        let overlap = wall.overlap(with: beyond)
        XCTAssertNil(overlap.interval)
        XCTAssertEqual(overlap.length, 0)
        let across = PlanSegment(start: PlanPoint(x: 2, z: -1), end: PlanPoint(x: 2, z: 1))
        let crossing = wall.overlap(with: across)
        XCTAssertEqual(crossing.angle, .pi / 2, accuracy: 1e-12)
        XCTAssertEqual(crossing.signedAngle, -.pi / 2, accuracy: 1e-12, "+Z is a clockwise quarter turn from +X")
        XCTAssertEqual(crossing.interval, 0.5...0.5)
        XCTAssertEqual(crossing.length, 0)
    }

    func testEndpointDistanceEitherWayRound() {
        let reversed = PlanSegment(start: PlanPoint(x: 4, z: 0.03), end: PlanPoint(x: 0.04, z: 0))
        XCTAssertEqual(wall.endpointDistance(to: reversed), 0.04, accuracy: 1e-12)
        XCTAssertEqual(reversed.endpointDistance(to: wall), 0.04, accuracy: 1e-12)
        let shifted = PlanSegment(start: PlanPoint(x: 0.5, z: 0), end: PlanPoint(x: 4, z: 0))
        XCTAssertEqual(wall.endpointDistance(to: shifted), 0.5, accuracy: 1e-12, "the worse end counts")
        XCTAssertEqual(wall.endpointDistance(to: wall), 0)
    }

    func testWorldDistance() {
        XCTAssertEqual(SIMD3<Double>(1, 2, 3).distance(to: SIMD3(4, 6, 3)), 5)
        XCTAssertEqual(SIMD3<Double>(1, 2, 3).distance(to: SIMD3(1, 2, 15)), 12)
    }

    func testBounds() {
        let s = PlanSegment(start: PlanPoint(x: 3, z: -1), end: PlanPoint(x: -2, z: 4))
        XCTAssertEqual(s.bounds, PlanBounds(min: PlanPoint(x: -2, z: -1), max: PlanPoint(x: 3, z: 4)))
    }
}
