import XCTest
@testable import StructureModel

/// The laws of editing: an edit then its undo is the original; a move then the opposite
/// move is the original within 1e-5; undo back to the start writes the original bytes.
final class EditLawTests: XCTestCase {
    private func workspace(rooms: Int = 4, structure: Bool = false) -> (Workspace, RoomPlanDocument) {
        let building = BuildingGenerator.generate(BuildingSpec(seed: 17, rooms: rooms, stories: 1))
        let document: RoomPlanDocument = structure ? .structure(building.structure) : .room(building.captures[0].room)
        var workspace = Workspace()
        workspace.add(path: "/tmp/x.json", document: document, stamp: nil, diagnostics: [])
        return (workspace, document)
    }

    private func room(_ workspace: Workspace, _ index: Int = 0) -> Identity {
        workspace.handles.order[.room]![index]
    }

    func testEveryEditThenUndoIsTheOriginal() throws {
        let (start, original) = workspace(structure: true)
        var workspace = start
        let r = room(workspace, 1)
        let object = workspace.handles.order[.object]!.first { $0.scope == r.scope }!
        let section = workspace.handles.order[.section]!.first { $0.scope == r.scope }!
        let door = workspace.handles.order[.door]!.first { $0.scope == r.scope }!
        guard case .surface(let doorSurface)? = workspace.element(door),
              case .door(let isOpen) = doorSurface.category else { return XCTFail("a door") }
        let plans: [EditPlan] = [
            try workspace.planMove(room: r, by: RigidMotion(yaw: 0.7, translation: SIMD3(1, 0.2, -3))),
            try workspace.planStory(room: r, story: 2),
            try workspace.planLabel(section: section, label: "unidentified"),
            try workspace.planName(r, name: "Den"),
            try workspace.planSet(object, field: "confidence", value: "low"),
            try workspace.planSet(door, field: "open", value: isOpen ? "false" : "true"),
            try workspace.planDelete(object),
        ]
        for plan in plans {
            XCTAssertFalse(plan.changes.isEmpty)
            let before = workspace.files[0]
            var step = workspace.perform(plan.changes)
            XCTAssertTrue(workspace.files[0].isModified)
            workspace.revert(&step, forward: false)
            XCTAssertEqual(workspace.files[0].document, before.document)
            XCTAssertEqual(workspace.files[0].names, before.names)
            XCTAssertFalse(workspace.files[0].isModified)
            workspace.revert(&step, forward: true)
            workspace.revert(&step, forward: false)
            XCTAssertEqual(workspace.files[0].document, original)
        }
    }

    func testMoveThenMoveBackIsTheOriginalWithin1e5() throws {
        let (start, original) = workspace()
        var workspace = start
        let r = room(workspace)
        let motion = RigidMotion(yaw: 1.234, translation: SIMD3(3.5, -0.25, 7.75))
        _ = workspace.perform(try workspace.planMove(room: r, by: motion).changes)
        XCTAssertNotEqual(workspace.files[0].document, original)
        _ = workspace.perform(try workspace.planMove(room: r, by: motion.inverse).changes)
        guard case .room(let back) = workspace.files[0].document, case .room(let first) = original else { return XCTFail() }
        for (a, b) in zip(back.walls + back.doors + back.windows + back.floors, first.walls + first.doors + first.windows + first.floors) {
            for i in 0..<16 { XCTAssertEqual(a.transform[i], b.transform[i], accuracy: 1e-5) }
        }
        for (a, b) in zip(back.objects, first.objects) {
            for i in 0..<16 { XCTAssertEqual(a.transform[i], b.transform[i], accuracy: 1e-5) }
        }
        for (a, b) in zip(back.sections, first.sections) {
            XCTAssertEqual(Double(a.center.x), Double(b.center.x), accuracy: 1e-5)
            XCTAssertEqual(Double(a.center.z), Double(b.center.z), accuracy: 1e-5)
        }
    }

