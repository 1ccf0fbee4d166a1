import Foundation
import StructureModel
import XCTest

/// `export usdz|usda`, checked by Pixar's USD (usd-core, installed by
/// Scripts/setup-usd-check.sh): every element a prim whose world bounds match the JSON
/// within 1 mm, holes where doors and windows are, normals out, every UsdValidation
/// validator and the USDZ package rules (base and ARKit) without errors.
final class USDExportTests: XCTestCase {
    static let checker = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Checkers/usd_check.py").path
    static let complianceChecker = (ProcessInfo.processInfo.environment["XDG_CACHE_HOME"]
        ?? NSHomeDirectory() + "/.cache") + "/wb/usd_compliance_checker_25_11.py"

    /// Runs the checker on `file`; skips, saying why, when usd-core is not installed.
    func check(_ file: String, json: [String], extra: [String] = []) throws -> [String: Any] {
        let python = try Harness.run(["python3", "-c", "from pxr import UsdValidation; import numpy"],
                                     executable: URL(fileURLWithPath: "/usr/bin/env"))
        guard python.status == 0 else {
            throw XCTSkip("usd-core (pxr.UsdValidation) or numpy is not installed: run Scripts/setup-usd-check.sh (\(python.stderr.suffix(200)))")
        }
        var arguments = ["python3", Self.checker, file] + json.flatMap { ["--json", $0] } + extra
        if FileManager.default.fileExists(atPath: Self.complianceChecker) {
            arguments += ["--compliance-checker", Self.complianceChecker]
        } else {
            print("USD package rules not checked: \(Self.complianceChecker) is absent (Scripts/setup-usd-check.sh fetches it)")
        }
        let result = try Harness.run(arguments, executable: URL(fileURLWithPath: "/usr/bin/env"))
        XCTAssertEqual(result.status, 0, result.stderr)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stdout + result.stderr)
    }

    /// Everything the checker reports is clean, every element of the JSON was checked.
    func assertClean(_ report: [String: Any], holes: Bool = true, file: StaticString = #filePath, line: UInt = #line) {
        for key in ["boundsErrors", "missing", "duplicates", "normalErrors", "solidErrors", "holeErrors", "validationErrors"] {
            XCTAssertEqual((report[key] as? [String]) ?? ["(absent)"], [], key, file: file, line: line)
        }
        if FileManager.default.fileExists(atPath: Self.complianceChecker) {
            XCTAssertEqual((report["compliance"] as? [String]) ?? ["(absent)"], [], "package rules", file: file, line: line)
            XCTAssertEqual((report["complianceARKit"] as? [String]) ?? ["(absent)"], [], "ARKit package rules", file: file, line: line)
        }
        let expected = report["expectedCounts"] as? [String: Int] ?? [:]
        XCTAssertEqual(report["counts"] as? [String: Int], expected, file: file, line: line)
        XCTAssertGreaterThan(expected["walls"] ?? 0, 0, file: file, line: line)
        XCTAssertEqual(report["boundsChecked"] as? Int, expected.values.reduce(0, +), file: file, line: line)
        XCTAssertGreaterThan(report["normalsChecked"] as? Int ?? 0, 0, file: file, line: line)
        XCTAssertGreaterThan(report["wallsHitChecked"] as? Int ?? 0, 0, file: file, line: line)
        if holes { XCTAssertGreaterThan(report["holesChecked"] as? Int ?? 0, 0, file: file, line: line) }
        XCTAssertGreaterThanOrEqual(report["validators"] as? Int ?? 0, 20, file: file, line: line)
        XCTAssertEqual(report["upAxis"] as? String, "Y", file: file, line: line)
        XCTAssertEqual(report["metersPerUnit"] as? Double, 1, file: file, line: line)
        XCTAssertNotNil(report["defaultPrim"] as? String, file: file, line: line)
    }

    func generate(_ folder: URL, rooms: Int, stories: Int, seed: Int, noise: String = "1") throws -> URL {
        let out = folder.appendingPathComponent("gen-\(seed)")
        let result = try Harness.run(["--rooms", "\(rooms)", "--stories", "\(stories)", "--seed", "\(seed)", "--noise", noise,
                                      "--out", out.path], executable: Harness.wbgen)
        XCTAssertEqual(result.status, 0, result.stderr)
        return out
    }

    func testMergedMultiStoryStructure() throws {
        let folder = try Harness.temporaryFolder(self)
        // Rooms of a two-story home scanned apart, each put where the ground truth says (as a
        // chain of aligns would: rooms of two stories meet through no doorway), then merged.
        let building = BuildingGenerator.generate(BuildingSpec(seed: 8, rooms: 5, stories: 2, noise: 0))
        let (rooms, moves) = try Harness.captures(of: building, in: folder)
        let json = folder.appendingPathComponent("home.json").path
        let usdz = folder.appendingPathComponent("home.usdz").path, usda = folder.appendingPathComponent("home.usda").path
        let flat = folder.appendingPathComponent("flat.usdz").path
        let result = try Harness.run(["-q"] + rooms + ["-c", moves.joined(separator: "; ") + "; merge --into home; export structure \(json); "
                                                       + "export usdz \(usdz); export usda \(usda); export usdz \(flat) --parametric"])
        XCTAssertEqual(result.status, 0, result.stderr)
        for file in [usdz, usda] {
            let report = try check(file, json: [json])
            assertClean(report)
            XCTAssertEqual((report["expectedCounts"] as? [String: Int])?["floors"], 2, "one merged floor per story")
        }
        // Parametric walls are whole boxes: the ray through every door meets its wall.
        assertClean(try check(flat, json: [json], extra: ["--parametric"]))
    }

    func testGeneratedStructureAndPartsOfIt() throws {
        let folder = try Harness.temporaryFolder(self)
        let gen = try generate(folder, rooms: 6, stories: 2, seed: 5)
        let structure = gen.appendingPathComponent("structure.json").path
        let whole = folder.appendingPathComponent("whole.usdz").path, upper = folder.appendingPathComponent("upper.usda").path
        let thin = folder.appendingPathComponent("thin.usdz").path
        let result = try Harness.run(["-q", structure, "-c", "export usdz \(whole); export usda \(upper) --story 1; "
                                      + "export usdz \(thin) --wall-thickness 0"])
        XCTAssertEqual(result.status, 0, result.stderr)
        assertClean(try check(whole, json: [structure]))
        assertClean(try check(thin, json: [structure], extra: ["--wall-thickness", "0"]))
        // Story 1 alone: its prims only, all where they belong.
        let report = try check(upper, json: [structure])
        XCTAssertEqual(report["boundsErrors"] as? [String], [])
        let missing = (report["missing"] as? [String]) ?? []
        let checked = report["boundsChecked"] as? Int ?? 0
        XCTAssertGreaterThan(checked, 0)
        XCTAssertGreaterThan(missing.count, 0, "story 0's elements are not in a story 1 export")
        let text = try String(contentsOfFile: upper, encoding: .utf8)
        XCTAssertTrue(text.contains("def Xform \"Story_1\""))
        XCTAssertFalse(text.contains("def Xform \"Story_0\""))
    }

    func testRoomFileAndStandardOutput() throws {
        let folder = try Harness.temporaryFolder(self)
        let room = try Harness.generatedRoom(in: folder, seed: 33)
        let usdz = folder.appendingPathComponent("room.usdz").path
        let result = try Harness.run(["-q", room, "-c", "export usdz \(usdz); export usda -"])
        XCTAssertEqual(result.status, 0, result.stderr)
        assertClean(try check(usdz, json: [room]))
        let usda = folder.appendingPathComponent("printed.usda").path
        try result.stdout.write(toFile: usda, atomically: true, encoding: .utf8)
        assertClean(try check(usda, json: [room]))
        XCTAssertTrue(result.stdout.hasPrefix("#usda 1.0\n"))
    }

    /// A wall RoomPlan gives as a polygon (a sloped or stepped wall's `polygonCorners`: a real
    /// iOS 26 attic room has five) is drawn by that outline, its door still cut through: it was
    /// drawn as the whole rectangle around it (one 1.21 m tall at one end drawn 2.36 m tall).
    func testAWallGivenAsAPolygonIsDrawnByIt() throws {
        let folder = try Harness.temporaryFolder(self)
        let room = try Harness.generatedRoom(in: folder, seed: 33)
        var json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: room))) as? [String: Any])
        var walls = try XCTUnwrap(json["walls"] as? [[String: Any]])
        let doors = try XCTUnwrap(json["doors"] as? [[String: Any]])
        let host = try XCTUnwrap(walls.firstIndex { wall in doors.contains { $0["parentIdentifier"] as? String == wall["identifier"] as? String } })
        let size = try XCTUnwrap(walls[host]["dimensions"] as? [Double])
        let (w, h) = (size[0] / 2, size[1] / 2)
        // Stepped: its right third stands 0.4 m lower (over the door, wherever it is, 10 cm less).
        let step = h - 0.1
        /// The room with the wall's outline set to `corners`, exported: the room's path, the
        /// USDA's, and what wb said.
        func exported(_ name: String, _ corners: [[Double]]) throws -> (room: String, usda: String, run: Harness.Result) {
            walls[host]["polygonCorners"] = corners
            json["walls"] = walls
            let path = folder.appendingPathComponent("\(name).json").path
            try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
            let usda = folder.appendingPathComponent("\(name).usda").path
            let run = try Harness.run(["-q", path, "-c", "export usda \(usda)"])
            XCTAssertEqual(run.status, 0, run.stderr)
            return (path, usda, run)
        }
        let (stepped, usda, result) = try exported("stepped", [[-w, -h, 0], [w, -h, 0], [w, step, 0], [w / 3, step, 0], [w / 3, h, 0], [-w, h, 0]])
        XCTAssertEqual(result.stderr, "")
        // The wall's mesh, in its own frame: nothing right of a third of it above the step.
        let text = try String(contentsOfFile: usda, encoding: .utf8)
        let handle = "w\(host + 1)"
        let prim = try XCTUnwrap(text.range(of: "_\(handle)\""), "the wall's prim")
        let pointsLine = try XCTUnwrap(text[prim.upperBound...].split(separator: "\n").first { $0.contains("point3f[] points") })
        let numbers = pointsLine.split(whereSeparator: { "()[], =".contains($0) }).compactMap { Double($0) }
        let points = stride(from: 0, to: numbers.count - 2, by: 3).map { (numbers[$0], numbers[$0 + 1]) }
        XCTAssertGreaterThan(points.count, 8)
        XCTAssertTrue(points.contains { $0.1 > h - 1e-3 }, "the left part reaches the top")
        XCTAssertFalse(points.contains { $0.0 > w / 3 + 1e-3 && $0.1 > step + 1e-3 }, "the right part stops at the step")
        assertClean(try check(usda, json: [stepped]))
        // An outline of hundreds of corners (100,000 took 13 s), or one whose edges cross (a bow
        // tie, drawn inside out): the wall's box, said.
        for (name, corners) in [("many", (0..<300).map { k -> [Double] in
                                    let a = Double(k) / 300 * 2 * .pi
                                    return [w * cos(a), h * sin(a), 0] }),
                                ("bowtie", [[-w, -h, 0], [w, h, 0], [w, -h, 0], [-w, h, 0]])] {
            let (odd, out, drawn) = try exported(name, corners)
            XCTAssertTrue(drawn.stderr.contains("\(handle): its outline (polygonCorners: \(corners.count) corners") && drawn.stderr.contains("is drawn as its box"),
                          drawn.stderr)
            assertClean(try check(out, json: [odd]))
        }
    }

    /// An iOS 16 file names no door's wall: each is found in the plane of its wall, and cut.
    func testIOS16RoomWithoutParents() throws {
        let folder = try Harness.temporaryFolder(self)
        let room = try Harness.generatedRoom(in: folder, seed: 35)
        var json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: room))) as? [String: Any])
        for kind in ["walls", "doors", "windows", "openings", "objects"] {
            json[kind] = (json[kind] as? [[String: Any]] ?? []).map { element in
                element.filter { !["parentIdentifier", "story", "polygonCorners", "attributes"].contains($0.key) }
            }
        }
        for key in ["floors", "sections", "story", "version", "coreModel", "referenceOriginTransform"] { json[key] = nil }
        let old = folder.appendingPathComponent("ios16.json").path
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: old))
        let usdz = folder.appendingPathComponent("ios16.usdz").path
        let result = try Harness.run(["-q", old, "-c", "export usdz \(usdz)"])
        XCTAssertEqual(result.status, 0, result.stderr)
        assertClean(try check(usdz, json: [old], extra: ["--parents-from", room]))
    }

    func testRealSamples() throws {
        let folder = try Harness.temporaryFolder(self)
        for name in ["livingroom-1section.json", "flat-4sections.json"] {
            let sample = try Harness.sample(name)
            let usdz = folder.appendingPathComponent(name + ".usdz").path
            let result = try Harness.run(["-q", sample, "-c", "export usdz \(usdz)"])
            XCTAssertEqual(result.status, 0, result.stderr)
            let report = try check(usdz, json: [sample])
            assertClean(report)
            XCTAssertEqual((report["counts"] as? [String: Int])?["doors"], name.hasPrefix("flat") ? 4 : 2)
        }
    }

    func testPackageLayoutAndDeterminism() throws {
        let folder = try Harness.temporaryFolder(self)
        let gen = try generate(folder, rooms: 4, stories: 1, seed: 61)
        let structure = gen.appendingPathComponent("structure.json").path
        let a = folder.appendingPathComponent("a.usdz").path, b = folder.appendingPathComponent("b.usdz").path
        XCTAssertEqual(try Harness.run(["-q", structure, "-c", "export usdz \(a)"]).status, 0)
        XCTAssertEqual(try Harness.run(["-q", structure, "-c", "export usdz \(b)"]).status, 0)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: a)))
        XCTAssertEqual(bytes, try [UInt8](Data(contentsOf: URL(fileURLWithPath: b))), "same input, same bytes")
        let entries = try USDZPackage.entries(of: bytes)
        XCTAssertEqual(entries.first?.name, "structure.usda", "the root layer first")
        for entry in entries {
            XCTAssertEqual(entry.data.lowerBound % 64, 0, "\(entry.name) starts at a multiple of 64")
            XCTAssertEqual(entry.method, 0, "\(entry.name) is stored")
        }
        // The package checker itself fails a package that breaks the rules (compressed).
        guard FileManager.default.fileExists(atPath: Self.complianceChecker) else { return }
        let zipped = folder.appendingPathComponent("zipped.usdz").path
        let rezip = try Harness.run(["python3", "-c", """
            import sys, zipfile
            src = zipfile.ZipFile(sys.argv[1])
            with zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as out:
                for name in src.namelist(): out.writestr(name, src.read(name))
            """, a, zipped], executable: URL(fileURLWithPath: "/usr/bin/env"))
        XCTAssertEqual(rezip.status, 0, rezip.stderr)
        let report = try check(zipped, json: [structure], extra: ["--compliance-only"])
        XCTAssertFalse(((report["compliance"] as? [String]) ?? []).isEmpty, "a compressed package breaks the usdz rules")
    }

    func testAttachedModel() throws {
        let folder = try Harness.temporaryFolder(self)
        let room = try Harness.generatedRoom(in: folder, seed: 33)
        let models = folder.appendingPathComponent("models")
        try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
        let chair = models.appendingPathComponent("chair.usdz").path
        // A model in its own units, off its origin: wb must scale and centre it into the box.
        let make = try Harness.run(["python3", "-c", """
            import sys, os
            from pxr import Usd, UsdGeom, UsdUtils, Gf
            layer = sys.argv[1][:-5] + ".usda"
            stage = Usd.Stage.CreateNew(layer)
            UsdGeom.SetStageUpAxis(stage, "Y"); UsdGeom.SetStageMetersPerUnit(stage, 0.01)
            root = UsdGeom.Xform.Define(stage, "/Chair"); stage.SetDefaultPrim(root.GetPrim())
            mesh = UsdGeom.Mesh.Define(stage, "/Chair/Body")
            pts = [(-20, 0, -15), (30, 0, -15), (30, 0, 25), (-20, 0, 25), (5, 90, 5)]
            mesh.CreatePointsAttr(pts); mesh.CreateExtentAttr([(-20, 0, -15), (30, 90, 25)])
            mesh.CreateFaceVertexCountsAttr([4, 3, 3, 3, 3]); mesh.CreateFaceVertexIndicesAttr([0, 3, 2, 1, 0, 1, 4, 1, 2, 4, 2, 3, 4, 3, 0, 4])
            stage.GetRootLayer().Save()
            assert UsdUtils.CreateNewUsdzPackage(layer, sys.argv[1])
            os.remove(layer)
            """, chair], executable: URL(fileURLWithPath: "/usr/bin/env"))
        guard make.status == 0 else { throw XCTSkip("usd-core cannot make the test model: \(make.stderr.suffix(300))") }

        let attach = try Harness.run(["-q", room, "-c", "set o1 model \(chair); show o1; save"])
        XCTAssertEqual(attach.status, 0, attach.stderr)
        XCTAssertTrue(attach.stdout.contains(chair), attach.stdout)
        let sidecar = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Sidecar.path(for: room))))
                                    as? [String: Any])
        let kept = try XCTUnwrap(sidecar["models"] as? [[String: Any]])
        XCTAssertEqual(kept.map { $0["path"] as? String }, ["models/chair.usdz"], "kept relative to the file's folder")

        let usdz = folder.appendingPathComponent("out.usdz").path, usda = folder.appendingPathComponent("sub/out.usda").path
        try FileManager.default.createDirectory(atPath: folder.appendingPathComponent("sub").path, withIntermediateDirectories: true)
        let reopened = try Harness.run(["-q", "--json", room, "-c", "show o1; export usdz \(usdz); export usda \(usda)"])
        XCTAssertEqual(reopened.status, 0, reopened.stderr)
        XCTAssertTrue(reopened.stdout.contains("\"model\""), reopened.stdout)
        for file in [usdz, usda] {
            let report = try check(file, json: [room])
            assertClean(report)
        }
        let packaged = try USDZPackage.entries(of: [UInt8](Data(contentsOf: URL(fileURLWithPath: usdz))))
        XCTAssertEqual(packaged.map(\.name).filter { $0.hasSuffix(".usdz") }, ["models/chair.usdz"], "the model is packed whole")
        let text = try String(contentsOfFile: usda, encoding: .utf8)
        XCTAssertTrue(text.contains("@../models/chair.usdz@"), "the .usda references the model relative to its folder")

        // An earlier export attached as the model and then written over: packed inside itself,
        // it grew with every export. Now the object is its box, said.
        let looped = try Harness.run(["-q", room, "-c", "set o1 model \(usdz); export usdz \(usdz)"])
        XCTAssertEqual(looped.status, 0, looped.stderr)
        XCTAssertTrue(looped.stderr.contains("its model \(usdz) is the file being written; exported as its box"), looped.stderr)
        XCTAssertEqual(try USDZPackage.entries(of: [UInt8](Data(contentsOf: URL(fileURLWithPath: usdz)))).map(\.name).filter { $0.hasSuffix(".usdz") },
                       [], "nothing packed inside itself")

        // Detached (and undo brings it back, in one session); a missing file falls back to the box.
        let detached = try Harness.run(["-q", room, "-c", "set o1 model none; show o1; undo; show o1"])
        XCTAssertEqual(detached.status, 0, detached.stderr)
        XCTAssertEqual(detached.stdout.components(separatedBy: chair).count - 1, 1, detached.stdout)
        try FileManager.default.removeItem(atPath: chair)
        let fallback = folder.appendingPathComponent("fallback.usdz").path
        let missing = try Harness.run(["-q", room, "-c", "export usdz \(fallback)"])
        XCTAssertEqual(missing.status, 0, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("exported as its box"), missing.stderr)
        assertClean(try check(fallback, json: [room]))
        // Attaching a missing or non-USDZ file is an error at the word.
        let bad = try Harness.run(["-q", room, "-c", "set o1 model \(chair)"])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("cannot read the model"), bad.stderr)
        let notUSDZ = try Harness.run(["-q", room, "-c", "set o1 model \(room)"])
        XCTAssertTrue(notUSDZ.stderr.contains("is not a USDZ model"), notUSDZ.stderr)
        let wall = try Harness.run(["-q", room, "-c", "set w1 model \(room)"])
        XCTAssertTrue(wall.stderr.contains("only objects take a model"), wall.stderr)
    }

    /// A model whose bounds cannot be read is placed unscaled, and the warning says why: a text
    /// root layer with no points in it was said to be binary ("a.usda is binary").
    func testAModelWithoutBoundsSaysWhy() throws {
        let folder = try Harness.temporaryFolder(self)
        let room = try Harness.generatedRoom(in: folder, seed: 34)
        // Packages as usdz requires (stored, each file's data 64-byte aligned), made here.
        let text = folder.appendingPathComponent("t.usdz").path
        let layer = "#usda 1.0\n(\n    defaultPrim = \"Thing\"\n)\n\ndef Xform \"Thing\"\n{\n}\n"
        try Data(try USDZPackage.archive([USDZPackage.Entry(name: "a.usda", data: Array(layer.utf8))])).write(to: URL(fileURLWithPath: text))
        let binary = folder.appendingPathComponent("b.usdz").path
        try Data(try USDZPackage.archive([USDZPackage.Entry(name: "b.usdc", data: Array("PXR-USDC".utf8) + [UInt8](repeating: 0, count: 80))]))
            .write(to: URL(fileURLWithPath: binary))
        for (model, reason) in [(text, "a.usda is a text layer with no mesh points in it"), (binary, "b.usdc is binary (usdc), whose points wb does not read")] {
            let out = folder.appendingPathComponent("out.usda").path
            let result = try Harness.run(["-q", room, "-c", "set o1 model \(model); export usda \(out) --force"])
            XCTAssertEqual(result.status, 0, result.stderr)
            let name = URL(fileURLWithPath: model).lastPathComponent
            XCTAssertTrue(result.stderr.contains("o1: the bounds of \(name) could not be read (\(reason)); placed unscaled"), result.stderr)
        }
    }

    /// A .usda references a model by its path: one whose file name held an `@` was written as
    /// `@a_b.usdz@`, a file that is not there (the model silently missing), and one whose
    /// name held a newline, or whose only root prim had a name no prim path can hold, made
    /// the whole .usda unreadable ("wrote", exit 0). Now an `@` is written in USD's `@@@`
    /// form, and what USD text cannot hold is said, and the object exported as its box.
    func testAModelAtAPathUSDTextCannotHoldIsSaidAndTheLayerStillReads() throws {
        let python = try Harness.run(["python3", "-c", "from pxr import Usd"], executable: URL(fileURLWithPath: "/usr/bin/env"))
        guard python.status == 0 else { throw XCTSkip("usd-core (pxr) is not installed: run Scripts/setup-usd-check.sh") }
        let folder = try Harness.temporaryFolder(self)
        let room = try Harness.generatedRoom(in: folder, seed: 35)
        func model(_ name: String, root: String, defaultPrim: Bool = true) throws -> String {
            let path = folder.appendingPathComponent(name).path
            let metadata = defaultPrim ? "(\n    defaultPrim = \"\(root)\"\n)\n" : ""
            let layer = "#usda 1.0\n\(metadata)\ndef Xform \"\(root)\"\n{\n    def Xform \"Part\"\n    {\n    }\n}\n"
            try Data(try USDZPackage.archive([USDZPackage.Entry(name: "m.usda", data: Array(layer.utf8))])).write(to: URL(fileURLWithPath: path))
            return path
        }
        let at = try model("a@b.usdz", root: "Thing")
        let newline = try model("new\nline.usdz", root: "Thing")
        let oddPrim = try model("odd.usdz", root: "a>b", defaultPrim: false)
        let usda = folder.appendingPathComponent("out.usda").path
        let result = try Harness.run(["-q", "-D", "at=\(at)", "-D", "newline=\(newline)", "-D", "odd=\(oddPrim)", room,
                                      "-c", #"set o1 model "$at"; set o2 model "$newline"; set o3 model "$odd""#,
                                      "-c", "export usda \(usda)"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("o2: its model new\\nline.usdz is at a path USD text cannot hold"), result.stderr)
        XCTAssertTrue(result.stderr.contains("o3: its model odd.usdz has no prim USD text can reference"), result.stderr)
        let read = try Harness.run(["python3", "-c", """
            import sys
            from pxr import Usd
            stage = Usd.Stage.Open(sys.argv[1])
            print(sorted(str(p.GetPath()).split("/")[-3] + ":" + ",".join(c.GetName() for c in p.GetChildren())
                         for p in stage.Traverse() if p.GetName() == "Model"))
            """, usda], executable: URL(fileURLWithPath: "/usr/bin/env"))
        XCTAssertEqual(read.status, 0, "the .usda reads: \(read.stderr.suffix(600))")
        XCTAssertTrue(read.stdout.hasSuffix(":Part']\n") && read.stdout.hasPrefix("['"), "one model, referenced where it lies: \(read.stdout)")
    }

    func testHostileNamesAndBadInput() throws {
        let folder = try Harness.temporaryFolder(self)
        let room = try Harness.generatedRoom(in: folder, seed: 34)
        let usda = folder.appendingPathComponent("odd.usda").path
        let named = try Harness.run(["-q", room, "-c", #"name r1 "Küche \"A\" <b> & 'c' \\ 1""#, "-c", "export usda \(usda)"])
        XCTAssertEqual(named.status, 0, named.stderr)
        assertClean(try check(usda, json: [room]))
        let text = try String(contentsOfFile: usda, encoding: .utf8)
        XCTAssertTrue(text.contains(#"displayName = "Küche \"A\" <b> & 'c' \\ 1""#), "the name kept, escaped")

        // A wall of no height is left out, said, and not counted in what was written.
        let flat = folder.appendingPathComponent("flat-wall.json").path
        guard case .room(var walled) = try RoomPlanCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: room)))) else { return XCTFail() }
        let walls = walled.walls.count
        walled.walls[1].dimensions.y = 0
        try Data(RoomPlanCodec.encode(.room(walled))).write(to: URL(fileURLWithPath: flat))
        let omitted = try Harness.run([flat, "-c", "export usda \(folder.appendingPathComponent("flat.usda").path)"])
        XCTAssertEqual(omitted.status, 0, omitted.stderr)
        XCTAssertTrue(omitted.stderr.contains("w2: a wall with no area (a size of 0); left out"), omitted.stderr)
        XCTAssertTrue(omitted.stderr.contains(" \(walls - 1) walls,"), omitted.stderr)

        let dry = try Harness.run([room, "--dry-run", "-c", "export usdz \(folder.appendingPathComponent("dry.usdz").path)"])
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertTrue(dry.stderr.contains("would write") && dry.stderr.contains("bytes"), dry.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("dry.usdz").path))

        let cases: [(String, String)] = [
            ("export usdz -", "binary format"),
            ("export usdz \(folder.path)/no/such/folder/x.usdz", "x.usdz"),
            ("export usdz \(folder.path)/x.usdz --story 7", "nothing on story 7"),
            ("export usdz \(folder.path)/x.usdz --wall-thickness 5", "--wall-thickness"),
        ]
        for (command, message) in cases {
            let result = try Harness.run(["-q", room, "-c", command])
            XCTAssertEqual(result.status, 1, command)
            XCTAssertTrue(result.stderr.contains(message), "\(command): \(result.stderr)")
        }
        let nothing = try Harness.run(["-q", "-c", "export usdz \(folder.path)/x.usdz"])
        XCTAssertEqual(nothing.status, 1)
        XCTAssertTrue(nothing.stderr.contains("nothing is open"), nothing.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("x.usdz").path))
    }

    /// A story beyond 32 bits opens (`check` says it is out of range); exported, it was an
    /// `int`, and no USD reader took the file (an adversarial pass). It is an `int64` now.
    func testAStoryBeyond32BitsIsWrittenAsInt64() throws {
        let folder = try Harness.temporaryFolder(self)
        var room = BuildingGenerator.generate(BuildingSpec(seed: 31, rooms: 2)).captures[0].room
        room.story = 2_147_483_648
        for index in room.walls.indices { room.walls[index].story = 2_147_483_648 }
        let path = folder.appendingPathComponent("high.json").path, usda = folder.appendingPathComponent("high.usda").path
        try Data(RoomPlanCodec.encode(.room(room))).write(to: URL(fileURLWithPath: path))
        let result = try Harness.run(["-q", path, "-c", "export usda \(usda)"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let text = try String(contentsOfFile: usda, encoding: .utf8)
        XCTAssertTrue(text.contains("int64 story = 2147483648"), text.prefix(3000).description)
        XCTAssertFalse(text.contains("int story = 2147483648"))
    }
}
