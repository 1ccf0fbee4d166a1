import XCTest
@testable import StructureModel

/// `check`: nothing on a clean room; on each fixture made to hold one problem, exactly it.
final class CheckTests: XCTestCase {
    private var serial = 0

    private func id() -> String {
        serial += 1
        return String(format: "00000000-0000-4000-8000-%012d", serial)
    }

    private func wall(from a: PlanPoint, to b: PlanPoint, floor: Double = 0) -> Surface {
        let d = b - a
        let u = d.normalized
        let mid = (a + b) * 0.5
        let t = Transform(elements: SIMD16<Float>(Float(u.x), 0, Float(u.z), 0, 0, 1, 0, 0, Float(-u.z), 0, Float(u.x), 0,
                                                  Float(mid.x), Float(floor + 1.25), Float(mid.z), 1))
        return Surface(category: .wall, identifier: id(), dimensions: SIMD3(Float(d.length), 2.5, 0), transform: t)
    }

    /// A 5 × 4 m room turned by 23°, with a door and a window in its walls, a table, a floor
    /// and a section: nothing wrong with it.
    private func cleanRoom(floor: Double = 0, story: Int = 0, offset: PlanPoint = PlanPoint(x: 0, z: 0)) -> CapturedRoom {
        let turn = 23.0 * .pi / 180
        let corners = [PlanPoint(x: 0, z: 0), PlanPoint(x: 5, z: 0), PlanPoint(x: 5, z: 4), PlanPoint(x: 0, z: 4)]
            .map { $0.rotated(by: turn) + offset }
        var room = CapturedRoom()
        room.story = story
        room.version = 2
        room.walls = (0..<4).map { wall(from: corners[$0], to: corners[($0 + 1) % 4], floor: floor) }
        func inWall(_ category: SurfaceCategory, _ wall: Surface, width: Float, height: Float, bottom: Double) -> Surface {
            var t = wall.transform
            t.translation.y = floor + bottom + Double(height) / 2
            return Surface(category: category, identifier: id(), dimensions: SIMD3(width, height, 0), transform: t,
                           parentIdentifier: wall.identifier)
        }
        room.doors = [inWall(.door(isOpen: true), room.walls[0], width: 0.9, height: 2.0, bottom: 0)]
        room.windows = [inWall(.window, room.walls[1], width: 1.2, height: 1.2, bottom: 0.9)]
        let centre = (corners[0] + corners[2]) * 0.5
        var floorT = Transform(elements: SIMD16<Float>(1, 0, 0, 0, 0, 0, -1, 0, 0, 1, 0, 0, Float(centre.x), Float(floor), Float(centre.z), 1))
        floorT.translation.y = floor
        let local = corners.map { SIMD3<Float>(Float($0.x - centre.x), Float(-($0.z - centre.z)), 0) }
        room.floors = [Surface(category: .floor, identifier: id(), dimensions: SIMD3(5, 4, 0), transform: floorT, polygonCorners: local)]
        var table = Object(category: .table, identifier: id(), dimensions: SIMD3(1.2, 0.75, 0.8),
                           transform: RigidMotion(yaw: turn, translation: SIMD3(centre.x, floor + 0.375, centre.z)).transform)
        table.story = story
        room.objects = [table]
        room.sections = [Section(label: "livingRoom", center: SIMD3(Float(centre.x), Float(floor), Float(centre.z)), story: story)]
        // Every element on the room's story, as RoomPlan writes them.
        for index in room.walls.indices { room.walls[index].story = story }
        for index in room.doors.indices { room.doors[index].story = story }
        for index in room.windows.indices { room.windows[index].story = story }
        for index in room.floors.indices { room.floors[index].story = story }
        return room
    }

    private func findings(_ documents: [RoomPlanDocument]) -> [Finding] {
        var workspace = Workspace()
        for (index, document) in documents.enumerated() {
            workspace.add(path: "/tmp/check-\(index).json", document: document, stamp: nil, diagnostics: [])
        }
        return workspace.check()
    }

    private func kinds(_ room: CapturedRoom) -> [Finding.Kind] {
        findings([.room(room)]).map(\.kind)
    }

    func testACleanRoomAndACleanStructureHaveNoFindings() {
        XCTAssertEqual(kinds(cleanRoom()), [])
        let rooms = [cleanRoom(), cleanRoom(floor: 2.8, story: 1)]
        let structure = StructureMerger.merge(rooms).structure
        XCTAssertEqual(findings([.structure(structure)]).map(\.kind), [], "two stories of one room each, merged")
    }

