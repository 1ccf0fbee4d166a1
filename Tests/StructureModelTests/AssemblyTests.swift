import XCTest
@testable import StructureModel

/// `align --all auto`'s joint assembly on generated buildings: every room it places is
/// where the ground truth says (up to the wall's thickness across a doorway, which two
/// scans of its two faces cannot tell apart), most rooms are placed, none wrongly; a rescan
/// lands on its first scan; a room that fits two places equally is left, not guessed.
final class AssemblyTests: XCTestCase {
    /// How far room `index`'s assembled place is from the truth, at the room's middle.
    private func error(_ building: GeneratedBuilding, _ index: Int, _ pose: RigidMotion) -> (metres: Double, degrees: Double) {
        let truth = building.captures[0].placement.inverse.composed(after: building.captures[index].placement)
        let middle = try! XCTUnwrap(building.captures[index].room.planCentre)
        let point = SIMD3(middle.x, 0, middle.z)
        let metres = PlanPoint(pose.apply(toPoint: point)).distance(to: PlanPoint(truth.apply(toPoint: point)))
        return (metres, abs(normalizedAngle(pose.yaw - truth.yaw)) * 180 / .pi)
    }

    /// How many rooms (of `among`, all but the first by default) the assembly placed, each
    /// asserted to be within a wall's thickness of the truth.
    private func placedNearTheTruth(_ building: GeneratedBuilding, _ result: JointAssembly.Result, among: Set<Int>? = nil,
                                    file: StaticString = #filePath, line: UInt = #line) -> Int {
        var placed = 0
        for (index, pose) in result.poses.enumerated() where index > 0 && among?.contains(index) ?? true {
            guard let pose else { continue }
            placed += 1
            XCTAssertLessThan(error(building, index, pose).metres, 0.45, "room \(index)", file: file, line: line)
            // What the report says agreed is the room's own: no more walls or doorways than it has.
            if let placement = result.placements[index] {
                let room = building.captures[index].room
                XCTAssertLessThanOrEqual(placement.walls, room.walls.count, "room \(index)", file: file, line: line)
                XCTAssertLessThanOrEqual(placement.doorways, room.doors.count + room.openings.count, "room \(index)", file: file, line: line)
                XCTAssertLessThanOrEqual(placement.widerDoorways, placement.doorways, "room \(index)", file: file, line: line)
            }
        }
        return placed
    }

    private func assemble(_ building: GeneratedBuilding) -> JointAssembly.Result {
        JointAssembly.assemble(building.captures.map(\.room), anchors: [0])
    }

    /// The building assembled with room `first` opened first (it stays): each room's pose by the
    /// building's own indices, and the truth for it in `first`'s frame.
    private func assemble(_ building: GeneratedBuilding, first: Int) -> (poses: [RigidMotion?], truth: (Int) -> RigidMotion, anchorUnsure: Bool) {
        let order = [first] + building.captures.indices.filter { $0 != first }
        let result = JointAssembly.assemble(order.map { building.captures[$0].room }, anchors: [0])
        var poses = [RigidMotion?](repeating: nil, count: building.captures.count)
        for (position, index) in order.enumerated() { poses[index] = result.poses[position] }
        let frame = building.captures[first].placement.inverse
        return (poses, { frame.composed(after: building.captures[$0].placement) }, result.anchorUnsure)
    }

    /// The room with the most doors and openings: a hallway, opened first.
    private func hallway(_ building: GeneratedBuilding) -> Int {
        building.captures.indices.max {
            let (a, b) = (building.captures[$0].room, building.captures[$1].room)
            return a.doors.count + a.openings.count < b.doors.count + b.openings.count
        }!
    }

    private func distance(_ building: GeneratedBuilding, _ index: Int, _ pose: RigidMotion, _ truth: RigidMotion) -> Double {
        let middle = building.captures[index].room.planCentre!
        let point = SIMD3(middle.x, 0, middle.z)
        return PlanPoint(pose.apply(toPoint: point)).distance(to: PlanPoint(truth.apply(toPoint: point)))
    }

    func testRoomsArePlacedWhereTheTruthSaysOrLeftAtAnyYawAndNoise() {
        var placed = 0, rooms = 0, right = 0
        for noise in [0.0, 1.0] {
            for seed in UInt64(31)...36 {
                let building = BuildingGenerator.generate(BuildingSpec(seed: seed, rooms: 3 + Int(seed % 5), noise: noise))
                let result = assemble(building)
                for index in building.captures.indices.dropFirst() {
                    rooms += 1
                    guard let pose = result.poses[index] else { continue }
                    placed += 1
                    let (metres, degrees) = error(building, index, pose)
                    XCTAssertLessThan(metres, 0.45, "seed \(seed) noise \(noise) room \(index): placed \(metres) m from the truth")
                    XCTAssertLessThan(degrees, 2, "seed \(seed) noise \(noise) room \(index): turned \(degrees)° from the truth")
                    if metres <= 0.05 && degrees <= 1 { right += 1 }
                }
            }
        }
        XCTAssertGreaterThanOrEqual(Double(placed), 0.8 * Double(rooms), "placed \(placed) of \(rooms)")
        // Some within 5 cm: the doorway's along-wall fit is exact, the rest is the wall's thickness.
        XCTAssertGreaterThan(right, 0)
    }

    /// Each capture put the walls it shares on the face it saw or near the centre line (the
    /// generator draws one or the other per capture); no pair of rooms can tell which, the
    /// building can. Over generated homes, every habit the settling says it told is the
    /// truth's, most are told, and at noise 0 nine in ten placed rooms land within 5 cm of the
    /// truth (put doorway plane to doorway plane, about a quarter did): what is left is a
    /// wall's thickness that nothing measures, taken as 14 cm.
    func testEachRoomIsSetAcrossItsWallsByWhereItsCaptureLaysThem() {
        var told = 0, settled = 0, placed = 0, exact = 0
        for seed in UInt64(1)...12 {
            let building = BuildingGenerator.generate(BuildingSpec(seed: seed, rooms: 4 + Int(seed % 6), noise: 0))
            let result = assemble(building)
            for (index, capture) in building.captures.enumerated() {
                guard let habit = result.habits[safe: index] ?? nil else { continue }
                settled += 1
                switch habit {
                case .untold: continue
                case .face: XCTAssertEqual(capture.wallPlacement, .face, "seed \(seed) room \(index)")
                case .centreLine: XCTAssertEqual(capture.wallPlacement, .centreLine, "seed \(seed) room \(index)")
                }
                told += 1
            }
            for index in building.captures.indices.dropFirst() {
                guard let pose = result.poses[index] else { continue }
                placed += 1
                if error(building, index, pose).metres <= 0.05 { exact += 1 }
            }
        }
        XCTAssertGreaterThan(settled, 40, "rooms settled")
        XCTAssertGreaterThanOrEqual(Double(told), 0.9 * Double(settled), "told \(told) of \(settled) rooms' habits")
        XCTAssertGreaterThanOrEqual(Double(exact), 0.9 * Double(placed), "\(exact) of \(placed) placed rooms within 5 cm")
    }

    /// The habits are the assignment that fits best of all, not the best one flip at a time
    /// leads to: in this home a hallway and the two rooms on one side of it, all on centre
    /// lines, fit almost as well all on their faces (with a 4 cm wall between the two rooms and
    /// a 14 cm outside wall), and from either start no single flip led to the truth. Settled on
    /// faces, the hallway lay 11 cm off and the two rooms 23 cm; now every room is within 5 cm.
    func testHabitsAreTheBestFitOfAllNotOfOneFlipAtATime() {
        let building = BuildingGenerator.generate(BuildingSpec(seed: 35, rooms: 6, coreModelBytes: 1000, noise: 0))
        let result = assemble(building)
        for (index, capture) in building.captures.enumerated() {
            guard let habit = result.habits[safe: index] ?? nil, habit != .untold else { continue }
            XCTAssertEqual(habit == .face, capture.wallPlacement == .face, "room \(index): \(habit)")
        }
        for index in building.captures.indices.dropFirst() {
            let pose = try! XCTUnwrap(result.poses[index], "room \(index) placed")
            let (metres, degrees) = error(building, index, pose)
            XCTAssertLessThanOrEqual(metres, 0.05, "room \(index) \(building.captures[index].label): \(metres) m from the truth")
            XCTAssertLessThanOrEqual(degrees, 1, "room \(index)")
        }
    }

