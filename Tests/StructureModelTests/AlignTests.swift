import XCTest
@testable import StructureModel

/// Alignment by hand: separately scanned rooms, each in its own frame at any yaw, put
/// back where the ground truth says they were, through a door or a wall they share.
final class AlignTests: XCTestCase {
    /// The captures of a generated building opened as separate room files.
    private func captures(seed: UInt64, rooms: Int = 5) -> (Workspace, GeneratedBuilding) {
        let building = BuildingGenerator.generate(BuildingSpec(seed: seed, rooms: rooms, noise: 0))
        var workspace = Workspace()
        for capture in building.captures {
            workspace.add(path: "/tmp/\(capture.fileName)", document: .room(capture.room), stamp: nil, diagnostics: [])
        }
        return (workspace, building)
    }

    /// Pairs of elements of one kind, in two captures, that are one element of the building
    /// once each capture is put where the ground truth says: parallel, as wide, side by side
    /// across at most a wall's thickness (each scan saw its own face of the wall), with how
    /// far apart across they are.
    private func sharedPairs(_ kind: ElementKind, _ workspace: Workspace, _ building: GeneratedBuilding)
        -> [(a: Identity, b: Identity, separation: Double, along: Double)] {
        var placed: [(Identity, Surface)] = []
        for (index, capture) in building.captures.enumerated() {
            let file = workspace.files[index]
            for identity in file.identities(file.rooms[0].scope, kind) {
                guard case .surface(let s)? = workspace.element(identity) else { continue }
                placed.append((identity, s.moved(by: capture.placement)))
            }
        }
        var pairs: [(Identity, Identity, Double, Double)] = []
        for i in placed.indices {
            for j in placed.indices where j > i && placed[i].0.file != placed[j].0.file {
                let a = placed[i].1.planSegment, b = placed[j].1.planSegment
                let overlap = a.overlap(with: b)
                guard overlap.angle < 1e-3, abs(overlap.offset) < 0.45, overlap.length > 0.5 * min(a.length, b.length) else { continue }
                if kind != .wall && (abs(a.length - b.length) > 1e-3 || abs(a.parameter(of: b.midpoint) - 0.5) * a.length > 1e-3) { continue }
                pairs.append((placed[i].0, placed[j].0, abs(overlap.offset), (b.midpoint - a.midpoint).dot(a.direction.normalized)))
            }
        }
        return pairs
    }

    /// After aligning capture `moving` onto capture `fixed`, every element of the moving
    /// room is where the ground truth puts it relative to the fixed room.
    private func assertPlacedAsTheTruthSays(_ workspace: Workspace, _ building: GeneratedBuilding, moving: Int, fixed: Int,
                                            file: StaticString = #filePath, line: UInt = #line) {
        let relative = building.captures[fixed].placement.inverse.composed(after: building.captures[moving].placement)
        let original = building.captures[moving].room
        guard case .room(let now) = workspace.files[moving].document else { return XCTFail("a room", file: file, line: line) }
        for (before, after) in zip(original.walls + original.doors + original.windows, now.walls + now.doors + now.windows) {
            let expected = before.moved(by: relative).transform
            for i in 0..<16 { XCTAssertEqual(after.transform[i], expected[i], accuracy: 1e-4, file: file, line: line) }
        }
    }