    /// A structure's own arrays: a structure-level section moved 40 m off, a sofa 30 m out of
    /// the building, a story's floor lifted 3 m were "no problems found".
    func testAStructuresOwnElementsAreChecked() throws {
        let building = BuildingGenerator.generate(BuildingSpec(seed: 4, rooms: 6, stories: 2, coreModelBytes: 100, noise: 1))
        XCTAssertEqual(findings([.structure(building.structure)]).map(\.reason), [])
        var section = building.structure
        section.merged.sections[0].center.x += 40
        XCTAssertEqual(findings([.structure(section)]).map(\.kind), [.sectionOutside])
        // (A structure's copy of a room's object, 30 m from it, is said as that.)
        var sofa = building.structure
        sofa.merged.objects[0].transform.translation.z += 30
        XCTAssertEqual(findings([.structure(sofa)]).map(\.reason),
                       ["the structure's copy lies 30.00 m from its room's (r1), under one identifier (merge rebuilds the structure's arrays)"])
        // One the structure alone holds is judged by the building's floors.
        var stray = building.structure
        stray.merged.objects[0].identifier = "0E0E0E0E-0000-4000-8000-000000000001"
        stray.merged.objects[0].transform.translation.z += 30
        XCTAssertEqual(findings([.structure(stray)]).map(\.kind), [.throughWall])
        XCTAssertTrue(findings([.structure(stray)]).first?.reason.hasSuffix("m outside every floor of the structure") == true)
        // A structure-level wall a metre from the room wall whose identifier it carries.
        var wall = building.structure
        let moved = try XCTUnwrap(wall.merged.walls.indices.first { index in wall.rooms.contains { $0.walls.contains { $0.identifier == wall.merged.walls[index].identifier } } })
        wall.merged.walls[moved].transform.translation += wall.merged.walls[moved].transform.column(2) * 1
        XCTAssertEqual(findings([.structure(wall)]).map(\.kind).filter { $0 != .offWall }, [.structureApart], "(its doors are off it too)")
        // A room's door hung on another room's wall: RoomPlan looks in the door's own room (a
        // reopen warns), though the structure's own elements may point at any room's.
        var crossed = building.structure
        let host = try XCTUnwrap(crossed.rooms[1].walls.first?.identifier)
        let door = try XCTUnwrap(crossed.rooms[0].doors.indices.first)
        crossed.rooms[0].doors[door].parentIdentifier = host
        XCTAssertEqual(findings([.structure(crossed)]).map(\.reason),
                       ["its parent \(host.prefix(8))… is in another room (r2), not its own (RoomPlan looks in its own)"])
        // One hung on an element only the structure holds is in no room at all: it was said to be
        // in another room, sending a person to look for it in the wrong place.
        var onStructure = building.structure
        let own = "0E0E0E0E-0000-4000-8000-000000000002"
        onStructure.merged.walls[0].identifier = own
        onStructure.rooms[0].doors[door].parentIdentifier = own
        XCTAssertEqual(findings([.structure(onStructure)]).map(\.reason),
                       ["its parent \(own.prefix(8))… is one of the structure's own elements, in no room (RoomPlan looks in the door's own room)"])
        // A wall of no length, in its room and as the structure's copy at the same place: it is
        // out of range, and its copy lies where it does (it was said to lie 0.00 m apart).
        var pointWall = building.structure
        let wallOfNoLength = try XCTUnwrap(pointWall.merged.walls.indices.first { index in pointWall.rooms[0].walls.contains { $0.identifier == pointWall.merged.walls[index].identifier } })
        let inRoom = try XCTUnwrap(pointWall.rooms[0].walls.firstIndex { $0.identifier == pointWall.merged.walls[wallOfNoLength].identifier })
        pointWall.merged.walls[wallOfNoLength] = pointWall.rooms[0].walls[inRoom]
        pointWall.merged.walls[wallOfNoLength].dimensions.x = 0
        pointWall.rooms[0].walls[inRoom].dimensions.x = 0
        XCTAssertEqual(Set(findings([.structure(pointWall)]).map(\.kind)).subtracting([.offWall, .wallGap]), [.outOfRange])
        var lifted = building.structure
        lifted.merged.floors[0].transform.translation.y += 3
        XCTAssertEqual(findings([.structure(lifted)]).map(\.kind), [.storyHeight])
        // Two rooms at one height, one of them on story Int.min: weighing which story the
        // height's rooms share negated it, and check trapped.
        let flat = BuildingGenerator.generate(BuildingSpec(seed: 4, rooms: 3, stories: 1, coreModelBytes: 100, noise: 0)).structure
        var lowest = flat
        lowest.rooms[0].story = Int.min
        XCTAssertTrue(findings([.structure(lowest)]).contains { $0.kind == .outOfRange && $0.elements.first?.kind == .room })
    }

