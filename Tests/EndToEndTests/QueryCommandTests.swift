import Foundation
import StructureModel
import XCTest

/// ls, find, show, stats, plan and export through the built wb.
final class QueryCommandTests: XCTestCase {
    func testFindTheChairOfTheLivingRoom() throws {
        let living = try Harness.sample("livingroom-1section.json")
        let result = try Harness.run(["-q", "--json", living, "-c", "find objects where category = chair"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let rows = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [[String: Any]]
        XCTAssertEqual(rows.count, 1)
        let chair = rows[0]
        for field in ["handle", "kind", "identifier", "room", "story", "category", "confidence", "dimensions", "attributes", "label", "name"] {
            XCTAssertNotNil(chair[field], "--json rows carry \(field)")
        }
        XCTAssertEqual(chair["kind"] as? String, "object")
        XCTAssertEqual(chair["category"] as? String, "chair")
        XCTAssertEqual(chair["confidence"] as? String, "low")
        XCTAssertEqual((chair["attributes"] as? [String: String])?["ChairType"], "swivel")
        XCTAssertEqual(chair["identifier"] as? String, "9BFA2EB8-7157-4262-AD3D-ADF7BF8F43B4")
        XCTAssertEqual((chair["dimensions"] as? [Double])?.count, 3)
        let parent = try XCTUnwrap(chair["parent"] as? String)
        let shown = try Harness.run(["-q", living, "-c", "show \(chair["handle"] as! String)"])
        XCTAssertTrue(shown.stdout.contains("parent         \(parent) (table)"), shown.stdout)
        let walls = try Harness.run(["-q", "--json", living, "-c", "ls walls"])
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(walls.stdout.utf8)) as! [Any]).count, 4)
    }

    /// A structure's own element is placed in a section of a room it stands for: the nearest
    /// section of any room put a hallway's walls in the bathroom across them, and `find ...
    /// where section = ...` found them there (an adversarial pass).
    func testAStructureElementsSectionIsOneOfItsRooms() throws {
        let folder = try Harness.temporaryFolder(self)
        let path = folder.appendingPathComponent("home.json").path
        let building = BuildingGenerator.generate(BuildingSpec(seed: 11, rooms: 6))
        try Data(RoomPlanCodec.encode(.structure(building.structure))).write(to: URL(fileURLWithPath: path))
        var rows: [[String: Any]] = []
        for kind in ["sections", "walls", "doors", "objects"] {
            let result = try Harness.run(["-q", "--json", path, "-c", "ls \(kind)"])
            XCTAssertEqual(result.status, 0, result.stderr)
            rows += try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        }
        let sectionRooms = Dictionary(uniqueKeysWithValues: rows.filter { $0["kind"] as? String == "section" && $0["level"] as? String == "structure" }
            .map { ($0["handle"] as! String, Set($0["rooms"] as? [String] ?? [])) })
        XCTAssertEqual(sectionRooms.count, 6, "one structure-level section a room")
        var checked = 0
        for row in rows where row["level"] as? String == "structure" && row["kind"] as? String != "section" {
            guard let section = row["section"] as? String, let rooms = row["rooms"] as? [String], !rooms.isEmpty else { continue }
            XCTAssertFalse(sectionRooms[section, default: []].isDisjoint(with: rooms),
                           "\(row["handle"]!) stands for \(rooms) but is put in \(section) of \(sectionRooms[section] ?? [])")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 40)
        // The legend's example is one of the rows' (it said "(r1+r2)" above rows of (r3) and (r4)).
        let listed = try Harness.run(["-q", path, "-c", "ls walls where level = structure and room = r4"])
        let legend = try XCTUnwrap(listed.stdout.split(separator: "\n").first { $0.contains("structure-level:") })
        XCTAssertTrue(legend.hasPrefix("(r1+r4) structure-level: the structure's own element, standing for those rooms' copies"), String(legend))
    }

    /// A length without a unit is in metres: `width > 100` matched nothing without a word (an
    /// adversarial pass). When such a query matches nothing, it is said what it meant.
    /// A structure-level element of many rooms (a story's floor) names the first three of them
    /// in a table and how many more: all of them made the room column 40 wide in an 11-room
    /// home, and a terminal then showed the table one field per line. `--json` names them all.
    func testAStructureLevelElementOfManyRoomsNamesThreeAndHowManyMore() throws {
        let folder = try Harness.temporaryFolder(self)
        let path = folder.appendingPathComponent("home.json").path
        let building = BuildingGenerator.generate(BuildingSpec(seed: 4, rooms: 8, stories: 1))
        try Data(RoomPlanCodec.encode(.structure(building.structure))).write(to: URL(fileURLWithPath: path))
        let json = try Harness.jsonArray(try Harness.run(["-q", "--json", path, "-c", "ls floors where level = structure"]).stdout)
        let floor = try XCTUnwrap(json.first)
        let rooms = try XCTUnwrap(floor["rooms"] as? [String])
        XCTAssertEqual(rooms.count, building.structure.rooms.count, "--json names every room")
        let table = try Harness.run(["-q", path, "-c", "ls floors where level = structure"])
        XCTAssertEqual(table.status, 0, table.stderr)
        let row = try XCTUnwrap(table.stdout.split(separator: "\n").first { $0.hasPrefix("\(floor["handle"] as! String) ") })
        XCTAssertTrue(row.contains(" (\(rooms[0])+\(rooms[1])+\(rooms[2])+\(rooms.count - 3) more) "), String(row))
    }

    func testABareLengthTooLargeForAnyScanIsExplainedWhenNothingMatches() throws {
        let folder = try Harness.temporaryFolder(self)
        let path = try Harness.generatedRoom(in: folder)
        let none = try Harness.run([path, "-c", "find objects where width > 100"])
        XCTAssertEqual(none.status, 0, none.stderr)
        XCTAssertTrue(none.stderr.contains("note: width > 100 is 100 m: a length without a unit is in metres (100cm or 100mm for those)"),
                      none.stderr)
        let some = try Harness.run([path, "-c", "find objects where width > 100 or width > 50cm"])
        XCTAssertFalse(some.stderr.contains("note: width"), "something matched: \(some.stderr)")
        let small = try Harness.run([path, "-c", "find objects where width > 19"])
        XCTAssertFalse(small.stderr.contains("note: width"), small.stderr)
    }

    /// An empty answer over a field none of the rows has (`open` of objects: only doors and
    /// openings are open or closed), or a story no story can be, says so instead of passing for
    /// "none is" (an adversarial pass).
    func testAnEmptyAnswerOverAFieldNoRowHasIsExplained() throws {
        let folder = try Harness.temporaryFolder(self)
        let path = try Harness.generatedRoom(in: folder)
        let objects = try Harness.run([path, "-c", "find objects where open = yes"])
        XCTAssertEqual(objects.status, 0, objects.stderr)
        XCTAssertTrue(objects.stderr.contains("note: no object here has open: comparing it matches nothing"), objects.stderr)
        let doors = try Harness.run([path, "-c", "find doors where open = yes and open = no"])
        XCTAssertFalse(doors.stderr.contains("here has open"), "doors have it: \(doors.stderr)")
        let story = try Harness.run([path, "-c", "find rooms where story = 1.5"])
        XCTAssertTrue(story.stderr.contains("note: stories are whole numbers: story = 1.5 matches nothing"), story.stderr)
        let below = try Harness.run([path, "-c", "find rooms where story < 1.5"])
        XCTAssertFalse(below.stderr.contains("whole numbers"), below.stderr)
    }

    /// A category or confidence a newer RoomPlan writes, which wb keeps as written, is queried
    /// by its name (a name no open row has is still a typo), and an unknown confidence level has
    /// no place in the order low < medium < high (an adversarial pass: `category = piano` was
    /// refused, and `confidence < high` matched `veryHigh`).
    func testCategoriesAndConfidencesWbDoesNotKnowAreQueriedAsWritten() throws {
        let folder = try Harness.temporaryFolder(self)
        let room = BuildingGenerator.generate(BuildingSpec(seed: 5, rooms: 2, coreModelBytes: 1000)).captures[0].room
        var json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(RoomPlanCodec.encode(.room(room)))) as? [String: Any])
        var objects = try XCTUnwrap(json["objects"] as? [[String: Any]])
        XCTAssertGreaterThanOrEqual(objects.count, 2)
        objects[0]["category"] = ["piano": [String: Any]()]
        objects[1]["confidence"] = ["veryHigh": [String: Any]()]
        // An attribute of a newer RoomPlan: `where ChairColor = red` was an unknown field.
        objects[1]["attributes"] = ["ChairColor": "red"]
        json["objects"] = objects
        let path = folder.appendingPathComponent("room.json").path
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
        let piano = try Harness.run(["-q", "--json", path, "-c", "find objects where category = piano"])
        XCTAssertEqual(piano.status, 0, piano.stderr)
        let found = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(piano.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(found.map { $0["handle"] as? String }, ["o1"])
        let typo = try Harness.run(["-q", path, "-c", "find objects where category = pianoo"])
        XCTAssertEqual(typo.status, 1)
        XCTAssertTrue(typo.stderr.contains("no category is called 'pianoo'"), typo.stderr)
        func handles(_ expression: String) throws -> Set<String> {
            let result = try Harness.run(["-q", "--json", path, "-c", "ls objects where \(expression)"])
            XCTAssertEqual(result.status, 0, result.stderr)
            let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
            return Set(rows.compactMap { $0["handle"] as? String })
        }
        XCTAssertFalse(try handles("confidence < high").contains("o2"))
        XCTAssertFalse(try handles("confidence >= low").contains("o2"))
        XCTAssertTrue(try handles("confidence != high").contains("o2"))
        XCTAssertEqual(try handles("ChairColor = red"), ["o2"])
        XCTAssertEqual(try handles("chaircolor = RED"), ["o2"], "as known attributes are: any case")
        let misspelt = try Harness.run(["-q", path, "-c", "ls objects where ChairColour = red"])
        XCTAssertTrue(misspelt.stderr.contains("unknown field 'ChairColour' (did you mean ChairColor?)"), misspelt.stderr)
    }

    func testFlatListsAndStats() throws {
        let flat = try Harness.sample("flat-4sections.json")
        let sections = try Harness.run(["-q", flat, "-c", "ls sections"])
        XCTAssertEqual(sections.status, 0)
        XCTAssertEqual(sections.stdout.split(separator: "\n").count, 5, "a header and 4 sections")
        XCTAssertEqual(sections.stdout.components(separatedBy: "bedroom").count - 1, 2)
        let objects = try Harness.run(["-q", flat, "-c", "ls objects"])
        XCTAssertTrue(objects.stdout.contains("* section inferred"), "elements of a multi-section capture are placed by inference")
        let stats = try Harness.run(["-q", "--json", flat, "-c", "stats"])
        let report = try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as! [String: Any]
        let room = (report["rooms"] as! [[String: Any]])[0]
        XCTAssertEqual(room["floorArea"] as! Double, 47.74, accuracy: 0.01)
        XCTAssertGreaterThan(room["wallArea"] as! Double, 80)
        // The perimeter is the floor outline's length (it was the walls' total, short of it
        // where walls were scanned only in part).
        guard case .room(let capture) = try RoomPlanCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: flat)))) else {
            return XCTFail("a room")
        }
        let outline = try XCTUnwrap(capture.floors.first?.planPolygon)
        let length = outline.indices.reduce(0.0) { $0 + outline[$1].distance(to: outline[($1 + 1) % outline.count]) }
        XCTAssertEqual(room["perimeter"] as! Double, length, accuracy: 0.01)
        XCTAssertEqual(capture.floors.count, 1)
        XCTAssertEqual(room["categories"] as! [String: Int], ["bed": 2, "table": 4, "storage": 3, "chair": 1, "sink": 1, "toilet": 1, "sofa": 1])
    }

    /// After `merge` the structure nests copies of the open rooms: its rows are listed, but the
    /// totals count each room once (they were twice the home), and say so.
    /// A floor whose corners enclose no area outlines nothing: the room's area and outline come
    /// from its walls, as for a room without a floor (it said 0.00 m², and the room went
    /// unlabelled in an SVG plan), and `check` still names the floor.
    func testAFloorOfNoAreaGivesWayToTheWalls() throws {
        let folder = try Harness.temporaryFolder(self)
        var room = BuildingGenerator.generate(BuildingSpec(seed: 21, rooms: 3)).captures[0].room
        var floorless = room
        floorless.floors = []
        room.floors[0].polygonCorners = [SIMD3<Float>(0, 0, 0), SIMD3<Float>(1, 0, 0), SIMD3<Float>(2, 0, 0), SIMD3<Float>(3, 0, 0)]
        let flat = folder.appendingPathComponent("flat.json").path, bare = folder.appendingPathComponent("bare.json").path
        try Data(RoomPlanCodec.encode(.room(room))).write(to: URL(fileURLWithPath: flat))
        try Data(RoomPlanCodec.encode(.room(floorless))).write(to: URL(fileURLWithPath: bare))
        func area(_ path: String) throws -> Double {
            let stats = try Harness.run(["-q", "--json", path, "-c", "stats"])
            XCTAssertEqual(stats.status, 0, stats.stderr)
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
            return try XCTUnwrap(((object["rooms"] as? [[String: Any]])?.first?["floorArea"] as? NSNumber)?.doubleValue)
        }
        let fromWalls = try area(bare)
        XCTAssertGreaterThan(fromWalls, 5)
        XCTAssertEqual(try area(flat), fromWalls, accuracy: 1e-9)
        let table = try Harness.run(["-q", flat, "-c", "stats"])
        XCTAssertTrue(table.stdout.contains(readableArea(fromWalls) + "*"), "marked as from the walls: \(table.stdout)")
        let check = try Harness.run(["-q", flat, "-c", "check"])
        XCTAssertTrue(check.stdout.contains("encloses no area"), check.stdout)
        XCTAssertEqual(room.planOutlines, floorless.planOutlines)
    }

    private func readableArea(_ value: Double) -> String { String(format: "%.2f", value) }

    func testStatsTotalsCountARoomOpenTwiceOnce() throws {
        let out = try Harness.temporaryFolder(self).appendingPathComponent("home")
        XCTAssertEqual(try Harness.run(["--rooms", "4", "--seed", "5", "--out", out.path], executable: Harness.wbgen).status, 0)
        let rooms = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("rooms").path).sorted()
            .map { out.appendingPathComponent("rooms").appendingPathComponent($0).path }
        func report(_ commands: [String]) throws -> [String: Any] {
            let result = try Harness.run(["-q", "--json"] + rooms + commands.flatMap { ["-c", $0] } + ["-c", "stats"])
            XCTAssertEqual(result.status, 0, result.stderr)
            return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        }
        let alone = try report([]), merged = try report(["merge"])
        XCTAssertEqual((alone["rooms"] as! [Any]).count, 4)
        XCTAssertEqual((merged["rooms"] as! [Any]).count, 8, "the merged structure's nested rooms are listed too")
        let (before, after) = (alone["total"] as! [String: Any], merged["total"] as! [String: Any])
        XCTAssertEqual(after["rooms"] as? Int, 4)
        XCTAssertEqual(after["floorArea"] as! Double, before["floorArea"] as! Double, accuracy: 0.001)
        XCTAssertEqual(after["categories"] as! [String: Int], before["categories"] as! [String: Int])
        let story = (merged["stories"] as! [[String: Any]])[0]
        XCTAssertEqual(story["floorArea"] as! Double, before["floorArea"] as! Double, accuracy: 0.001)
        let text = try Harness.run(["-q"] + rooms + ["-c", "merge", "-c", "stats"])
        XCTAssertTrue(text.stdout.contains("total: 4 rooms,"), text.stdout)
        XCTAssertTrue(text.stdout.contains("(4 rows are rooms open twice, in a file of their own and nested in a structure"), text.stdout)
        // One scan and a copy of it, no structure open: counted once, and not said to be nested.
        let copy = out.appendingPathComponent("copy.json").path
        try FileManager.default.copyItem(atPath: rooms[0], toPath: copy)
        let copied = try Harness.run(["-q", rooms[0], copy, "-c", "stats"])
        XCTAssertTrue(copied.stdout.contains("total: 1 room,"), copied.stdout)
        XCTAssertTrue(copied.stdout.contains("(1 row is a room open twice, the same scan in two files: counted once)"), copied.stdout)
    }

    func testExpressionErrorsAreLocated() throws {
        let room = try Harness.generatedRoom(in: try Harness.temporaryFolder(self))
        let cases: [(String, String)] = [
            ("find objects where widht > 2m", "wb: -c:1:20: error: unknown field 'widht' (did you mean width?)"),
            ("find objects where width > chair", "wb: -c:1:28: error: width is a length; 'chair' is not one (like 2m, 80cm or 3ft)"),
            ("find objects where (category = chair", "wb: -c:1:20: error: a '(' that is never closed"),
            ("find objects where width>2m)", "wb: -c:1:28: error: a ')' without its '('"),
            ("ls chairs", "wb: -c:1:4: error: 'chairs' is not a kind of thing (did you mean chairs?); one of rooms, sections, walls, doors, windows, openings, floors, objects"),
            ("show o999", "wb: -c:1:6: error: there is no o999"),
        ]
        for (command, expected) in cases {
            let result = try Harness.run(["-q", room, "-c", command])
            XCTAssertEqual(result.status, 1, command)
            let first = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
            if command.hasPrefix("ls chairs") {
                XCTAssertTrue(first.hasPrefix("wb: -c:1:4: error: 'chairs' is not a kind of thing"), first)
            } else {
                XCTAssertTrue(first.hasPrefix(expected), "\(command): \(first)")
            }
            XCTAssertEqual(result.stdout, "", "nothing else happens")
        }
    }

    /// `where room = …` takes what a ROOM argument takes (a handle in any case, a name, a
    /// label only one room has), and a value that names nothing open is an error at that
    /// word, not an empty table.
    func testWhereRoomTakesWhatARoomArgumentTakes() throws {
        let folder = try Harness.temporaryFolder(self)
        let building = BuildingGenerator.generate(BuildingSpec(seed: 5, rooms: 4))
        let (paths, _) = try Harness.captures(of: building, in: folder)
        func handles(_ command: String, _ setup: [String] = []) throws -> [String] {
            let result = try Harness.run(["-q", "--json"] + paths + setup.flatMap { ["-c", $0] } + ["-c", command])
            XCTAssertEqual(result.status, 0, "\(command): \(result.stderr)")
            return try Harness.jsonArray(result.stdout).map { $0["handle"] as! String }
        }
        let byHandle = try handles("find objects where room = r2")
        XCTAssertFalse(byHandle.isEmpty, "the second room has objects")
        XCTAssertEqual(try handles("find objects where room = R2"), byHandle, "a handle in capitals")
        XCTAssertEqual(try handles("find objects where room = Galley", ["name r2 Galley"]), byHandle, "a room's name")
        let label = try XCTUnwrap(building.captures[1].room.sections.first?.label)
        let sameLabel = building.captures.filter { $0.room.sections.contains { $0.label == label } }.count
        if sameLabel == 1 {
            XCTAssertEqual(try handles("find objects where room = \(label)"), byHandle, "a label only r2 has")
        }
        XCTAssertEqual(try handles("find objects where room = galley", ["name r2 Galley"]), byHandle, "a name, case ignored")
        XCTAssertEqual(try handles("find objects where room = Gal*", ["name r2 Galley"]), byHandle, "a glob over names")
        XCTAssertEqual(try handles("find objects where room ~ ALLE", ["name r2 Galley"]), byHandle, "a part of a name")
        XCTAssertEqual(try handles("find objects where room = r2*"), byHandle, "a glob over handles")
        XCTAssertEqual(Set(try handles("find objects where room != r2")).intersection(byHandle), [], "!= takes the same words")
        XCTAssertEqual(try handles("find objects where category ~ '' and room = r2"), byHandle, "~ '' contains everything")
        let cases: [(String, String)] = [
            ("find objects where room = r999", "wb: -c:1:27: error: there is no r999 (rooms: r1 to r4)"),
            ("find objects where room = o1", "wb: -c:1:27: error: o1 is an object, not a room"),
            ("find objects where room = nowhere", "wb: -c:1:27: error: nothing open is called 'nowhere'"),
            ("find doors where parent = r1", "wb: -c:1:27: error: r1 is a room, not an element"),
            ("find objects where room ~ zzz", "wb: -c:1:27: error: no open room has 'zzz' in its handle, name or label"),
            ("find objects where section = zz*", "wb: -c:1:30: error: no open section matches 'zz*' by its handle, name or label"),
        ]
        for (command, expected) in cases {
            let result = try Harness.run(["-q"] + paths + ["-c", command])
            XCTAssertEqual(result.status, 1, command)
            XCTAssertTrue(result.stderr.hasPrefix(expected), "\(command): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", "no empty table")
        }
        // Two rooms of one name: which is meant is asked, not guessed (it said "nothing open is
        // called 'Galley' (did you mean Galley?)").
        let twice = try Harness.run(["-q"] + paths + ["-c", "name r3 Galley", "-c", "name r1 Galley", "-c", "find doors where room = Galley"])
        XCTAssertEqual(twice.status, 1)
        XCTAssertTrue(twice.stderr.hasPrefix("wb: -c:3:25: error: 2 things are named Galley (r1, r3); name one by its handle"), twice.stderr)
    }

    func testPlanDrawsRoomsWithHandles() throws {
        let folder = try Harness.temporaryFolder(self)
        let building = BuildingGenerator.generate(BuildingSpec(seed: 5, rooms: 6, stories: 2))
        let path = folder.appendingPathComponent("home.json").path
        try Data(RoomPlanCodec.encode(.structure(building.structure))).write(to: URL(fileURLWithPath: path))
        let unicode = try Harness.run(["-q", path, "-c", "plan"], environment: ["LANG": "C.UTF-8", "LC_ALL": ""])
        XCTAssertEqual(unicode.status, 0, unicode.stderr)
        let lines = unicode.stdout.split(separator: "\n")
        XCTAssertTrue(lines.allSatisfy { $0.count <= 80 }, "fits 80 columns")
        XCTAssertTrue(unicode.stdout.contains("s1 livingRoom"), unicode.stdout)
        XCTAssertTrue(unicode.stdout.contains("┌") && unicode.stdout.contains("─") && unicode.stdout.contains("░"), unicode.stdout)
        XCTAssertTrue(unicode.stdout.contains("story 0 of 0, 1"), unicode.stdout)
        let ascii = try Harness.run(["-q", path, "-c", "plan --story 1"], environment: ["LANG": "C", "LC_ALL": ""])
        XCTAssertTrue(ascii.stdout.allSatisfy(\.isASCII), "ASCII when the locale is not UTF-8")
        XCTAssertTrue(ascii.stdout.contains("+") && ascii.stdout.contains("story 1"), ascii.stdout)
        let missing = try Harness.run(["-q", path, "-c", "plan --story 7"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("no room is on story 7 (stories: 0, 1)"), missing.stderr)
        // A drawing in JSON output would break what reads it: refused, either way --json is given.
        for arguments in [["-q", path, "-c", "plan --json"], ["-q", "--json", path, "-c", "plan"]] {
            let json = try Harness.run(arguments)
            XCTAssertEqual(json.status, 1, "\(arguments)")
            XCTAssertEqual(json.stdout, "", "\(arguments)")
            XCTAssertTrue(json.stderr.contains("plan draws a picture and has no JSON form"), json.stderr)
        }
    }

    /// `plan ROOM --handles` draws only that room and writes its walls', doors', windows' and
    /// openings' handles beside them (what `align ROOM using A to B` needs); a handle there is
    /// no room for is listed under the plan, never dropped.
    func testPlanOfOneRoomWithItsHandles() throws {
        let folder = try Harness.temporaryFolder(self)
        let paths = Array(try Harness.captures(of: BuildingGenerator.generate(BuildingSpec(seed: 12, rooms: 3)), in: folder).paths.prefix(2))
        var handles: [String: [String]] = [:]   // room → its handles
        for kind in ["walls", "doors", "windows", "openings"] {
            let listed = try Harness.run(["-q", "--json"] + paths + ["-c", "ls \(kind)"])
            XCTAssertEqual(listed.status, 0, listed.stderr)
            for row in try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as! [[String: Any]] {
                handles[row["room"] as! String, default: []].append(row["handle"] as! String)
            }
        }
        let mine = try XCTUnwrap(handles["r2"]), theirs = try XCTUnwrap(handles["r1"])
        XCTAssertGreaterThan(mine.count, 5)
        func words(_ text: String) -> Set<String> {
            Set(text.split { $0 == " " || $0 == "," || $0 == "\n" || $0 == "(" || $0 == ")" }.map(String.init))
        }
        let drawn = try Harness.run(["-q"] + paths + ["-c", "plan r2 --handles --width 120"], environment: ["LANG": "C.UTF-8", "LC_ALL": ""])
        XCTAssertEqual(drawn.status, 0, drawn.stderr)
        let picture = drawn.stdout.components(separatedBy: "no room to write")[0]
        XCTAssertTrue(words(picture).isSuperset(of: mine), "every handle of r2 written: \(drawn.stdout)")
        XCTAssertTrue(words(picture).isDisjoint(with: theirs), "nothing of r1: \(drawn.stdout)")
        XCTAssertFalse(drawn.stdout.contains("no room to write"), drawn.stdout)
        // Narrow: what does not fit is listed, so every handle is somewhere.
        let narrow = try Harness.run(["-q"] + paths + ["-c", "plan room-02-kitchen --handles --width 20"], environment: ["LANG": "C.UTF-8", "LC_ALL": ""])
        XCTAssertEqual(narrow.status, 0, narrow.stderr)
        XCTAssertTrue(narrow.stdout.contains("no room to write"), narrow.stdout)
        XCTAssertTrue(words(narrow.stdout).isSuperset(of: mine), narrow.stdout)
        // Without --handles, no element's handle is written.
        let plain = try Harness.run(["-q"] + paths + ["-c", "plan r2"])
        XCTAssertTrue(words(plain.stdout).isDisjoint(with: mine.filter { !$0.hasPrefix("s") }), plain.stdout)
        let unknown = try Harness.run(["-q"] + paths + ["-c", "plan r9"])
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.stderr.contains("r9"), unknown.stderr)
    }

    func testExportCSVAndJSON() throws {
        let folder = try Harness.temporaryFolder(self)
        let room = try Harness.generatedRoom(in: folder)
        let csv = folder.appendingPathComponent("objects.csv").path
        let json = folder.appendingPathComponent("doors.json").path
        let result = try Harness.run(["-q", room, "-c", "export csv \(csv) objects; export json \(json) doors where open = true"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\r\n")
        XCTAssertTrue(lines[0].hasPrefix("handle,kind,identifier,room,section"))
        let listed = try Harness.run(["-q", "--json", room, "-c", "ls objects"])
        XCTAssertEqual(lines.count - 1, (try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as! [Any]).count)
        let doors = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as! [[String: Any]]
        XCTAssertTrue(doors.allSatisfy { $0["open"] as? Bool == true })
    }

    /// A curved wall (a real iOS 26 export has two) says its arc in `show` and gives it whole in
    /// `show --json`: both said nothing of it.
    func testShowSaysACurvedWallsArc() throws {
        let folder = try Harness.temporaryFolder(self)
        let room = try Harness.generatedRoom(in: folder)
        let text = try String(contentsOfFile: room, encoding: .utf8)
        let arc = #"{"center":[0,3.950365],"endAngle":{"unit":{"converter":{"coefficient":1,"constant":0},"symbol":"\u00b0"},"value":272.86420665019693},"#
            + #""radius":3.955306,"startAngle":{"unit":{"converter":{"coefficient":1,"constant":0},"symbol":"\u00b0"},"value":267.13579783672037}}"#
        let walls = try XCTUnwrap(text.range(of: "\"walls\" : ["))
        let range = try XCTUnwrap(text.range(of: "\"curve\" : null", range: walls.upperBound..<text.endIndex))
        let curved = folder.appendingPathComponent("curved.json").path
        try text.replacingCharacters(in: range, with: "\"curve\" : " + arc).write(toFile: curved, atomically: true, encoding: .utf8)
        let shown = try Harness.run(["-q", curved, "-c", "show w1"])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains("curve            an arc of radius 3.955 m from 267.1° to 272.9° about (0.000, 3.950) in the wall's plane")
                      || shown.stdout.split(separator: "\n").contains { $0.hasPrefix("curve ") && $0.hasSuffix("an arc of radius 3.955 m from 267.1° to 272.9° about (0.000, 3.950) in the wall's plane") },
                      shown.stdout)
        let json = try Harness.run(["-q", "--json", curved, "-c", "show w1"])
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((object["curve"] as? [String: Any])?["radius"] as? Double, 3.955306)
        // An arc no scan gives (a negative radius) is shown as the file has it, not as an arc.
        let broken = folder.appendingPathComponent("broken.json").path
        try text.replacingCharacters(in: range, with: #""curve" : {"center":[0,0],"radius":-3,"startAngle":0,"endAngle":7}"#)
            .write(toFile: broken, atomically: true, encoding: .utf8)
        let odd = try Harness.run(["-q", broken, "-c", "show w1"])
        XCTAssertTrue(odd.stdout.contains("not an arc wb can read: {"), odd.stdout)
        XCTAssertFalse(odd.stdout.contains("an arc of radius"), odd.stdout)
        let straight = try Harness.run(["-q", curved, "-c", "show w2"])
        XCTAssertFalse(straight.stdout.contains("\ncurve "), "a straight wall has none: \(straight.stdout)")
    }

    /// A broken number (a wall of 1e38 m) is shown as a power of ten, not 38 digits.
    func testHugeMeasuresAreShownAsPowersOfTen() throws {
        let folder = try Harness.temporaryFolder(self)
        let room = try Harness.generatedRoom(in: folder)
        guard case .room(var capture) = try RoomPlanCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: room)))) else {
            return XCTFail("a room")
        }
        capture.walls[0].dimensions.x = 1e38
        let path = folder.appendingPathComponent("huge.json").path
        try Data(RoomPlanCodec.encode(.room(capture))).write(to: URL(fileURLWithPath: path))
        let result = try Harness.run(["-q", path, "-c", "show w1", "-c", "stats"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("width       1.00e38 m"), result.stdout)
        XCTAssertNil(result.stdout.range(of: "[0-9]{20}", options: .regularExpression), result.stdout)
    }

    func testEditsShowUpInListings() throws {
        let room = try Harness.generatedRoom(in: try Harness.temporaryFolder(self))
        let result = try Harness.run(["-q", "--json", room, "-c", "set o1 confidence low; name r1 Den; find objects where confidence = low and handle = o1; ls rooms"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("\"handle\" : \"o1\""), result.stdout)
        XCTAssertTrue(result.stdout.contains("\"name\" : \"Den\""), result.stdout)
    }
}
