import XCTest
@testable import StructureModel

final class FloorPlanModelTests: XCTestCase {
    /// An L-shaped kitchen on story 1 with a door, a window and an opening in its first wall,
    /// and a hall without sections on story 0.
    private func rooms() -> [FloorPlanModel.RoomInput] {
        var kitchen = TestRooms.room(Shapes.lShape)
        kitchen.story = 1
        kitchen.walls[1].dimensions.z = 0.12
        kitchen.doors = [TestRooms.surface(.door(isOpen: false), PlanPoint(x: 0.5, z: 0), PlanPoint(x: 1.3, z: 0),
                                           height: 2, bottom: 0, id: "D1")]
        kitchen.doors[0].parentIdentifier = "W0"
        kitchen.windows = [TestRooms.surface(.window, PlanPoint(x: 2, z: 0), PlanPoint(x: 3, z: 0), height: 1, bottom: 1, id: "N1")]
        kitchen.openings = [TestRooms.surface(.opening, PlanPoint(x: 0, z: 3.5), PlanPoint(x: 0, z: 2.5), height: 2, bottom: 0, id: "O1")]
        kitchen.sections = [Section(label: "kitchen", center: SIMD3(1, 0, 1), story: 1),
                            Section(label: "diningRoom", center: SIMD3(1, 0, 3), story: 1)]
        var hall = TestRooms.room(Shapes.rectangle(10, 0, 12, 6))
        for i in hall.walls.indices { hall.walls[i].story = nil }
        hall.floors = []
        return [FloorPlanModel.RoomInput(room: kitchen, label: "r1", sectionLabels: ["s1 Kitchen"]),
                FloorPlanModel.RoomInput(room: hall, label: "r2", sectionLabels: [])]
    }

    func testStoriesHoldTheirRoomsLowestFirst() throws {
        let plan = FloorPlanModel(rooms: rooms())
        XCTAssertEqual(plan.stories.map(\.number), [0, 1], "the hall names no story: 0")
        let hall = try XCTUnwrap(plan.story(0)), kitchen = try XCTUnwrap(plan.story(1))
        XCTAssertNil(plan.story(2))
        XCTAssertEqual(hall.walls.map(\.identifier), ["W0", "W1", "W2", "W3"])
        XCTAssertEqual(kitchen.walls.count, 6)
        XCTAssertEqual(kitchen.rooms.map(\.label), ["r1"])
        XCTAssertEqual(kitchen.rooms[0].outlines.map(polygonArea).first ?? 0, 12, accuracy: 1e-5)
        XCTAssertEqual(hall.rooms[0].outlines.map(polygonArea).first ?? 0, 12, accuracy: 1e-5, "the loop of its walls")
    }

    func testWallsDoorsWindowsAndOpenings() throws {
        let kitchen = try XCTUnwrap(FloorPlanModel(rooms: rooms()).story(1))
        XCTAssertNil(kitchen.walls[0].thickness, "RoomPlan's 0 says nothing")
        XCTAssertEqual(kitchen.walls[1].thickness ?? 0, 0.12, accuracy: 1e-6)
        XCTAssertEqual(kitchen.walls[0].segment.start.x, 0, accuracy: 1e-6)
        XCTAssertEqual(kitchen.walls[0].segment.end.x, 4, accuracy: 1e-6)
        // The first wall runs along z = 0; the kitchen lies at +Z.
        XCTAssertEqual(kitchen.walls[0].inwardNormal?.z ?? 0, 1, accuracy: 1e-6)
        XCTAssertEqual(kitchen.doors.count, 1)
        XCTAssertEqual(kitchen.doors[0].identifier, "D1")
        XCTAssertEqual(kitchen.doors[0].isOpen, false)
        XCTAssertEqual(kitchen.doors[0].hostWall, "W0")
        XCTAssertEqual(kitchen.doors[0].segment.length, 0.8, accuracy: 1e-6)
        XCTAssertEqual(kitchen.doors[0].inwardNormal?.z ?? 0, 1, accuracy: 1e-6, "the door opens towards the room's side")
        XCTAssertEqual(kitchen.windows.map(\.identifier), ["N1"])
        XCTAssertEqual(kitchen.openings.map(\.identifier), ["O1"], "openings are kept apart from doors")
        XCTAssertEqual(kitchen.openings[0].inwardNormal?.x ?? 0, 1, accuracy: 1e-6)
    }

