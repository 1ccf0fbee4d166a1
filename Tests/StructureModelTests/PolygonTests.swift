import XCTest
@testable import StructureModel

/// Shapes with areas worked out by hand. Corners are listed as they would be drawn on paper
/// with z up, which is clockwise seen from above (z points down the page from above).
enum Shapes {
    static func rectangle(_ x0: Double, _ z0: Double, _ x1: Double, _ z1: Double) -> [PlanPoint] {
        [PlanPoint(x: x0, z: z0), PlanPoint(x: x1, z: z0), PlanPoint(x: x1, z: z1), PlanPoint(x: x0, z: z1)]
    }

    /// [0,4]×[0,2] and [0,2]×[2,4]: 12 m², its notch [2,4]×[2,4] outside.
    static let lShape = [PlanPoint(x: 0, z: 0), PlanPoint(x: 4, z: 0), PlanPoint(x: 4, z: 2),
                         PlanPoint(x: 2, z: 2), PlanPoint(x: 2, z: 4), PlanPoint(x: 0, z: 4)]

    /// [0,3]×[0,1] with arms [0,1]×[1,3] and [2,3]×[1,3]: 7 m², centroid (1.5, 9.5 / 7) in the gap.
    static let uShape = [PlanPoint(x: 0, z: 0), PlanPoint(x: 3, z: 0), PlanPoint(x: 3, z: 3), PlanPoint(x: 2, z: 3),
                         PlanPoint(x: 2, z: 1), PlanPoint(x: 1, z: 1), PlanPoint(x: 1, z: 3), PlanPoint(x: 0, z: 3)]
}

final class PolygonGeometryTests: XCTestCase {
    func testSignedAreaGivesOrientation() {
        XCTAssertEqual(Shapes.lShape.signedArea, -12, accuracy: 1e-12, "drawn counter-clockwise on paper, z up")
        XCTAssertEqual(Array(Shapes.lShape.reversed()).signedArea, 12, accuracy: 1e-12)
        XCTAssertEqual(polygonArea(Shapes.lShape), 12, accuracy: 1e-12)
        XCTAssertEqual(Shapes.uShape.signedArea, -7, accuracy: 1e-12)
        XCTAssertEqual([PlanPoint(x: 0, z: 0), PlanPoint(x: 1, z: 1)].signedArea, 0)
        // Counter-clockwise in the yaw sense: each corner turned a bit further by yaw.
        let turning = (0..<5).map { PlanPoint(x: 2, z: 0).rotated(by: Double($0) * 2 * .pi / 5) }
        XCTAssertGreaterThan(turning.signedArea, 0)
    }

    func testCentroid() {
        let rectangle = Shapes.rectangle(1, 1, 5, 3).centroid!
        XCTAssertEqual(rectangle.x, 3, accuracy: 1e-12)
        XCTAssertEqual(rectangle.z, 2, accuracy: 1e-12)
        let l = Shapes.lShape.centroid!
        XCTAssertEqual(l.x, 5.0 / 3, accuracy: 1e-12, "(8·2 + 4·1) / 12")
        XCTAssertEqual(l.z, 5.0 / 3, accuracy: 1e-12, "(8·1 + 4·3) / 12")
        // Far from the origin, as world coordinates of a big building may be.
        let far = Shapes.lShape.map { $0 + PlanPoint(x: 10_000, z: -20_000) }.centroid!
        XCTAssertEqual(far.x, 10_000 + 5.0 / 3, accuracy: 1e-9)
        XCTAssertEqual(far.z, -20_000 + 5.0 / 3, accuracy: 1e-9)
        let u = Shapes.uShape.centroid!
        XCTAssertEqual(u.z, 9.5 / 7, accuracy: 1e-12)
        let line = [PlanPoint(x: 0, z: 0), PlanPoint(x: 2, z: 0), PlanPoint(x: 4, z: 0)].centroid!
        XCTAssertEqual(line, PlanPoint(x: 2, z: 0), "no area: the corners' mean")
        XCTAssertNil([PlanPoint]().centroid)
    }

    func testEnclosesConcavePolygons() {
        XCTAssertTrue(Shapes.lShape.encloses(PlanPoint(x: 1, z: 3)))
        XCTAssertTrue(Shapes.lShape.encloses(PlanPoint(x: 3, z: 1)))
        XCTAssertFalse(Shapes.lShape.encloses(PlanPoint(x: 3, z: 3)), "the notch")
        XCTAssertFalse(Shapes.lShape.encloses(PlanPoint(x: -1, z: 1)))
        XCTAssertFalse(Shapes.uShape.encloses(Shapes.uShape.centroid!), "a U's centroid is in its gap")
        XCTAssertTrue(Array(Shapes.uShape.reversed()).encloses(PlanPoint(x: 2.5, z: 2.5)), "either orientation")
    }

    func testConvexity() {
        XCTAssertTrue(Shapes.rectangle(0, 0, 2, 1).isConvex)
        XCTAssertTrue(Array(Shapes.rectangle(0, 0, 2, 1).reversed()).isConvex)
        XCTAssertFalse(Shapes.lShape.isConvex)
        let withStraightCorner = [PlanPoint(x: 0, z: 0), PlanPoint(x: 1, z: 0), PlanPoint(x: 2, z: 0), PlanPoint(x: 1, z: 1)]
        XCTAssertTrue(withStraightCorner.isConvex)
        let spike = [PlanPoint(x: 0, z: 0), PlanPoint(x: 2, z: 0), PlanPoint(x: 1, z: 0), PlanPoint(x: 1, z: 1)]
        XCTAssertFalse(spike.isConvex, "turning back on itself")
    }

    func testHullIsCounterClockwise() {
        let points = Shapes.lShape + [PlanPoint(x: 1, z: 1), PlanPoint(x: 2, z: 0)]
        let hull = convexHull(points)
        XCTAssertEqual(Set(hull), Set([PlanPoint(x: 0, z: 0), PlanPoint(x: 4, z: 0), PlanPoint(x: 4, z: 2),
                                       PlanPoint(x: 2, z: 4), PlanPoint(x: 0, z: 4)]), "inner and edge points left out")
        XCTAssertEqual(hull.signedArea, 14, accuracy: 1e-12, "16 less the half square cut at the notch")
    }
}
