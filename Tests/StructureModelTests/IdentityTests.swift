import XCTest
@testable import StructureModel

/// Identity does not depend on position: handles, names, space links and structure links
/// survive inserting and removing rooms and elements, opening and closing files, and undo.
final class IdentityTests: XCTestCase {
    private func structureWorkspace(rooms: Int = 4, seed: UInt64 = 17) -> (Workspace, RoomPlanDocument) {
        let building = BuildingGenerator.generate(BuildingSpec(seed: seed, rooms: rooms, stories: 1))
        var workspace = Workspace()
        workspace.add(path: "/tmp/s.json", document: .structure(building.structure), stamp: nil, diagnostics: [])
        return (workspace, .structure(building.structure))
    }

    private func walls(of room: Identity, in workspace: Workspace) -> [String] {
        workspace.capture(room)?.walls.map(\.identifier) ?? []
    }

    /// What each handle points at, as identifiers: the thing a person sees.
    private func handleMeanings(_ workspace: Workspace) -> [String: String] {
        var result: [String: String] = [:]
        for kind in ElementKind.allCases {
            for identity in workspace.handles.order[kind] ?? [] where workspace.exists(identity) {
                let handle = workspace.handles.handle(for: identity)!
                switch kind {
                case .room: result[handle] = walls(of: identity, in: workspace).joined(separator: ",")
                case .section:
                    guard case .section(let s)? = workspace.element(identity) else { continue }
                    result[handle] = "\(s.label)@\(s.center)"
                default: result[handle] = workspace.element(identity)!.identifier!
                }
            }
        }
        return result
    }

    func testRemovingAndInsertingRoomsShiftsNoHandleNameOrLink() throws {
        var (workspace, original) = structureWorkspace()
        let file = workspace.files[0]
        let rooms = file.rooms
        _ = workspace.perform(try workspace.planName(rooms[2], name: "Den").changes)
        let section = file.identities(rooms[3].scope, .section)[0]
        _ = workspace.perform(try workspace.planName(section, name: "Nook").changes)
        let before = handleMeanings(workspace)
        let linksBefore = workspace.files[0].links.filter { $0.key.scope == rooms[3].scope }

        // Take the second room out, and put a room from another scan in at the front.
        var steps: [Step] = []
        steps.append(workspace.perform([.removeRoom(file: file.id, rooms[1].scope.roomID!)]))
        let other = BuildingGenerator.generate(BuildingSpec(seed: 99, rooms: 2)).captures[0].room
        var next = workspace.files[0].nextSectionKey
        let record = RoomRecord(id: RoomID(workspace.nextRoomID), room: other, keys: CaptureKeys.make(for: other, nextSection: &next))
        steps.append(workspace.perform([.insertRoom(file: file.id, record, at: 0)]))

        let after = handleMeanings(workspace)
        for (handle, meaning) in before {
            if let now = after[handle] { XCTAssertEqual(now, meaning, "\(handle) still means the same thing") }
        }
        let kinds = [ElementKind.section] + ElementKind.surfaceKinds + [.object]
        let removed = 1 + kinds.reduce(0) { $0 + file.identities(rooms[1].scope, $1).count }
        let added = 1 + kinds.reduce(0) { $0 + other.count(of: $1) }
        XCTAssertEqual(after.count, before.count - removed + added,
                       "the removed room's handles are gone, the new room's added, nothing else changed")
        XCTAssertEqual(workspace.files[0].names[rooms[2]], "Den")
        XCTAssertEqual(workspace.files[0].names[section], "Nook")
        XCTAssertEqual(workspace.files[0].links.filter { $0.key.scope == rooms[3].scope }, linksBefore)
        let newRoom = Identity.room(record.id, file: file.id)
        XCTAssertEqual(workspace.files[0].rooms.first, newRoom)
        let newHandle = try XCTUnwrap(workspace.handles.handle(for: newRoom))
        XCTAssertEqual(newHandle, "r5", "a new room gets the next handle, never an old one")

        // Undo both: the original bytes; redo: the same handles as before.
        for index in steps.indices.reversed() { workspace.revert(&steps[index], forward: false) }
        XCTAssertEqual(RoomPlanCodec.encode(workspace.files[0].document), RoomPlanCodec.encode(original))
        XCTAssertEqual(handleMeanings(workspace), before)
        for index in steps.indices { workspace.revert(&steps[index], forward: true) }
        XCTAssertEqual(handleMeanings(workspace), after)
        XCTAssertEqual(workspace.handles.handle(for: newRoom), newHandle)
    }