    /// The generator's exact buildings are clean: furniture stood up to 14 cm through outside
    /// walls 36 cm thick (seed 777, three stories of one room) and cut corners (seed 6).
    func testGeneratedBuildingsAreClean() {
        let specs = [BuildingSpec(seed: 777, rooms: 3, stories: 3, coreModelBytes: 100, noise: 0),
                     BuildingSpec(seed: 6, rooms: 9, coreModelBytes: 100, noise: 1),
                     BuildingSpec(seed: 777, rooms: 40, stories: 4, coreModelBytes: 100, noise: 1)]
            + (1...12).map { BuildingSpec(seed: UInt64(100 + $0), rooms: 3 + $0, stories: 1 + $0 % 2, coreModelBytes: 100, noise: 1) }
        for spec in specs {
            let building = BuildingGenerator.generate(spec)
            XCTAssertEqual(findings([.structure(building.structure)]).map(\.reason), [], "seed \(spec.seed), \(spec.rooms) rooms")
        }
    }

    /// A structure holds its rooms' elements twice (nested and merged, one identifier): a
    /// table through a wall, a door off its wall, a floating table are each said once, for the
    /// structure's copy (a real Apple export said its table and refrigerator twice).
    func testAProblemOfAnElementHeldTwiceIsSaidOnce() throws {
        var room = cleanRoom()
        let w = room.walls[2].planSegment
        let spot = w.midpoint - room.inwardNormal(of: room.walls[2])! * 0.2
        room.objects[0].transform.translation = SIMD3(spot.x, 0.375, spot.z)
        let through = findings([.structure(StructureMerger.merge([room, cleanRoom(floor: 2.8, story: 1)]).structure)])
        XCTAssertEqual(through.map(\.kind), [.throughWall], "\(through.map(\.reason))")
        // (Told by its room's own walls: a structure-level wall may lie a thickness off them.)
        XCTAssertEqual(through.first?.elements.first?.scope.roomID != nil, true)
        // Two rooms meeting along a wall, a cabinet flush with it; the merged wall stands where
        // the other room's copy did, 20 cm off (Apple's merge keeps one copy's plane, wb's the
        // longest's): the cabinet was "through" it (Apple's 11-room sample: a bathtub, a sink
        // and a cabinet flush with their wall).
        var left = cleanRoom()
        let shared = left.walls[1].planSegment, into = left.inwardNormal(of: left.walls[1])!
        let flush = shared.midpoint + into * 0.3
        left.objects[0] = Object(category: .storage, identifier: id(), dimensions: SIMD3(1.0, 0.9, 0.6),
                                 transform: RigidMotion(yaw: atan2(-shared.direction.z, shared.direction.x),
                                                        translation: SIMD3(flush.x, 0.45, flush.z)).transform)
        XCTAssertEqual(kinds(left), [])
        var pair = StructureMerger.merge([left, cleanRoom(offset: into * -5.0)]).structure
        let merged = try XCTUnwrap(pair.merged.walls.indices.min { pair.merged.walls[$0].planSegment.distance(to: shared.midpoint)
            < pair.merged.walls[$1].planSegment.distance(to: shared.midpoint) })
        XCTAssertLessThan(pair.merged.walls[merged].planSegment.distance(to: shared.midpoint), 0.01)
        pair.merged.walls[merged].transform.translation += SIMD3(into.x, 0, into.z) * 0.2
        // (Its window, left behind on the old plane, is off it now: that alone is said.)
        XCTAssertEqual(findings([.structure(pair)]).map(\.kind), [.offWall], "a cabinet flush with its wall")

        var lifted = cleanRoom()
        lifted.objects[0].transform.translation.y += 0.6
        let floating = findings([.structure(StructureMerger.merge([lifted, cleanRoom(floor: 2.8, story: 1)]).structure)])
        XCTAssertEqual(floating.map(\.kind), [.floating])
    }

    /// A file may give walls, doors and objects a negative height (an adversarial test's wall
    /// of height -2 made `check` trap on an inverted range): each is checked by its size.
    func testNegativeHeightsAreCheckedByTheirSize() {
        var room = cleanRoom()
        for i in room.walls.indices { room.walls[i].dimensions.y = -room.walls[i].dimensions.y }
        room.doors[0].dimensions.y = -room.doors[0].dimensions.y
        room.objects[0].dimensions.y = -room.objects[0].dimensions.y
        XCTAssertEqual(kinds(room), [], "the clean room with its heights negated")
        room.objects[0].transform.translation.y += 0.6
        XCTAssertEqual(kinds(room), [.floating], "a table 60 cm up, its height negated, still floats")
    }