    /// Each wall's heading is off by up to half a degree in a noisy scan, so a room turned to
    /// fit one doorway pair is off by about as much; turned to fit every wall it meets, one
    /// least squares over the building, the rooms are within half a degree of the truth; with
    /// every room's walls saying how it is turned against the home's square directions, within
    /// a third of a degree (median 0.19° -> 0.15°, 90th percentile 0.49° -> 0.36°).
    func testTurnsComeFromEveryWallThatMeetsNotOneDoorway() {
        var turns: [Double] = []
        for seed in UInt64(40)...47 {
            let building = BuildingGenerator.generate(BuildingSpec(seed: seed, rooms: 6 + Int(seed % 4), noise: 1))
            let result = assemble(building)
            for index in building.captures.indices.dropFirst() {
                guard let pose = result.poses[index] else { continue }
                turns.append(error(building, index, pose).degrees)
            }
        }
        turns.sort()
        XCTAssertGreaterThan(turns.count, 20)
        XCTAssertLessThan(turns[turns.count / 2], 0.17, "median turn off: \(turns[turns.count / 2])°")
        XCTAssertLessThan(turns[turns.count * 9 / 10], 0.42, "90th percentile: \(turns[turns.count * 9 / 10])°")
    }

    /// A scan's long wall is off in heading by up to half a degree of its own: 3.5 m from its
    /// middle that is 3 cm, and a room meeting it there would be set 3 cm across. In a square
    /// home the wall is turned back onto the square directions about its middle first.
    func testALongWallsOwnHeadingErrorIsNotTakenForAGap() throws {
        let off = 0.5 * Double.pi / 180
        var hallway = TestRooms.room([PlanPoint(x: 0, z: 0), PlanPoint(x: 10, z: 0), PlanPoint(x: 10, z: 2), PlanPoint(x: 0, z: 2)])
        let turned = PlanSegment(start: PlanPoint(x: 10, z: 2), end: PlanPoint(x: 0, z: 2)).turned(by: off)
        hallway.walls[2] = TestRooms.wall(turned.start, turned.end, id: "W2")
        let room = TestRooms.room([PlanPoint(x: 7, z: 2), PlanPoint(x: 10, z: 2), PlanPoint(x: 10, z: 5), PlanPoint(x: 7, z: 5)].reversed())
        let far = TestRooms.room([PlanPoint(x: 30, z: 0), PlanPoint(x: 40, z: 0), PlanPoint(x: 40, z: 10), PlanPoint(x: 30, z: 10)])
        let seen = turned.overlap(with: PlanSegment(start: PlanPoint(x: 7, z: 2), end: PlanPoint(x: 10, z: 2)))
        XCTAssertGreaterThan(abs(seen.offset), 0.025, "the turned wall is that far off where the room meets it")
        let rooms = [hallway, far, room]
        let settled = WallFaces.settle(rooms, poses: [.identity, .identity, .identity], fixed: [0, 1], skip: [],
                                       sameStory: rooms.map { _ in rooms.map { _ in true } })
        let pose = try XCTUnwrap(settled.poses[2])
        XCTAssertLessThan(PlanPoint(x: pose.translation.x, z: pose.translation.z).length, 0.012, "\(pose)")
        XCTAssertLessThan(abs(pose.yaw), 0.2 * off)
    }

    /// Two rooms that meet along one short wall whose heading is off by half a degree: alone,
    /// that wall turns the second room by half a degree; in a square home every wall of the
    /// room says it is not turned, and it is not. A home whose walls are mostly off square (a
    /// wing at 30°) is turned by the walls that meet only.
    func testARoomIsTurnedByAllItsWallsInASquareHome() {
        func box(_ room: Int, _ yaw: Double) -> [(room: Int, segment: PlanSegment)] {
            (0..<4).map { k in
                let turn = RigidMotion(yaw: yaw + Double(k) * .pi / 2)
                let end = PlanPoint(turn.rotate(SIMD3(4, 0, 0)))
                return (room, PlanSegment(start: PlanPoint(x: 0, z: 0), end: end))
            }
        }
        let half = 0.5 * Double.pi / 180
        var shared = WallFaces.Term(kind: .facing, i: 0, j: 1, direction: PlanPoint(x: 1, z: 0), value: 0.1, weight: 1, thickness: 0)
        shared.angle = half
        shared.length = 1
        let square = WallFaces.headings([shared], squares: box(0, 0) + box(1, 0), members: [0, 1], fixed: [0])
        XCTAssertLessThan(abs(square.turns[1] ?? 1), 0.15 * half, "turned by its walls, not the one that meets")
        XCTAssertNotNil(square.square)
        let skewed = WallFaces.headings([shared], squares: box(0, 0) + box(1, 30 * .pi / 180) + box(2, 30 * .pi / 180),
                                        members: [0, 1], fixed: [0])
        XCTAssertNil(skewed.square, "most walls off the first room's square")
        XCTAssertEqual(skewed.turns[1] ?? 0, -half, accuracy: 0.1 * half, "turned by the wall that meets")
        // A room its doorway pair left 3° off square (at twice a phone's noise a door's two sides
        // do that) is turned back too, not left turned.
        let three = 3 * Double.pi / 180
        var off = shared
        off.angle = three
        let far = WallFaces.headings([off], squares: box(0, 0) + box(1, three), members: [0, 1], fixed: [0])
        XCTAssertEqual(far.turns[1] ?? 0, -three, accuracy: 0.1 * three)
    }

    /// `align ROOM auto` alone: with the other rooms where the truth puts them, the room's best
    /// place is set across its walls by the habits the rooms it meets tell, and lands within
    /// 5 cm of the truth (its doorway plane on theirs, it did not where the scans saw faces).
    func testOneRoomIsSetAcrossItsWallsByTheRoomsItMeets() {
        var settled = 0, before = 0, after = 0
        for seed in UInt64(1)...10 {
            let building = BuildingGenerator.generate(BuildingSpec(seed: seed, rooms: 6, noise: 0))
            let frame = building.captures[0].placement.inverse
            let last = building.captures.count - 1
            let placed = building.captures.dropLast().map { $0.room.moved(by: frame.composed(after: $0.placement)) }
            let room = building.captures[last].room
            let search = AutoAligner.search(room, beside: placed)
            guard let best = search.candidates.first, !search.isAmbiguous else { continue }
            let (chosen, habit) = AutoAligner.settle(best, room: room, beside: placed)
            guard let habit, habit != .untold else { continue }
            settled += 1
            XCTAssertEqual(habit == .face, building.captures[last].wallPlacement == .face, "seed \(seed)")
            let (metres, degrees) = error(building, last, chosen.motion)
            XCTAssertLessThan(metres, 0.05, "seed \(seed): \(metres) m from the truth")
            XCTAssertLessThan(degrees, 1, "seed \(seed)")
            if metres <= 0.05 { after += 1 }
            if error(building, last, best.motion).metres <= 0.05 { before += 1 }
        }
        XCTAssertGreaterThanOrEqual(settled, 5, "rooms whose habit the others told")
        XCTAssertGreaterThan(after, before, "settling put more rooms within 5 cm than door plane to door plane")
    }

