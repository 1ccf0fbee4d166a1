import Foundation
import StructureModel
import XCTest

/// `export svg` from the shell, each plan checked by `Tests/Checkers/svg_check.py` against
/// the JSON it came from: SVG 1.1 structure, one drawn element per wall, door (with its
/// arc), window and opening, a label per room with its floor area, and the picture as
/// librsvg and Chromium render it (the two alike, walls dark, rooms floor-coloured).
final class SVGExportTests: XCTestCase {
    static let checker = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Checkers/svg_check.py").path

    struct Check {
        var errors: [String]
        var stats: [String: Any]
        var int: (String) -> Int
    }

    /// Runs the checker on `svg` against `source`; skips, saying why, without its renderers.
    func check(_ svg: String, against source: String, objects: Bool = false) throws -> Check {
        for tool in ["rsvg-convert", "chromium-headless-shell"] {
            let found = try Harness.run(["-c", "command -v \(tool) || test -x /usr/lib/chromium/\(tool)"],
                                        executable: URL(fileURLWithPath: "/bin/sh"))
            if found.status != 0 { throw XCTSkip("\(tool) is not installed (Scripts/setup-svg-check.sh installs it)") }
        }
        let result = try Harness.run(["python3", Self.checker, svg, source] + (objects ? ["--objects"] : []),
                                     executable: URL(fileURLWithPath: "/usr/bin/env"))
        if result.stderr.contains("No module named 'PIL'") { throw XCTSkip("Pillow is not installed (Scripts/setup-svg-check.sh installs it)") }
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stdout + result.stderr)
        let stats = object["stats"] as? [String: Any] ?? [:]
        return Check(errors: object["errors"] as? [String] ?? ["no error list"], stats: stats, int: { stats[$0] as? Int ?? 0 })
    }

    func testAGeneratedTwoStoryStructureGivesOneCheckedPlanPerStory() throws {
        let folder = try Harness.temporaryFolder(self)
        let generated = try Harness.run(["--rooms", "7", "--stories", "2", "--seed", "31", "--noise", "0", "--out", folder.path],
                                        executable: Harness.wbgen)
        XCTAssertEqual(generated.status, 0, generated.stderr)
        let structure = folder.appendingPathComponent("structure.json").path
        let plan = folder.appendingPathComponent("plan.svg").path
        let result = try Harness.run([structure, "-c", "export svg \(plan)"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: plan), "several stories: one file each, none at PATH itself")
        for story in 0...1 {
            let page = folder.appendingPathComponent("plan-story\(story).svg").path
            XCTAssertTrue(result.stderr.contains("wrote \(page) ("), result.stderr)
            let check = try check(page, against: structure)
            XCTAssertEqual(check.errors, [], page)
            XCTAssertEqual(check.stats["stories"] as? [Int], [story])
            XCTAssertGreaterThan(check.int("walls"), 8)
            XCTAssertEqual(check.int("wallsSampled"), check.int("walls"), "every wall has a stretch free of doors to sample")
            XCTAssertGreaterThan(check.int("roomsSampled"), 0)
        }
        XCTAssertTrue(result.stderr.contains("north: the plan's up direction is taken as 0°"), result.stderr)
    }

    func testRoomsPlacedAndMergedInWbOnOnePageWithObjectsAndDimensions() throws {
        let folder = try Harness.temporaryFolder(self)
        let building = BuildingGenerator.generate(BuildingSpec(seed: 12, rooms: 5, stories: 2))
        let (paths, placing) = try Harness.captures(of: building, in: folder)
        var commands = placing
        let merged = folder.appendingPathComponent("home.json").path, plan = folder.appendingPathComponent("home.svg").path
        commands += ["merge --into home", "export structure \(merged)", "export svg \(plan) --one-page --objects --dimensions"]
        let result = try Harness.run(["-q"] + paths + ["-c", commands.joined(separator: "; ")])
        XCTAssertEqual(result.status, 0, result.stderr)
        let check = try check(plan, against: merged, objects: true)
        XCTAssertEqual(check.errors, [])
        XCTAssertEqual(check.stats["stories"] as? [Int], [0, 1])
        XCTAssertEqual(check.int("labels"), building.captures.count)
        let text = try String(contentsOfFile: plan, encoding: .utf8)
        XCTAssertEqual(text.components(separatedBy: "class=\"dimension\"").count - 1, check.int("walls"), "a dimension per wall")
    }

    func testASingleGeneratedRoom() throws {
        let folder = try Harness.temporaryFolder(self)
        let room = try Harness.generatedRoom(in: folder, seed: 44)
        let plan = folder.appendingPathComponent("room.svg").path
        let result = try Harness.run(["-q", room, "-c", "export svg \(plan) --objects"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "", "-q: nothing said")
        let check = try check(plan, against: room, objects: true)
        XCTAssertEqual(check.errors, [])
        XCTAssertEqual(check.int("labels"), 1)
        XCTAssertEqual(check.int("roomsSampled"), 1)
    }

    /// A label no plan can show (a file's section label of 100 MB took 50 s and went into the
    /// plan twice, whole): cut at 200 characters.
    /// A broken file with 3,000 walls ending at one point: joining wall ends listed every pair
    /// of ends (10,000 such walls took 5 GB and 18 s, 20,000 would have taken the machine's
    /// memory); under a 1 GB address-space limit export svg of 3,000 died (SIGABRT). Each
    /// end now keeps its best few partners.
    func testThousandsOfWallsEndingAtOnePointNeedNoMemoryForEachPair() throws {
        let folder = try Harness.temporaryFolder(self)
        let room = try Harness.generatedRoom(in: folder, seed: 36)
        guard case .room(var stacked) = try RoomPlanCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: room)))) else { return XCTFail() }
        let wall = stacked.walls[0]
        stacked.walls = (1...3000).map { index in
            var copy = wall
            copy.identifier = String(format: "00000000-0000-4000-8000-%012d", index)
            return copy
        }
        stacked.doors = []
        stacked.windows = []
        stacked.openings = []
        let path = folder.appendingPathComponent("stacked.json").path
        try Data(RoomPlanCodec.encode(.room(stacked))).write(to: URL(fileURLWithPath: path))
        let svg = folder.appendingPathComponent("stacked.svg").path
        let result = try Harness.run(["-c", "ulimit -v 1000000 && exec \"$0\" -q \"$1\" -c \"export svg $2\"", Harness.wb.path, path, svg],
                                     executable: URL(fileURLWithPath: "/bin/sh"))
        XCTAssertEqual(result.status, 0, String(result.stderr.prefix(400)))
        XCTAssertTrue(FileManager.default.fileExists(atPath: svg))
    }

    func testAHugeLabelIsCut() throws {
        let folder = try Harness.temporaryFolder(self)
        let room = try Harness.generatedRoom(in: folder, seed: 44)
        var json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: room))) as? [String: Any])
        var sections = try XCTUnwrap(json["sections"] as? [[String: Any]])
        sections[0]["label"] = String(repeating: "Ω", count: 100_000)
        json["sections"] = sections
        let long = folder.appendingPathComponent("long.json").path
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: long))
        let result = try Harness.run(["-q", long, "-c", "export svg -"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains(String(repeating: "Ω", count: 200) + "…"))
        XCTAssertFalse(result.stdout.contains(String(repeating: "Ω", count: 201)))
        XCTAssertLessThan(result.stdout.utf8.count, 20_000)
    }

    /// An L whose centroid lies outside it, turned 30°: the label goes inside the L.
    func testAnLShapedRoomIsLabelledInside() throws {
        let folder = try Harness.temporaryFolder(self)
        let corners = [PlanPoint(x: 0, z: 0), PlanPoint(x: 6, z: 0), PlanPoint(x: 6, z: 1.5), PlanPoint(x: 1.5, z: 1.5),
                       PlanPoint(x: 1.5, z: 6), PlanPoint(x: 0, z: 6)]
        let turn = RigidMotion(yawDegrees: 30, translation: SIMD3(2, 0, -1))
        let outline = corners.map { PlanPoint(turn.apply(toPoint: SIMD3($0.x, 0, $0.z))) }
        let centroid = try XCTUnwrap(outline.centroid)
        XCTAssertFalse(outline.encloses(centroid), "the test needs an L whose centroid is outside it")
        let path = folder.appendingPathComponent("ell.json").path
        try Data(RoomPlanCodec.encode(.room(lShapedRoom(outline)))).write(to: URL(fileURLWithPath: path))
        let plan = folder.appendingPathComponent("ell.svg").path
        let result = try Harness.run(["-q", path, "-c", "name r1 \"L room\"", "-c", "export svg \(plan)"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let check = try check(plan, against: path)
        XCTAssertEqual(check.errors, [], "the checker also requires the label inside the room")
        XCTAssertEqual(check.int("walls"), 6)
        XCTAssertEqual(check.int("doors"), 1)
        XCTAssertTrue(try String(contentsOfFile: plan, encoding: .utf8).contains(">L room</text>"))
    }

    func testTheRealSamples() throws {
        let folder = try Harness.temporaryFolder(self)
        for (name, walls, doors) in [("livingroom-1section.json", 4, 2), ("flat-4sections.json", 20, 4)] {
            let sample = try Harness.sample(name)
            let plan = folder.appendingPathComponent(name + ".svg").path
            let result = try Harness.run(["-q", sample, "-c", "export svg \(plan) --objects --dimensions"])
            XCTAssertEqual(result.status, 0, result.stderr)
            let check = try check(plan, against: sample, objects: true)
            XCTAssertEqual(check.errors, [], name)
            XCTAssertEqual(check.int("walls"), walls, name)
            XCTAssertEqual(check.int("doors"), doors, name)
            XCTAssertEqual(check.int("wallsSampled"), walls, name)
        }
    }

    func testStandardOutputDryRunNorthNamesAndSameBytesTwice() throws {
        let folder = try Harness.temporaryFolder(self)
        let generated = try Harness.run(["--rooms", "4", "--stories", "2", "--seed", "8", "--out", folder.path], executable: Harness.wbgen)
        XCTAssertEqual(generated.status, 0, generated.stderr)
        let structure = folder.appendingPathComponent("structure.json").path

        // Several stories do not print as one SVG unless asked to.
        let refused = try Harness.run(["-q", structure, "-c", "export svg -"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("2 stories make 2 files"), refused.stderr)
        XCTAssertTrue(refused.stdout.isEmpty)
        let printed = try Harness.run(["-q", structure, "-c", "export svg - --one-page --north 30"])
        XCTAssertEqual(printed.status, 0, printed.stderr)
        XCTAssertTrue(printed.stdout.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\""))
        XCTAssertTrue(printed.stdout.contains("<g transform=\"rotate(-30.000 "), "the arrow turned 30° anticlockwise")
        XCTAssertTrue(printed.stdout.contains("up = 30° (--north)"))
        XCTAssertEqual(printed.stdout.components(separatedBy: "<g class=\"story\"").count - 1, 2)
        let again = try Harness.run(["-q", structure, "-c", "export svg - --one-page --north 30"])
        XCTAssertEqual(again.stdout, printed.stdout, "the same input gives the same bytes")

        // --dry-run writes nothing and says what it would have written.
        let plan = folder.appendingPathComponent("plan.svg").path
        let dry = try Harness.run(["--dry-run", structure, "-c", "export svg \(plan)"])
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertTrue(dry.stderr.contains("would write \(folder.appendingPathComponent("plan-story1.svg").path) ("), dry.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("plan-story0.svg").path))

        // A story that does not exist, a bad bearing: located errors, nothing written.
        let missing = try Harness.run(["-q", structure, "-c", "export svg \(plan) --story 7"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("there is nothing on story 7 (stories: 0, 1)"), missing.stderr)
        let bearing = try Harness.run(["-q", structure, "-c", "export svg \(plan) --north 400"])
        XCTAssertEqual(bearing.status, 1)
        XCTAssertTrue(bearing.stderr.contains("-c:1:"), bearing.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: plan))

        // Names with markup characters and other scripts come out as the same text.
        let hostile = "Tom's <\"best\"> & ünïcode 日本 \u{1}"
        let page = folder.appendingPathComponent("names.svg").path
        let named = try Harness.run(["-q", structure, "-c", "name r1 '\(hostile.replacingOccurrences(of: "'", with: "'\\''"))'",
                                     "-c", "export svg \(page) --story 0"])
        XCTAssertEqual(named.status, 0, named.stderr)
        let check = try check(page, against: structure)
        XCTAssertEqual(check.errors, [])
        let names = check.stats["names"] as? [String] ?? []
        XCTAssertTrue(names.contains("Tom's <\"best\"> & ünïcode 日本 \u{FFFD}"), "read back by an XML parser: \(names)")
    }

    private func lShapedRoom(_ outline: [PlanPoint]) -> CapturedRoom {
        var room = CapturedRoom()
        room.version = 2
        room.story = 0
        func wall(_ a: PlanPoint, _ b: PlanPoint, _ index: Int) -> Surface {
            let d = (b - a).normalized, middle = (a + b) * 0.5
            return Surface(category: .wall, identifier: String(format: "00000000-0000-4000-8000-%012d", index),
                           dimensions: SIMD3(Float(a.distance(to: b)), 2.5, 0), transform: transform(d, middle, y: 1.25))
        }
        func transform(_ d: PlanPoint, _ centre: PlanPoint, y: Double) -> Transform {
            Transform(elements: SIMD16<Float>(Float(d.x), 0, Float(d.z), 0, 0, 1, 0, 0, Float(-d.z), 0, Float(d.x), 0,
                                              Float(centre.x), Float(y), Float(centre.z), 1))
        }
        for i in outline.indices { room.walls.append(wall(outline[i], outline[(i + 1) % outline.count], i + 1)) }
        // A door in the long leg's far wall, a window in the other leg.
        let doorWall = room.walls[1], windowWall = room.walls[4]
        room.doors = [Surface(category: .door(isOpen: true), identifier: "00000000-0000-4000-8000-000000000101",
                              dimensions: SIMD3(0.8, 2.0, 0),
                              transform: transform(doorWall.planSegment.direction.normalized, doorWall.planSegment.midpoint, y: 1.0),
                              parentIdentifier: doorWall.identifier)]
        room.windows = [Surface(category: .window, identifier: "00000000-0000-4000-8000-000000000102",
                                dimensions: SIMD3(1.0, 1.2, 0), transform: windowWall.transform, parentIdentifier: windowWall.identifier)]
        let centre = PlanBounds(containing: outline)!.centre
        let local = outline.map { SIMD3<Float>(Float($0.x - centre.x), Float(centre.z - $0.z), 0) }
        room.floors = [Surface(category: .floor, identifier: "00000000-0000-4000-8000-000000000103",
                               dimensions: SIMD3(6, 6, 0),
                               transform: Transform(elements: SIMD16<Float>(1, 0, 0, 0, 0, 0, -1, 0, 0, 1, 0, 0,
                                                                            Float(centre.x), 0, Float(centre.z), 1)),
                               polygonCorners: local)]
        room.sections = [Section(label: "livingRoom", center: SIMD3(Float(outline[0].x), 1, Float(outline[0].z)))]
        return room
    }
}
