import XCTest
@testable import StructureModel

final class GeometryTests: XCTestCase {
    private func room(_ name: String) throws -> CapturedRoom {
        guard case .room(let room) = try RoomPlanCodec.decode(try Samples.roomPlan(name)) else {
            throw XCTSkip("\(name) is not a room")
        }
        return room
    }

    func testFloorAreasOfTheRealSamples() throws {
        let living = try room("livingroom-1section.json")
        let flat = try room("flat-4sections.json")
        XCTAssertEqual(living.measurements.floorArea, 15.37, accuracy: 0.01)
        XCTAssertEqual(flat.measurements.floorArea, 47.74, accuracy: 0.01)
    }

    func testWallMeasurementsOfTheRealSample() throws {
        let m = try room("livingroom-1section.json").measurements
        // Sum of wall width × height from the file (formats note: 38.0 m²).
        XCTAssertEqual(m.grossWallArea, 38.0, accuracy: 0.05)
        XCTAssertLessThan(m.netWallArea, m.grossWallArea, "doors and windows are deducted")
        XCTAssertEqual(m.height, 2.3925, accuracy: 0.01)
        XCTAssertGreaterThan(m.wallLength, 15)
    }

    func testWallSegmentsCloseAroundTheFloor() throws {
        // In the one-section sample the 4 walls meet end to end.
        let walls = try room("livingroom-1section.json").walls.map(\.planSegment)
        for wall in walls {
            let others = walls.filter { $0 != wall }
            let nearestToEnd = others.map { min($0.start.distance(to: wall.end), $0.end.distance(to: wall.end)) }.min()!
            XCTAssertLessThan(nearestToEnd, 0.05)
        }
    }

    func testFloorPolygonIsInWorldSpace() throws {
        let floor = try room("livingroom-1section.json").floors[0]
        let polygon = floor.worldPolygon
        XCTAssertEqual(polygon.count, 4)
        for corner in polygon {
            XCTAssertEqual(corner.y, Double(floor.transform[13]), accuracy: 1e-4, "corners lie on the floor plane")
        }
    }

    func testRigidMotionLaws() {
        var rng = SplitMix(seed: 42)
        for _ in 0..<200 {
            let a = RigidMotion(yaw: rng.double(-4, 4), translation: SIMD3(rng.double(-9, 9), rng.double(-2, 2), rng.double(-9, 9)))
            let b = RigidMotion(yaw: rng.double(-4, 4), translation: SIMD3(rng.double(-9, 9), rng.double(-2, 2), rng.double(-9, 9)))
            let p = SIMD3(rng.double(-5, 5), rng.double(-5, 5), rng.double(-5, 5))
            let composed = a.composed(after: b).apply(toPoint: p)
            let stepwise = a.apply(toPoint: b.apply(toPoint: p))
            XCTAssertLessThan(((composed - stepwise) * (composed - stepwise)).sum().squareRoot(), 1e-9)
            let back = a.inverse.apply(toPoint: a.apply(toPoint: p))
            XCTAssertLessThan(((back - p) * (back - p)).sum().squareRoot(), 1e-9)
        }
    }

    func testYawReadsBackAndTransformsStayRigid() {
        let motion = RigidMotion(yawDegrees: 30, translation: SIMD3(1, 2, 3))
        let t = motion.apply(to: .identity)
        XCTAssertEqual(t.yaw * 180 / .pi, 30, accuracy: 1e-4)
        XCTAssertTrue(t.isRigid)
        XCTAssertEqual(t.translation.x, 1, accuracy: 1e-6)
        var columnMajor = t
        columnMajor[12] = 5
        XCTAssertEqual(columnMajor.translation.x, 5, accuracy: 1e-6, "the translation is at indices 12, 13, 14")
    }

    func testQuarterTurnsAreExact() {
        var transform = RigidMotion(yawDegrees: 17, translation: SIMD3(1.5, -1, 2.25)).apply(to: .identity)
        let start = transform
        let quarter = RigidMotion(yawDegrees: 90)
        for _ in 0..<10_000 { transform = quarter.apply(to: transform) }
        XCTAssertEqual(transform, start, "10,000 quarter turns (2,500 full turns) bring a transform back exactly")
    }

    func testNonRigidTransformsAreRecognised() {
        var t = Transform.identity
        XCTAssertTrue(t.isRigid)
        t[0] = 2
        XCTAssertFalse(t.isRigid)
        var mirrored = Transform.identity
        mirrored[0] = -1
        XCTAssertFalse(mirrored.isRigid, "a reflection is not a rigid motion")
    }

    func testPolygonAreaAndHull() {
        let square = [PlanPoint(x: 0, z: 0), PlanPoint(x: 2, z: 0), PlanPoint(x: 2, z: 3), PlanPoint(x: 0, z: 3)]
        XCTAssertEqual(polygonArea(square), 6, accuracy: 1e-12)
        XCTAssertEqual(polygonArea(square.reversed()), 6, accuracy: 1e-12)
        XCTAssertEqual(convexHull(square + [PlanPoint(x: 1, z: 1)]).count, 4)
    }
}

final class FormattingTests: XCTestCase {
    func testFixedDecimalsMatchPrintf() {
        var rng = SplitMix(seed: 3)
        for _ in 0..<2_000 {
            let value = rng.double(-5_000, 5_000) * (rng.chance(0.5) ? 1 : 0.001)
            for digits in [0, 1, 2, 3, 4] {
                var expected = String(format: "%.\(digits)f", value)
                // printf writes "-0.00" for tiny negatives; a person reads 0.00.
                if expected.hasPrefix("-"), Double(expected) == 0 { expected.removeFirst() }
                XCTAssertEqual(formatted(value, digits: digits), expected, "\(value)")
            }
        }
        XCTAssertEqual(formatted(-0.0001, digits: 2), "0.00")
        XCTAssertEqual(formatted(15.3686, digits: 2), "15.37")
    }
}