    /// A room lies on its rescan without overlapping it, but only when each has the other's
    /// doorways and windows: a windowless one-door bathroom of a living room's shape (two
    /// doorways, windows) lying on it had counted as a rescan one way round, paid nothing for
    /// covering it and matched all its walls, and that won a whole home's assembly with the
    /// living room 25 m off (and, through it, left every room of the home unplaced).
    func testALookAlikeWithFewerDoorwaysIsNoRescanEitherWayRound() throws {
        let home = BuildingGenerator.generate(BuildingSpec(seed: 6, rooms: 9, coreModelBytes: 1000, noise: 0))
        let living = try XCTUnwrap(home.captures.map(\.room).first { $0.doors.count + $0.openings.count >= 2 && !$0.windows.isEmpty })
        var lesser = living
        lesser.windows = []
        if lesser.doors.isEmpty { lesser.openings = [lesser.openings[0]] } else { lesser.doors = [lesser.doors[0]]; lesser.openings = [] }
        let area = try XCTUnwrap(living.planOutlines.first).signedArea.magnitude
        let full = AutoAligner.Scene([living]), fewer = AutoAligner.Scene([lesser])
        for (own, scene) in [(fewer, full), (full, fewer)] {
            let placement = AutoAligner.score(.identity, source: "", own: own, room: living, scene: scene, tolerances: .init())
            XCTAssertFalse(placement.isRescan)
            XCTAssertGreaterThan(placement.overlap, 0.9 * area, "covering the other room is overlap")
        }
        let itself = AutoAligner.score(.identity, source: "", own: full, room: living, scene: full, tolerances: .init())
        XCTAssertTrue(itself.isRescan)
        XCTAssertLessThan(itself.overlap, 0.01)
        // And the home it misled is placed: most rooms right, none off.
        let result = assemble(home)
        XCTAssertFalse(result.anchorUnsure)
        let placed = placedNearTheTruth(home, result)
        XCTAssertGreaterThanOrEqual(placed, home.captures.count - 2)
    }

    /// iOS 16 writes no floors, so a room's outline comes from its walls. The hull of their
    /// ends made the L-shaped rooms of this home overlap their true neighbours by most of a
    /// square metre, and two of its rooms were left; the walls' own loop places the same rooms,
    /// as near the truth, as the floors do.
    func testRoomsWithoutFloorsAreAssembledAsWithThem() {
        let home = BuildingGenerator.generate(BuildingSpec(seed: 5, rooms: 8, coreModelBytes: 1000, noise: 1))
        var bare = home
        for index in bare.captures.indices { bare.captures[index].room.floors = [] }
        XCTAssertTrue(home.captures.contains { $0.room.walls.count > 4 }, "the home has rooms that are not rectangles")
        let withFloors = assemble(home), without = assemble(bare)
        func placed(_ result: JointAssembly.Result) -> Set<Int> { Set(result.poses.indices.filter { result.poses[$0] != nil }) }
        XCTAssertEqual(placed(without), placed(withFloors))
        XCTAssertGreaterThanOrEqual(placedNearTheTruth(bare, without), 6)
        for index in placed(without) where index > 0 {
            guard let pose = without.poses[index], let floored = withFloors.poses[index] else { continue }
            XCTAssertLessThan(error(home, index, pose).metres, error(home, index, floored).metres + 0.03, "room \(index) as near the truth")
        }
    }

    /// The first room stays, so the rest hangs on where it meets them (a room opened first had
    /// put whole homes 4.5 m along a hallway without a word). The first room's own other places
    /// are tried against the rest: in this home one fits about as well as its own, so nothing is
    /// placed around it and that is said. Opened the other way round (the hallway first), the
    /// rest is placed (most of it). (Seeds 532 and 698 were such homes until places were told
    /// apart at the room rather than at its frame's origin: their best assemblies are right.)
    func testAFirstRoomThatFitsTwoPlacesLeavesTheRestUnplaced() {
        let home = BuildingGenerator.generate(BuildingSpec(seed: 288, rooms: 7, coreModelBytes: 1000, noise: 1))
        let result = assemble(home)
        XCTAssertTrue(result.anchorUnsure)
        XCTAssertTrue(result.poses.allSatisfy { $0 == nil }, "nothing placed around an unsure first room")
        XCTAssertEqual(result.unsure, Set(1..<home.captures.count))

        let first = hallway(home)
        let reordered = assemble(home, first: first)
        XCTAssertFalse(reordered.anchorUnsure)
        var placed = 0
        for index in home.captures.indices where index != first {
            guard let pose = reordered.poses[index] else { continue }
            placed += 1
            XCTAssertLessThan(distance(home, index, pose, reordered.truth(index)), 0.45, "room \(index)")
        }
        XCTAssertGreaterThan(placed * 2, home.captures.count - 1, "most rooms placed")
    }

    /// Rooms unsure of their own place still stand in one of them when the first room's other
    /// places are tried. In this home the kitchen between the living room (opened first) and the
    /// dining room is unsure; taken away, its hallway door was free and the living room fitted
    /// there as well as at its own, so nothing at all was placed. Kept, it fills that place: the
    /// first room is sure and the rooms that are sure of theirs are placed where they belong.
    func testAnUnsureNeighbourDoesNotMakeTheFirstRoomUnsure() {
        let home = BuildingGenerator.generate(BuildingSpec(seed: 28, rooms: 7, coreModelBytes: 1000, noise: 1))
        let result = assemble(home)
        XCTAssertFalse(result.anchorUnsure)
        let placed = placedNearTheTruth(home, result)
        XCTAssertGreaterThanOrEqual(placed, 3)
    }

    /// An assembly mostly in doubt vouches for nothing: a room whose certainty rests on unsure
    /// neighbours (they fill its other places) is judged again without them, and so on until none
    /// more falls (Apple's real 11-room home had a bedroom hung 5.75 m off on a look-alike door so).
    /// Where few of the rooms are unsure, the rest stand as they were.
    func testRoomsOfAnAssemblyMostlyInDoubtAreJudgedWithoutTheUnsure() {
        // Rooms 1...10 placed; 6...10 unsure. Room 2 is sure only while room 7 fills its other
        // place; room 3 only while room 2 stands beside it; room 4 whatever else is there.
        let placed = Array(1...10)
        func doubt(_ room: Int, _ trusted: Set<Int>) -> Bool {
            switch room {
            case 2: return !trusted.contains(7)
            case 3: return !trusted.contains(2)
            default: return false
            }
        }
        let judged = JointAssembly.doubtedAlone(placed: placed, unsure: [6, 7, 8, 9, 10], doubt: doubt)
        XCTAssertEqual(judged, [2, 3, 6, 7, 8, 9, 10], "room 2 falls with its unsure neighbour, room 3 with room 2")
        // Two unsure of ten, or three of eight (less than half): nothing more falls.
        XCTAssertEqual(JointAssembly.doubtedAlone(placed: placed, unsure: [7, 8], doubt: doubt), [7, 8])
        XCTAssertEqual(JointAssembly.doubtedAlone(placed: Array(1...8), unsure: [6, 7, 8], doubt: doubt), [6, 7, 8])
        // Three unsure of six is half: judged again.
        XCTAssertEqual(JointAssembly.doubtedAlone(placed: Array(1...6), unsure: [4, 5, 6], doubt: { room, trusted in
            room == 1 && !trusted.contains(5)
        }), [1, 4, 5, 6])
    }

    /// Every capture of `building` moved to where the truth puts it in the first capture's frame:
    /// rooms as one session writes them.
    private func inOneFrame(_ building: GeneratedBuilding, except: Set<Int> = []) -> [CapturedRoom] {
        building.captures.indices.map { index in
            let capture = building.captures[index]
            guard !except.contains(index) else { return capture.room }
            return capture.room.moved(by: building.captures[0].placement.inverse.composed(after: capture.placement))
        }
    }