    func testInsertRemoveAndReplaceArrayAreSwapsWithHandlesKept() throws {
        var (workspace, original) = structureWorkspace()
        let file = workspace.files[0]
        let room = file.rooms[0]
        let door = file.identities(room.scope, .door)[0]
        guard case .surface(var copy)? = workspace.element(door) else { return XCTFail("a door") }
        copy.identifier = "0A0A0A0A-0000-4000-8000-000000000001"
        let added = Identity(file: file.id, scope: room.scope, kind: .door, key: copy.identifier)
        var insert = workspace.perform([.insert(added, .surface(copy), at: 0)])
        XCTAssertEqual(workspace.position(of: added), 0)
        XCTAssertEqual(workspace.position(of: door), 1, "the old door moved one place along and is still found")
        let handle = try XCTUnwrap(workspace.handles.handle(for: added))
        workspace.revert(&insert, forward: false)
        XCTAssertNil(workspace.position(of: added))
        XCTAssertEqual(RoomPlanCodec.encode(workspace.files[0].document), RoomPlanCodec.encode(original))
        workspace.revert(&insert, forward: true)
        XCTAssertEqual(workspace.handles.handle(for: added), handle, "redo gives the same handle")

        // A whole structure-level array replaced (as a merge will), then undone.
        let structureWalls = file.identities(.structure, .wall)
        let kept = Array(structureWalls.prefix(2))
        let elements = kept.map { workspace.element($0)! }
        var replace = workspace.perform([.replaceArray(file: file.id, .structure, .wall, elements, keys: kept.map(\.key))])
        XCTAssertEqual(workspace.files[0].identities(.structure, .wall), kept)
        XCTAssertNil(workspace.position(of: structureWalls[2]))
        workspace.revert(&replace, forward: false)
        XCTAssertEqual(workspace.files[0].identities(.structure, .wall), structureWalls)
        workspace.revert(&insert, forward: false)
        XCTAssertEqual(RoomPlanCodec.encode(workspace.files[0].document), RoomPlanCodec.encode(original))
    }

    func testCloseAndOpenAreStepsThatKeepHandlesNamesAndLinks() throws {
        var (workspace, _) = structureWorkspace()
        let room = BuildingGenerator.generate(BuildingSpec(seed: 3, rooms: 2)).captures[0].room
        workspace.add(path: "/tmp/r.json", document: .room(room), stamp: nil, diagnostics: [])
        let first = workspace.files[0], second = workspace.files[1]
        _ = workspace.perform(try workspace.planName(first.rooms[0], name: "Hall").changes)
        let secondWall = second.identities(second.rooms[0].scope, .wall)[0]
        let secondHandle = workspace.handles.handle(for: secondWall)
        var close = workspace.perform([.closeFile(first.id)])
        XCTAssertNil(workspace.file(id: first.id))
        XCTAssertEqual(workspace.handles.handle(for: secondWall), secondHandle, "closing one file renumbers nothing in another")
        XCTAssertFalse(workspace.exists(first.rooms[0]))
        workspace.revert(&close, forward: false)
        XCTAssertEqual(workspace.files.map(\.id), [first.id, second.id], "back in its place")
        XCTAssertEqual(workspace.files[0].names[first.rooms[0]], "Hall")
        XCTAssertEqual(workspace.files[0].links, first.links)
        XCTAssertEqual(workspace.handles.handle(for: first.rooms[0]), "r1")

        // A file opened again later is new: new identities, new handles, none reused.
        var reopened = workspace
        _ = reopened.perform([.closeFile(first.id)])
        reopened.add(path: "/tmp/s.json", document: first.document, stamp: nil, diagnostics: [])
        let again = reopened.files.last!
        XCTAssertNotEqual(again.id, first.id)
        XCTAssertEqual(reopened.handles.handle(for: again.rooms[0]), "r\(first.rooms.count + second.rooms.count + 1)")
        XCTAssertEqual(reopened.handles.handle(for: secondWall), secondHandle)
    }