    /// About a pivot on a binary grid (1/1024 m), every coordinate settles on a grid the
    /// quarter turns map exactly onto itself. About an arbitrary pivot each turn may round
    /// by half a float step the same way every time, about 1 mm after 10,000 turns for a
    /// third of rooms, whatever generated them.
    func testTenThousandQuarterTurnsDoNotDrift() throws {
        let (start, original) = workspace()
        var workspace = start
        let r = room(workspace)
        let centre = workspace.centre(of: r)!
        let pivot = SIMD3((centre.x * 1024).rounded() / 1024, 0, (centre.z * 1024).rounded() / 1024)
        let quarter = RigidMotion(translation: pivot).composed(after: RigidMotion(yaw: .pi / 2)
            .composed(after: RigidMotion(translation: -pivot)))
        for _ in 0..<10_000 {
            _ = workspace.perform(try workspace.planMove(room: r, by: quarter).changes)
        }
        guard case .room(let turned) = workspace.files[0].document, case .room(let first) = original else { return XCTFail() }
        for surface in turned.walls + turned.doors + turned.objects.map({ Surface(category: .wall, identifier: $0.identifier, dimensions: $0.dimensions, transform: $0.transform) }) {
            XCTAssertTrue(surface.transform.isRigid)
            XCTAssertLessThan(surface.transform.rigidityError, 1e-6, "orthonormal after 10,000 quarter turns")
        }
        for (a, b) in zip(turned.walls, first.walls) {
            for i in 0..<16 { XCTAssertEqual(a.transform[i], b.transform[i], accuracy: 1e-4, "2,500 full turns come back") }
        }
    }

    func testUndoToTheStartWritesTheOriginalBytes() throws {
        let (start, original) = workspace(structure: true)
        var workspace = start
        let bytes = RoomPlanCodec.encode(original)
        var steps: [Step] = []
        let r = room(workspace, 2)
        steps.append(workspace.perform(try workspace.planMove(room: r, by: RigidMotion(yaw: 0.3, translation: SIMD3(0.1, 0, 0.2))).changes))
        steps.append(workspace.perform(try workspace.planStory(room: r, story: 3).changes))
        let wall = workspace.handles.order[.wall]!.first { $0.scope == r.scope }!
        steps.append(workspace.perform(try workspace.planDelete(wall).changes))
        XCTAssertNotEqual(RoomPlanCodec.encode(workspace.files[0].document), bytes)
        for index in steps.indices.reversed() { workspace.revert(&steps[index], forward: false) }
        XCTAssertEqual(RoomPlanCodec.encode(workspace.files[0].document), bytes)
    }

    func testStructureEditsKeepTheStructureLevelTwinsInStep() throws {
        let (start, _) = workspace(rooms: 4, structure: true)
        var workspace = start
        let r = room(workspace, 0)
        let object = workspace.handles.order[.object]!.first { $0.scope == r.scope }!
        let twin = try XCTUnwrap(workspace.twin(of: object), "objects have structure-level twins")
        _ = workspace.perform(try workspace.planMove(room: r, by: RigidMotion(translation: SIMD3(2, 0, 0))).changes)
        _ = workspace.perform(try workspace.planSet(object, field: "confidence", value: "low").changes)
        guard case .object(let moved)? = workspace.element(object),
              case .object(let movedTwin)? = workspace.element(twin) else { return XCTFail() }
        XCTAssertEqual(moved, movedTwin, "the room's object and its structure-level copy changed together")
        let section = workspace.handles.order[.section]!.first { $0.scope == r.scope }!
        _ = workspace.perform(try workspace.planLabel(section: section, label: "diningRoom").changes)
        guard case .structure(let structure) = workspace.files[0].document else { return XCTFail() }
        XCTAssertEqual(structure.merged.sections.filter { $0.label == "diningRoom" }.count,
                       structure.rooms.flatMap(\.sections).filter { $0.label == "diningRoom" }.count)
        let plan = try workspace.planMove(room: r, by: RigidMotion(translation: SIMD3(1, 0, 0)))
        XCTAssertTrue(plan.notes.contains { $0.contains("shared with other rooms") }, "shared walls are reported, not moved")
        _ = workspace.perform(try workspace.planDelete(object).changes)
        XCTAssertNil(workspace.position(of: twin), "deleting a room's object deletes its structure-level twin")
        _ = workspace.perform(try workspace.planRestore(object).changes)
        XCTAssertNotNil(workspace.position(of: twin))
    }

