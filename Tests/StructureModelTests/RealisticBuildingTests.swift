import Foundation
import XCTest
@testable import StructureModel

/// The generated buildings look like real homes and their captures like real scans: rooms
/// of 4 to 10 walls tiling each story, hallways, a turned building, thick walls seen from
/// either side, noise within a phone's bounds, rescans, and a ground truth that accounts
/// for every structure-level element.
final class RealisticBuildingTests: XCTestCase {
    private func building(_ seed: UInt64, rooms: Int = 8, stories: Int = 1, noise: Double = 1,
                          rescans: Int = 0) -> GeneratedBuilding {
        BuildingGenerator.generate(BuildingSpec(seed: seed, rooms: rooms, stories: stories, noise: noise, rescans: rescans))
    }

    private func degrees(_ radians: Double) -> Double { radians * 180 / .pi }

    /// Distance of `p` from the infinite line through a segment, and how far along it p falls (0 at start, 1 at end).
    private func offset(_ p: PlanPoint, from s: PlanSegment) -> (across: Double, along: Double) {
        let dx = s.end.x - s.start.x, dz = s.end.z - s.start.z
        let length2 = dx * dx + dz * dz
        let t = ((p.x - s.start.x) * dx + (p.z - s.start.z) * dz) / length2
        let cross = ((p.x - s.start.x) * dz - (p.z - s.start.z) * dx) / length2.squareRoot()
        return (abs(cross), t)
    }

    private func centre(_ surface: Surface) -> PlanPoint {
        PlanPoint(x: surface.transform.translation.x, z: surface.transform.translation.z)
    }

    /// Headings differ by (a multiple of 180° plus) at most this much, in degrees.
    private func headingDifference(_ a: Transform, _ b: Transform) -> Double {
        let d = abs(normalizedAngle(a.yaw - b.yaw))
        return degrees(min(d, .pi - d))
    }

    private func inside(_ p: PlanPoint, _ polygon: [PlanPoint]) -> Bool {
        var result = false
        for i in polygon.indices {
            let a = polygon[i], b = polygon[(i + 1) % polygon.count]
            if (a.z > p.z) != (b.z > p.z) && p.x < (b.x - a.x) * (p.z - a.z) / (b.z - a.z) + a.x { result.toggle() }
        }
        return result
    }

    private func nearEdge(_ p: PlanPoint, _ polygon: [PlanPoint], within distance: Double) -> Bool {
        polygon.indices.contains { i in
            let s = PlanSegment(start: polygon[i], end: polygon[(i + 1) % polygon.count])
            let (across, along) = offset(p, from: s)
            return along >= -0.01 && along <= 1.01 && across < distance
        }
    }

    /// Identifiers of every surface and object of a room.
    private func identifiers(_ room: CapturedRoom) -> [String] {
        var surfaces: [Surface] = room.walls
        surfaces += room.doors
        surfaces += room.windows
        surfaces += room.openings
        surfaces += room.floors
        return surfaces.map(\.identifier) + room.objects.map(\.identifier)
    }

    private func roomIndex(_ building: GeneratedBuilding) -> [String: GeneratedCapture] {
        Dictionary(uniqueKeysWithValues: building.captures.map { ($0.fileName, $0) })
    }

    // MARK: Shapes and layout

    func testRoomsHaveFourToTenWallsAndSomeAreNotRectangles() {
        var counts: [Int] = []
        var notRectangles = 0
        for seed in UInt64(1)...10 {
            for room in building(seed, rooms: 9, noise: 0).structure.rooms {
                counts.append(room.walls.count)
                if room.walls.count != 4 { notRectangles += 1 }
            }
        }
        XCTAssertEqual(counts.min(), 4)
        XCTAssertEqual(counts.max(), 10)
        XCTAssertGreaterThan(notRectangles, counts.count / 4, "L-shapes, alcoves, bays and cut corners are common")
        XCTAssertTrue((4...10).allSatisfy(counts.contains), "every count from 4 to 10 occurs: \(counts)")
    }