    func testEachProblemIsFoundAlone() {
        var duplicate = cleanRoom()
        var copy = duplicate.walls[2]
        copy.identifier = id()
        copy.transform.translation.x += 0.03
        duplicate.walls.append(copy)
        XCTAssertEqual(kinds(duplicate), [.duplicateWalls])
        // Copies of one wall are one finding however many (they were every pair: 4.5 million
        // lines for 3,000 copies); another wall's copy is a finding of its own.
        var copies = duplicate
        for step in 1...40 {
            var more = copies.walls[2]
            more.identifier = id()
            more.transform.translation.x += Double(step) * 0.001
            copies.walls.append(more)
        }
        var other = copies.walls[0]
        other.identifier = id()
        copies.walls.append(other)
        let groups = findings([.room(copies)])
        XCTAssertEqual(groups.map(\.kind), [.duplicateWalls, .duplicateWalls])
        XCTAssertEqual(groups.map(\.elements.count).sorted(), [2, 42])
        XCTAssertTrue(groups.contains { $0.reason.hasSuffix("one wall scanned 42 times?") }, "\(groups.map(\.reason))")
        XCTAssertTrue(groups.contains { $0.reason.hasSuffix("one wall scanned twice?") }, "\(groups.map(\.reason))")

        var gap = cleanRoom()
        let segment = gap.walls[1].planSegment
        gap.walls[1] = wall(from: segment.start + segment.direction.normalized * 0.15, to: segment.end)
        gap.windows[0].parentIdentifier = gap.walls[1].identifier
        XCTAssertEqual(kinds(gap), [.wallGap])

        var off = cleanRoom()
        off.doors[0].transform.translation += SIMD3(0.3 * off.walls[0].transform.column(2).x, 0, 0.3 * off.walls[0].transform.column(2).z)
        XCTAssertEqual(kinds(off), [.offWall])

        var through = cleanRoom()
        let w = through.walls[2].planSegment
        let inward = through.inwardNormal(of: through.walls[2])!
        let spot = w.midpoint - inward * 0.2
        through.objects[0].transform.translation = SIMD3(spot.x, 0.375, spot.z)
        XCTAssertEqual(kinds(through), [.throughWall])

        // Pushed on through, the part inside no longer reaches 8 cm past the wall, and wholly
        // outside it crosses none: said by where its middle stands ("no problems found").
        for push in [0.55, 1.0, 3.0] {
            var outside = cleanRoom()
            let beyond = w.midpoint - inward * (push - 0.4)
            outside.objects[0].transform.translation = SIMD3(beyond.x, 0.375, beyond.z)
            XCTAssertEqual(kinds(outside), [.throughWall], "pushed \(push) m")
        }
        // Where the scan left that side open (no wall along the floor's edge there), an object
        // standing past the floor went through no wall (a real room's chairs, 26 cm past its
        // floor, were said to go through a wall stub 1.6 m away).
        for push in [0.55, 1.0] {
            var open = cleanRoom()
            let removed = open.walls.remove(at: 2).identifier
            for i in open.doors.indices.reversed() where open.doors[i].parentIdentifier == removed { open.doors.remove(at: i) }
            for i in open.windows.indices.reversed() where open.windows[i].parentIdentifier == removed { open.windows.remove(at: i) }
            let beyond = w.midpoint - inward * (push - 0.4)
            open.objects[0].transform.translation = SIMD3(beyond.x, 0.375, beyond.z)
            XCTAssertEqual(kinds(open), [], "pushed \(push) m past an open side")
        }
        // A fireplace built into its wall reaches into it; one a wall runs through the middle of
        // does not.
        var fireplace = cleanRoom()
        let hearth = w.midpoint + inward * 0.15
        fireplace.objects[0] = Object(category: .fireplace, identifier: id(), dimensions: SIMD3(1.9, 1.4, 0.6),
                                      transform: RigidMotion(yaw: atan2(-w.direction.z, w.direction.x), translation: SIMD3(hearth.x, 0.7, hearth.z)).transform)
        XCTAssertEqual(kinds(fireplace), [], "a fireplace 15 cm into its wall")
        var halfway = fireplace
        halfway.objects[0].transform.translation = SIMD3(w.midpoint.x, 0.7, w.midpoint.z)
        XCTAssertEqual(kinds(halfway), [.throughWall], "a wall through a fireplace's middle")
        for behind in [0.02, 0.07] {
            var pushed = fireplace
            let spot = w.midpoint - inward * behind
            pushed.objects[0].transform.translation = SIMD3(spot.x, 0.7, spot.z)
            XCTAssertEqual(kinds(pushed), [.throughWall], "a fireplace's middle \(behind) m behind its wall")
        }

        // A window raised above its wall's top, a door lifted off the floor: off their wall.
        var raised = cleanRoom()
        raised.windows[0].transform.translation.y += 2
        XCTAssertEqual(findings([.room(raised)]).map(\.reason), ["160 cm above its wall's top"])
        var lifted = cleanRoom()
        lifted.doors[0].transform.translation.y += 0.8
        XCTAssertEqual(kinds(lifted), [.offWall])

        var floating = cleanRoom()
        floating.objects[0].transform.translation.y += 0.6
        XCTAssertEqual(kinds(floating), [.floating])
        // Sunk below the floor (half a metre, 30 m): "no problems found".
        for depth in [0.5, 30.0] {
            var sunk = cleanRoom()
            sunk.objects[0].transform.translation.y -= depth
            XCTAssertEqual(findings([.room(sunk)]).map(\.reason), ["the table's bottom is \(formatted(depth, digits: 2)) m below the floor"])
        }
        // A television on its stand: its box is the screen, 30 cm over the cabinet under it.
        var television = cleanRoom()
        var stand = television.objects[0]
        stand.category = .storage
        stand.dimensions.y = 0.5
        stand.transform.translation.y = 0.25
        var screen = television.objects[0]
        screen.identifier = id()
        screen.category = .television
        screen.dimensions = SIMD3(1.2, 0.7, 0.1)
        screen.transform.translation.y = 0.5 + 0.3 + 0.35
        television.objects = [stand, screen]
        XCTAssertEqual(kinds(television), [], "a television on its stand")
        television.objects[1].transform.translation.y += 0.2
        XCTAssertEqual(kinds(television), [.floating], "half a metre over it")
        // A wall cabinet (storage) at 1.5 m with its back on a wall hangs there; the same in the
        // middle of the room, or a table against the wall at that height, floats.
        var cabinet = cleanRoom()
        let backWall = cabinet.walls[2].planSegment
        let into = cabinet.inwardNormal(of: cabinet.walls[2])!
        let back = backWall.midpoint + into * 0.2
        cabinet.objects[0] = Object(category: .storage, identifier: id(), dimensions: SIMD3(1.0, 0.7, 0.4),
                                    transform: RigidMotion(yaw: 23.0 * .pi / 180, translation: SIMD3(back.x, 1.85, back.z)).transform)
        XCTAssertEqual(kinds(cabinet), [], "a wall cabinet hangs on its wall")
        // One set across a corner, its sides at 45° to both walls, its back corners on them.
        var cornered = cleanRoom()
        let (a, b) = (cornered.walls[1].planSegment, cornered.walls[2].planSegment)
        let meet = [a.start, a.end].min { p, _ in min(p.distance(to: b.start), p.distance(to: b.end)) < 0.01 }!
        let inside = (cornered.inwardNormal(of: cornered.walls[1])! + cornered.inwardNormal(of: cornered.walls[2])!).normalized
        // Its back 0.2 m out along the corner's bisector, 0.4 m wide: its back corners on the walls.
        let hangAt = meet + inside * 0.42
        let heading = [atan2(inside.z, inside.x), -atan2(inside.z, inside.x)].first { yaw in
            let axis = RigidMotion(yaw: yaw).apply(toPoint: SIMD3(1, 0, 0))
            return abs(axis.x * inside.x + axis.z * inside.z) > 0.999
        }!
        cornered.objects[0] = Object(category: .storage, identifier: id(), dimensions: SIMD3(0.4, 0.8, 0.4),
                                     transform: RigidMotion(yaw: heading, translation: SIMD3(hangAt.x, 1.5, hangAt.z)).transform)
        XCTAssertEqual(kinds(cornered), [], "a corner cabinet hangs in its corner")
        var outOfCorner = cornered
        outOfCorner.objects[0].transform.translation += SIMD3(inside.x, 0, inside.z) * 0.3
        XCTAssertEqual(kinds(outOfCorner), [.floating], "30 cm out of the corner it floats")
        var adrift = cabinet
        let middle = (cabinet.walls[0].planSegment.start + cabinet.walls[1].planSegment.end) * 0.5
        adrift.objects[0].transform.translation = SIMD3(middle.x, 1.85, middle.z)
        XCTAssertEqual(kinds(adrift), [.floating], "a cabinet in the middle of the room floats")
        var table = cabinet
        table.objects[0].category = .table
        XCTAssertEqual(kinds(table), [.floating], "a table is not hung on walls")
        var stacked = floating
        var base = cleanRoom().objects[0]
        base.identifier = id()
        base.dimensions.y = 0.6
        base.transform.translation.y = 0.3
        stacked.objects.append(base)
        XCTAssertEqual(kinds(stacked), [], "a lamp on a table does not float")

        // Sizes and places no scan gives: a wall of 1e30 m and a table 20 km off said
        // "no problems found"; a 60 m wall (a warehouse) is no finding.
        var huge = cleanRoom()
        huge.walls[3].dimensions.x = 1e30
        XCTAssertEqual(findings([.room(huge)]).map(\.reason), ["a wall with width 1.00e30 m: no scan measures that (a broken number in the file?)"])
        var far = cleanRoom()
        far.objects[0].transform.translation.x = 20_000
        XCTAssertEqual(kinds(far), [.outOfRange])
        XCTAssertTrue(findings([.room(far)]).first?.reason.contains("its centre 20000.") == true)
        // "an", before a vowel ("a opening", "a oven" were said).
        var farWindow = cleanRoom()
        farWindow.windows[0].transform.translation.x = 20_000
        XCTAssertTrue(findings([.room(farWindow)]).contains { $0.kind == .outOfRange && $0.reason.hasPrefix("a window with its centre") })
        // A section at 3e38 is a broken number, said as that alone (it was said only as outside its room).
        var farSection = cleanRoom()
        farSection.sections[0].center = SIMD3(3e38, 3e38, 3e38)
        XCTAssertEqual(findings([.room(farSection)]).map(\.kind), [.outOfRange])
        XCTAssertTrue(findings([.room(farSection)]).first?.reason.hasPrefix("a section with its centre 5.20e38 m from the origin") == true,
                      findings([.room(farSection)]).first?.reason ?? "")
        XCTAssertEqual(indefinite("opening"), "an opening")
        XCTAssertEqual(indefinite("oven (object)"), "an oven (object)")
        XCTAssertEqual(indefinite("door"), "a door")
        // A height of 3e38 m as a power of ten, as every other length (it printed 39 digits).
        var vertical38 = cleanRoom()
        vertical38.objects[0].transform.translation.y = 3e38
        XCTAssertTrue(findings([.room(vertical38)]).contains { $0.reason.contains("3.00e38 m above the floor") },
                      findings([.room(vertical38)]).map(\.reason).joined(separator: "; "))
        var corner = cleanRoom()
        corner.floors[0].polygonCorners?[1].x = 1e30
        XCTAssertEqual(findings([.room(corner)]).filter { $0.kind == .outOfRange }.map(\.reason),
                       ["a floor with a corner 1.00e30 m from its centre: no scan measures that (a broken number in the file?)"])
        // A wall outline whose edges cross (a bow tie): exports draw its box, check says so.
        var bowtie = cleanRoom()
        let (bw, bh) = (Float(bowtie.walls[3].dimensions.x / 2), Float(bowtie.walls[3].dimensions.y / 2))
        bowtie.walls[3].polygonCorners = [SIMD3(-bw, -bh, 0), SIMD3(bw, bh, 0), SIMD3(bw, -bh, 0), SIMD3(-bw, bh, 0)]
        XCTAssertEqual(findings([.room(bowtie)]).map(\.reason), ["a wall whose outline (polygonCorners) crosses itself: no scan gives that (corners out of order in the file?)"])
        bowtie.walls[3].polygonCorners = [SIMD3(-bw, -bh, 0), SIMD3(bw, -bh, 0), SIMD3(bw, bh, 0), SIMD3(-bw, bh, 0)]
        XCTAssertEqual(kinds(bowtie), [], "the same corners in order")
        // A floor outline that encloses nothing, or crosses itself, is said too (it gave 0 m²
        // and "no floor" to align, without a finding).
        for (corners, why) in [([SIMD3<Float>(0, 0, 0), SIMD3(1, 0, 0), SIMD3(2, 0, 0), SIMD3(3, 0, 0)], "encloses no area"),
                               ([SIMD3<Float>(0, 0, 0), SIMD3(4, 0, 0)], "encloses no area"),
                               ([SIMD3<Float>(0, 0, 0), SIMD3(1, 1, 0), SIMD3(1, 0, 0), SIMD3(0, 1.5, 0)], "crosses itself")] {
            var flat = cleanRoom()
            flat.floors[0].polygonCorners = corners
            XCTAssertEqual(findings([.room(flat)]).filter { $0.kind == .outOfRange }.map(\.reason),
                           ["a floor whose outline (polygonCorners) \(why): no scan gives that (corners out of order in the file?)"])
        }
        // A wall with no direction (its rotation zeroed) or of width 0 said "no problems found".
        var pointless = cleanRoom()
        for k in 0..<12 { pointless.walls[3].transform[k] = 0 }
        XCTAssertEqual(findings([.room(pointless)]).filter { $0.kind == .outOfRange }.map(\.reason),
                       ["a wall with a transform that is no rotation (off by 1.0000): no scan measures that (a broken number in the file?)"])
        var narrow = cleanRoom()
        narrow.walls[3].dimensions.x = 0
        XCTAssertEqual(findings([.room(narrow)]).filter { $0.kind == .outOfRange }.map(\.reason),
                       ["a wall with width 0 m: no scan measures that (a broken number in the file?)"])
        var long = cleanRoom()
        long.walls[3].dimensions.x = 60
        XCTAssertFalse(kinds(long).contains(.outOfRange))
        // A story no building has (4.6e18 said "no problems found"): said once, with every
        // element on it; a basement's -2 is no finding.
        var lofty = cleanRoom()
        lofty.story = 4_611_686_018_427_387_904
        for i in lofty.walls.indices { lofty.walls[i].story = lofty.story }
        XCTAssertEqual(findings([.room(lofty)]).map(\.reason),
                       ["5 elements on story 4611686018427387904: no building has that many (a broken number in the file?)"])
        XCTAssertEqual(findings([.room(lofty)]).first?.elements.first?.kind, .room)
        let basement = cleanRoom(story: -2)
        XCTAssertEqual(kinds(basement), [])
        // The lowest story a file can hold, Int.min, has no absolute value: check trapped
        // (abs overflows) on a room of that story, and on an element of it in a room of story 0.
        var lowest = cleanRoom()
        lowest.story = Int.min
        for i in lowest.walls.indices { lowest.walls[i].story = Int.min }
        XCTAssertEqual(findings([.room(lowest)]).map(\.reason),
                       ["5 elements on story -9223372036854775808: no building has that many (a broken number in the file?)"])
        var sunk = cleanRoom()
        sunk.objects[0].story = Int.min
        XCTAssertEqual(findings([.room(sunk)]).map(\.reason),
                       ["an element on story -9223372036854775808: no building has that many (a broken number in the file?)"])
        // A wall and a table on other stories than their room's, at its height.
        var mixed = cleanRoom()
        mixed.walls[0].story = -2
        mixed.objects[0].story = 3
        XCTAssertEqual(findings([.room(mixed)]).map(\.reason), ["on story -2, in a room of story 0 (r1)", "on story 3, in a room of story 0 (r1)"])
        XCTAssertEqual(findings([.room(mixed)]).map(\.kind), [.storyMismatch, .storyMismatch])
        // Two elements of one room under one identifier: the file opens with a warning, and
        // check said nothing.
        var shared = cleanRoom()
        shared.objects[0].identifier = shared.walls[1].identifier
        XCTAssertEqual(kinds(shared), [.duplicateIdentifier])
        XCTAssertEqual(findings([.room(shared)]).first?.elements.map(\.kind), [.wall, .object])

        var dangling = cleanRoom()
        dangling.windows[0].parentIdentifier = "DEADBEEF-0000-4000-8000-000000000000"
        XCTAssertEqual(kinds(dangling), [.danglingParent])

        // Parents that exist but cannot be: itself, a door hung on an object, two walls each
        // the other's parent (they passed as sound: only a parent pointing nowhere was found).
        var selfParent = cleanRoom()
        selfParent.windows[0].parentIdentifier = selfParent.windows[0].identifier
        XCTAssertEqual(findings([.room(selfParent)]).map(\.reason), ["its parent is itself"])
        var onObject = cleanRoom()
        onObject.windows[0].parentIdentifier = onObject.objects[0].identifier
        XCTAssertEqual(findings([.room(onObject)]).map(\.reason), ["its parent is a \(onObject.objects[0].category.name) (object), not a wall"])
        var loop = cleanRoom()
        var chair = loop.objects[0]
        chair.identifier = id()
        loop.objects.append(chair)
        loop.objects[0].parentIdentifier = loop.objects[1].identifier
        loop.objects[1].parentIdentifier = loop.objects[0].identifier
        let looped = findings([.room(loop)])
        XCTAssertEqual(looped.map(\.reason), ["their parents lead round in a loop (2 elements)"])
        XCTAssertEqual(looped.first?.elements.count, 2)
        var chain = cleanRoom()
        chain.objects.append(chair)
        chain.objects[1].parentIdentifier = chain.objects[0].identifier
        XCTAssertFalse(kinds(chain).contains(.danglingParent), "a parent that is sound (an object on an object) is no finding")
        // A wall hung on another wall, or on a window, passed as sound.
        var wallOnWall = cleanRoom()
        wallOnWall.walls[2].parentIdentifier = wallOnWall.walls[3].identifier
        let hung = findings([.room(wallOnWall)])
        XCTAssertEqual(hung.map(\.kind), [.danglingParent])
        XCTAssertEqual(hung.first?.elements.map(\.kind), [.wall, .wall])
        XCTAssertEqual(hung.map(\.reason), ["its parent is a wall, but a wall hangs on nothing (RoomPlan hangs doors, windows and openings on walls)"])
        var wallOnWindow = cleanRoom()
        wallOnWindow.walls[2].parentIdentifier = wallOnWindow.windows[0].identifier
        XCTAssertEqual(findings([.room(wallOnWindow)]).map(\.reason),
                       ["its parent is a window, but a wall hangs on nothing (RoomPlan hangs doors, windows and openings on walls)"])

        var outside = cleanRoom()
        outside.sections[0].center.x += 9
        XCTAssertEqual(kinds(outside), [.sectionOutside])

        let overlapping = StructureMerger.merge([cleanRoom(), cleanRoom(offset: PlanPoint(x: 1.5, z: 0.5))]).structure
        let partly = findings([.structure(overlapping)]).filter { $0.kind == .roomsOverlap }
        XCTAssertEqual(partly.count, 1)
        XCTAssertTrue(partly.first?.reason.contains("misplaced") == true, partly.first?.reason ?? "")
        // A rescan laid on its first scan covers most of both floors: said as such.
        let twice = StructureMerger.merge([cleanRoom(), cleanRoom(offset: PlanPoint(x: 0.03, z: -0.02))]).structure
        let rescan = findings([.structure(twice)]).filter { $0.kind == .roomsOverlap }
        XCTAssertEqual(rescan.count, 1)
        XCTAssertTrue(rescan.first.map { $0.reason.hasSuffix("(one room scanned twice?)") && !$0.reason.contains("misplaced") } == true,
                      rescan.first?.reason ?? "")

        let wrongStory = StructureMerger.merge([cleanRoom(), cleanRoom(offset: PlanPoint(x: 8, z: 0)),
                                                cleanRoom(floor: 2.8, story: 0, offset: PlanPoint(x: 0, z: 8))]).structure
        let storyFindings = findings([.structure(wrongStory)]).filter { $0.kind == .storyHeight }
        XCTAssertEqual(storyFindings.count, 1)
        XCTAssertTrue(storyFindings.first?.reason.contains("2.80 m") == true, storyFindings.first?.reason ?? "")
    }