    func testDuplicatedIdentifiersGetIdentitiesOfTheirOwn() throws {
        var room = BuildingGenerator.generate(BuildingSpec(seed: 3, rooms: 2)).captures[0].room
        room.walls[1].identifier = room.walls[0].identifier
        var workspace = Workspace()
        workspace.add(path: "/tmp/d.json", document: .room(room), stamp: nil, diagnostics: [])
        let walls = workspace.files[0].identities(workspace.files[0].rooms[0].scope, .wall)
        XCTAssertEqual(walls[0].key, room.walls[0].identifier)
        XCTAssertEqual(walls[1].key, room.walls[0].identifier + "~2")
        XCTAssertEqual(walls[1].identifier, room.walls[0].identifier)
        XCTAssertEqual(workspace.rows(.wall).count, room.walls.count, "both walls are listed")
        _ = workspace.perform(try workspace.planSet(walls[1], field: "confidence", value: "low").changes)
        guard case .room(let edited) = workspace.files[0].document else { return XCTFail() }
        XCTAssertEqual(edited.walls[1].confidence, .low)
        XCTAssertEqual(edited.walls[0].confidence, room.walls[0].confidence, "the other wall with that identifier is untouched")
    }

    func testStructureLevelElementsAreListedWithTheRoomsTheyStandFor() throws {
        let (workspace, original) = structureWorkspace()
        guard case .structure(let structure) = original else { return XCTFail() }
        let rows = workspace.rows(.wall)
        let roomWalls = structure.rooms.reduce(0) { $0 + $1.walls.count }
        XCTAssertEqual(rows.count, roomWalls + structure.merged.walls.count)
        let structureRows = rows.filter { $0.level == "structure" }
        XCTAssertEqual(structureRows.map(\.identifier), structure.merged.walls.map(\.identifier))
        XCTAssertTrue(structureRows.allSatisfy { $0.roomHandle == nil && !$0.roomHandles.isEmpty })
        XCTAssertTrue(structureRows.contains { $0.roomHandles.count == 2 }, "a wall between two rooms stands for both")
        XCTAssertEqual(workspace.rows(.floor).filter { $0.level == "structure" }.count, structure.merged.floors.count)
    }

    /// Apple's merge writes the structure's sections at the floor's height (the rooms' at 0),
    /// moved by a few centimetres, and gives the story's floor an identifier of its own. Such
    /// a structure's sections and floor stood for no room: a label or move of a room left them.
    func testAnAppleMergedStructuresSectionsAndFloorStandForTheirRooms() throws {
        let building = BuildingGenerator.generate(BuildingSpec(seed: 17, rooms: 4, stories: 1))
        var structure = building.structure
        for i in structure.merged.sections.indices {
            structure.merged.sections[i].center += SIMD3(0.03, 0.41, -0.025)
        }
        for i in structure.merged.floors.indices {
            structure.merged.floors[i].identifier = String(format: "F100D000-0000-4000-8000-%012d", i)
        }
        var workspace = Workspace()
        workspace.add(path: "/tmp/apple.json", document: .structure(structure), stamp: nil, diagnostics: [])
        let file = workspace.files[0]
        for room in file.rooms {
            for section in file.identities(room.scope, .section) {
                let link = try XCTUnwrap(workspace.link(of: section), "a room's section stands for the structure's")
                XCTAssertEqual(workspace.element(link.element).flatMap { if case .section(let s) = $0 { s.label } else { nil } },
                               workspace.element(section).flatMap { if case .section(let s) = $0 { s.label } else { nil } })
            }
            for floor in file.identities(room.scope, .floor) {
                let link = try XCTUnwrap(workspace.link(of: floor), "a room's floor stands for its story's floor")
                XCTAssertEqual(link.element.scope, .structure)
            }
        }
        // A section further off than 10 cm is another section.
        var apart = building.structure
        apart.merged.sections[0].center.x += 0.3
        var other = Workspace()
        other.add(path: "/tmp/apart.json", document: .structure(apart), stamp: nil, diagnostics: [])
        let linked = other.files[0].rooms.flatMap { other.files[0].identities($0.scope, .section) }.compactMap { other.link(of: $0)?.element }
        XCTAssertEqual(Set(linked).count, apart.merged.sections.count - 1)
    }