    func testRestorePutsElementsBackInTheirPlaces() throws {
        let (start, original) = workspace()
        var workspace = start
        let walls = workspace.handles.order[.wall]!
        _ = workspace.perform(try workspace.planDelete(walls[0]).changes)
        _ = workspace.perform(try workspace.planDelete(walls[2]).changes)
        _ = workspace.perform(try workspace.planDelete(walls[1]).changes)
        _ = workspace.perform(try workspace.planRestore(walls[2]).changes)
        _ = workspace.perform(try workspace.planRestore(walls[0]).changes)
        _ = workspace.perform(try workspace.planRestore(walls[1]).changes)
        XCTAssertEqual(workspace.files[0].document, original, "restored in the original order, whatever the order of restores")
    }

    /// A room's move, turn or story is also its deleted elements': a wall deleted, the room
    /// turned and moved, the wall restored, came back where the room had been (29 cm off its
    /// corner in a real session), and a deleted object of a structure's room came back with
    /// its structure-level copy where the room had been. Restored, they are where the same
    /// edits without the delete put them; undone, the graveyard is as it was.
    func testAnElementDeletedBeforeTheRoomMovesIsRestoredWhereTheRoomNowIs() throws {
        for structure in [false, true] {
            let (start, _) = workspace(structure: structure)
            let r = room(start)
            let wall = start.handles.order[.wall]!.first { $0.scope == r.scope }!
            let object = start.handles.order[.object]!.first { $0.scope == r.scope }!
            let motion = RigidMotion(yaw: 0.9, translation: SIMD3(1.5, 0.25, -2))
            var moved = start
            _ = moved.perform(try moved.planMove(room: r, by: motion).changes)
            _ = moved.perform(try moved.planStory(room: r, story: 3).changes)

            var workspace = start
            _ = workspace.perform(try workspace.planDelete(wall).changes)
            _ = workspace.perform(try workspace.planDelete(object).changes)
            let before = workspace.files[0]
            var step = workspace.perform(try workspace.planMove(room: r, by: motion).changes)
            workspace.revert(&step, forward: false)
            XCTAssertEqual(workspace.files[0].graveyard, before.graveyard, "undo puts the deleted elements back where they were")
            workspace.revert(&step, forward: true)
            _ = workspace.perform(try workspace.planStory(room: r, story: 3).changes)
            _ = workspace.perform(try workspace.planRestore(wall).changes)
            _ = workspace.perform(try workspace.planRestore(object).changes)
            XCTAssertEqual(workspace.element(wall), moved.element(wall), "structure: \(structure)")
            XCTAssertEqual(workspace.element(object), moved.element(object), "structure: \(structure)")
            if structure {
                let twin = try XCTUnwrap(moved.twin(of: object))
                XCTAssertEqual(workspace.element(twin), moved.element(twin), "the structure-level copy came back with the room too")
            }
            XCTAssertEqual(workspace.files[0].document, moved.files[0].document, "structure: \(structure)")
        }
    }

    func testBadEditsAreRefusedAndChangeNothing() throws {
        let (workspace, _) = workspace()
        let r = room(workspace)
        let chair = workspace.handles.order[.object]!.first {
            if case .object(let o)? = workspace.element($0) { return o.category == .chair }
            return false
        }
        XCTAssertThrowsError(try workspace.planStory(room: r, story: 1_000_000_000))
        XCTAssertThrowsError(try workspace.planLabel(section: workspace.handles.order[.section]![0], label: "garage"))
        if let chair {
            XCTAssertThrowsError(try workspace.planSet(chair, field: "ChairType", value: "throne"))
            XCTAssertThrowsError(try workspace.planSet(chair, field: "SofaType", value: "rectangular"))
        }
        XCTAssertThrowsError(try workspace.planSet(workspace.handles.order[.wall]![0], field: "open", value: "true"))
        XCTAssertThrowsError(try workspace.planRestore(workspace.handles.order[.wall]![0]), "not deleted")
        XCTAssertThrowsError(try workspace.planDelete(r), "rooms are not deleted")
    }

    func testCategoryChangeKeepsAttributesValid() throws {
        let (start, _) = workspace(rooms: 6, structure: true)
        var workspace = start
        let chair = try XCTUnwrap(workspace.handles.order[.object]!.first {
            if case .object(let o)? = workspace.element($0) { return o.category == .chair }
            return false
        })
        let plan = try workspace.planSet(chair, field: "category", value: "table")
        _ = workspace.perform(plan.changes)
        guard case .object(let table)? = workspace.element(chair) else { return XCTFail() }
        XCTAssertEqual(table.category, .table)
        XCTAssertEqual(Set(table.attributes!.keys), ["TableShapeType", "TableType"])
        XCTAssertEqual(table.attribute("TableType"), "unidentified")
        XCTAssertTrue(plan.notes.contains { $0.contains("dropped") && $0.contains("ChairType") })
    }