    /// Thousands of copies of one wall stacked in one place (an exporter's loop gone wrong):
    /// each wall end and each wall asked the grid for its neighbours, which gathered and sorted
    /// the whole stack every time, so `check` grew with the square of the walls (4,000 walls:
    /// 3.8 s in a release build, about a minute here). The first wall found touching an end
    /// answers it now, and a wall's group already holding its neighbours costs no sort.
    func testAStackOfThousandsOfWallsIsOneDuplicateFinding() {
        var room = cleanRoom()
        let copy = room.walls[2]
        for _ in 0..<4_000 {
            var wall = copy
            wall.identifier = id()
            room.walls.append(wall)
        }
        // (How its time grows is measured in Scripts/bench-scale.sh, section 6, not here: a
        // timed unit test says more about the machine than about wb.)
        let found = findings([.room(room)])
        XCTAssertEqual(found.map(\.kind), [.duplicateWalls])
        XCTAssertEqual(found.first?.elements.count, 4_001)
    }

    /// Separate room files that align put in one frame are one building: a story that
    /// disagrees with the floor heights is found there too (only a structure's rooms were
    /// checked: stories -5, 7, 0 on one floor passed). Files not known to share a frame are not
    /// compared (each scan's floor height is its own session's).
    func testStoriesOfRoomFilesInOneFrameAreCheckedTogether() {
        var workspace = Workspace()
        let rooms = [cleanRoom(story: 0), cleanRoom(story: 7, offset: PlanPoint(x: 8, z: 0)),
                     cleanRoom(story: 0, offset: PlanPoint(x: 0, z: 8)), cleanRoom(floor: 2.8, story: 1, offset: PlanPoint(x: 8, z: 8))]
        for (index, room) in rooms.enumerated() {
            workspace.add(path: "/tmp/check-\(index).json", document: .room(room), stamp: nil, diagnostics: [])
        }
        let all = workspace.files.flatMap(\.rooms)
        XCTAssertEqual(workspace.check().filter { $0.kind == .storyHeight }.count, 0, "not known to share a frame")
        let together = workspace.check(together: all).filter { $0.kind == .storyHeight }
        XCTAssertEqual(together.map(\.elements), [[all[1]]], together.map(\.reason).joined(separator: "; "))
        XCTAssertTrue(together.first?.reason.contains("on story 7") == true, together.first?.reason ?? "")
        // One file alone among them has nothing to be compared with.
        XCTAssertEqual(workspace.check(together: [all[1]]).filter { $0.kind == .storyHeight }.count, 0)
        // A room file aligned beside an open structure is compared with the structure's rooms
        // (a rescan put on story 7 beside a structure on story 0 was "no problems found").
        var beside = Workspace()
        let structure = StructureMerger.merge([cleanRoom(story: 0), cleanRoom(story: 0, offset: PlanPoint(x: 8, z: 0))]).structure
        beside.add(path: "/tmp/check-s.json", document: .structure(structure), stamp: nil, diagnostics: [])
        beside.add(path: "/tmp/check-r.json", document: .room(cleanRoom(story: 7, offset: PlanPoint(x: 0, z: 8))), stamp: nil, diagnostics: [])
        let rescan = beside.files[1].rooms[0]
        let found = beside.check(together: beside.files.flatMap(\.rooms)).filter { $0.kind == .storyHeight }
        XCTAssertEqual(found.map(\.elements), [[rescan]], found.map(\.reason).joined(separator: "; "))
    }
}