    func testDoorToDoorPutsRoomsWhereTheyWereAtAnyYaw() throws {
        var checked = 0
        for seed in UInt64(1)...6 {
            let (start, building) = captures(seed: seed)
            for pair in sharedPairs(.door, start, building) {
                var workspace = start
                let room = workspace.files.first { $0.id == pair.b.file }!.rooms[0]
                let (plan, alignment) = try workspace.planAlign(room: room, using: pair.b, to: pair.a, offset: pair.separation)
                _ = workspace.perform(plan.changes)
                XCTAssertEqual(alignment.separation, pair.separation, accuracy: 1e-4)
                XCTAssertEqual(alignment.angle, 0, accuracy: 1e-3)
                XCTAssertEqual(alignment.overlap, 1, accuracy: 1e-3)
                let moving = workspace.files.firstIndex { $0.id == pair.b.file }!
                let fixed = workspace.files.firstIndex { $0.id == pair.a.file }!
                assertPlacedAsTheTruthSays(workspace, building, moving: moving, fixed: fixed)
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 10, "enough shared doors were tried")
    }

    func testWallToWallPutsRoomsWhereTheyWereWhenTheWallsAreOneWall() throws {
        var checked = 0
        for seed in UInt64(1)...6 {
            let (start, building) = captures(seed: seed)
            // A wall seen from both rooms: same centre and length once placed.
            for pair in sharedPairs(.wall, start, building) {
                var workspace = start
                let room = workspace.files.first { $0.id == pair.b.file }!.rooms[0]
                // A wall's two copies need not be as long: centred, then slid to where the truth has it.
                let (plan, _) = try workspace.planAlign(room: room, using: pair.b, to: pair.a, offset: pair.separation, along: pair.along)
                _ = workspace.perform(plan.changes)
                let moving = workspace.files.firstIndex { $0.id == pair.b.file }!
                let fixed = workspace.files.firstIndex { $0.id == pair.a.file }!
                assertPlacedAsTheTruthSays(workspace, building, moving: moving, fixed: fixed)
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 5)
    }

    func testOffsetAlongAndFlip() throws {
        let (start, building) = captures(seed: 3)
        let pair = try XCTUnwrap(sharedPairs(.door, start, building).first)
        let room = start.files.first { $0.id == pair.b.file }!.rooms[0]
        guard case .surface(let fixed)? = start.element(pair.a), let fixedRoom = start.capture(pair.a),
              let inward = fixedRoom.inwardNormal(of: fixed) else { return XCTFail() }
        // Offset: the moving door lies 0.15 m beyond the fixed one, on the far side of its room.
        var workspace = start
        _ = workspace.perform(try workspace.planAlign(room: room, using: pair.b, to: pair.a, offset: 0.15, along: 0.4).0.changes)
        guard case .surface(let moved)? = workspace.element(pair.b) else { return XCTFail() }
        let line = fixed.planSegment
        XCTAssertEqual(line.signedDistance(to: moved.planSegment.midpoint) * Double(fixedRoom.insideSide(of: fixed)!), -0.15, accuracy: 1e-4)
        XCTAssertEqual((line.parameter(of: moved.planSegment.midpoint) - 0.5) * line.length, 0.4, accuracy: 1e-4, "slid 0.4 m along")
        // Flip: the moving room ends on the same side as the fixed room.
        var flipped = start
        _ = flipped.perform(try flipped.planAlign(room: room, using: pair.b, to: pair.a, flip: true).0.changes)
        guard case .surface(let flippedWall)? = flipped.element(pair.b), let movedRoom = flipped.capture(pair.b) else { return XCTFail() }
        let movedInward = try XCTUnwrap(movedRoom.inwardNormal(of: flippedWall))
        XCTAssertGreaterThan(movedInward.dot(inward), 0.999, "same side")
    }

    func testBadAlignmentsAreRefusedAndMoveNothing() throws {
        let (workspace, _) = captures(seed: 2, rooms: 3)
        let first = workspace.files[0], second = workspace.files[1]
        let r1 = first.rooms[0], r2 = second.rooms[0]
        let w1 = first.identities(r1.scope, .wall)[0], w1b = first.identities(r1.scope, .wall)[1]
        let w2 = second.identities(r2.scope, .wall)[0]
        let d2 = second.identities(r2.scope, .door)[0]
        XCTAssertThrowsError(try workspace.planAlign(room: r1, using: w1, to: w1b)) { XCTAssertTrue("\($0)".contains("onto itself")) }
        XCTAssertThrowsError(try workspace.planAlign(room: r1, using: w1, to: d2)) { XCTAssertTrue("\($0)".contains("wall with a wall")) }
        XCTAssertThrowsError(try workspace.planAlign(room: r1, using: w2, to: w1)) { XCTAssertTrue("\($0)".contains("room's own")) }
        var deleted = workspace
        _ = deleted.perform(try deleted.planDelete(w2).changes)
        XCTAssertThrowsError(try deleted.planAlign(room: r1, using: w1, to: w2)) { XCTAssertTrue("\($0)".contains("deleted")) }
        // A wall with a width but its direction zeroed is said to have no direction (it was
        // said to have no width); a wall of width 0, no width.
        var room = BuildingGenerator.generate(BuildingSpec(seed: 2, rooms: 3)).captures[0].room
        let target = BuildingGenerator.generate(BuildingSpec(seed: 2, rooms: 3)).captures[1].room
        var pointless = room.walls[0]
        for k in 0..<3 { pointless.transform[k] = 0 }
        XCTAssertThrowsError(try ManualAlignment.align(pointless, in: room, onto: target.walls[0], in: target)) {
            XCTAssertTrue("\($0)".contains("a wall with no direction (its transform is no rotation) cannot be aligned"), "\($0)")
        }
        room.walls[0].dimensions.x = 0
        XCTAssertThrowsError(try ManualAlignment.align(room.walls[0], in: room, onto: target.walls[0], in: target)) {
            XCTAssertTrue("\($0)".contains("a wall of no width cannot be aligned"), "\($0)")
        }
        // A wall 3e38 m away was refused as if its room had no floor and no outline.
        var far = target.walls[0]
        far.transform[12] = 3e38
        XCTAssertThrowsError(try ManualAlignment.align(room.walls[1], in: room, onto: far, in: target)) {
            XCTAssertTrue("\($0)".contains("the wall of the other room lies 3e+38 m from the origin: its transform is out of any scan's range"), "\($0)")
        }
    }

    func testAnAlignmentIsOneStepThatUndoesToTheBytes() throws {
        let (start, building) = captures(seed: 4)
        let pair = try XCTUnwrap(sharedPairs(.door, start, building).first)
        var workspace = start
        let index = workspace.files.firstIndex { $0.id == pair.b.file }!
        let before = RoomPlanCodec.encode(workspace.files[index].document)
        var step = workspace.perform(try workspace.planAlign(room: workspace.files[index].rooms[0], using: pair.b, to: pair.a).0.changes)
        XCTAssertNotEqual(RoomPlanCodec.encode(workspace.files[index].document), before)
        workspace.revert(&step, forward: false)
        XCTAssertEqual(RoomPlanCodec.encode(workspace.files[index].document), before)
    }
}

/// Stories from floor heights.
final class OutlineThinningTests: XCTestCase {
    /// A floor of thousands of corners (a round room drawn finely) is thinned to within 2 cm
    /// for the overlap test: each place tried clipped it against the other side's, 110 s for
    /// 4,000 corners beside a merge result holding the same floor. Floors of a scan's tens of
    /// corners are left exactly as they are.
    func testAnOutlineOfThousandsOfCornersIsThinnedAndAScansIsNot() {
        let building = BuildingGenerator.generate(BuildingSpec(seed: 7, rooms: 2, noise: 0))
        var round = building.captures[1].room
        let count = 2_000
        var seed: UInt64 = 1
        round.floors[0].polygonCorners = (0..<count).map { index in
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let jitter = (Double(seed >> 33) / Double(1 << 31) - 0.5) * 0.02
            let angle = Double(index) * 2 * .pi / Double(count)
            return SIMD3(Float(cos(angle) * 2 + jitter), Float(sin(angle) * 2), 0)
        }
        let original = round.planOutlines
        XCTAssertEqual(original.first?.count, count)
        let scene = AutoAligner.Scene([round])
        let thinned = scene.outlines[0]
        XCTAssertLessThan(thinned.count, 200)
        XCTAssertEqual(abs(polygonArea(thinned)), abs(polygonArea(original[0])), accuracy: 0.01 * abs(polygonArea(original[0])))
        for point in original[0] {
            let nearest = thinned.indices.map { PlanSegment(start: thinned[$0], end: thinned[($0 + 1) % thinned.count]).distance(to: point) }.min()!
            XCTAssertLessThanOrEqual(nearest, 0.02 + 1e-9)
        }
        // A scanned room's outline is the scene's, corner for corner.
        let plain = building.captures[0].room
        XCTAssertEqual(AutoAligner.Scene([plain]).outlines, plain.planOutlines)
    }
}

final class StoryTests: XCTestCase {
    func testStoriesByHeightRecoverTheBuildingsStories() throws {
        for seed in UInt64(1)...4 {
            let building = BuildingGenerator.generate(BuildingSpec(seed: seed, rooms: 9, stories: 3))
            var workspace = Workspace()
            workspace.add(path: "/tmp/s.json", document: .structure(building.structure), stamp: nil, diagnostics: [])
            let rooms = workspace.files[0].rooms
            let truth = rooms.map { workspace.capture($0)!.effectiveStory! }
            for room in rooms { _ = workspace.perform(try workspace.planStory(room: room, story: 7).changes) }
            let (plan, assignment) = try workspace.planStoriesByHeight(of: rooms)
            XCTAssertEqual(assignment.levels.count, Set(truth).count, "seed \(seed)")
            _ = workspace.perform(plan.changes)
            XCTAssertEqual(rooms.map { workspace.capture($0)!.effectiveStory! }, truth, "seed \(seed)")
            XCTAssertEqual(assignment.levels.map(\.height), assignment.levels.map(\.height).sorted(), "numbered from the lowest")
        }
    }

    /// Floors 0.9 m apart each, up to 2.7 m: chained from room to room they were one story (the
    /// top room a whole story above the bottom one, and `check` silent). A story's floors lie
    /// within the tolerance of its lowest; a story whose floors spread over more than half of
    /// it is said to be looked at.
    func testFloorsInStepsDoNotChainIntoOneStory() throws {
        let building = BuildingGenerator.generate(BuildingSpec(seed: 7, rooms: 4))
        var workspace = Workspace()
        workspace.add(path: "/tmp/s.json", document: .structure(building.structure), stamp: nil, diagnostics: [])
        let rooms = workspace.files[0].rooms
        XCTAssertEqual(rooms.count, 4)
        let base = rooms.map { workspace.capture($0)!.floorHeight! }
        for (index, room) in rooms.enumerated() {
            let rise = 0.9 * Double(index) - (base[index] - base[0])
            _ = workspace.perform(try workspace.planMove(room: room, by: RigidMotion(translation: SIMD3(0, rise, 0))).changes)
        }
        let assignment = workspace.storiesByHeight(of: rooms)
        XCTAssertEqual(assignment.levels.map(\.rooms), [[rooms[0], rooms[1]], [rooms[2], rooms[3]]])
        XCTAssertEqual(assignment.levels.map { $0.isSpread(tolerance: 1) }, [true, true])
        XCTAssertEqual(assignment.levels[0].high - assignment.levels[0].low, 0.9, accuracy: 0.01)
        // The building's own stories are not spread.
        let plain = BuildingGenerator.generate(BuildingSpec(seed: 3, rooms: 9, stories: 3))
        var other = Workspace()
        other.add(path: "/tmp/p.json", document: .structure(plain.structure), stamp: nil, diagnostics: [])
        let levels = other.storiesByHeight(of: other.files[0].rooms).levels
        XCTAssertEqual(levels.count, 3)
        XCTAssertFalse(levels.contains { $0.isSpread(tolerance: 1) })
    }

    func testSplitLevelAndUnmeasurableRoomsAreReportedNotGuessed() throws {
        let building = BuildingGenerator.generate(BuildingSpec(seed: 2, rooms: 3))
        var split = building.captures[0].room
        var upper = split.floors[0]
        upper.identifier = "5B5B5B5B-0000-4000-8000-000000000001"
        upper.transform.translation.y += 1.4
        split.floors.append(upper)
        var empty = CapturedRoom()
        empty.story = 0
        var workspace = Workspace()
        workspace.add(path: "/tmp/a.json", document: .room(split), stamp: nil, diagnostics: [])
        workspace.add(path: "/tmp/b.json", document: .room(empty), stamp: nil, diagnostics: [])
        let rooms = workspace.files.flatMap(\.rooms)
        let assignment = workspace.storiesByHeight(of: rooms)
        XCTAssertEqual(assignment.splitLevel.map(\.room), [rooms[0]])
        XCTAssertEqual(assignment.unknown, [rooms[1]])
        XCTAssertEqual(assignment.levels.flatMap(\.rooms), [rooms[0]])
    }
}

/// Automatic alignment of one room beside a placed one: found at any yaw when the evidence
/// is unique; reported, not guessed, when two places fit as well.
final class AutoAlignTests: XCTestCase {
    /// Two captures of a building that share a door (captures 0 and 1), and the two rooms with
    /// every other door taken out: the shared one is unique. (Made wider, as a test once did,
    /// they would be the shared door seen wider from one side.)
    private func singleDoorPair(seed: UInt64) throws -> (building: GeneratedBuilding, placed: CapturedRoom, moving: CapturedRoom) {
        let (building, i, j) = try pair(seed: seed)
        var placed = building.captures[0].room, moving = building.captures[1].room
        placed.doors = [placed.doors[i]]
        moving.doors = [moving.doors[j]]
        return (building, placed, moving)
    }

    /// Two captures of a building that share a door, with that door's pair index in each.
    private func pair(seed: UInt64) throws -> (GeneratedBuilding, Int, Int) {
        var building = BuildingGenerator.generate(BuildingSpec(seed: seed, rooms: 4, noise: 0))
        for first in building.captures.indices {
            for second in building.captures.indices where second != first {
                let a = building.captures[first], b = building.captures[second]
                for (i, door) in a.room.doors.enumerated() {
                    for (j, other) in b.room.doors.enumerated()
                    where door.moved(by: a.placement).transform.translation.distance(to: other.moved(by: b.placement).transform.translation) < 0.45
                        && abs(door.dimensions.x - other.dimensions.x) < 0.01 {
                        // The pair first, so the rest of the test reads captures 0 and 1.
                        building.captures = [a, b]
                        return (building, i, j)
                    }
                }
            }
        }
        throw XCTSkip("seed \(seed): no two rooms share a door")
    }

    /// The door of `moving` (its only one) put by `best` lands where the truth puts it: the two
    /// scans may have seen the two faces of the wall, so on the other's plane at most the wall's
    /// thickness across from the truth, within 5 cm along it and 1 degree of its heading.
    private func assertDoorLandsOnTheTruth(_ best: Placement, moving: CapturedRoom, building: GeneratedBuilding, seed: UInt64,
                                           file: StaticString = #filePath, line: UInt = #line) {
        let truth = building.captures[0].placement.inverse.composed(after: building.captures[1].placement)
        let expected = moving.doors[0].moved(by: truth).planSegment
        let found = moving.doors[0].moved(by: best.motion).planSegment
        XCTAssertLessThan(abs(expected.parameter(of: found.midpoint) - 0.5) * expected.length, 0.05, "seed \(seed)", file: file, line: line)
        XCTAssertLessThan(abs(expected.signedDistance(to: found.midpoint)), 0.45, "seed \(seed)", file: file, line: line)
        XCTAssertLessThan(abs(normalizedAngle(best.motion.yaw - truth.yaw)) * 180 / .pi, 1, "seed \(seed)", file: file, line: line)
    }

    func testAUniqueDoorwayPlacesTheRoomWhereTheTruthSaysAtAnyYaw() throws {
        var checked = 0
        for seed in UInt64(1)...8 {
            guard let (building, placed, moving) = try? singleDoorPair(seed: seed) else { continue }
            let result = AutoAligner.search(moving, beside: [placed])
            let best = try XCTUnwrap(result.candidates.first)
            XCTAssertFalse(result.isAmbiguous, "seed \(seed): \(result.candidates.prefix(2).map { ($0.score, $0.walls, $0.doorways, $0.contradictions, $0.source) })")
            XCTAssertGreaterThanOrEqual(best.doorways, 1)
            assertDoorLandsOnTheTruth(best, moving: moving, building: building, seed: seed)
            checked += 1
        }
        XCTAssertGreaterThan(checked, 3)
    }

    /// `align ROOM auto` scores in full only the places whose agreement could still put them
    /// among those kept: it must keep exactly what scoring every place keeps (the same places,
    /// scores and order), beside one room and beside a whole building, with noise, real
    /// doorways and rescans, and the bound must have passed some places over.
    func testPlacesPassedOverByTheirBoundChangeNothing() throws {
        var searches = 0, different = 0, passedOver = 0
        for (seed, spec) in [(UInt64(3), BuildingSpec(seed: 3, rooms: 5, coreModelBytes: 1000, noise: 1)),
                             (9, BuildingSpec(seed: 9, rooms: 5, coreModelBytes: 1000, noise: 1, rescans: 1, realDoorways: true)),
                             (14, BuildingSpec(seed: 14, rooms: 6, coreModelBytes: 1000, noise: 0))] {
            let building = BuildingGenerator.generate(spec)
            let placedRooms = building.structure.rooms
            for capture in building.captures.dropFirst() {
                for beside in [[building.captures[0].room.moved(by: building.captures[0].placement)], placedRooms] {
                    let bounded = AutoAligner.search(capture.room, beside: beside, tolerances: .init(), scoringEveryPlace: false)
                    let every = AutoAligner.search(capture.room, beside: beside, tolerances: .init(), scoringEveryPlace: true)
                    XCTAssertEqual(bounded.candidates, every.candidates, "seed \(seed), \(capture.fileName) beside \(beside.count)")
                    XCTAssertEqual(bounded.isAmbiguous, every.isAmbiguous)
                    XCTAssertEqual(bounded.isWeak, every.isWeak)
                    XCTAssertEqual(every.scoredInFull, every.tried)
                    passedOver += bounded.tried - bounded.scoredInFull
                    searches += 1
                    if bounded.candidates.first?.score != every.candidates.first?.score { different += 1 }
                }
            }
        }
        XCTAssertGreaterThan(searches, 20)
        XCTAssertEqual(different, 0)
        XCTAssertGreaterThan(passedOver, 0, "some places were passed over by their bound")
    }

    /// Only a room's longest walls are paired with the placed rooms' (a room of hundreds made
    /// the search cubic in its walls): with 60 stubs of wall added, more than are paired, the
    /// room still lands where the truth says, by the walls that matter.
    func testARoomOfManyShortWallsIsPlacedByItsLongestOnes() throws {
        var checked = 0
        for seed in UInt64(1)...8 {
            guard let (building, placed, single) = try? singleDoorPair(seed: seed) else { continue }
            var moving = single
            let stub = try XCTUnwrap(moving.walls.first)
            moving.walls += (0..<60).map { index in
                var copy = stub
                copy.identifier = String(format: "%08X-0000-4000-8000-%012X", index, index)
                copy.dimensions.x = 0.12
                return copy
            }
            XCTAssertGreaterThan(moving.walls.count, AutoAligner.pairedWalls)
            let best = try XCTUnwrap(AutoAligner.search(moving, beside: [placed]).candidates.first)
            assertDoorLandsOnTheTruth(best, moving: moving, building: building, seed: seed)
            checked += 1
        }
        XCTAssertGreaterThan(checked, 3)
    }

    /// A room scanned again, aligned alone beside its home already put together (every other
    /// room where the truth says, in the first room's frame), lands on its first scan: its
    /// doorway meets the first scan's from the same side. It was put beside the home instead,
    /// or nowhere: the same-side hypothesis was not tried, and the first scan's doorway counted
    /// as unmet when its other side, in the next room, was the one matched.
    func testARescanAlignedAloneLandsOnItsFirstScanBesideItsHome() throws {
        var checked = 0
        for seed in UInt64(1)...12 {
            let building = BuildingGenerator.generate(BuildingSpec(seed: seed, rooms: 5, noise: 1, rescans: 1))
            guard let rescan = building.captures.firstIndex(where: { $0.rescanOf != nil }) else { continue }
            let frame = building.captures[0].placement.inverse
            func truth(_ index: Int) -> RigidMotion { frame.composed(after: building.captures[index].placement) }
            let first = try XCTUnwrap(building.captures[rescan].rescanOf.flatMap { name in building.captures.firstIndex { $0.fileName == name } })
            let home = building.captures.indices.filter { $0 != rescan }.map { building.captures[$0].room.moved(by: truth($0)) }
            // Beside the whole home, and beside its first scan alone (no neighbour's wall to land across from).
            for (beside, what) in [(home, "home"), ([building.captures[first].room.moved(by: truth(first))], "first scan alone")] {
                let result = AutoAligner.search(building.captures[rescan].room, beside: beside)
                let best = try XCTUnwrap(result.candidates.first, "seed \(seed), \(what)")
                XCTAssertFalse(result.isAmbiguous || result.isWeak,
                               "seed \(seed), \(what): \(result.candidates.prefix(2).map { ($0.score, $0.walls, $0.doorways) })")
                XCTAssertTrue(best.isRescan, "seed \(seed), \(what): lies on its first scan")
                // Within the thickness the two scans may have seen apart, and a degree.
                let middle = try XCTUnwrap(building.captures[rescan].room.planCentre)
                let point = SIMD3(middle.x, 0, middle.z)
                XCTAssertLessThan(PlanPoint(best.motion.apply(toPoint: point)).distance(to: PlanPoint(truth(rescan).apply(toPoint: point))), 0.3,
                                  "seed \(seed), \(what)")
                XCTAssertLessThan(abs(normalizedAngle(best.motion.yaw - truth(rescan).yaw)) * 180 / .pi, 1, "seed \(seed), \(what)")
            }
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 10)
    }

    /// A copy of a placed room whose one door is 0.6 m further along its wall is no rescan of
    /// it: laid door on door, its end walls are 0.6 m off. The same-side hypotheses laid such
    /// copies on the room with certainty (scores 15 to 20), where a merge then found 14.6 m² of
    /// overlap.
    func testALookAlikeWithItsDoorElsewhereIsNotLaidOnTheRoom() throws {
        var checked = 0
        for seed in UInt64(1)...6 {
            let building = BuildingGenerator.generate(BuildingSpec(seed: seed, rooms: 5, noise: 1))
            let frame = building.captures[0].placement.inverse
            let home = building.captures.map { $0.room.moved(by: frame.composed(after: $0.placement)) }
            for index in building.captures.indices where building.captures[index].room.doors.count == 1
                && building.captures[index].room.openings.isEmpty {
                var copy = building.captures[index].room
                let along = copy.doors[0].planSegment.direction.normalized
                copy.doors[0] = copy.doors[0].moved(by: RigidMotion(translation: SIMD3(along.x * 0.6, 0, along.z * 0.6)))
                let result = AutoAligner.search(copy, beside: home)
                let best = try XCTUnwrap(result.candidates.first)
                XCTAssertFalse(best.isRescan, "seed \(seed), room \(index)")
                let onTheRoom = home[index].planOutlines.first.map { outline in
                    copy.moved(by: best.motion).planOutlines.first.map { $0.overlapArea(with: outline) } ?? 0
                } ?? 0
                XCTAssertTrue(result.isAmbiguous || result.isWeak || onTheRoom < 1,
                              "seed \(seed), room \(index): placed on the room, \(onTheRoom) m² over it (score \(best.score))")
                checked += 1
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 3)
    }

    /// A rectangular room, width along x and depth along z from `origin`, turned by `yaw`,
    /// with a door of 0.9 m in the middle of each wall named in `doors` (0: z = 0 side, 2:
    /// the opposite side), and a floor.
    private func rectangle(width: Double, depth: Double, doors: [Int], yaw: Double, origin: PlanPoint, tag: Int) -> CapturedRoom {
        let corners = [PlanPoint(x: 0, z: 0), PlanPoint(x: width, z: 0), PlanPoint(x: width, z: depth), PlanPoint(x: 0, z: depth)]
            .map { $0.rotated(by: yaw) + origin }
        var room = CapturedRoom()
        func surface(_ category: SurfaceCategory, _ a: PlanPoint, _ b: PlanPoint, height: Float, index: Int) -> Surface {
            let u = (b - a).normalized, m = (a + b) * 0.5
            let t = Transform(elements: SIMD16<Float>(Float(u.x), 0, Float(u.z), 0, 0, 1, 0, 0, Float(-u.z), 0, Float(u.x), 0,
                                                      Float(m.x), height / 2, Float(m.z), 1))
            return Surface(category: category, identifier: String(format: "%08d-0000-4000-8000-%012d", tag, index),
                           dimensions: SIMD3(Float((b - a).length), height, 0), transform: t)
        }
        room.walls = (0..<4).map { surface(.wall, corners[$0], corners[($0 + 1) % 4], height: 2.5, index: $0) }
        for side in doors {
            let wall = room.walls[side].planSegment
            var door = surface(.door(isOpen: true), wall.point(at: 0.5 - 0.45 / wall.length), wall.point(at: 0.5 + 0.45 / wall.length),
                               height: 2.0, index: 10 + side)
            door.parentIdentifier = room.walls[side].identifier
            room.doors.append(door)
        }
        let centre = (corners[0] + corners[2]) * 0.5
        let floor = Transform(elements: SIMD16<Float>(1, 0, 0, 0, 0, 0, -1, 0, 0, 1, 0, 0, Float(centre.x), 0, Float(centre.z), 1))
        room.floors = [Surface(category: .floor, identifier: String(format: "%08d-0000-4000-8000-%012d", tag, 99),
                               dimensions: SIMD3(Float(width), Float(depth), 0), transform: floor,
                               polygonCorners: corners.map { SIMD3(Float($0.x - centre.x), Float(-($0.z - centre.z)), 0) })]
        return room
    }

    func testTwoEquallyGoodPlacesAreReportedAsAmbiguous() throws {
        // A 5 × 4 m room with one door in each 5 m wall, and a 5 × 3 m room with one door: it
        // fits at either door as well, whatever its turn.
        let placed = rectangle(width: 5, depth: 4, doors: [0, 2], yaw: 0.3, origin: PlanPoint(x: 2, z: 1), tag: 1)
        let moving = rectangle(width: 5, depth: 3, doors: [0], yaw: 2.1, origin: PlanPoint(x: -7, z: 4), tag: 2)
        let result = AutoAligner.search(moving, beside: [placed])
        XCTAssertTrue(result.isAmbiguous, "\(result.candidates.prefix(2).map(\.score))")
        XCTAssertEqual(result.candidates[0].score, result.candidates[1].score, accuracy: 1e-6)
        // With one door only, it is certain.
        let single = rectangle(width: 5, depth: 4, doors: [0], yaw: 0.3, origin: PlanPoint(x: 2, z: 1), tag: 1)
        XCTAssertFalse(AutoAligner.search(moving, beside: [single]).isAmbiguous)
    }

    /// Two look-alike doors, one of them in a wall with a window (a wall to the outside: a
    /// front door). The room with one door goes to the other, without a tie; a rescan of the
    /// room meets its front door from the same side as before.
    func testADoorInAWallWithAWindowIsTakenForAFrontDoor() throws {
        var placed = rectangle(width: 8, depth: 4, doors: [0, 2], yaw: 0.3, origin: PlanPoint(x: 2, z: 1), tag: 1)
        let moving = rectangle(width: 5, depth: 3, doors: [0], yaw: 2.1, origin: PlanPoint(x: -7, z: 4), tag: 2)
        XCTAssertTrue(AutoAligner.search(moving, beside: [placed]).isAmbiguous, "without a window the two doors tie")
        // A window near the end of wall 2, beyond where the moving room would reach.
        let wall = placed.walls[2].planSegment
        var window = placed.walls[2]
        let a = wall.point(at: 0.3 / wall.length), b = wall.point(at: 1.2 / wall.length)
        window.category = .window
        window.identifier = "00000001-0000-4000-8000-000000000050"
        window.dimensions = SIMD3(Float((b - a).length), 1.2, 0)
        window.transform.elements[12] = Float((a.x + b.x) / 2)
        window.transform.elements[14] = Float((a.z + b.z) / 2)
        window.parentIdentifier = placed.walls[2].identifier
        placed.windows = [window]
        let result = AutoAligner.search(moving, beside: [placed])
        XCTAssertFalse(result.isAmbiguous, "\(result.candidates.prefix(2).map(\.score))")
        // The winner puts the moving room beyond wall 0 (the side away from the window's wall).
        let best = try XCTUnwrap(result.candidates.first)
        let centre = AutoAligner.move(PlanPoint(x: -7, z: 4) + PlanPoint(x: 2.5, z: 1.5).rotated(by: 2.1), best.motion)
        let wall0 = placed.walls[0].planSegment, inward = try XCTUnwrap(placed.inwardNormal(of: placed.walls[0]))
        XCTAssertLessThan((centre - wall0.midpoint).dot(inward), 0, "outside the placed room, past wall 0")
    }
}