    /// Rooms exported from one session share its frame: already where they belong. The search
    /// put such rooms where their walls' faces or centre lines said, and moved about one in five
    /// by up to a wall's thickness off what the phone measured (40 homes: 80 % stayed within
    /// 5 cm); seed 7's 12 rooms it scrambled along the hallway. They stay, exactly; rooms of
    /// other sessions are placed beside them as before, and rooms in frames of their own are
    /// never taken for in place. A room put back 2 degrees off is not in place.
    func testRoomsAlreadyWhereTheyBelongStayExactly() {
        XCTAssertEqual(doorwayParts(BuildingGenerator.generate(BuildingSpec(seed: 7, rooms: 12, coreModelBytes: 1000, noise: 1))).count, 2)
        for (seed, rooms) in [(UInt64(7), 12), (11, 8), (4, 6)] {
            let home = BuildingGenerator.generate(BuildingSpec(seed: seed, rooms: rooms, coreModelBytes: 1000, noise: 1))
            let result = JointAssembly.assemble(inOneFrame(home), anchors: [0])
            // Seed 7's second flat, which no doorway joins to the first, by its walls along the
            // first's and continuing its outside walls.
            XCTAssertEqual(result.inPlace, Set(1..<home.captures.count), "seed \(seed)")
            for index in home.captures.indices where index > 0 {
                XCTAssertNil(result.poses[index], "seed \(seed) room \(index): not moved")
            }
            XCTAssertTrue(JointAssembly.assemble(home.captures.map(\.room), anchors: [0]).inPlace.isEmpty, "seed \(seed): own frames")
        }
        // Half the rooms from the first's session, the rest each in its own frame.
        let home = BuildingGenerator.generate(BuildingSpec(seed: 11, rooms: 8, coreModelBytes: 1000, noise: 1))
        // The first four reached from the first room through doorways (so they meet it through
        // one another) share its session; the rest do not.
        var order = [0]
        var next = 0
        while next < order.count {
            let room = order[next]
            next += 1
            for truth in home.provenance where truth.array == .doors || truth.array == .openings {
                let rooms = truth.sources.compactMap { source in home.captures.firstIndex { $0.fileName == source.file } }
                guard rooms.contains(room) else { continue }
                for other in rooms where !order.contains(other) { order.append(other) }
            }
        }
        XCTAssertEqual(order.count, 8)
        let others = Set(order.dropFirst(4))
        let mixed = JointAssembly.assemble(inOneFrame(home, except: others), anchors: [0])
        XCTAssertEqual(mixed.inPlace, Set(order[1..<4]))
        XCTAssertGreaterThanOrEqual(placedNearTheTruth(home, mixed, among: others), 3)
        // A room turned 2 degrees about its middle from where it belongs is searched, not kept.
        var rooms = inOneFrame(home)
        let last = order[7]
        let middle = rooms[last].planCentre!
        let turn = RigidMotion(translation: SIMD3(middle.x, 0, middle.z)).composed(after: RigidMotion(yaw: 2 * .pi / 180))
            .composed(after: RigidMotion(translation: SIMD3(-middle.x, 0, -middle.z)))
        rooms[last] = rooms[last].moved(by: turn)
        let turned = JointAssembly.assemble(rooms, anchors: [0])
        XCTAssertEqual(turned.inPlace, Set(order.dropFirst().dropLast()))
        XCTAssertNotNil(turned.poses[last], "room \(last) placed by the search")
    }

    /// Two wings joined hallway to hallway by an opening: the first search hung the second wing
    /// on the first turned a quarter, two of its rooms outside the home, six rooms 1 to 9 m off
    /// without a word, though the true layout scores better (102 against 90). Searched again
    /// around the first wing (the repair), the wing lands where it belongs.
    func testAWingHungWrongIsSearchedAgainAroundTheRest() {
        let home = BuildingGenerator.generate(BuildingSpec(seed: 25, rooms: 12, coreModelBytes: 1000, noise: 1))
        XCTAssertEqual(doorwayParts(home).count, 1, "one home: the wings' hallways meet")
        let result = assemble(home)
        XCTAssertGreaterThanOrEqual(placedNearTheTruth(home, result), 10)
    }

    /// Two wings whose hallways of eight alike doors meet end to end through an opening, the
    /// first room opened a one-door room off one of them (seed 17's also opens into its kitchen). Its door fits a door of either
    /// hallway, and the hallways also fit back to back through their front doors (a long wall
    /// agrees): searched from the dining room, the bedrooms hung on the wrong hallway crowded the
    /// right assembly out of the beam, and every room placed was placed wrongly (seed 17 at noise 0:
    /// 7 of 14; seed 19 at noise 1: 12). Put together from the hallway as well, with the beam
    /// keeping states that place the hallways elsewhere, each is placed where the truth says.
    func testAOneDoorFirstRoomBesideTwoAlikeHallwaysGetsTheRestRight() {
        for (seed, noise) in [(UInt64(17), 0.0), (19, 1.0)] {
            let home = BuildingGenerator.generate(BuildingSpec(seed: seed, rooms: 15, coreModelBytes: 1000, noise: noise))
            XCTAssertEqual(doorwayParts(home).count, 1, "seed \(seed): one home")
            XCTAssertLessThanOrEqual(home.captures[0].room.doors.count + home.captures[0].room.openings.count, 2,
                                     "seed \(seed): a first room of one door (and an opening to its kitchen)")
            let result = assemble(home)
            XCTAssertGreaterThanOrEqual(placedNearTheTruth(home, result), 12, "seed \(seed)")
        }
    }

    /// One doorway seen wider from one side (a double door seen as one, a door run into what is
    /// beside it): the two were scored as two doorways each opening into a wall, and a room whose
    /// doorway was seen so had no doorway pair to be placed by. In these homes of real doorways the
    /// search then hung rooms on look-alike doorways and placed them 4 to 7 m off, without a
    /// word (seed 42: two of its four rooms, seed 70: six of eight; run against that code). The
    /// narrower doorway within the wider is now one doorway (no contradiction, a little value)
    /// and a place to try: every room of these homes that meets the rest through a doorway seen
    /// at one width is placed where the truth says, unless it meets them through fewer than two
    /// doorways at their widths. The one that meets them only through the doorway seen wider is
    /// left as unsure (real interior doors look alike: Apple's 11-room home put together from
    /// separate frames had rooms hung on such doorways alone, 6 and 7 m off).
    func testADoorwaySeenWiderFromOneSideStillJoinsItsRooms() {
        for (seed, rooms) in [(UInt64(42), 5), (70, 9), (382, 9)] {
            let home = BuildingGenerator.generate(BuildingSpec(seed: seed, rooms: rooms, coreModelBytes: 1000, noise: 1, realDoorways: true))
            // The premise: at the truth, some doorway of one room nests in a wider one of another.
            let truth = home.captures.map { home.captures[0].placement.inverse.composed(after: $0.placement) }
            let scenes = home.captures.map { AutoAligner.Scene([$0.room]) }
            let nested = home.captures.indices.contains { q in
                home.captures.indices.contains { k in
                    k != q && !AutoAligner.nestedDoorways(truth[k].inverse.composed(after: truth[q]), own: scenes[q], scene: scenes[k],
                                                          matched: [], tolerances: AutoAligner.Tolerances()).isEmpty
                }
            }
            XCTAssertTrue(nested, "seed \(seed): a doorway seen wider from one side")
            let result = assemble(home)
            // (placedNearTheTruth asserts every room placed is within a wall's thickness.)
            let placed = placedNearTheTruth(home, result)
            if seed == 382 {
                // Since the two sides of a real doorway lie up to 30 cm apart along their wall (as in
                // Apple's 11-room home), three of this home's rooms met through one doorway each are
                // left as unsure with the one met through the doorway seen wider: left, never misplaced.
                XCTAssertGreaterThanOrEqual(result.unsure.count, 1, "seed \(seed): the room met only through the doorway seen wider")
                XCTAssertEqual(placed + result.unsure.count, rooms - 1, "seed \(seed): each room placed right or said to be unsure")
                continue
            }
            // Seed 70 has a room met through one doorway at its widths and one seen wider: that is
            // too little to be sure of (real interior doors look alike), so it is left as well.
            let leftAlso = seed == 70 ? 1 : 0
            XCTAssertEqual(placed, rooms - 2 - leftAlso, "seed \(seed)")
            XCTAssertEqual(result.unsure.count, 1 + leftAlso, "seed \(seed): the room met only through the doorway seen wider")
        }
    }

