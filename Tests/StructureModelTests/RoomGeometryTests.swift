import Foundation
import XCTest
@testable import StructureModel

/// Rooms built from plan outlines, with RoomPlan's conventions: a wall's centre at mid-height,
/// local X along the wall; a floor's local Z up and its corners in its local XY plane.
enum TestRooms {
    static func wall(_ a: PlanPoint, _ b: PlanPoint, height: Float = 2.5, floorY: Double = 0, story: Int? = 0, id: String = "W") -> Surface {
        surface(.wall, a, b, height: height, bottom: floorY, story: story, id: id)
    }

    static func surface(_ category: SurfaceCategory, _ a: PlanPoint, _ b: PlanPoint, height: Float, bottom: Double,
                        story: Int? = 0, id: String) -> Surface {
        let d = b - a, mid = (a + b) * 0.5
        let motion = RigidMotion(yaw: atan2(-d.z, d.x), translation: SIMD3(mid.x, bottom + Double(height) / 2, mid.z))
        var surface = Surface(category: category, identifier: id, dimensions: SIMD3(Float(d.length), height, 0), transform: motion.transform)
        surface.story = story
        return surface
    }

    static func floor(_ outline: [PlanPoint], y: Double, story: Int? = 0) -> Surface {
        // Local X = world X, local Y = world −Z, local Z = world up.
        let transform = Transform(elements: SIMD16(1, 0, 0, 0, 0, 0, -1, 0, 0, 1, 0, 0, 0, Float(y), 0, 1))
        var floor = Surface(category: .floor, identifier: "F", dimensions: SIMD3(1, 1, 0), transform: transform,
                            polygonCorners: outline.map { SIMD3(Float($0.x), Float(-$0.z), 0) })
        floor.story = story
        return floor
    }

    /// Walls along every edge of `outline`, named W0, W1, ….
    static func room(_ outline: [PlanPoint], floorY: Double? = 0, wallBottom: Double = 0) -> CapturedRoom {
        var room = CapturedRoom()
        room.walls = outline.indices.map { wall(outline[$0], outline[($0 + 1) % outline.count], floorY: wallBottom, id: "W\($0)") }
        if let floorY { room.floors = [floor(outline, y: floorY)] }
        return room
    }
}

final class RoomLevelGeometryTests: XCTestCase {
    /// A wall with `polygonCorners` (a gable) is measured by its polygon, not its box: a real
    /// wall of 14.10 m² by its box was 9.18 m² by its corners.
    func testAWallWithCornersIsMeasuredByThem() {
        var gable = Surface(category: .wall, identifier: "6AB1E000-0000-4000-8000-000000000001",
                            dimensions: SIMD3(6, 4, 0), transform: .identity)
        XCTAssertEqual(gable.faceArea, 24, accuracy: 1e-9)
        // 6 m wide, 2.4 m at the eaves, 4 m at the ridge, in the wall's own plane.
        gable.polygonCorners = [SIMD3(-3, -2, 0), SIMD3(3, -2, 0), SIMD3(3, 0.4, 0), SIMD3(0, 2, 0), SIMD3(-3, 0.4, 0)]
        XCTAssertEqual(gable.faceArea, 6 * 2.4 + 0.5 * 6 * 1.6, accuracy: 1e-6)
        var room = CapturedRoom()
        room.walls = [gable]
        XCTAssertEqual(room.measurements.grossWallArea, 19.2, accuracy: 1e-6)
    }

    func testEffectiveStory() {
        var room = TestRooms.room(Shapes.lShape)
        for i in room.walls.indices { room.walls[i].story = 3 }
        XCTAssertEqual(room.effectiveStory, 3, "from the walls, when nothing else says")
        room.sections = [Section(label: "kitchen", center: .zero, story: 2)]
        XCTAssertEqual(room.effectiveStory, 2, "a section's story before a wall's")
        room.story = 1
        XCTAssertEqual(room.effectiveStory, 1, "the room's own first")
        var ios16 = TestRooms.room(Shapes.lShape)
        for i in ios16.walls.indices { ios16.walls[i].story = nil }
        XCTAssertNil(ios16.effectiveStory, "iOS 16: no story anywhere")
    }

    func testFloorHeightFromFloors() {
        var room = TestRooms.room(Shapes.lShape, floorY: -1.02, wallBottom: -1.0)
        XCTAssertEqual(room.floorHeight ?? 0, -1.02, accuracy: 1e-6, "the floor, not the walls")
        room.floors += [TestRooms.floor(Shapes.lShape, y: -1.1), TestRooms.floor(Shapes.lShape, y: -0.9)]
        XCTAssertEqual(room.floorHeight ?? 0, -1.02, accuracy: 1e-6, "the median floor")
    }