    func testRoomsTileEachStoryWithoutOverlap() {
        for seed in UInt64(1)...6 {
            let structure = building(seed, rooms: 14, stories: 2, noise: 0).structure
            for floor in structure.merged.floors {
                let rooms = structure.rooms.filter { $0.story == floor.story }
                // Each room's floor is bounded by its own copies of the walls (their faces or
                // centre lines): the rooms fill the story up to the walls' thickness.
                let outlines = rooms.map { $0.floors[0].planPolygon }
                let sum = outlines.reduce(0) { $0 + polygonArea($1) }
                let whole = polygonArea(floor.planPolygon)
                let perimeters = outlines.reduce(0) { total, outline in
                    total + outline.indices.reduce(0) { $0 + outline[$1].distance(to: outline[($1 + 1) % outline.count]) }
                }
                XCTAssertLessThanOrEqual(sum, whole * 1.001, "seed \(seed): room floors fit in the story's floor")
                XCTAssertGreaterThanOrEqual(sum, whole - perimeters * 0.2, "seed \(seed): room floors fill it but for the walls")
                // No point of the story lies in two rooms, and every point in none is in a wall.
                let xs = floor.planPolygon.map(\.x), zs = floor.planPolygon.map(\.z)
                var checked = 0
                var x = xs.min()! + 0.013
                while x < xs.max()! {
                    var z = zs.min()! + 0.017
                    while z < zs.max()! {
                        let p = PlanPoint(x: x, z: z)
                        defer { z += 0.37 }
                        if outlines.contains(where: { nearEdge(p, $0, within: 0.005) }) { continue }
                        let count = outlines.filter { inside(p, $0) }.count
                        XCTAssertLessThanOrEqual(count, 1, "seed \(seed) at \(p)")
                        if count == 0 && inside(p, floor.planPolygon) {
                            XCTAssertTrue(outlines.contains { nearEdge(p, $0, within: 0.3) || $0.contains { $0.distance(to: p) < 0.3 } }, "seed \(seed) at \(p): a gap that is no wall")
                        }
                        checked += 1
                    }
                    x += 0.37
                }
                XCTAssertGreaterThan(checked, 100)
            }
        }
    }

    /// Rooms joined by a door or an opening, from the ground truth's doors and openings.
    private func neighbours(_ building: GeneratedBuilding) -> [Set<Int>] {
        let byFile = roomIndex(building)
        var result: [Set<Int>] = Array(repeating: [], count: building.structure.rooms.count)
        for truth in building.provenance where (truth.array == .doors || truth.array == .openings) && truth.sources.count > 1 {
            let ends = Array(Set(truth.sources.map { byFile[$0.file]!.roomIndex }))
            XCTAssertEqual(ends.count, 2, "a door or an opening joins two rooms")
            result[ends[0]].insert(ends[1])
            result[ends[1]].insert(ends[0])
        }
        return result
    }

    func testHallwaysConnectTheRoomsOfAHome() {
        for seed in UInt64(1)...8 {
            // Up to nine rooms a story is one home: every room can be reached from every other.
            let home = building(seed, rooms: 16, stories: 2)
            let links = neighbours(home)
            let rooms = home.structure.rooms
            for story in Set(rooms.compactMap(\.story)) {
                let members = rooms.indices.filter { rooms[$0].story == story }
                var reached: Set<Int> = [members[0]]
                var queue = [members[0]]
                while let next = queue.popLast() {
                    for other in links[next] where !reached.contains(other) {
                        reached.insert(other)
                        queue.append(other)
                    }
                }
                XCTAssertEqual(reached, Set(members), "seed \(seed) story \(story): every room can be reached")
            }
            // A larger story holds several homes: each room opens onto its home's hallway.
            let block = building(seed, rooms: 30)
            let blockLinks = neighbours(block)
            let hallways = Set(block.structure.rooms.indices.filter {
                block.structure.rooms[$0].sections[0].label == "unidentified" && blockLinks[$0].count >= 3
            })
            XCTAssertGreaterThanOrEqual(hallways.count, 3, "seed \(seed)")
            for room in block.structure.rooms.indices where !hallways.contains(room) {
                XCTAssertFalse(blockLinks[room].isDisjoint(with: hallways), "seed \(seed): room \(room) opens onto a hallway")
            }
        }
    }

