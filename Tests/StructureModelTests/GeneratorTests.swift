import XCTest
@testable import StructureModel

final class GeneratorTests: XCTestCase {
    func testSameSeedSameBytesOtherSeedOtherBytes() {
        let a = BuildingGenerator.generate(BuildingSpec(seed: 9, rooms: 6, stories: 2))
        let b = BuildingGenerator.generate(BuildingSpec(seed: 9, rooms: 6, stories: 2))
        let c = BuildingGenerator.generate(BuildingSpec(seed: 10, rooms: 6, stories: 2))
        XCTAssertEqual(RoomPlanCodec.encode(.structure(a.structure)), RoomPlanCodec.encode(.structure(b.structure)))
        XCTAssertEqual(a.groundTruthJSON(), b.groundTruthJSON())
        XCTAssertNotEqual(RoomPlanCodec.encode(.structure(a.structure)), RoomPlanCodec.encode(.structure(c.structure)))
    }

    func testRoomsStoriesAndSharedWalls() {
        let building = BuildingGenerator.generate(BuildingSpec(seed: 4, rooms: 12, stories: 3))
        let structure = building.structure
        XCTAssertEqual(structure.rooms.count, 12)
        XCTAssertEqual(Set(structure.rooms.compactMap(\.story)), [0, 1, 2])
        let roomWalls = structure.rooms.reduce(0) { $0 + $1.walls.count }
        XCTAssertLessThan(structure.merged.walls.count, roomWalls, "shared walls appear once in the structure")
        XCTAssertEqual(structure.merged.floors.count, 3, "one floor per story")
        XCTAssertEqual(structure.merged.objects.count, structure.rooms.reduce(0) { $0 + $1.objects.count })
        XCTAssertTrue(structure.merged.objects.contains { $0.category == .stairs }, "stories are joined by stairs")
        XCTAssertEqual(RoomPlanDiagnostics.check(.structure(structure)), [], "generated data is clean")
    }

    func testDoorsAndWindowsSitInTheirWalls() {
        let building = BuildingGenerator.generate(BuildingSpec(seed: 8, rooms: 8))
        for room in building.structure.rooms + building.captures.map(\.room) {
            let walls = Dictionary(uniqueKeysWithValues: room.walls.map { ($0.identifier, $0) })
            for opening in room.doors + room.windows {
                guard let parent = opening.parentIdentifier, let wall = walls[parent] else {
                    return XCTFail("a door or window without its wall")
                }
                let segment = wall.planSegment
                let centre = PlanPoint(x: opening.transform.translation.x, z: opening.transform.translation.z)
                // The centre lies on the wall's line, within its length.
                let along = segment.start.distance(to: centre) + centre.distance(to: segment.end)
                XCTAssertEqual(along, segment.length, accuracy: 1e-3)
                XCTAssertLessThan(Double(opening.dimensions.x), segment.length)
            }
        }
        XCTAssertFalse(building.structure.merged.doors.isEmpty)
        XCTAssertFalse(building.structure.merged.windows.isEmpty)
    }

    func testFurnitureHasValidAttributesAndParents() {
        let building = BuildingGenerator.generate(BuildingSpec(seed: 2, rooms: 10))
        let objects = building.structure.merged.objects
        let identifiers = Set(objects.map(\.identifier))
        var confidences = Set<String>()
        for object in objects {
            confidences.insert(object.confidence!.name)
            let schema = object.category.attributeSchema
            XCTAssertEqual(Set(object.attributes!.keys), Set(schema.map(\.name)), "\(object.category) attribute names")
            for (name, values) in schema {
                XCTAssertTrue(values.contains(object.attribute(name)!), "\(name)=\(object.attribute(name)!)")
            }
            if let parent = object.parentIdentifier { XCTAssertTrue(identifiers.contains(parent)) }
            XCTAssertTrue(object.transform.isRigid)
        }
        XCTAssertEqual(confidences, ["high", "medium", "low"])
        XCTAssertTrue(objects.contains { $0.category == .chair && $0.parentIdentifier != nil }, "a chair belongs to a table")
    }

    /// Exact captures (noise 0) land exactly; `RealisticBuildingTests` checks noisy ones
    /// against a scan's bounds.
    func testCapturesAreInTheirOwnFramesAndGroundTruthPutsThemBack() {
        let building = BuildingGenerator.generate(BuildingSpec(seed: 6, rooms: 5, noise: 0))
        for (capture, nested) in zip(building.captures, building.structure.rooms) {
            let offset = capture.room.walls[0].transform.translation - nested.walls[0].transform.translation
            XCTAssertGreaterThan((offset * offset).sum().squareRoot(), 0.01, "a separate scan has its own frame")
            let placed = capture.room.moved(by: capture.placement)
            for (a, b) in zip(placed.walls + placed.doors + placed.floors, nested.walls + nested.doors + nested.floors) {
                for i in 0..<16 { XCTAssertEqual(a.transform[i], b.transform[i], accuracy: 1e-4) }
            }
            XCTAssertEqual(capture.room.measurements.floorArea, nested.measurements.floorArea, accuracy: 1e-3)
        }
    }
}
