import Foundation
import StructureModel
import XCTest

/// `export ifc` from the shell, read back by IfcOpenShell: the validator (schema and EXPRESS
/// rules) finds no error, and the model holds what the RoomPlan JSON holds, where it holds it.
/// Every file is written first and checked in one Python run (loading the EXPRESS rules
/// takes seconds).
final class IFCExportTests: XCTestCase {
    /// A file wb wrote and the RoomPlan data it was written from.
    struct Case {
        var name: String
        var ifc: String
        /// The elements (a room, or a structure's merged arrays).
        var elements: CapturedRoom
        /// The rooms (one for a room file).
        var rooms: [CapturedRoom]
        var thickness: Double
        /// Doors, windows and openings all lie in a wall of the file.
        var insertsHosted: Bool
        /// What wb printed on standard error.
        var stderr: String
        /// Where the doors' and windows' walls are named, when the file itself does not.
        var hostsByGeometry: CapturedRoom?
    }

    static let hostileName = "Küche \"O'Brien\" <&> \\ 😀 \u{4E2D}"

    func testEveryFileValidatesAndMatchesItsJSON() throws {
        let folder = try Harness.temporaryFolder(self)
        var cases = [try mergedBuilding(in: folder), try singleRoom(in: folder), try iOS16Room(in: folder), try roomWithoutWalls(in: folder)]
        var skipped: [String] = []
        for sample in ["livingroom-1section.json", "flat-4sections.json"] {
            do { cases.append(try realSample(sample, in: folder)) } catch let skip as XCTSkip { skipped.append("\(skip)") }
        }
        let reports = try IFCCheck.run(cases.map(\.ifc))
        for item in cases {
            let report = try XCTUnwrap(reports[item.ifc], item.name)
            check(item, report)
        }
        if !skipped.isEmpty { print("IFC real samples skipped: \(skipped.joined(separator: "; "))") }
    }