    func testTheBuildingIsTurnedByAnArbitraryYaw() {
        var turned = 0
        for seed in UInt64(1)...20 {
            let building = building(seed, rooms: 5)
            let longest = building.structure.merged.walls.max { $0.dimensions.x < $1.dimensions.x }!
            let offGrid = degrees(longest.transform.yaw).truncatingRemainder(dividingBy: 90)
            let fromQuarter = min(abs(offGrid), 90 - abs(offGrid))
            if fromQuarter > 1 { turned += 1 }
            let reported = degrees(building.buildingYaw).truncatingRemainder(dividingBy: 90)
            XCTAssertEqual(min(abs(reported), 90 - abs(reported)), fromQuarter, accuracy: 0.01)
        }
        XCTAssertGreaterThanOrEqual(turned, 17, "most buildings are not aligned with the axes")
    }

    // MARK: Walls, doors, windows

    func testDoorsAndOpeningsLieInTheSharedWallInBothRooms() {
        var doorless = 0
        var openings = 0
        var frontDoors = 0
        for seed in UInt64(1)...5 {
            let building = building(seed, rooms: 9, noise: 0)
            let byFile = roomIndex(building)
            let merged = building.structure.merged
            let mergedWalls = Dictionary(uniqueKeysWithValues: merged.walls.map { ($0.identifier, $0) })
            var wallsWithDoors = Set<String>()
            for truth in building.provenance where truth.array == .doors || truth.array == .openings {
                let element = (merged.doors + merged.openings).first { $0.identifier == truth.identifier }!
                let structureWall = mergedWalls[element.parentIdentifier!]!
                wallsWithDoors.insert(structureWall.identifier)
                XCTAssertLessThan(offset(centre(element), from: structureWall.planSegment).across, 1e-3)
                if truth.array == .openings { openings += 1 }
                let exterior = building.provenance.first { $0.identifier == structureWall.identifier }!.isExterior!
                if truth.sources.count == 1 {
                    XCTAssertTrue(exterior, "a door to one room only is a front door, in an outside wall")
                    frontDoors += 1
                    continue
                }
                XCTAssertFalse(exterior)
                var copies: [(door: Surface, wall: Surface)] = []
                for source in truth.sources {
                    let room = building.structure.rooms[byFile[source.file]!.roomIndex]
                    let door = (room.doors + room.openings).first { $0.identifier == source.identifier }!
                    let wall = room.walls.first { $0.identifier == door.parentIdentifier }!
                    let (across, along) = offset(centre(door), from: wall.planSegment)
                    XCTAssertLessThan(across, 1e-3, "the door is in its room's wall")
                    XCTAssertGreaterThan(along, 0)
                    XCTAssertLessThan(along, 1)
                    XCTAssertLessThan(headingDifference(wall.transform, structureWall.transform), 1e-3)
                    copies.append((door, wall))
                }
                XCTAssertEqual(copies.count, 2)
                let thickness = Double(structureWall.dimensions.z)
                let apart = offset(centre(copies[0].door), from: copies[1].wall.planSegment).across
                XCTAssertLessThanOrEqual(apart, thickness + 1e-3, "both rooms' walls are the one wall between them")
            }
            doorless += building.provenance.filter {
                $0.array == .walls && $0.isExterior == false && !wallsWithDoors.contains($0.identifier)
            }.count
        }
        XCTAssertGreaterThan(doorless, 0, "some shared walls have no door")
        XCTAssertGreaterThan(openings, 0, "some rooms are joined by an opening without a door")
        XCTAssertGreaterThan(frontDoors, 0, "homes have a front door")
    }

    func testOutsideWallsHaveWindowsAndOnlyThey() {
        var outside = 0, withWindows = 0
        for seed in UInt64(1)...5 {
            let building = building(seed, rooms: 8)
            let merged = building.structure.merged
            let exterior = Set(building.provenance.filter { $0.array == .walls && $0.isExterior == true }.map(\.identifier))
            let windowWalls = Set(merged.windows.map { $0.parentIdentifier! })
            XCTAssertTrue(windowWalls.isSubset(of: exterior), "windows are in outside walls")
            for wall in merged.walls where exterior.contains(wall.identifier) && wall.dimensions.x > 2 {
                outside += 1
                if windowWalls.contains(wall.identifier) { withWindows += 1 }
            }
        }
        XCTAssertGreaterThan(Double(withWindows), Double(outside) * 0.6, "\(withWindows) of \(outside) long outside walls")
    }