    func testLabelsAndBounds() throws {
        let plan = FloorPlanModel(rooms: rooms())
        let kitchen = try XCTUnwrap(plan.story(1)), hall = try XCTUnwrap(plan.story(0))
        XCTAssertEqual(kitchen.labels, [FloorPlanModel.Label(text: "s1 Kitchen", point: PlanPoint(x: 1, z: 1)),
                                        FloorPlanModel.Label(text: "diningRoom", point: PlanPoint(x: 1, z: 3))],
                       "a section without a text keeps its RoomPlan label")
        XCTAssertEqual(hall.labels.map(\.text), ["r2"], "a room without sections, by its own label")
        XCTAssertEqual(hall.labels[0].point.x, 11, accuracy: 1e-6)
        XCTAssertEqual(hall.labels[0].point.z, 3, accuracy: 1e-6)
        let bounds = try XCTUnwrap(hall.bounds)
        XCTAssertEqual(bounds.min.x, 10, accuracy: 1e-6)
        XCTAssertEqual(bounds.width, 2, accuracy: 1e-6)
        XCTAssertEqual(bounds.depth, 6, accuracy: 1e-6)
        XCTAssertNil(FloorPlanModel.Story(number: 4).bounds, "nothing to draw")
    }

    func testAnchorsGoToTheirRoomsStory() throws {
        let anchors = [FloorPlanModel.AnchorInput(label: FloorPlanModel.Label(text: "a2", point: PlanPoint(x: 11, z: 1)), room: 1),
                       FloorPlanModel.AnchorInput(label: FloorPlanModel.Label(text: "a1", point: PlanPoint(x: 1, z: 1)), room: 0),
                       FloorPlanModel.AnchorInput(label: FloorPlanModel.Label(text: "a3", point: .zero), room: 7)]
        let plan = FloorPlanModel(rooms: rooms(), anchors: anchors)
        XCTAssertEqual(plan.story(0)?.anchors.map(\.text), ["a2"])
        XCTAssertEqual(plan.story(1)?.anchors.map(\.text), ["a1"])
        XCTAssertTrue(plan.story(1)?.bounds?.contains(PlanPoint(x: 1, z: 1)) == true)
    }

    func testAGeneratedBuilding() throws {
        let building = BuildingGenerator.generate(BuildingSpec(seed: 5, rooms: 6, stories: 2))
        let inputs = building.structure.rooms.map { FloorPlanModel.RoomInput(room: $0, label: "", sectionLabels: []) }
        let plan = FloorPlanModel(rooms: inputs)
        XCTAssertEqual(plan.stories.map(\.number), [0, 1])
        let rooms = building.structure.rooms
        XCTAssertEqual(plan.stories.reduce(0) { $0 + $1.walls.count }, rooms.reduce(0) { $0 + $1.walls.count })
        XCTAssertEqual(plan.stories.reduce(0) { $0 + $1.doors.count }, rooms.reduce(0) { $0 + $1.doors.count })
        for story in plan.stories {
            for wall in story.walls {
                XCTAssertNotNil(wall.inwardNormal, "every generated room has a floor to tell by")
            }
        }
        // Each generated room's walls face into its floor.
        for room in rooms {
            for wall in room.walls {
                let normal = try XCTUnwrap(room.inwardNormal(of: wall))
                let probe = wall.planSegment.midpoint + normal * 0.1
                XCTAssertTrue(room.planOutlines.contains { $0.encloses(probe) })
            }
        }
    }
}