    /// A room met through one doorway at its widths and one seen wider is not sure enough to
    /// place: real interior doors look alike, and such a room lands on look-alikes where a real
    /// home's other rooms lie (Apple's home, some rooms moved, the rest in place: Bedroom1 14 m
    /// off). In this generated home of real doorways the kitchen was so hung 7.5 m off, turned
    /// about; it is left now. (Its living room, beyond it, is still hung 12 m off, through
    /// doorways at their widths: an open case.)
    func testARoomMetThroughOneDoorwayAtItsWidthsAndOneSeenWiderIsLeft() {
        assertLeft("room-07-kitchen", seed: 127, rooms: 10)
    }

    /// Asserts that `align --all auto` of a generated real-doorway home leaves the room whose
    /// file name starts with `file`, and says it was unsure.
    private func assertLeft(_ file: String, seed: UInt64, rooms count: Int, line: UInt = #line) {
        let home = BuildingGenerator.generate(BuildingSpec(seed: seed, rooms: count, coreModelBytes: 1000, noise: 1, realDoorways: true))
        let rooms = home.captures.map(\.room)
        let result = JointAssembly.assembleSessions(rooms, anchors: [0], asOpened: Set(rooms.indices))
        guard let room = home.captures.firstIndex(where: { $0.fileName.hasPrefix(file) }) else {
            return XCTFail("no \(file) in seed \(seed)", line: line)
        }
        XCTAssertNil(result.poses[room], "\(file) is left", line: line)
        XCTAssertTrue(result.unsure.contains(room), "\(file) is said to be unsure", line: line)
    }

    /// A room that lies where it belongs, beside the first room as opened, is not moved to a
    /// look-alike place that fits only somewhat better. In this real-doorway home the hallway
    /// (five doorways) shares the first room's session but is not taken in place (its doorways
    /// meet the first room's 30 cm apart along the wall); the search turned it about and put it
    /// 1.6 m along, onto the same doors (26.1 against 18.5 where it lay), with the rooms around
    /// it. Where it lay fits more than half as well: it is left there, and says so.
    func testARoomWhereItLiesAsOpenedIsNotMovedToALookAlike() {
        let home = BuildingGenerator.generate(BuildingSpec(seed: 7008, rooms: 7, noise: 1, realDoorways: true))
        let hallway = try! XCTUnwrap(home.captures.firstIndex { $0.fileName == "room-04-unidentified.json" })
        let session: Set<Int> = [0, hallway, 5]
        // The kitchen in a session of its own, the bathroom, a bedroom and the living room in another.
        var rooms = inOneFrame(home)
        // (Each session turned about its first room's middle and put near the first room's, as
        // `bench-real-align.sh FOLDER 2 3 first` cut it.)
        func frame(_ yaw: Double, about c: SIMD2<Double>, to t: SIMD2<Double>) -> RigidMotion {
            RigidMotion(translation: SIMD3(t.x, 0, t.y)).composed(after: RigidMotion(yaw: yaw))
                .composed(after: RigidMotion(translation: SIMD3(-c.x, 0, -c.y)))
        }
        rooms[1] = rooms[1].moved(by: frame(-0.8919, about: SIMD2(2.5682, 6.0476), to: SIMD2(4.0635, 3.4460)))
        for q in [2, 4, 6] { rooms[q] = rooms[q].moved(by: frame(-2.2665, about: SIMD2(-1.3841, 0.5605), to: SIMD2(2.5597, 3.1987))) }
        // As written and read back (float32 in the file), as the bench's files were.
        rooms = rooms.map { room in
            guard case .room(let read)? = try? RoomPlanCodec.decode(RoomPlanCodec.encode(.room(room))) else { return room }
            return read
        }
        // Opened in the bench's order: the first session's, then the others'.
        let order = [0, hallway, 5, 1, 4, 6, 2]
        let found = JointAssembly.assembleSessions(order.map { rooms[$0] }, anchors: [0], asOpened: Set(rooms.indices))
        var result = found
        for (position, q) in order.enumerated() { result.poses[q] = found.poses[position] }
        result.inPlace = Set(found.inPlace.map { order[$0] })
        result.unsure = Set(found.unsure.map { order[$0] })
        XCTAssertFalse(result.inPlace.contains(hallway), "not taken in place by its doorways: the case")
        // Each room of the first session lies where it belongs: left there, or moved a little.
        for q in session.subtracting([0]) {
            guard let pose = result.poses[q] else {
                XCTAssertTrue(result.unsure.contains(q), "\(home.captures[q].fileName) left: said to be unsure")
                continue
            }
            let middle = rooms[q].planCentre!
            let moved = PlanPoint(pose.apply(toPoint: SIMD3(middle.x, 0, middle.z))).distance(to: middle)
            XCTAssertLessThan(moved, 0.3, "\(home.captures[q].fileName) moved off where it belongs")
            XCTAssertLessThan(abs(pose.yaw), 2 * .pi / 180, "\(home.captures[q].fileName) turned off where it belongs")
        }
    }

    /// Two readings of a chain of rooms 0.3 to 0.45 m apart along their doorways' walls (real
    /// doorways' sides lie apart along the wall) that settle on their walls to one place are one
    /// place: the home is placed, not left whole as too close to call.
    func testReadingsThatSettleToOnePlaceAreOnePlace() {
        let home = BuildingGenerator.generate(BuildingSpec(seed: 15, rooms: 10, coreModelBytes: 1000, noise: 1, realDoorways: true))
        let rooms = home.captures.map(\.room)
        let result = JointAssembly.assembleSessions(rooms, anchors: [0], asOpened: Set(rooms.indices))
        var placed = 0
        for q in 1..<rooms.count {
            guard let pose = result.poses[q] else { continue }
            placed += 1
            let off = error(home, q, pose)
            XCTAssertLessThanOrEqual(off.metres, 0.15, "\(home.captures[q].fileName) placed \(off.metres) m off")
        }
        XCTAssertGreaterThanOrEqual(placed, 5, "rooms placed of 9")
    }

    /// A room kept so must end where settling put it: in this home, settled without the rooms
    /// left as unsure, the last step gave up and the living room stayed 0.47 m off where the
    /// search had put it. It is left.
    func testARoomKeptBySettlingIsLeftWhereTheLastStepDoesNotSettleIt() {
        assertLeft("room-03-livingRoom", seed: 46, rooms: 9)
    }

    /// The two sides of a real doorway lie up to 30 cm apart along their wall (Apple's 11-room
    /// home: 4 to 25 cm), and the last fit held them to 1.5 cm: rooms settled from their true
    /// places moved off them, towards where their doorways' sides say. The fit now sees from
    /// its doorways' spread how far apart their sides lie and holds them so; doorways as
    /// precise as the generator's own are held as before.
    func testDoorwaysAreHeldAsLooselyAsTheirSidesLieApart() {
        for real in [true, false] {
            var adaptive = 0, precise = 0, rooms = 0
            for seed in UInt64(1)...12 {
                let home = BuildingGenerator.generate(BuildingSpec(seed: seed, rooms: 6, coreModelBytes: 1000, noise: 1, realDoorways: real))
                let captures = home.captures.map(\.room)
                let truth: [RigidMotion?] = home.captures.map { home.captures[0].placement.inverse.composed(after: $0.placement) }
                let sameStory = captures.map { a in captures.map { b in AutoAligner.onOneStory(a, b) } }
                let fitted = WallFaces.settle(captures, poses: truth, fixed: [0], skip: [], sameStory: sameStory).poses
                let tight = WallFaces.settle(captures, poses: truth, fixed: [0], skip: [], sameStory: sameStory, doorwaySigma: 0.015).poses
                for q in 1..<captures.count {
                    rooms += 1
                    if let pose = fitted[q], error(home, q, pose).metres <= 0.05 { adaptive += 1 }
                    if let pose = tight[q], error(home, q, pose).metres <= 0.05 { precise += 1 }
                }
            }
            if real {
                XCTAssertGreaterThan(adaptive, precise + rooms / 10, "real doorways: \(adaptive) and \(precise) of \(rooms) rooms within 5 cm")
            } else {
                XCTAssertEqual(adaptive, precise, "precise doorways are fitted as before")
            }
        }
    }

