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

    /// A grid laid out again as it grows (elements ever further out), in a room's span and in a
    /// span too wide to lay out cell by cell: every query answers as a scan of all elements.
    func testAGrowingGridAnswersAsAScanAtEverySize() {
        for (spread, seed) in [(30.0, 31 as UInt64), (450.0, 41), (3_000.0, 37)] {
            var rng = SplitMix(seed: seed)
            var grid = PlanGrid<Int>(cellSize: 1)
            var segments: [PlanSegment] = []
            for i in 0..<800 {
                // Out from the middle: the span grows with i, now one side, now the other.
                let reach = spread * Double(i + 1) / 800
                let start = PlanPoint(x: rng.double(-reach, reach), z: rng.double(-reach, reach))
                let segment = PlanSegment(start: start, end: start + PlanPoint(x: rng.double(-3, 3), z: rng.double(-3, 3)))
                segments.append(segment)
                grid.insert(i, covering: segment.bounds)
                guard i % 40 == 39 else { continue }
                for _ in 0..<20 {
                    let target = segments[rng.int(0...(segments.count - 1))].start
                    let centre = target + PlanPoint(x: rng.double(-2, 2), z: rng.double(-2, 2))
                    let radius = rng.double(0, 2)
                    XCTAssertEqual(grid.elements(within: radius, of: centre),
                                   segments.indices.filter { segments[$0].bounds.distance(to: centre) <= radius }, "spread \(spread), \(i + 1) elements")
                    let box = PlanBounds(min: centre, max: centre + PlanPoint(x: rng.double(0, 6), z: rng.double(0, 6)))
                    XCTAssertEqual(grid.elements(intersecting: box), segments.indices.filter { segments[$0].bounds.intersects(box) })
                }
                // Outside everything listed so far, and around all of it.
                let far = PlanPoint(x: 4 * spread, z: -4 * spread)
                XCTAssertEqual(grid.elements(within: 1, of: far), [])
                XCTAssertEqual(grid.elements(within: 10 * spread, of: .zero), Array(segments.indices))
            }
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