    func testFloorHeightFromWalls() {
        var room = TestRooms.room(Shapes.lShape, floorY: nil, wallBottom: -1.486)
        XCTAssertEqual(room.floorHeight ?? 0, -1.486, accuracy: 1e-6, "centre y − height / 2")
        // One wall runs on into a taller neighbour's bottom: the median ignores it.
        room.walls[0] = TestRooms.wall(Shapes.lShape[0], Shapes.lShape[1], height: 3.1, floorY: -2)
        XCTAssertEqual(room.floorHeight ?? 0, -1.486, accuracy: 1e-6)
        XCTAssertNil(CapturedRoom().floorHeight)
    }
}

final class RoomSideGeometryTests: XCTestCase {
    /// In a U-shaped room the centroid lies in the gap, beyond the line of the three walls
    /// around the gap; the side is still found where the wall is.
    func testInsideSideOfEveryWallOfAUShapedRoom() throws {
        for floorY in [0.0, nil] as [Double?] {
            let room = TestRooms.room(Shapes.uShape, floorY: floorY)
            for wall in room.walls {
                let normal = try XCTUnwrap(room.inwardNormal(of: wall))
                XCTAssertEqual(normal.length, 1, accuracy: 1e-6)
                if floorY != nil {
                    let probe = wall.planSegment.midpoint + normal * 0.05
                    XCTAssertTrue(Shapes.uShape.encloses(probe), "\(wall.identifier) points into the room")
                }
            }
            if floorY != nil {
                // The wall from (2,3) down to (2,1) faces the right arm (+X), away from the centroid.
                let gapWall = room.walls[3]
                XCTAssertEqual(room.inwardNormal(of: gapWall)!.x, 1, accuracy: 1e-6)
                XCTAssertEqual(room.inwardNormal(of: gapWall)!.z, 0, accuracy: 1e-6)
                XCTAssertEqual(room.insideSide(of: gapWall), gapWall.planSegment.side(of: PlanPoint(x: 2.5, z: 2)))
                let centroid = Shapes.uShape.centroid!
                XCTAssertEqual(gapWall.planSegment.side(of: centroid), -(room.insideSide(of: gapWall) ?? 0),
                               "the centroid would have said the wrong side")
            }
        }
    }

    func testInsideSideOfARoomWithoutFloorUsesItsWalls() {
        let outline = Shapes.rectangle(0, 0, 4, 3)
        let room = TestRooms.room(outline, floorY: nil)
        XCTAssertEqual(room.planOutlines.count, 1)
        XCTAssertEqual(polygonArea(room.planOutlines[0]), 12, accuracy: 1e-5)
        // The wall along z = 0 from x 0 to 4: the room is at +Z, the side opposite its normal (−Z).
        XCTAssertEqual(room.insideSide(of: room.walls[0]), -1)
        let normal = room.inwardNormal(of: room.walls[0])!
        XCTAssertEqual(normal.z, 1, accuracy: 1e-6)
        // A door in that wall faces the same way.
        let door = TestRooms.surface(.door(isOpen: true), PlanPoint(x: 1, z: 0), PlanPoint(x: 2, z: 0), height: 2, bottom: 0, id: "D")
        XCTAssertEqual(room.inwardNormal(of: door)!.z, 1, accuracy: 1e-6)
        XCTAssertEqual(room.walls[0].inwardNormal(toward: PlanPoint(x: 2, z: 1.5))!.z, 1, accuracy: 1e-6)
        XCTAssertNil(room.walls[0].inwardNormal(toward: PlanPoint(x: 9, z: 0)), "a point on the wall's line")
        XCTAssertNil(CapturedRoom().insideSide(of: room.walls[0]))
    }

    func testAFloorlessLShapedRoomIsOutlinedByItsWallsNotTheirHull() throws {
        // iOS 16 writes no floors. The L is 12 m²; the hull of its walls' ends, 14 m², would
        // reach into the neighbour at the inner corner.
        var room = TestRooms.room(Shapes.lShape, floorY: nil)
        room.walls.reverse()
        XCTAssertEqual(polygonArea(try XCTUnwrap(room.planOutlines.first)), 12, accuracy: 1e-5)
        // The inner corner's walls face into the L, which the hull could not tell.
        XCTAssertEqual(try XCTUnwrap(room.inwardNormal(of: room.walls.first { $0.identifier == "W2" }!)).z, -1, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(room.inwardNormal(of: room.walls.first { $0.identifier == "W3" }!)).x, -1, accuracy: 1e-6)
        // A wall scanned only in part (its last metre missing) still closes the loop, across the gap.
        var partial = TestRooms.room(Shapes.lShape, floorY: nil)
        partial.walls[0] = TestRooms.wall(PlanPoint(x: 0, z: 0), PlanPoint(x: 3, z: 0), id: "W0")
        XCTAssertEqual(polygonArea(try XCTUnwrap(partial.planOutlines.first)), 12, accuracy: 1e-5)
        // Walls that cannot be chained without crossing (a wall through the room) give the hull.
        var crossed = TestRooms.room(Shapes.lShape, floorY: nil)
        crossed.walls.append(TestRooms.wall(PlanPoint(x: 1, z: -0.5), PlanPoint(x: 1, z: 4.5), id: "X"))
        XCTAssertEqual(polygonArea(try XCTUnwrap(crossed.planOutlines.first)), polygonArea(convexHull(crossed.wallEnds)), accuracy: 1e-5)
    }