    /// A rescan of the first room lies on it wherever the rest belongs: when the first room
    /// meets the others about as well in two places (nothing is placed around it), its own
    /// rescan is still put on it, as `align ROOM auto` puts it. It was left with the rest, and
    /// the other rooms' doubt (judged without their first scans, rescans meet nothing) left it too.
    func testTheFirstRoomsRescanLiesOnItWhenTheRestIsUnsure() {
        let home = BuildingGenerator.generate(BuildingSpec(seed: 16, rooms: 8, coreModelBytes: 1000, noise: 1, rescans: 2, realDoorways: true))
        let rooms = home.captures.map(\.room)
        let result = JointAssembly.assembleSessions(rooms, anchors: [0], asOpened: Set(rooms.indices))
        XCTAssertTrue(result.anchorUnsure, "the first room meets the others in two places")
        guard let rescan = home.captures.firstIndex(where: { $0.rescanOf == home.captures[0].fileName }) else {
            return XCTFail("seed 16 has no rescan of its first room")
        }
        guard let pose = result.poses[rescan] else { return XCTFail("the first room's rescan is placed") }
        let off = error(home, rescan, pose)
        XCTAssertLessThanOrEqual(off.metres, 0.3, "on its first scan, up to half a wall's thickness across")
        XCTAssertLessThanOrEqual(off.degrees, 1)
        XCTAssertFalse(result.unsure.contains(rescan))
        for q in rooms.indices where q != 0 && q != rescan {
            XCTAssertNil(result.poses[q], "\(home.captures[q].fileName) is left with the first room unsure")
        }
    }

    /// The rooms of a generated building that doorways join, part by part (by capture index).
    private func doorwayParts(_ building: GeneratedBuilding) -> [Set<Int>] {
        var part = Array(building.captures.indices)
        func find(_ i: Int) -> Int { part[i] == i ? i : find(part[i]) }
        for truth in building.provenance where truth.array == .doors || truth.array == .openings {
            let rooms = truth.sources.compactMap { source in building.captures.firstIndex { $0.fileName == source.file } }
            for room in rooms.dropFirst() { part[find(room)] = find(rooms[0]) }
        }
        return Array(Dictionary(grouping: building.captures.indices, by: find).values.map(Set.init))
    }

    /// Two flats side by side that no doorway joins, each with its front door at the far end of
    /// its hallway: the second fits outside the first one's front door (front doors are alike)
    /// and nothing in the scans says it does not; it was placed there, 18 m off, without a word.
    /// Put together there, neither flat has a doorway left to the outside: the second is not
    /// placed, and said. Two wings of one home joined by an opening between their hallways,
    /// scanned without a front door, are not taken for two homes.
    func testTwoHomesJoinedFrontDoorToFrontDoorAreNotPlaced() {
        let flats = BuildingGenerator.generate(BuildingSpec(seed: 87, rooms: 10, coreModelBytes: 1000, noise: 1))
        let parts = doorwayParts(flats)
        XCTAssertEqual(parts.count, 2)
        let first = parts.first { $0.contains(0) }!, second = parts.first { !$0.contains(0) }!
        let result = assemble(flats)
        // Named as one part: put together apart from the first, or joined to it front door to
        // front door and then taken for another home.
        let named = result.apart + result.separateHomes
        XCTAssertEqual(named.count, 1)
        let apart = named.first ?? []
        XCTAssertTrue(apart.isSubset(of: second) && apart.count >= 3, "\(apart) of \(second)")
        for index in second { XCTAssertNil(result.poses[index], "room \(index) of the second flat") }
        let placed = placedNearTheTruth(flats, result, among: first)
        XCTAssertGreaterThanOrEqual(placed, 3)
        // Doors written as a newer iOS might (`{"door":{"isOpen":…,"swing":…}}`) are front doors
        // all the same: they were taken for openings, and the second flat was hung on the first.
        var newer = flats
        for index in newer.captures.indices {
            newer.captures[index].room.doors = newer.captures[index].room.doors.map { door in
                guard let isOpen = door.category.doorIsOpen else { return door }
                var door = door
                door.category = .other(.object(JSONObject([JSONMember("door", .object(JSONObject([
                    JSONMember("isOpen", .bool(isOpen)), JSONMember("swing", .string("left"))])))])))
                XCTAssertEqual(door.category.doorIsOpen, isOpen)
                return door
            }
        }
        XCTAssertTrue(newer.captures.contains { $0.room.doors.contains(where: JointAssembly.isDoor) })
        XCTAssertFalse(newer.captures.contains { $0.room.openings.contains(where: JointAssembly.isDoor) })
        let newerResult = assemble(newer)
        for index in second { XCTAssertNil(newerResult.poses[index], "newer doors: room \(index) of the second flat") }
        XCTAssertEqual(newerResult.separateHomes, result.separateHomes, "newer doors: taken for another home as before")
        XCTAssertEqual(newerResult.apart, result.apart)

        let wings = BuildingGenerator.generate(BuildingSpec(seed: 103, rooms: 10, coreModelBytes: 1000, noise: 1))
        XCTAssertEqual(doorwayParts(wings).count, 1)
        let joined = assemble(wings)
        XCTAssertTrue(joined.separateHomes.isEmpty)
        let right = joined.poses.indices.filter { index in joined.poses[index].map { error(wings, index, $0).metres < 0.45 } ?? false }
        XCTAssertGreaterThanOrEqual(right.count, 7, "rooms of both wings placed")
    }

    /// Two flats side by side that no doorway joins, scanned together: the search hung the second
    /// on a look-alike door of the first, whose own room it pushed along the hallway to the next
    /// door, and so on (seed 7: three rooms of the first flat and all five of the second placed
    /// wrongly, without a word; seed 8: the second flat's five). Put together apart from the
    /// first, the second scores more than what hanging it there costs the first: it is left,
    /// as one part, and every room of the first is placed where it belongs. (Seed 19: the state
    /// with the first flat placed right was not among the best three of its size, all of which
    /// had hung the second flat's hallway; it was the best of its set of rooms. Since a doorway
    /// against a wall costs a place 1, not 2, two rooms of its first flat go apart with the
    /// second flat's and are left, said: every room placed is still placed right, and that is
    /// what is asserted there. Over 40 such 12-room homes, 3 rooms more are left, none wrong.)
    func testASecondHomeNoDoorwayJoinsIsPutTogetherApartNotHungOnTheFirst() {
        for seed: UInt64 in [7, 8, 19] {
            let flats = BuildingGenerator.generate(BuildingSpec(seed: seed, rooms: 12, coreModelBytes: 1000, noise: 1))
            let parts = doorwayParts(flats)
            XCTAssertEqual(parts.count, 2, "seed \(seed)")
            let first = parts.first { $0.contains(0) }!, second = parts.first { !$0.contains(0) }!
            let result = assemble(flats)
            for index in second { XCTAssertNil(result.poses[index], "seed \(seed): room \(index) of the second flat") }
            if seed == 19 {
                let placed = result.poses.indices.filter { $0 > 0 && result.poses[$0] != nil }.count
                XCTAssertEqual(placedNearTheTruth(flats, result), placed, "seed 19: every room placed is placed right")
                XCTAssertGreaterThanOrEqual(placed, 3, "seed 19")
                continue
            }
            // Named as one part: put together apart, or (seed 19, where a repair then hung it outside
            // the first flat's front door) as a home joined front door to front door.
            let named = result.apart + result.separateHomes
            XCTAssertEqual(named.count, 1, "seed \(seed)")
            XCTAssertTrue(named.first.map { $0.isSubset(of: second) && $0.count >= second.count - 1 } ?? false,
                          "seed \(seed): \(named) of \(second)")
            // Within a wall's thickness (asserted), every room of the first flat but the one opened.
            XCTAssertEqual(placedNearTheTruth(flats, result, among: first), first.count - 1, "seed \(seed)")
        }
        // A home the search first closed early (its placed rooms with one doorway to spare while
        // rooms remained) is still put together whole: the rest joins it through that doorway.
        let home = BuildingGenerator.generate(BuildingSpec(seed: 9, rooms: 12, coreModelBytes: 1000, noise: 1))
        XCTAssertEqual(doorwayParts(home).count, 1)
        let whole = assemble(home)
        XCTAssertTrue(whole.apart.isEmpty, "\(whole.apart)")
        XCTAssertGreaterThanOrEqual(placedNearTheTruth(home, whole), 10)
    }