    func testEditingAStructureRoomKeepsItConsistentOrSaysItIsNot() throws {
        var (workspace, _) = structureWorkspace()
        let file = workspace.files[0]
        let room = file.rooms[0]
        XCTAssertEqual(workspace.structureDisagreements(file: file.id), [], "Apple's (the generator's) structure agrees with its rooms")
        let object = file.identities(room.scope, .object)[0]
        let twin = try XCTUnwrap(workspace.twin(of: object))
        let plan = try workspace.planMove(room: room, by: RigidMotion(yaw: 0.4, translation: SIMD3(1, 0, 0)))
        var step = workspace.perform(plan.changes)
        XCTAssertEqual(workspace.element(twin)?.transform, workspace.element(object)?.transform, "an exclusive twin moves along")
        let disagreeing = workspace.structureDisagreements(file: file.id)
        let shared = Set(file.identities(room.scope, .wall).compactMap { workspace.link(of: $0)?.element }
            .filter { workspace.owners(of: $0).contains { $0.scope != room.scope } })
        XCTAssertFalse(shared.isEmpty)
        XCTAssertTrue(shared.isSubset(of: Set(disagreeing)), "every shared wall left behind is reported")
        XCTAssertFalse(disagreeing.contains(twin))
        XCTAssertTrue(plan.notes.contains { $0.contains("shared with other rooms") })
        workspace.revert(&step, forward: false)
        XCTAssertEqual(workspace.structureDisagreements(file: file.id), [])
        _ = workspace.perform(try workspace.planStory(room: room, story: 4).changes)
        XCTAssertFalse(workspace.structureDisagreements(file: file.id).isEmpty, "a story change that leaves shared walls behind is reported")
    }

    /// Random edits on generated structures: undoing all of them gives the exact bytes
    /// back, redoing them gives the same document and handles, and whenever a
    /// structure-level element moved differently from a room element it stands for, the
    /// consistency check reports it.
    func testRandomEditSequencesUndoExactlyAndReportDisagreement() throws {
        for seed in UInt64(1)...12 {
            var random = SplitMix(seed: seed &* 7919)
            var (workspace, original) = structureWorkspace(rooms: 3 + Int(seed % 4), seed: seed)
            let file = workspace.files[0]
            let start = workspace.files[0]
            var steps: [Step] = []
            for _ in 0..<25 {
                let rooms = workspace.files[0].rooms
                let room = rooms[Int(random.next() % UInt64(rooms.count))]
                let elements = (ElementKind.surfaceKinds + [.object]).flatMap { workspace.files[0].identities(room.scope, $0) }
                let element = elements.isEmpty ? nil : elements[Int(random.next() % UInt64(elements.count))]
                let plan: EditPlan
                switch random.next() % 8 {
                case 0: plan = try workspace.planMove(room: room, by: RigidMotion(translation: SIMD3(Double(random.next() % 5) - 2, 0, 1)))
                case 1: plan = try workspace.planMove(room: room, by: RigidMotion(yaw: Double(random.next() % 360) * .pi / 180))
                case 2: plan = try workspace.planStory(room: room, story: Int(random.next() % 3))
                case 3: plan = try workspace.planName(room, name: "room \(random.next() % 100)")
                case 4: plan = (try? element.map { try workspace.planDelete($0) }) ?? nil ?? EditPlan()
                case 5:
                    let buried = workspace.files[0].graveyard.keys.sorted { $0.key < $1.key }.first
                    plan = (try? buried.map { try workspace.planRestore($0) }) ?? nil ?? EditPlan()
                case 6: plan = (try? element.map { try workspace.planSet($0, field: "confidence", value: "low") }) ?? nil ?? EditPlan()
                default:
                    let section = workspace.files[0].identities(room.scope, .section).first
                    plan = (try? section.map { try workspace.planLabel(section: $0, label: "kitchen") }) ?? nil ?? EditPlan()
                }
                steps.append(workspace.perform(plan.changes))
                try assertDisagreementsReported(workspace, start: start, file: file.id, seed: seed)
            }
            let edited = RoomPlanCodec.encode(workspace.files[0].document)
            let handlesAfter = handleMeanings(workspace)
            for index in steps.indices.reversed() { workspace.revert(&steps[index], forward: false) }
            XCTAssertEqual(RoomPlanCodec.encode(workspace.files[0].document), RoomPlanCodec.encode(original), "seed \(seed)")
            XCTAssertEqual(workspace.structureDisagreements(file: file.id), [], "seed \(seed)")
            for index in steps.indices { workspace.revert(&steps[index], forward: true) }
            XCTAssertEqual(RoomPlanCodec.encode(workspace.files[0].document), edited, "seed \(seed)")
            XCTAssertEqual(handleMeanings(workspace), handlesAfter, "seed \(seed)")
        }
    }