    func testInsetMovesEveryEdgeIntoThePolygon() throws {
        for outline in [Shapes.rectangle(0, 0, 4, 3), Array(Shapes.rectangle(0, 0, 4, 3).reversed())] {
            let inset = try XCTUnwrap(outline.inset(by: 0.1))
            XCTAssertEqual(polygonArea(inset), 3.8 * 2.8, accuracy: 1e-9, "either turning sense")
        }
        // The L loses 0.1 m along each of its 16 m of edge, less the corners' squares.
        let l = try XCTUnwrap(Shapes.lShape.inset(by: 0.1))
        XCTAssertEqual(polygonArea(l), 12 - 16 * 0.1 + 4 * 0.01, accuracy: 1e-9)
        XCTAssertTrue(l.allSatisfy { Shapes.lShape.encloses($0) })
        XCTAssertNil(Shapes.rectangle(0, 0, 4, 0.1).inset(by: 0.1), "a strip thinner than twice the inset is gone")
    }

    func testOutlinesCentreAndInteriorPoint() throws {
        let u = TestRooms.room(Shapes.uShape)
        XCTAssertEqual(u.planOutlines.count, 1)
        XCTAssertEqual(polygonArea(u.planOutlines[0]), 7, accuracy: 1e-5)
        let inside = try XCTUnwrap(u.interiorPoint)
        XCTAssertTrue(Shapes.uShape.encloses(inside), "not the centroid in the gap")
        let l = TestRooms.room(Shapes.lShape)
        let lInside = try XCTUnwrap(l.interiorPoint)
        XCTAssertEqual(lInside.x, 5.0 / 3, accuracy: 1e-5, "an L's centroid is inside it")
        let centre = try XCTUnwrap(l.planCentre)
        XCTAssertEqual(centre.x, 2, accuracy: 1e-5, "the middle of the walls' extent")
        XCTAssertEqual(centre.z, 2, accuracy: 1e-5)
        var furnished = CapturedRoom()
        furnished.objects = [PlanPoint(x: 1, z: 1), PlanPoint(x: 5, z: 2)].map {
            Object(category: .table, identifier: "T", dimensions: SIMD3(1, 1, 1),
                   transform: RigidMotion(translation: SIMD3($0.x, 0.4, $0.z)).transform)
        }
        XCTAssertEqual(furnished.planCentre, PlanPoint(x: 3, z: 1.5), "without walls, the objects")
        XCTAssertNil(CapturedRoom().planCentre)
        XCTAssertNil(CapturedRoom().interiorPoint)
    }

    /// An outline of more corners than ear clipping is given (a crafted floor of 10,000
    /// self-crossing corners held `plan` 58 s) finds its inside across a line through it: a U
    /// of 320 corners, its centroid in the gap, and 20,000 corners zigzagging over each other.
    func testAnOutlineOfManyCornersFindsItsInsideAcrossIt() throws {
        var many: [PlanPoint] = []
        for (i, a) in Shapes.uShape.enumerated() {
            let b = Shapes.uShape[(i + 1) % Shapes.uShape.count]
            for k in 0..<40 { many.append(a + (b - a) * (Double(k) / 40)) }
        }
        var room = CapturedRoom()
        room.floors = [TestRooms.floor(many, y: 0)]
        let outline = try XCTUnwrap(room.planOutlines.max { polygonArea($0) < polygonArea($1) })
        XCTAssertGreaterThan(outline.count, CapturedRoom.triangulationLimit)
        let inside = try XCTUnwrap(room.interiorPoint)
        XCTAssertTrue(Shapes.uShape.encloses(inside), "not the centroid in the gap: \(inside)")
        XCTAssertEqual(inside, outline.pointInsideAcross(), "across the outline, not by its triangles")
        let zigzag = (0..<20_000).map { PlanPoint(x: Double($0 % 7), z: Double($0 * 31 % 13)) }
        if let point = zigzag.pointInsideAcross() { XCTAssertTrue(zigzag.encloses(point)) }
        XCTAssertNotNil(zigzag.pointInsideAcross(), "a line across crosses it somewhere inside")
    }
}