    /// Joining a part to the rest through one doorway pair must be worth more than leaving it
    /// apart. In this 15-room block of three flats the other two flats were hung on the first
    /// flat's front door (seed 1: nine rooms 5 to 20 m off, without a word) by a pair scoring
    /// 3.8 against 8 to 16 for the first flat's own rooms; in seed 8 (one home) a wing was hung
    /// on a look-alike doorway (eight rooms wrong). Now those rooms are left, said, and every
    /// room placed is where it belongs.
    func testAPartJoinedByOneWeakDoorwayPairIsLeftApart() {
        let block = BuildingGenerator.generate(BuildingSpec(seed: 1, rooms: 15, coreModelBytes: 1000, noise: 1))
        let first = doorwayParts(block).first { $0.contains(0) }!
        XCTAssertLessThan(first.count, 10)
        let result = assemble(block)
        for index in block.captures.indices where !first.contains(index) {
            XCTAssertNil(result.poses[index], "room \(index) of another flat")
        }
        // All but one of the first flat's rooms: since a doorway seen at two widths counts as one
        // (see testADoorwaySeenWiderFromOneSideStillJoinsItsRooms), one of them is left as unsure.
        XCTAssertGreaterThanOrEqual(placedNearTheTruth(block, result, among: first), first.count - 2)
        XCTAssertFalse(result.apart.isEmpty, "the other flats named as put together apart")

        let home = BuildingGenerator.generate(BuildingSpec(seed: 8, rooms: 15, coreModelBytes: 1000, noise: 1))
        XCTAssertEqual(doorwayParts(home).count, 1)
        // (placedNearTheTruth asserts every room placed is within a wall's thickness.)
        XCTAssertGreaterThanOrEqual(placedNearTheTruth(home, assemble(home)), 5)
    }

    /// A rescan agrees with its first scan wherever the two are put, so in the search it
    /// would favour any assembly that placed them early: in this 10-room home with two
    /// rescans, that pulled every room 12 m off through a look-alike door. Rescans are
    /// recognised both ways round (a bathroom the size of a bedroom, lying in it, is not
    /// one) and wait for their first scan.
    func testRescansWaitForTheirFirstScanAndLookAlikesAreNotRescans() throws {
        let home = BuildingGenerator.generate(BuildingSpec(seed: 55, rooms: 10, coreModelBytes: 1000, noise: 1, rescans: 2))
        let infos = home.captures.map { capture -> JointAssembly.RoomInfo in
            let scene = AutoAligner.Scene([capture.room])
            return JointAssembly.RoomInfo(scene: scene, centre: PlanPoint(x: 0, z: 0), radius: 1, doorCount: scene.doorways.count)
        }
        let rooms = home.captures.map(\.room)
        let twins = JointAssembly.rescanTwins(JointAssembly.hypotheses(infos, rooms: rooms, tolerances: .init()), infos: infos,
                                              rooms: rooms, anchors: [0], tolerances: .init())
        let expected = Dictionary(uniqueKeysWithValues: home.captures.enumerated().compactMap { index, capture in
            capture.rescanOf.map { first in (index, home.captures.firstIndex { $0.fileName == first }!) }
        })
        XCTAssertEqual(twins.mapValues(\.of), expected, "each rescan with its first scan")
        // Opened hallway first (its first room, a one-door room, meets the rest about as well at
        // another door: see testAFirstRoomThatFitsTwoPlaces…).
        let first = hallway(home)
        let result = assemble(home, first: first)
        var placed = 0
        for index in home.captures.indices where index != first {
            guard let pose = result.poses[index] else { continue }
            placed += 1
            let metres = distance(home, index, pose, result.truth(index))
            XCTAssertLessThan(metres, 0.45, "room \(index): placed \(metres) m from the truth")
            XCTAssertLessThan(abs(normalizedAngle(pose.yaw - result.truth(index).yaw)) * 180 / .pi, 2, "room \(index)")
        }
        XCTAssertGreaterThan(placed * 2, home.captures.count - 1, "most rooms placed")

        let lookAlikes = BuildingGenerator.generate(BuildingSpec(seed: 23, rooms: 10, coreModelBytes: 1000, noise: 1))
        let scenes = lookAlikes.captures.map { capture -> JointAssembly.RoomInfo in
            let scene = AutoAligner.Scene([capture.room])
            return JointAssembly.RoomInfo(scene: scene, centre: PlanPoint(x: 0, z: 0), radius: 1, doorCount: scene.doorways.count)
        }
        let captures = lookAlikes.captures.map(\.room)
        XCTAssertTrue(JointAssembly.rescanTwins(JointAssembly.hypotheses(scenes, rooms: captures, tolerances: .init()), infos: scenes,
                                                rooms: captures, anchors: [0], tolerances: .init()).isEmpty,
                      "no room of a home scanned once is a rescan")
    }

    /// Rooms that say they are on another story meet the first room's story through no
    /// doorway and lie over it in plan: scored against it, their doors and windows "opened
    /// into walls" and left every room unsure. Each story is assembled on its own: the first
    /// room's story is placed, the other waits for a room of its own put in place.
    func testRoomsOfAnotherStoryAreNotScoredAgainstTheFirstRoomsStory() throws {
        let home = BuildingGenerator.generate(BuildingSpec(seed: 11, rooms: 6, stories: 2, noise: 0))
        let result = assemble(home)
        var placedOnFirst = 0
        for index in home.captures.indices.dropFirst() {
            let onFirst = home.captures[index].story == home.captures[0].story
            guard let pose = result.poses[index] else {
                XCTAssertFalse(onFirst && result.unsure.contains(index), "room \(index) of the first story left unsure")
                continue
            }
            XCTAssertTrue(onFirst, "room \(index), on another story, placed through a doorway")
            let (metres, degrees) = error(home, index, pose)
            XCTAssertLessThan(metres, 0.45)
            XCTAssertLessThan(degrees, 2)
            XCTAssertEqual(result.placements[index]?.contradictions, 0)
            placedOnFirst += 1
        }
        XCTAssertEqual(placedOnFirst, home.captures.filter { $0.story == home.captures[0].story }.count - 1,
                       "every other room of the first story placed")
    }

    /// A room some 1e14 m off (a hand-edited or broken file) trapped the search: its place
    /// relative to the others, in hundred-thousandths of a metre, is no Int64. It is scored
    /// without the cache and left, and the rest is put together as without it.
    func testARoomAbsurdlyFarOffNeitherTrapsNorIsPlaced() {
        let building = BuildingGenerator.generate(BuildingSpec(seed: 3, rooms: 5, noise: 1))
        var rooms = building.captures.map(\.room)
        for offset in [1e14, 3e18] {
            rooms[1] = building.captures[1].room.moved(by: RigidMotion(translation: SIMD3(offset, 0, -offset)))
            let result = JointAssembly.assemble(rooms, anchors: [0])
            XCTAssertNil(result.poses[1], "\(offset)")
            XCTAssertFalse(result.interrupted)
        }
    }