    /// An attribute whose values have no "unidentified" (ChairArmType and ChairBackType:
    /// existing or missing; StorageType: cabinet or shelf) is left out of a new category's
    /// attributes, not given its first value: `set o1 category chair` said a table had arms
    /// and a back ("existing"), and a chair made storage became a cabinet. A note says so.
    func testCategoryChangeLeavesOutWhatItCannotCallUnidentified() throws {
        let (start, _) = workspace(rooms: 6, structure: true)
        var workspace = start
        func first(_ category: ObjectCategory) throws -> Identity {
            try XCTUnwrap(workspace.handles.order[.object]!.first {
                if case .object(let o)? = workspace.element($0) { return o.category == category }
                return false
            })
        }
        let table = try first(.table)
        let toChair = try workspace.planSet(table, field: "category", value: "chair")
        _ = workspace.perform(toChair.changes)
        guard case .object(let chair)? = workspace.element(table) else { return XCTFail() }
        XCTAssertEqual(chair.attributes?.keys.sorted(), ["ChairLegType", "ChairType"], "no arms or back asserted")
        XCTAssertEqual(chair.attribute("ChairLegType"), "unidentified")
        XCTAssertEqual(chair.attribute("ChairType"), "unidentified")
        XCTAssertTrue(toChair.notes.contains { $0.hasPrefix("left out ChairArmType (existing or missing), ChairBackType (existing or missing)") },
                      "\(toChair.notes)")
        let toStorage = try workspace.planSet(table, field: "category", value: "storage")
        _ = workspace.perform(toStorage.changes)
        guard case .object(let storage)? = workspace.element(table) else { return XCTFail() }
        XCTAssertEqual(storage.attributes?.keys, [], "a storage that is neither cabinet nor shelf, as far as anyone said")
        XCTAssertTrue(toStorage.notes.contains { $0.hasPrefix("left out StorageType (cabinet or shelf)") }, "\(toStorage.notes)")
        // What it left out can be given.
        _ = workspace.perform(try workspace.planSet(table, field: "StorageType", value: "shelf").changes)
        guard case .object(let shelf)? = workspace.element(table) else { return XCTFail() }
        XCTAssertEqual(shelf.attribute("StorageType"), "shelf")
    }
    /// A door that a newer iOS writes with more in its category's payload
    /// (`{"door":{"isOpen":false,"swing":"left"}}`) is kept whole, and it is still a door:
    /// listed open or closed, and opened by `set … open` with the rest of its payload kept.
    /// (It was listed without its state, `find doors where open = …` missed it, and
    /// `set d1 open true` said "only doors open" of what `ls doors` called a door.)
    func testADoorWithMoreInItsPayloadIsStillOpenedAndClosed() throws {
        let building = BuildingGenerator.generate(BuildingSpec(seed: 17, rooms: 4, stories: 1))
        var room = building.captures[0].room
        let payload = JSONObject([JSONMember("isOpen", .bool(false)), JSONMember("swing", .string("left"))])
        room.doors[0].category = SurfaceCategory(json: .object(JSONObject([JSONMember("door", .object(payload))])))
        var workspace = Workspace()
        workspace.add(path: "/tmp/x.json", document: .room(room), stamp: nil, diagnostics: [])
        let door = workspace.handles.order[.door]![0]
        XCTAssertEqual(workspace.row(for: door)?.isOpen, false)

        _ = workspace.perform(try workspace.planSet(door, field: "open", value: "true").changes)
        XCTAssertEqual(workspace.row(for: door)?.isOpen, true)
        guard case .room(let written) = workspace.files[0].document else { return XCTFail("a room") }
        let opened = JSONObject([JSONMember("isOpen", .bool(true)), JSONMember("swing", .string("left"))])
        XCTAssertEqual(written.doors[0].category.json, .object(JSONObject([JSONMember("door", .object(opened))])),
                       "opened, and the payload wb does not know is kept")
        // Other surfaces still have no such field.
        XCTAssertThrowsError(try workspace.planSet(workspace.handles.order[.wall]![0], field: "open", value: "true"))
    }
}
