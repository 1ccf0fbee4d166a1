import XCTest
@testable import StructureModel

final class GridGeometryTests: XCTestCase {
    func testPointQueriesMatchABruteForceScan() {
        var rng = SplitMix(seed: 23)
        var grid = PlanGrid<Int>(cellSize: 0.75)
        var points: [PlanPoint] = []
        for i in 0..<2_000 {
            let p = PlanPoint(x: rng.double(-20, 20), z: rng.double(-10, 30))
            points.append(p)
            grid.insert(i, at: p)
        }
        XCTAssertEqual(grid.count, 2_000)
        var found = 0
        for _ in 0..<300 {
            let centre = PlanPoint(x: rng.double(-25, 25), z: rng.double(-15, 35))
            let radius = rng.double(0, 3)
            let expected = points.indices.filter { points[$0].distance(to: centre) <= radius }
            XCTAssertEqual(grid.elements(within: radius, of: centre), expected)
            found += expected.count
        }
        XCTAssertGreaterThan(found, 300, "the queries found something to compare")
        let everything = grid.elements(within: 1_000, of: .zero)
        XCTAssertEqual(everything, Array(0..<2_000), "a query wider than the grid")
    }

    func testSegmentQueriesMatchABruteForceScan() {
        var rng = SplitMix(seed: 29)
        var grid = PlanGrid<Int>(cellSize: 1)
        var segments: [PlanSegment] = []
        for i in 0..<600 {
            let start = PlanPoint(x: rng.double(-15, 15), z: rng.double(-15, 15))
            // Mostly wall-sized, a few that cross the whole area.
            let reach = rng.chance(0.02) ? 40.0 : 4.0
            let segment = PlanSegment(start: start, end: start + PlanPoint(x: rng.double(-reach, reach), z: rng.double(-reach, reach)))
            segments.append(segment)
            grid.insert(i, covering: segment.bounds)
        }
        for _ in 0..<300 {
            let centre = PlanPoint(x: rng.double(-20, 20), z: rng.double(-20, 20))
            let radius = rng.double(0, 2)
            let expected = segments.indices.filter { segments[$0].bounds.distance(to: centre) <= radius }
            XCTAssertEqual(grid.elements(within: radius, of: centre), expected)
            let box = PlanBounds(min: centre, max: centre + PlanPoint(x: rng.double(0, 5), z: rng.double(0, 5)))
            XCTAssertEqual(grid.elements(intersecting: box), segments.indices.filter { segments[$0].bounds.intersects(box) })
        }
    }

    func testOddCoordinatesDoNotTrap() {
        var grid = PlanGrid<String>(cellSize: 0.001)
        grid.insert("huge", covering: PlanBounds(min: PlanPoint(x: -1e6, z: -1e6), max: PlanPoint(x: 1e6, z: 1e6)))
        grid.insert("far", at: PlanPoint(x: 1e300, z: 0))
        grid.insert("nan", at: PlanPoint(x: .nan, z: 0))
        grid.insert("here", at: PlanPoint(x: 0.5, z: 0.5))
        XCTAssertEqual(grid.elements(within: 0.1, of: PlanPoint(x: 0.5, z: 0.5)), ["huge", "here"])
        XCTAssertEqual(grid.elements(within: 1, of: PlanPoint(x: 1e300, z: 0)), ["far"])
    }
}