    /// --dry-run writes nothing and says what would be written; `-` prints the file.
    func testDryRunAndStandardOutput() throws {
        let folder = try Harness.temporaryFolder(self)
        let room = try Harness.generatedRoom(in: folder, seed: 5)
        let target = folder.appendingPathComponent("dry.ifc").path
        let dry = try Harness.run(["--dry-run", room, "-c", "export ifc \(target)"])
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: target))
        XCTAssertTrue(dry.stderr.contains("would write \(target) (IFC4: 1 story, 1 room,"), dry.stderr)
        let printed = try Harness.run(["-q", room, "-c", "export ifc -"])
        XCTAssertEqual(printed.status, 0, printed.stderr)
        XCTAssertTrue(printed.stdout.hasPrefix("ISO-10303-21;\n"), String(printed.stdout.prefix(80)))
        XCTAssertTrue(printed.stdout.hasSuffix("END-ISO-10303-21;\n"))
        XCTAssertTrue(printed.stdout.contains("IFCWALL("))
    }

    /// With SOURCE_DATE_EPOCH the file is the same bytes every time, stamped with that time.
    func testSourceDateEpochMakesTheFileReproducible() throws {
        let folder = try Harness.temporaryFolder(self)
        let room = try Harness.generatedRoom(in: folder, seed: 9)
        var outputs: [Data] = []
        for name in ["a.ifc", "b.ifc"] {
            let path = folder.appendingPathComponent(name).path
            let result = try Harness.run(["-q", room, "-c", "export ifc \(path)"], environment: ["SOURCE_DATE_EPOCH": "1700000000"])
            XCTAssertEqual(result.status, 0, result.stderr)
            outputs.append(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        let text = String(decoding: outputs[0], as: UTF8.self)
        XCTAssertTrue(text.contains("FILE_NAME('a.ifc','2023-11-14T22:13:20',"), String(text.prefix(300)))
        XCTAssertEqual(String(decoding: outputs[1], as: UTF8.self), text.replacingOccurrences(of: "'a.ifc'", with: "'b.ifc'"))
    }

    /// Bad options and targets: an error that points at the word, and no file left behind.
    func testBadInputIsRefusedWithoutAFile() throws {
        let folder = try Harness.temporaryFolder(self)
        let room = try Harness.generatedRoom(in: folder, seed: 13)
        let target = folder.appendingPathComponent("x.ifc").path
        let thin = try Harness.run(["-q", room, "-c", "export ifc \(target) --wall-thickness 0"])
        XCTAssertEqual(thin.status, 1)
        XCTAssertTrue(thin.stderr.contains("--wall-thickness takes metres"), thin.stderr)
        let svg = try Harness.run(["-q", room, "-c", "export svg \(target) --wall-thickness 0.2"])
        XCTAssertEqual(svg.status, 1)
        XCTAssertTrue(svg.stderr.contains("--wall-thickness is for export usdz, usda or ifc"), svg.stderr)
        let story = try Harness.run(["-q", room, "-c", "export ifc \(target) --story 4"])
        XCTAssertEqual(story.status, 1)
        XCTAssertTrue(story.stderr.contains("nothing on story 4"), story.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: target))
        let missing = folder.appendingPathComponent("no/such/folder/x.ifc").path
        let nowhere = try Harness.run(["-q", room, "-c", "export ifc \(missing)"])
        XCTAssertEqual(nowhere.status, 1)
        XCTAssertTrue(nowhere.stderr.contains("error"), nowhere.stderr)
        let empty = try Harness.run(["-q", "-c", "export ifc \(target)"])
        XCTAssertEqual(empty.status, 1)
        XCTAssertTrue(empty.stderr.contains("nothing is open"), empty.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".ifc") || $0.contains(".tmp") }, [])
    }

    /// --story N writes that story's storey alone, with only its rooms.
    func testStoryOptionKeepsOneStorey() throws {
        let folder = try Harness.temporaryFolder(self)
        let building = BuildingGenerator.generate(BuildingSpec(seed: 21, rooms: 4, stories: 2, noise: 0))
        let path = folder.appendingPathComponent("b.json").path
        try Data(RoomPlanCodec.encode(.structure(building.structure))).write(to: URL(fileURLWithPath: path))
        let target = folder.appendingPathComponent("upper.ifc").path
        let result = try Harness.run(["-q", path, "-c", "export ifc \(target) --story 1"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let text = try String(contentsOfFile: target, encoding: .utf8)
        let upper = building.structure.rooms.filter { $0.effectiveStory == 1 }
        XCTAssertEqual(text.components(separatedBy: "IFCBUILDINGSTOREY(").count - 1, 1)
        XCTAssertTrue(text.contains("'Story 1'"))
        XCTAssertEqual(text.components(separatedBy: "IFCSPACE(").count - 1, upper.count)
    }

    // MARK: The files

    /// Six rooms on two stories, placed where the building has them, merged by wb, one room
    /// named with quotes, markup characters, a backslash and characters beyond ASCII.
    private func mergedBuilding(in folder: URL) throws -> Case {
        let building = BuildingGenerator.generate(BuildingSpec(seed: 47, rooms: 6, stories: 2, noise: 0))
        let (paths, placing) = try Harness.captures(of: building, in: folder)
        var commands = placing
        let ifc = folder.appendingPathComponent("home.ifc").path, json = folder.appendingPathComponent("home.json").path
        let quoted = Self.hostileName.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        commands += ["name r1 \"\(quoted)\"", "merge --into home", "export ifc \(ifc) --wall-thickness 0.12", "export structure \(json)"]
        let result = try Harness.run(["-q"] + paths + ["-c", commands.joined(separator: "\n")])
        XCTAssertEqual(result.status, 0, result.stderr)
        guard case .structure(let merged) = try RoomPlanCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: json)))) else {
            throw XCTSkip("no structure was written")
        }
        XCTAssertEqual(Set(merged.rooms.compactMap(\.effectiveStory)), [0, 1], "two stories")
        return Case(name: "merged building", ifc: ifc, elements: merged.merged, rooms: merged.rooms, thickness: 0.12,
                    insertsHosted: true, stderr: result.stderr)
    }

    private func singleRoom(in folder: URL) throws -> Case {
        let path = try Harness.generatedRoom(in: folder, seed: 83, name: "single.json")
        return try export(path, as: "single room", in: folder, insertsHosted: true)
    }

    /// An iOS 16 capture: no parentIdentifier, story, floors or sections. Doors and windows
    /// still find their walls, geometrically.
    private func iOS16Room(in folder: URL) throws -> Case {
        let building = BuildingGenerator.generate(BuildingSpec(seed: 29, rooms: 2, noise: 0))
        var room = building.captures[0].room
        for index in room.doors.indices { room.doors[index].parentIdentifier = nil; room.doors[index].hasParentKey = false; room.doors[index].story = nil }
        for index in room.windows.indices { room.windows[index].parentIdentifier = nil; room.windows[index].hasParentKey = false; room.windows[index].story = nil }
        for index in room.openings.indices { room.openings[index].parentIdentifier = nil; room.openings[index].hasParentKey = false; room.openings[index].story = nil }
        for index in room.walls.indices { room.walls[index].hasParentKey = false; room.walls[index].story = nil; room.walls[index].polygonCorners = nil }
        for index in room.objects.indices { room.objects[index].hasParentKey = false; room.objects[index].story = nil; room.objects[index].attributes = nil }
        room.floors = []
        room.sections = []
        room.absentArrays.formUnion([.floors, .sections])
        room.story = nil
        room.version = nil
        room.coreModel = nil
        room.referenceOriginTransform = nil
        let path = folder.appendingPathComponent("ios16.json").path
        try Data(RoomPlanCodec.encode(.room(room))).write(to: URL(fileURLWithPath: path))
        var item = try export(path, as: "iOS 16 room", in: folder, insertsHosted: true)
        // The hosts found geometrically are the walls the generator put them in.
        item.hostsByGeometry = building.captures[0].room
        return item
    }

    /// A room whose walls were deleted: doors and windows stay, without openings, and say so.
    private func roomWithoutWalls(in folder: URL) throws -> Case {
        var room = BuildingGenerator.generate(BuildingSpec(seed: 61, rooms: 2)).captures[0].room
        room.walls = []
        let path = folder.appendingPathComponent("nowalls.json").path
        try Data(RoomPlanCodec.encode(.room(room))).write(to: URL(fileURLWithPath: path))
        let item = try export(path, as: "room without walls", in: folder, insertsHosted: false)
        XCTAssertTrue(item.stderr.contains("lies in no wall"), item.stderr)
        return item
    }

    private func realSample(_ name: String, in folder: URL) throws -> Case {
        try export(try Harness.sample(name), as: name, in: folder, insertsHosted: true)
    }

    private func export(_ path: String, as name: String, in folder: URL, insertsHosted: Bool) throws -> Case {
        let ifc = folder.appendingPathComponent(name.replacingOccurrences(of: " ", with: "-") + ".ifc").path
        let result = try Harness.run(["-q", path, "-c", "export ifc \(ifc)"])
        XCTAssertEqual(result.status, 0, "\(name): \(result.stderr)")
        guard case .room(let room) = try RoomPlanCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path)))) else {
            throw XCTSkip("\(path) is not a room")
        }
        return Case(name: name, ifc: ifc, elements: room, rooms: [room], thickness: 0.1, insertsHosted: insertsHosted, stderr: result.stderr)
    }

    // MARK: The checks

    private func check(_ item: Case, _ report: [String: Any]) {
        let name = item.name
        XCTAssertEqual(report["schema"] as? String, "IFC4", name)
        XCTAssertEqual(report["errors"] as? [String], [], "\(name): IfcOpenShell's validator")
        XCTAssertEqual(report["duplicateGlobalIds"] as? Int, 0, name)
        XCTAssertEqual(Set(report["units"] as? [String] ?? []),
                       ["LENGTHUNIT:METRE", "AREAUNIT:SQUARE_METRE", "VOLUMEUNIT:CUBIC_METRE", "PLANEANGLEUNIT:RADIAN"], name)
        let counts = report["counts"] as? [String: Int] ?? [:]
        let e = item.elements
        XCTAssertEqual(counts["IfcWall"], e.walls.count, "\(name): walls")
        XCTAssertEqual(counts["IfcDoor"], e.doors.count, "\(name): doors")
        XCTAssertEqual(counts["IfcWindow"], e.windows.count, "\(name): windows")
        XCTAssertEqual(counts["IfcSlab"], e.floors.count, "\(name): floors")
        XCTAssertEqual(counts["IfcSpace"], item.rooms.count, "\(name): rooms")
        XCTAssertEqual(counts["IfcBuildingStorey"], Set(item.rooms.map { $0.effectiveStory ?? 0 }).count, "\(name): stories")
        XCTAssertEqual(counts["IfcOpeningElement"], item.insertsHosted ? e.doors.count + e.windows.count + e.openings.count : 0,
                       "\(name): openings")
        let objectClasses = Set(IFCCheck.objectClasses.values)
        XCTAssertEqual(objectClasses.reduce(0) { $0 + (counts[$1] ?? 0) } + (counts["IfcFurnishingElement"] ?? 0), e.objects.count,
                       "\(name): objects")

        let products = report["products"] as? [[String: Any]] ?? []
        var byUUID: [String: [String: Any]] = [:]
        for product in products where product["class"] as? String != "IfcOpeningElement" {
            if let uuid = IFCCheck.uuid(product) { byUUID[uuid] = product }
        }
        let wallIdentifiers = Set(e.walls.map(\.identifier))

        // Walls: where the JSON puts them, along the JSON's direction, with its facts.
        for wall in e.walls {
            guard let product = byUUID[wall.identifier] else { XCTFail("\(name): wall \(wall.identifier) is missing"); continue }
            XCTAssertEqual(product["class"] as? String, "IfcWall")
            let expected = IFCCheck.expectedOrigin(wall.transform, halfWidth: Double(wall.dimensions.x) / 2, height: Double(wall.dimensions.y))
            assertNear(IFCCheck.origin(product), expected, "\(name): wall \(wall.identifier) placement")
            assertNear(IFCCheck.xAxis(product), IFCCheck.horizontalAxis(wall.transform), "\(name): wall direction", tolerance: 1e-5)
            XCTAssertEqual(IFCCheck.property(product, "Identifier") as? String, wall.identifier)
            XCTAssertEqual(IFCCheck.property(product, "Category") as? String, "wall")
            XCTAssertEqual(product["tag"] as? String, wall.identifier)
        }
        // Doors and windows: placed, sized and hosted as the JSON says.
        let hostSource = item.hostsByGeometry ?? e
        for (surfaces, kind) in [(e.doors, "IfcDoor"), (e.windows, "IfcWindow")] {
            for (index, surface) in surfaces.enumerated() {
                guard let product = byUUID[surface.identifier] else { XCTFail("\(name): \(kind) \(surface.identifier) missing"); continue }
                XCTAssertEqual(product["class"] as? String, kind)
                let w = Double(surface.dimensions.x), h = Double(surface.dimensions.y)
                let expected = IFCCheck.expectedOrigin(surface.transform, halfWidth: w / 2, height: h)
                assertNear(IFCCheck.origin(product), expected, "\(name): \(kind) \(surface.identifier) position")
                XCTAssertEqual(product["overallWidth"] as? Double ?? -1, w, accuracy: 1e-5, name)
                XCTAssertEqual(product["overallHeight"] as? Double ?? -1, h, accuracy: 1e-5, name)
                let source = kind == "IfcDoor" ? hostSource.doors : hostSource.windows
                if item.insertsHosted, index < source.count, let parent = source[index].parentIdentifier, wallIdentifiers.contains(parent) {
                    let host = products.first { $0["globalId"] as? String == product["wall"] as? String }
                    XCTAssertEqual(host.flatMap(IFCCheck.uuid), parent, "\(name): \(kind) \(surface.identifier) fills an opening in its wall")
                } else if !item.insertsHosted {
                    XCTAssertNil(product["opening"] as? String, name)
                }
                if case .door(let isOpen) = surface.category {
                    XCTAssertEqual(IFCCheck.property(product, "IsOpen") as? Bool, isOpen, name)
                }
            }
        }
        // Objects: the class for the category, at the bottom centre of their box.
        for object in e.objects {
            guard let product = byUUID[object.identifier] else { XCTFail("\(name): object \(object.identifier) missing"); continue }
            XCTAssertEqual(product["class"] as? String, IFCCheck.objectClasses[object.category.name] ?? "IfcFurnishingElement",
                           "\(name): \(object.category.name)")
            XCTAssertEqual(product["objectType"] as? String, object.category.name)
            let expected = IFCCheck.expectedOrigin(object.transform, halfWidth: 0, height: Double(object.dimensions.y))
            assertNear(IFCCheck.origin(product), expected, "\(name): \(object.category.name) \(object.identifier) position")
            XCTAssertEqual(IFCCheck.property(product, "Category") as? String, object.category.name)
            for member in object.attributes?.members ?? [] {
                if case .string(let value) = member.value { XCTAssertEqual(IFCCheck.property(product, member.key) as? String, value, name) }
            }
        }
        // Floors: slabs whose placement is the floor's centre.
        for floor in e.floors {
            guard let product = byUUID[floor.identifier] else { XCTFail("\(name): floor missing"); continue }
            XCTAssertEqual(product["predefinedType"] as? String, "FLOOR")
            assertNear(IFCCheck.origin(product), IFCCheck.ifc(floor.transform.translation), "\(name): slab position")
        }
        // Storeys at the rooms' floor heights; spaces with the rooms' areas, shapes and names.
        let storeys = report["storeys"] as? [[String: Any]] ?? []
        for story in Set(item.rooms.map { $0.effectiveStory ?? 0 }) {
            let heights = item.rooms.filter { ($0.effectiveStory ?? 0) == story }.compactMap(\.floorHeight)
            guard let storey = storeys.first(where: { $0["name"] as? String == "Story \(story)" }) else {
                XCTFail("\(name): no storey for story \(story)"); continue
            }
            if let median = heights.sorted().dropFirst(heights.count / 2).first, heights.count % 2 == 1 {
                XCTAssertEqual(storey["elevation"] as? Double ?? .nan, median, accuracy: 1e-3, "\(name): story \(story) elevation")
                XCTAssertEqual(IFCCheck.origin(storey)?.z ?? .nan, median, accuracy: 1e-3)
            }
        }
        let spaces = report["spaces"] as? [[String: Any]] ?? []
        let areas = item.rooms.map { room in
            room.planOutlines.reduce(0) { $0 + polygonArea($1) }
        }
        for space in spaces {
            let area = space["netFloorArea"] as? Double ?? -1
            XCTAssertTrue(areas.contains { abs($0 - area) < 1e-3 }, "\(name): a space of \(area) m², rooms have \(areas)")
            if report["geometry"] as? Bool == true {
                XCTAssertNil(space["geometryError"], name)
                XCTAssertEqual(space["footprintArea"] as? Double ?? -1, area, accuracy: max(1e-3, area * 1e-4), "\(name): space shape")
                let height = space["height"] as? Double ?? -1
                XCTAssertEqual(space["volume"] as? Double ?? -1, area * height, accuracy: max(1e-3, area * height * 1e-4), name)
            }
        }
        let spaceNames = Set(spaces.compactMap { $0["name"] as? String })
        if item.name == "merged building" {
            XCTAssertTrue(spaceNames.contains(Self.hostileName), "\(name): the named room keeps its name exactly: \(spaceNames)")
        }
        let labels = Set(item.rooms.flatMap { $0.sections.map(\.label) })
        for space in spaces {
            if let long = space["longName"] as? String {
                XCTAssertTrue(long.split(separator: ",").allSatisfy { labels.contains($0.trimmingCharacters(in: .whitespaces)) },
                              "\(name): LongName \(long) from the labels \(labels)")
            }
        }
        if report["geometry"] as? Bool == true { checkWallVolumes(item, products: products, byUUID: byUUID) }
    }

    /// A wall's solid is its length × height × thickness, less a door's or window's width ×
    /// height × thickness for each one cut in it: checked for every wall whose inserts lie
    /// wholly inside it and do not overlap one another.
    private func checkWallVolumes(_ item: Case, products: [[String: Any]], byUUID: [String: [String: Any]]) {
        var checked = 0, withHoles = 0
        let inserts = item.elements.doors + item.elements.windows + item.elements.openings
        for wall in item.elements.walls {
            guard let product = byUUID[wall.identifier], let volume = product["volume"] as? Double,
                  wall.polygonCorners?.isEmpty ?? true else { continue }
            let length = Double(wall.dimensions.x), height = Double(wall.dimensions.y)
            let thickness = Double(wall.dimensions.z) > 0.001 ? Double(wall.dimensions.z) : item.thickness
            let mine = inserts.filter { insert in
                guard let filler = byUUID[insert.identifier] else {
                    // A plain opening: its opening element carries the identifier.
                    return products.contains { $0["class"] as? String == "IfcOpeningElement"
                        && IFCCheck.property($0, "Identifier") as? String == insert.identifier
                        && ($0["wall"] as? String) == product["globalId"] as? String }
                }
                return filler["wall"] as? String == product["globalId"] as? String
            }
            // Each insert's span along the wall and up it, in the wall's frame.
            let x = IFCCheck.horizontalAxis(wall.transform)
            let start = IFCCheck.expectedOrigin(wall.transform, halfWidth: length / 2, height: height)
            var spans: [(ClosedRange<Double>, ClosedRange<Double>)] = []
            var inside = true
            for insert in mine {
                let centre = IFCCheck.ifc(insert.transform.translation) - start
                let along = (centre * x).sum(), up = centre.z
                let w = Double(insert.dimensions.x) / 2, h = Double(insert.dimensions.y) / 2
                if along - w < 0.001 || along + w > length - 0.001 || up - h < -1e-4 || up + h > height - 0.001 { inside = false }
                spans.append(((along - w)...(along + w), (up - h)...(up + h)))
            }
            let overlapping = spans.indices.contains { i in spans.indices.contains { j in i < j && spans[i].0.overlaps(spans[j].0) && spans[i].1.overlaps(spans[j].1) } }
            guard inside, !overlapping else { continue }
            let holes = mine.reduce(0) { $0 + Double($1.dimensions.x) * Double($1.dimensions.y) }
            let expected = (length * height - holes) * thickness
            XCTAssertEqual(volume, expected, accuracy: max(1e-5, expected * 1e-4), "\(item.name): wall \(wall.identifier) volume")
            checked += 1
            if !mine.isEmpty { withHoles += 1 }
        }
        if !item.elements.walls.isEmpty { XCTAssertGreaterThan(checked, 0, "\(item.name): some wall's volume was checked") }
        if item.insertsHosted && !inserts.isEmpty {
            XCTAssertGreaterThan(withHoles, 0, "\(item.name): some wall with a hole was checked")
        }
    }

    private func assertNear(_ actual: SIMD3<Double>?, _ expected: SIMD3<Double>, _ message: String, tolerance: Double = 0.001,
                            file: StaticString = #filePath, line: UInt = #line) {
        guard let actual else { return XCTFail("\(message): no placement", file: file, line: line) }
        XCTAssertLessThan(IFCCheck.distance(actual, expected), tolerance, "\(message): \(actual) against \(expected)", file: file, line: line)
    }
}