    func testARescanLandsOnItsFirstScan() throws {
        var checked = 0
        for seed in UInt64(41)...44 {
            let building = BuildingGenerator.generate(BuildingSpec(seed: seed, rooms: 4, noise: 1, rescans: 1))
            let result = assemble(building)
            for (index, capture) in building.captures.enumerated() where capture.rescanOf != nil {
                guard let pose = result.poses[index] else { continue }
                let (metres, degrees) = error(building, index, pose)
                // Its walls on its first scan's: within the thickness the two scans may have seen apart.
                XCTAssertLessThan(metres, 0.3, "seed \(seed): the rescan is \(metres) m from its room")
                XCTAssertLessThan(degrees, 2, "seed \(seed)")
                checked += 1
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 2, "rescans placed")
    }

    func testARoomThatFitsTwoPlacesIsLeftWhereItIs() {
        // A square room with the same door in the middle of two opposite walls, and a room
        // with one door of that width: it fits at either door, mirrored, as well.
        func room(_ corners: [PlanPoint], doors: [Int], tag: Int) -> CapturedRoom {
            var room = CapturedRoom()
            func surface(_ category: SurfaceCategory, _ a: PlanPoint, _ b: PlanPoint, height: Float, index: Int) -> Surface {
                let u = (b - a).normalized, m = (a + b) * 0.5
                let t = Transform(elements: SIMD16<Float>(Float(u.x), 0, Float(u.z), 0, 0, 1, 0, 0, Float(-u.z), 0, Float(u.x), 0,
                                                          Float(m.x), height / 2, Float(m.z), 1))
                return Surface(category: category, identifier: String(format: "%08d-0000-4000-8000-%012d", tag, index),
                               dimensions: SIMD3(Float((b - a).length), height, 0), transform: t)
            }
            room.walls = corners.indices.map { surface(.wall, corners[$0], corners[($0 + 1) % corners.count], height: 2.5, index: $0) }
            for side in doors {
                let wall = room.walls[side].planSegment
                var door = surface(.door(isOpen: true), wall.point(at: 0.5 - 0.45 / wall.length), wall.point(at: 0.5 + 0.45 / wall.length),
                                   height: 2.0, index: 10 + side)
                door.parentIdentifier = room.walls[side].identifier
                room.doors.append(door)
            }
            return room
        }
        let square = [PlanPoint(x: 0, z: 0), PlanPoint(x: 4, z: 0), PlanPoint(x: 4, z: 4), PlanPoint(x: 0, z: 4)]
        let hall = room(square, doors: [0, 2], tag: 1)
        // (Its whole 4 m wall along the hall's and the door: enough to be placed, see minimumScore.)
        let other = room(square.map { $0.rotated(by: 1.1) + PlanPoint(x: 9, z: -3) }, doors: [1], tag: 2)
        let result = JointAssembly.assemble([hall, other], anchors: [0])
        XCTAssertNil(result.poses[1], "two places fit as well: not guessed")
        XCTAssertTrue(result.unsure.contains(1))
        // With one door in the hall there is one place, and the room is put there.
        let single = JointAssembly.assemble([room(square, doors: [0], tag: 1), other], anchors: [0])
        XCTAssertNotNil(single.poses[1])
    }

    /// A room of its own frame lying by chance where one session's room would (its walls 1.9
    /// degrees off square with the first room's, along 2.07 m of its wall, no doorway): kept there
    /// as in place, it took the place its neighbours needed, and nothing else was placed. Put
    /// together both ways, the home that places more rooms is taken, and the room goes where the
    /// truth says.
    func testALoneRoomLyingAlongTheFirstByChanceIsNotKeptWhenTheRestFitElsewhere() {
        let home = BuildingGenerator.generate(BuildingSpec(seed: 2, rooms: 12, stories: 1, coreModelBytes: 4_000, noise: 1))
        let rooms = home.captures.map(\.room)
        let infos = rooms.map(JointAssembly.info)
        let sameStory = rooms.map { a in rooms.map { b in AutoAligner.onOneStory(a, b) } }
        let all = Set(rooms.indices)
        // The case itself: one room taken as in place alone, beside the first.
        let kept = JointAssembly.inPlace(rooms, infos: infos, anchors: [0], sameStory: sameStory, asOpened: all, tolerances: .init())
        XCTAssertEqual(kept.found, [2])
        XCTAssertEqual(kept.lone, [2])
        let result = JointAssembly.assembleSessions(rooms, anchors: [0], asOpened: all)
        XCTAssertEqual(result.notInPlace, [2])
        XCTAssertFalse(result.inPlace.contains(2))
        XCTAssertGreaterThanOrEqual(placedNearTheTruth(home, result), 5)
        if let pose = result.poses[2] {
            XCTAssertLessThan(error(home, 2, pose).metres, 0.05)
        } else {
            XCTFail("room 2 placed")
        }
    }

    /// A double door both rooms of one session saw as two leaves, alike to the millimetre (as
    /// leaves are): each room's leaf met the other side's nearest leaf, not the first in order.
    /// Both met the first, one read as a doorway slid half a door along its wall, and the rooms
    /// were taken as not meeting as one session's do (Apple's 11-room home in two sessions:
    /// a hallway so dropped, a bathroom reached only through it was searched for instead of kept
    /// and put 23 m off, turned 89 degrees, as certain).
    func testADoubleDoorsLeavesMeetTheirOwnLeavesWhereTheRoomsLie() throws {
        let home = BuildingGenerator.generate(BuildingSpec(seed: 5, rooms: 4, coreModelBytes: 100, noise: 0))
        var rooms = inOneFrame(home)
        var found: (a: Int, b: Int, i: Int, j: Int)?
        for a in rooms.indices {
            for b in rooms.indices where b > a && found == nil {
                for (i, x) in rooms[a].doors.enumerated() {
                    for (j, y) in rooms[b].doors.enumerated() where x.planSegment.midpoint.distance(to: y.planSegment.midpoint) < 0.05 {
                        found = (a, b, i, j)
                    }
                }
            }
        }
        let pair = try XCTUnwrap(found, "two rooms share a door")
        func meets() -> (sound: Bool, slide: Double, fit: (tight: Int, loose: Int)) {
            let infos = rooms.map(JointAssembly.info)
            let meeting = JointAssembly.meeting(pair.a, pair.b, rooms: rooms, infos: infos, tolerances: .init())
            let placement = AutoAligner.score(.identity, source: "", own: infos[pair.b].scene, room: rooms[pair.b], scene: infos[pair.a].scene, tolerances: .init())
            return (meeting.sound, JointAssembly.doorwaySlide(placement, own: infos[pair.b].scene, scene: infos[pair.a].scene, tolerances: .init()),
                    JointAssembly.doorwayFit(placement, own: infos[pair.b].scene, scene: infos[pair.a].scene, tolerances: .init()))
        }
        XCTAssertTrue(meets().sound, "the test's own set-up: the two rooms meet as one session's")
        // Each room's copy of the door becomes two leaves of one width, side by side (0.4 m each,
        // as the real hallway's: their middles nearer than a doorway's partner may lie).
        let width = 0.8
        for (room, index) in [(pair.a, pair.i), (pair.b, pair.j)] {
            let door = rooms[room].doors[index]
            var leaves: [Surface] = []
            for (n, side) in [-0.25, 0.25].enumerated() {
                var leaf = door
                let shift = door.transform.column(0) * (side * width)
                leaf.transform.elements[12] += Float(shift.x)
                leaf.transform.elements[14] += Float(shift.z)
                leaf.dimensions.x = Float(width / 2)
                leaf.identifier = "\(room)\(n)" + String(door.identifier.dropFirst(2))
                leaves.append(leaf)
            }
            rooms[room].doors[index] = leaves[0]
            rooms[room].doors.append(leaves[1])
        }
        let after = meets()
        XCTAssertTrue(after.sound, "still one session's rooms")
        XCTAssertEqual(after.slide, 0, accuracy: 0.01, "each leaf meets its own")
        XCTAssertEqual(after.fit.loose, 0)
        XCTAssertEqual(after.fit.tight, 2)
    }
}
