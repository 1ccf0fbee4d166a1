import XCTest
@testable import StructureModel

final class ClippingGeometryTests: XCTestCase {
    func testConvexClip() {
        let square = Shapes.rectangle(0, 0, 2, 2)
        let triangle = [PlanPoint(x: 0, z: 0), PlanPoint(x: 3, z: 0), PlanPoint(x: 0, z: 3)]
        let clipped = square.clipped(toConvex: triangle)
        // The triangle keeps z ≤ 3 − x: all of the square but its corner beyond (1,2)–(2,1).
        XCTAssertEqual(polygonArea(clipped), 3.5, accuracy: 1e-12)
        XCTAssertEqual(clipped.count, 5)
        XCTAssertEqual(clipped.signedArea < 0, square.signedArea < 0, "keeps the subject's orientation")
        XCTAssertEqual(square.clipped(toConvex: Shapes.rectangle(5, 5, 6, 6)), [])
        XCTAssertEqual(polygonArea(Shapes.lShape.clipped(toConvex: Shapes.rectangle(1, 1, 5, 3))), 4, accuracy: 1e-12,
                       "a concave subject: zero-width bridges add nothing")
    }

    func testTriangulationTilesTheLShape() {
        let triangles = Shapes.lShape.triangulated()
        XCTAssertEqual(triangles.count, 4, "n − 2 triangles")
        XCTAssertTrue(triangles.allSatisfy { $0.count == 3 && $0.signedArea > 0 })
        XCTAssertEqual(triangles.reduce(0) { $0 + $1.signedArea }, 12, accuracy: 1e-12)
        for triangle in triangles {
            XCTAssertTrue(Shapes.lShape.encloses(triangle.centroid!), "no triangle covers the notch")
        }
        let u = Shapes.uShape.triangulated()
        XCTAssertEqual(u.count, 6)
        XCTAssertEqual(u.reduce(0) { $0 + $1.signedArea }, 7, accuracy: 1e-12)
        let withRepeats = [Shapes.lShape[0], Shapes.lShape[0]] + Shapes.lShape + [Shapes.lShape[0]]
        XCTAssertEqual(withRepeats.triangulated().reduce(0) { $0 + $1.signedArea }, 12, accuracy: 1e-12)
    }

    func testLShapedRoomAgainstRectangle() {
        let rectangle = Shapes.rectangle(1, 1, 5, 3)
        // [1,4]×[1,2] from the long arm (3 m²) and [1,2]×[2,3] from the short one (1 m²).
        XCTAssertEqual(Shapes.lShape.overlapArea(with: rectangle), 4, accuracy: 1e-12)
        XCTAssertEqual(rectangle.overlapArea(with: Shapes.lShape), 4, accuracy: 1e-12)
        XCTAssertEqual(Shapes.lShape.unionArea(with: rectangle), 12 + 8 - 4, accuracy: 1e-12)
        let pieces = Shapes.lShape.intersection(with: rectangle)
        XCTAssertTrue(pieces.allSatisfy(\.isConvex))
        for piece in pieces {
            XCTAssertTrue(Shapes.lShape.encloses(piece.centroid!) && rectangle.encloses(piece.centroid!))
        }
        // In the notch: the bounds overlap, the rooms do not (the hull would say 1 m²).
        XCTAssertEqual(Shapes.lShape.overlapArea(with: Shapes.rectangle(3, 3, 5, 5)), 0, accuracy: 1e-12)
        XCTAssertEqual(Shapes.lShape.unionArea(with: Shapes.rectangle(3, 3, 5, 5)), 16, accuracy: 1e-12)
    }

    func testTwoConcaveRooms() {
        XCTAssertEqual(Shapes.lShape.overlapArea(with: Shapes.lShape), 12, accuracy: 1e-12)
        let shifted = Shapes.lShape.map { $0 + PlanPoint(x: 1, z: 1) }
        // Long arms [1,4]×[1,2] (3), short arm with long arm [1,2]×[2,3] (1), short arms [1,2]×[3,4] (1).
        XCTAssertEqual(Shapes.lShape.overlapArea(with: shifted), 5, accuracy: 1e-12)
        // U's base [0,3]×[0,1] (3), its left arm [0,1]×[1,3] (2), of its right arm [2,3]×[1,2] (1).
        XCTAssertEqual(Shapes.lShape.overlapArea(with: Shapes.uShape), 6, accuracy: 1e-12)
    }

    func testOverlapDoesNotDependOnWhereTheRoomsAre() {
        // L-shapes of random size against random rectangles, worked out axis-aligned from their
        // two arms, then both turned and moved by the same random motion.
        var rng = SplitMix(seed: 19)
        func overlap(_ a: (Double, Double, Double, Double), _ b: (Double, Double, Double, Double)) -> Double {
            max(0, min(a.2, b.2) - max(a.0, b.0)) * max(0, min(a.3, b.3) - max(a.1, b.1))
        }
        for _ in 0..<200 {
            let w = rng.double(2, 6), d = rng.double(2, 6), armW = rng.double(0.5, w - 0.5), armD = rng.double(0.5, d - 0.5)
            let l = [PlanPoint(x: 0, z: 0), PlanPoint(x: w, z: 0), PlanPoint(x: w, z: armD), PlanPoint(x: armW, z: armD),
                     PlanPoint(x: armW, z: d), PlanPoint(x: 0, z: d)]
            let x0 = rng.double(-2, 6), z0 = rng.double(-2, 6)
            let box = (x0, z0, x0 + rng.double(0.2, 4), z0 + rng.double(0.2, 4))
            let expected = overlap((0, 0, w, armD), box) + overlap((0, armD, armW, d), box)
            let yaw = rng.double(-.pi, .pi), shift = PlanPoint(x: rng.double(-50, 50), z: rng.double(-50, 50))
            func place(_ polygon: [PlanPoint]) -> [PlanPoint] { polygon.map { $0.rotated(by: yaw) + shift } }
            let rectangle = Shapes.rectangle(box.0, box.1, box.2, box.3)
            XCTAssertEqual(place(l).overlapArea(with: place(rectangle)), expected, accuracy: 1e-9)
            XCTAssertEqual(place(rectangle).overlapArea(with: place(l)), expected, accuracy: 1e-9)
            XCTAssertEqual(place(l).unionArea(with: place(rectangle)),
                           w * armD + armW * (d - armD) + (box.2 - box.0) * (box.3 - box.1) - expected, accuracy: 1e-9)
        }
    }
}