    /// An oracle apart from the relation the check keeps: each element's rigid motion since
    /// the start (its transform now after the inverse of its transform then). A room element
    /// and its structure-level element that moved differently must be reported.
    private func assertDisagreementsReported(_ workspace: Workspace, start: WorkspaceFile, file: Int, seed: UInt64) throws {
        let reported = Set(workspace.structureDisagreements(file: file))
        for (own, link) in workspace.files[0].links {
            guard let a0 = startElement(own, start)?.transform, let b0 = startElement(link.element, start)?.transform,
                  let a1 = workspace.element(own)?.transform, let b1 = workspace.element(link.element)?.transform else { continue }
            let moveA = motion(from: a0, to: a1), moveB = motion(from: b0, to: b1)
            let differs = abs(normalizedAngle(moveA.yaw - moveB.yaw)) > 1e-3
                || ((moveA.apply(toPoint: b0.translation) - b1.translation) * (moveA.apply(toPoint: b0.translation) - b1.translation)).sum() > 1e-5
            if differs { XCTAssertTrue(reported.contains(link.element), "seed \(seed): \(link.element.key) moved apart from \(own.key) unreported") }
        }
    }

    private func startElement(_ identity: Identity, _ file: WorkspaceFile) -> Element? {
        guard let index = file.position(of: identity) else { return nil }
        return file.capture(identity.scope)?.element(identity.kind, at: index)
    }

    private func motion(from a: Transform, to b: Transform) -> RigidMotion {
        let yaw = normalizedAngle(b.yaw - a.yaw)
        let turned = RigidMotion(yaw: yaw).apply(toPoint: a.translation)
        return RigidMotion(yaw: yaw, translation: b.translation - turned)
    }

    func testSectionNamesSurviveMovesTurnsAndASaveThroughTheSidecar() throws {
        var (workspace, _) = structureWorkspace()
        let file = workspace.files[0]
        let room = file.rooms[1]
        let section = file.identities(room.scope, .section)[0]
        _ = workspace.perform(try workspace.planName(section, name: "Reading corner").changes)
        _ = workspace.perform(try workspace.planMove(room: room, by: RigidMotion(yaw: 2.0, translation: SIMD3(7, 0, -3))).changes)
        let bytes = Sidecar(file: workspace.files[0]).encoded(fileName: "s.json")
        // Reopened: a new workspace, new identities; the name finds its section again.
        var reopened = Workspace()
        reopened.add(path: "/tmp/s.json", document: workspace.files[0].document, stamp: nil, diagnostics: [],
                     sidecar: try Sidecar.decode(bytes))
        let again = reopened.files[0]
        let sectionAgain = again.identities(again.rooms[1].scope, .section)[0]
        XCTAssertEqual(again.names[sectionAgain], "Reading corner")
        // Even when the room was moved by another tool after the save (centres far away).
        let moved: RoomPlanDocument
        guard case .structure(var structure) = workspace.files[0].document else { return XCTFail() }
        structure.rooms[1] = structure.rooms[1].moved(by: RigidMotion(yaw: 1, translation: SIMD3(30, 0, 30)))
        moved = .structure(structure)
        var elsewhere = Workspace()
        elsewhere.add(path: "/tmp/s.json", document: moved, stamp: nil, diagnostics: [], sidecar: try Sidecar.decode(bytes))
        let third = elsewhere.files[0]
        XCTAssertEqual(third.names[third.identities(third.rooms[1].scope, .section)[0]], "Reading corner")
    }