    func testWallCopiesLieBetweenTheFaceAndTheCentreLine() {
        var bothFaces = 0, bothCentres = 0
        for seed in UInt64(1)...6 {
            let building = building(seed, rooms: 9, noise: 0)
            let byFile = roomIndex(building)
            let merged = Dictionary(uniqueKeysWithValues: building.structure.merged.walls.map { ($0.identifier, $0) })
            for truth in building.provenance where truth.array == .walls {
                let wall = merged[truth.identifier]!
                let thickness = truth.thickness!
                XCTAssertEqual(Double(wall.dimensions.z), thickness, accuracy: 1e-6)
                if truth.isExterior! {
                    XCTAssertTrue((0.2...0.4).contains(thickness), "outside walls are 20-40 cm: \(thickness)")
                } else {
                    XCTAssertTrue((0.08...0.2).contains(thickness), "walls between rooms are 8-20 cm: \(thickness)")
                }
                let copies = truth.sources.map { source -> Surface in
                    let room = building.structure.rooms[byFile[source.file]!.roomIndex]
                    return room.walls.first { $0.identifier == source.identifier }!
                }
                for copy in copies {
                    XCTAssertLessThan(headingDifference(copy.transform, wall.transform), 1e-3)
                    let across = offset(centre(copy), from: wall.planSegment).across
                    XCTAssertLessThanOrEqual(across, thickness / 2 + 1e-4, "a copy lies between the centre line and its face")
                }
                guard copies.count == 2 else { continue }
                let apart = offset(centre(copies[0]), from: copies[1].planSegment).across
                XCTAssertLessThanOrEqual(apart, thickness + 1e-4)
                if apart > thickness - 1e-3 { bothFaces += 1 }
                if apart < 0.03 { bothCentres += 1 }
            }
        }
        XCTAssertGreaterThan(bothFaces, 0, "both rooms saw their face of the wall: a thickness apart")
        XCTAssertGreaterThan(bothCentres, 0, "both rooms saw near the centre line: almost together")
    }

    // MARK: Captures, noise and rescans

    /// A transform placed by a column-major 4x4 matrix from the ground truth.
    private func place(_ t: Transform, by m: [Double]) -> Transform {
        var result = t
        for column in 0..<4 {
            for row in 0..<3 {
                var value = 0.0
                for k in 0..<4 { value += m[k * 4 + row] * Double(t[column * 4 + k]) }
                result[column * 4 + row] = Float(value)
            }
        }
        return result
    }

