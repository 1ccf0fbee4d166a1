import XCTest
@testable import StructureModel

final class BoundsGeometryTests: XCTestCase {
    let bounds = PlanBounds(containing: [PlanPoint(x: 1, z: 5), PlanPoint(x: -2, z: 3), PlanPoint(x: 4, z: 4)])!

    func testFromPoints() {
        XCTAssertEqual(bounds.min, PlanPoint(x: -2, z: 3))
        XCTAssertEqual(bounds.max, PlanPoint(x: 4, z: 5))
        XCTAssertEqual(bounds.width, 6)
        XCTAssertEqual(bounds.depth, 2)
        XCTAssertEqual(bounds.centre, PlanPoint(x: 1, z: 4))
        XCTAssertNil(PlanBounds(containing: []))
        let single = PlanBounds(containing: [PlanPoint(x: 7, z: 8)])!
        XCTAssertEqual(single.width, 0)
        XCTAssertEqual(single.centre, PlanPoint(x: 7, z: 8))
    }

    func testUnionAndExpansion() {
        let other = PlanBounds(min: PlanPoint(x: 0, z: -1), max: PlanPoint(x: 2, z: 0))
        XCTAssertEqual(bounds.union(other), PlanBounds(min: PlanPoint(x: -2, z: -1), max: PlanPoint(x: 4, z: 5)))
        XCTAssertEqual(other.union(bounds), bounds.union(other))
        XCTAssertEqual(bounds.expanded(by: 0.5), PlanBounds(min: PlanPoint(x: -2.5, z: 2.5), max: PlanPoint(x: 4.5, z: 5.5)))
        XCTAssertEqual(bounds.expanded(by: -0.5).width, 5)
    }

    func testContainsAndIntersects() {
        XCTAssertTrue(bounds.contains(PlanPoint(x: 0, z: 4)))
        XCTAssertTrue(bounds.contains(PlanPoint(x: 4, z: 5)), "edges are inside")
        XCTAssertFalse(bounds.contains(PlanPoint(x: 4.01, z: 4)))
        XCTAssertFalse(bounds.contains(PlanPoint(x: 0, z: 2.99)))
        XCTAssertTrue(bounds.intersects(PlanBounds(min: PlanPoint(x: 3, z: 0), max: PlanPoint(x: 9, z: 3))), "touching")
        XCTAssertFalse(bounds.intersects(PlanBounds(min: PlanPoint(x: 3, z: 0), max: PlanPoint(x: 9, z: 2.9))))
        XCTAssertFalse(bounds.intersects(PlanBounds(min: PlanPoint(x: 5, z: 3), max: PlanPoint(x: 9, z: 4))))
        XCTAssertTrue(bounds.intersects(PlanBounds(min: PlanPoint(x: 0, z: 3.5), max: PlanPoint(x: 1, z: 4))), "inside")
    }

    func testDistanceToPoint() {
        XCTAssertEqual(bounds.distance(to: PlanPoint(x: 0, z: 4)), 0)
        XCTAssertEqual(bounds.distance(to: PlanPoint(x: 7, z: 9)), 5, "to the corner (4, 5)")
        XCTAssertEqual(bounds.distance(to: PlanPoint(x: 1, z: 1)), 2, "to the edge z = 3")
    }
}