    /// Rooms that share wall identifiers (a room merged with a copy of its own file, or one
    /// whose walls another room's copy also holds) each keep their names through a save: the
    /// last room holding a wall took every entry's vote, so the first room's name went to the
    /// second on reopening and was lost.
    func testRoomsSharingWallIdentifiersKeepTheirOwnNamesThroughTheSidecar() throws {
        let building = BuildingGenerator.generate(BuildingSpec(seed: 17, rooms: 3, stories: 1))
        var structure = building.structure
        // The first room twice, and a third room holding the first room's walls and more.
        var larger = structure.rooms[1]
        larger.walls = structure.rooms[0].walls + larger.walls
        structure.rooms = [structure.rooms[0], structure.rooms[0], larger]
        var workspace = Workspace()
        workspace.add(path: "/tmp/s.json", document: .structure(structure), stamp: nil, diagnostics: [])
        let names = ["Alpha", "Beta", "Gamma"]
        for (room, name) in zip(workspace.files[0].rooms, names) {
            _ = workspace.perform(try workspace.planName(room, name: name).changes)
            let section = workspace.files[0].identities(room.scope, .section)[0]
            _ = workspace.perform(try workspace.planName(section, name: name + " corner").changes)
        }
        let bytes = Sidecar(file: workspace.files[0]).encoded(fileName: "s.json")
        var reopened = Workspace()
        reopened.add(path: "/tmp/s.json", document: workspace.files[0].document, stamp: nil, diagnostics: [],
                     sidecar: try Sidecar.decode(bytes))
        let file = reopened.files[0]
        XCTAssertEqual(file.rooms.map { file.names[$0] }, names)
        XCTAssertEqual(file.rooms.map { file.names[file.identities($0.scope, .section)[0]] }, names.map { $0 + " corner" })
    }

    func testVersionOneSidecarsAreStillRead() throws {
        let room = BuildingGenerator.generate(BuildingSpec(seed: 3, rooms: 2)).captures[0].room
        let c = room.sections[0].center
        let v1 = """
            {"format":"wb-names","rooms":[{"name":"Study","walls":["\(room.walls[0].identifier)"]}],
             "sections":[{"center":[\(c.x),\(c.y),\(c.z)],"name":"Desk","story":\(room.sections[0].story ?? 0)}],"version":1}
            """
        var workspace = Workspace()
        workspace.add(path: "/tmp/v1.json", document: .room(room), stamp: nil, diagnostics: [],
                      sidecar: try Sidecar.decode(Array(v1.utf8)))
        let file = workspace.files[0]
        XCTAssertEqual(file.names[file.rooms[0]], "Study")
        XCTAssertEqual(file.names[file.identities(file.rooms[0].scope, .section)[0]], "Desk")
    }

    func testFoldingStepsKeepsUndoOrderAndStates() throws {
        var (workspace, original) = structureWorkspace()
        let room = workspace.files[0].rooms[0]
        var steps: [Step] = []
        for i in 0..<50 {
            steps.append(workspace.perform(try workspace.planMove(room: room, by: RigidMotion(translation: SIMD3(Double(i) / 10, 0, 0))).changes))
        }
        var folded = Step.folding(steps)
        XCTAssertEqual(folded.changes.count, steps.reduce(0) { $0 + $1.changes.count })
        XCTAssertEqual(folded.states.count, 1)
        XCTAssertEqual(folded.states[0].before, steps[0].states[0].before)
        XCTAssertEqual(folded.states[0].after, steps.last!.states[0].after)
        workspace.revert(&folded, forward: false)
        XCTAssertEqual(workspace.files[0].document, original)
        XCTAssertFalse(workspace.files[0].isModified)
    }
}