    private func groundTruth(_ building: GeneratedBuilding) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(building.groundTruthJSON())) as? [String: Any])
    }

    private func transforms(_ truth: [String: Any]) -> [String: [Double]] {
        var result: [String: [Double]] = [:]
        for capture in truth["captures"] as! [[String: Any]] {
            result[capture["file"] as! String] = (capture["transform"] as! [NSNumber]).map(\.doubleValue)
        }
        return result
    }

    func testExactCapturesLandOnTheNestedRooms() throws {
        let building = building(3, rooms: 9, stories: 2, noise: 0)
        let placements = transforms(try groundTruth(building))
        for capture in building.captures {
            let nested = building.structure.rooms[capture.roomIndex]
            let matrix = try XCTUnwrap(placements[capture.fileName])
            let room = capture.room
            XCTAssertEqual(room.walls.count, nested.walls.count)
            let pairs = zip(room.walls + room.doors + room.windows + room.openings + room.floors,
                            nested.walls + nested.doors + nested.windows + nested.openings + nested.floors)
            for (a, b) in pairs {
                XCTAssertEqual(a.identifier, b.identifier)
                XCTAssertEqual(a.dimensions, b.dimensions)
                XCTAssertEqual(a.polygonCorners, b.polygonCorners)
                let placed = place(a.transform, by: matrix)
                for i in 0..<16 {
                    XCTAssertEqual(placed[i], b.transform[i], accuracy: 1e-4, "\(capture.fileName) \(a.identifier)")
                }
            }
            for (a, b) in zip(room.objects, nested.objects) {
                let placed = place(a.transform, by: matrix)
                for i in 0..<16 { XCTAssertEqual(placed[i], b.transform[i], accuracy: 1e-4) }
            }
        }
    }

    func testNoisyCapturesStayWithinAScansBounds() throws {
        var splits = 0, partial = 0, moved = 0, widthDifferences: [Double] = []
        let tolerance = 1e-4
        for seed in UInt64(1)...6 {
            let building = building(seed, rooms: 9)
            let placements = transforms(try groundTruth(building))
            var doorWidths: [String: [Double]] = [:]
            for capture in building.captures {
                let nested = building.structure.rooms[capture.roomIndex]
                let matrix = placements[capture.fileName]!
                func placed(_ s: Surface) -> Surface {
                    var copy = s
                    copy.transform = place(s.transform, by: matrix)
                    return copy
                }
                let walls = Dictionary(uniqueKeysWithValues: capture.room.walls.map { ($0.identifier, placed($0)) })
                for wall in nested.walls {
                    let parts = capture.identifiers[wall.identifier]!.map { walls[$0]! }
                    let length = Double(wall.dimensions.x)
                    for part in parts {
                        XCTAssertLessThanOrEqual(headingDifference(part.transform, wall.transform), 0.5 + 1e-3)
                        let (across, along) = offset(centre(part), from: wall.planSegment)
                        XCTAssertLessThanOrEqual(across, 0.03 + tolerance, "a wall is off by at most 3 cm")
                        let half = Double(part.dimensions.x) / 2 / length
                        XCTAssertGreaterThanOrEqual(along - half, -(0.03 + tolerance) / length)
                        XCTAssertLessThanOrEqual(along + half, 1 + (0.03 + tolerance) / length)
                        if across > 0.005 { moved += 1 }
                    }
                    let total = parts.reduce(0) { $0 + Double($1.dimensions.x) }
                    if parts.count == 2 {
                        splits += 1
                        XCTAssertEqual(total, length, accuracy: 0.06 + tolerance)
                    } else if total < length - 0.03 - tolerance {
                        partial += 1
                        XCTAssertGreaterThanOrEqual(total, length * 0.65 - 0.03 - tolerance, "partly scanned, at most 35 % short")
                    } else {
                        XCTAssertEqual(total, length, accuracy: 0.03 + tolerance, "lengths are off by at most 3 cm")
                        let (_, along) = offset(centre(parts[0]), from: wall.planSegment)
                        XCTAssertEqual(along * length, length / 2, accuracy: 0.015 + tolerance)
                    }
                }
                let nestedDoors = Dictionary(uniqueKeysWithValues: (nested.doors + nested.windows + nested.openings)
                    .map { ($0.identifier, $0) })
                for door in capture.room.doors + capture.room.windows + capture.room.openings {
                    guard capture.rescanOf == nil, let original = nestedDoors[door.identifier] else { continue }
                    let wall = walls[door.parentIdentifier!]!
                    XCTAssertLessThan(offset(centre(placed(door)), from: wall.planSegment).across, 1e-3,
                                      "a door stays in its noisy wall")
                    XCTAssertLessThanOrEqual(headingDifference(placed(door).transform, original.transform), 0.5 + 1e-3)
                    XCTAssertLessThanOrEqual(abs(Double(door.dimensions.x - original.dimensions.x)), 0.015 + tolerance)
                    doorWidths[door.identifier] = [Double(door.dimensions.x)]
                }
                let nestedObjects = Dictionary(uniqueKeysWithValues: nested.objects.map { ($0.identifier, $0) })
                for object in capture.room.objects {
                    let original = nestedObjects[object.identifier]!
                    let a = place(object.transform, by: matrix)
                    let d = a.translation - original.transform.translation
                    XCTAssertLessThanOrEqual((d * d).sum().squareRoot(), 0.02 * 2.0.squareRoot() + tolerance)
                    XCTAssertLessThanOrEqual(headingDifference(a, original.transform), 0.5 + 1e-3)
                }
            }
            for truth in building.provenance where truth.array == .doors {
                let widths = truth.sources.compactMap { doorWidths[$0.identifier]?.first }
                XCTAssertEqual(widths.count, truth.sources.count)
                guard widths.count == 2 else { continue }
                let difference = abs(widths[0] - widths[1])
                XCTAssertLessThanOrEqual(difference, 0.03 + tolerance, "the two sides of a door differ by at most 3 cm")
                widthDifferences.append(difference)
            }
        }
        XCTAssertGreaterThan(splits, 0, "some walls are scanned in two parts")
        XCTAssertGreaterThan(partial, 0, "some walls are only partly scanned")
        XCTAssertGreaterThan(moved, 0)
        XCTAssertGreaterThan(widthDifferences.max()!, 0.005)
    }

    func testRescansAreNewSessionsLinkedToTheirRoom() throws {
        let building = building(7, rooms: 8, noise: 0, rescans: 3)
        XCTAssertEqual(building.captures.count, 11)
        let rescans = building.captures.filter { $0.rescanOf != nil }
        XCTAssertEqual(rescans.count, 3)
        XCTAssertEqual(Set(rescans.map(\.roomIndex)).count, 3)
        let nestedIdentifiers = Set(building.structure.rooms.flatMap(identifiers))
        let truth = try groundTruth(building)
        let entries = Dictionary(uniqueKeysWithValues: (truth["captures"] as! [[String: Any]]).map {
            ($0["file"] as! String, $0)
        })
        let placements = transforms(truth)
        for rescan in rescans {
            let first = building.captures.first { $0.fileName == rescan.rescanOf }!
            XCTAssertEqual(first.roomIndex, rescan.roomIndex)
            XCTAssertNil(first.rescanOf)
            XCTAssertEqual(entries[rescan.fileName]?["rescanOf"] as? String, first.fileName)
            XCTAssertTrue(entries[first.fileName]?["rescanOf"] is NSNull)
            let room = rescan.room
            let own = identifiers(room)
            XCTAssertTrue(nestedIdentifiers.isDisjoint(with: own), "a rescan has identifiers of its own")
            XCTAssertEqual(Set(room.doors.compactMap(\.parentIdentifier)).isSubset(of: Set(room.walls.map(\.identifier))), true)
            XCTAssertNotEqual(room.coreModel, first.room.coreModel)
            // Exact, it lands where the room is: its floor turned alike and within half a wall's
            // thickness (each scan sees the walls' faces or centre lines).
            let nested = building.structure.rooms[rescan.roomIndex]
            let floor = place(room.floors[0].transform, by: placements[rescan.fileName]!)
            for i in 0..<12 { XCTAssertEqual(floor[i], nested.floors[0].transform[i], accuracy: 1e-4) }
            XCTAssertLessThan(PlanPoint(x: Double(floor[12] - nested.floors[0].transform[12]), z: Double(floor[14] - nested.floors[0].transform[14])).length, 0.2)
            XCTAssertEqual(floor[13], nested.floors[0].transform[13], accuracy: 1e-4)
            let mentioned = building.provenance.flatMap(\.sources).filter { $0.file == rescan.fileName }.map(\.identifier)
            XCTAssertEqual(Set(mentioned), Set(own), "every element of a rescan stands in the structure")
        }
    }

    func testProvenanceCoversEveryStructureElementExactlyOnce() throws {
        let building = building(5, rooms: 12, stories: 2, rescans: 2)
        let truth = try groundTruth(building)
        let structure = try XCTUnwrap(truth["structure"] as? [String: [[String: Any]]])
        let merged = building.structure.merged
        let byFile = roomIndex(building)
        let arrays: [(String, [String])] = [
            ("walls", merged.walls.map(\.identifier)), ("doors", merged.doors.map(\.identifier)),
            ("windows", merged.windows.map(\.identifier)), ("openings", merged.openings.map(\.identifier)),
            ("floors", merged.floors.map(\.identifier)), ("objects", merged.objects.map(\.identifier)),
        ]
        var keptIdentifier = 0, elements = 0
        for (name, expected) in arrays {
            let entries = try XCTUnwrap(structure[name])
            XCTAssertEqual(entries.map { $0["identifier"] as! String }, expected, "\(name): each element once, in order")
            for entry in entries {
                let sources = entry["sources"] as! [[String: String]]
                XCTAssertFalse(sources.isEmpty)
                for source in sources {
                    let room = try XCTUnwrap(byFile[source["file"]!]).room
                    XCTAssertTrue(identifiers(room).contains(source["identifier"]!), "\(source) is an element of that capture")
                }
                elements += 1
                if sources.contains(where: { $0["identifier"] == entry["identifier"] as? String }) { keptIdentifier += 1 }
                if name == "walls" && entry["exterior"] as? Bool == false {
                    XCTAssertGreaterThanOrEqual(Set(sources.map { byFile[$0["file"]!]!.roomIndex }).count, 2,
                                                "a wall between rooms stands for both rooms' walls")
                }
            }
        }
        XCTAssertGreaterThan(Double(keptIdentifier), Double(elements) * 0.97,
                             "structure elements keep the identifier of a room element they stand for")
        // Every element of every capture is accounted for (sections aside).
        let sourced = Set(building.provenance.flatMap(\.sources))
        for capture in building.captures {
            for identifier in identifiers(capture.room) {
                XCTAssertTrue(sourced.contains(CaptureElement(file: capture.fileName, identifier: identifier)))
            }
        }
    }

    func testDeterministicAndIndependentOfNoiseAndRescans() {
        func bytes(_ b: GeneratedBuilding) -> [[UInt8]] {
            [RoomPlanCodec.encode(.structure(b.structure)), b.groundTruthJSON()]
                + b.captures.map { RoomPlanCodec.encode(.room($0.room)) }
        }
        let a = building(21, rooms: 10, stories: 2, rescans: 2)
        XCTAssertEqual(bytes(a), bytes(building(21, rooms: 10, stories: 2, rescans: 2)))
        XCTAssertNotEqual(bytes(a)[0], bytes(building(22, rooms: 10, stories: 2, rescans: 2))[0])
        let exact = building(21, rooms: 10, stories: 2, noise: 0)
        XCTAssertEqual(bytes(exact)[0], bytes(a)[0], "the structure does not depend on noise or rescans")
        XCTAssertEqual(exact.captures.map(\.placement), a.captures.prefix(10).map(\.placement))
        XCTAssertNotEqual(bytes(exact)[2], bytes(a)[2], "noise changes the captures")
    }

    /// `realDoorways`: doors of standard widths in the building; the two sides of a doorway up
    /// to 8 cm apart in width (most), now and then a metre apart (one side saw it run into
    /// what is beside it); some doorways seen from one side only, which the ground truth says
    /// (their provenance lists one capture). The same spec gives the same bytes.
    func testRealDoorwaysAreStandardLookAlikesSeenUnevenly() {
        let spec = BuildingSpec(seed: 31, rooms: 24, coreModelBytes: 100, realDoorways: true)
        let home = BuildingGenerator.generate(spec)
        XCTAssertEqual(home.groundTruthJSON(), BuildingGenerator.generate(spec).groundTruthJSON())
        for door in home.structure.merged.doors {
            XCTAssertTrue([0.76, 0.81, 0.86].contains { abs(Double(door.dimensions.x) - $0) < 1e-4 }, "\(door.dimensions.x)")
        }
        var widths: [String: Double] = [:]
        for capture in home.captures {
            for doorway in capture.room.doors + capture.room.openings { widths[doorway.identifier] = Double(doorway.dimensions.x) }
        }
        var close = 0, wide = 0, differences: [Double] = []
        for truth in home.provenance where truth.array == .doors || truth.array == .openings {
            let seen = truth.sources.compactMap { widths[$0.identifier] }
            XCTAssertEqual(seen.count, truth.sources.count, "the ground truth lists only what the captures hold")
            guard seen.count == 2 else { continue }
            let difference = abs(seen[0] - seen[1])
            differences.append(difference)
            if difference <= 0.08 + 1e-4 { close += 1 } else { wide += 1 }
            XCTAssertLessThanOrEqual(difference, 1.1 + 0.08 + 1e-4)
        }
        // Some doorways are seen from one side only: the same home without has more in its captures.
        let plain = BuildingGenerator.generate(BuildingSpec(seed: 31, rooms: 24, coreModelBytes: 100))
        func doorways(_ building: GeneratedBuilding) -> Int { building.captures.reduce(0) { $0 + $1.room.doors.count + $1.room.openings.count } }
        XCTAssertEqual(home.structure.merged.doors.count + home.structure.merged.openings.count,
                       plain.structure.merged.doors.count + plain.structure.merged.openings.count)
        XCTAssertLessThan(doorways(home), doorways(plain), "some doorways are seen from one side only")
        XCTAssertGreaterThan(wide, 0, "some are seen much wider from one side")
        XCTAssertGreaterThan(close, wide * 2, "most differ by a scan's noise")
        XCTAssertGreaterThan(differences.filter { $0 > 0.03 && $0 <= 0.08 }.count, 0, "beyond the 3 cm of the default noise")
    }
}
