import XCTest
@testable import StructureModel

final class QueryTests: XCTestCase {
    private func workspace(_ name: String) throws -> Workspace {
        let bytes = try Samples.roomPlan(name)
        var workspace = Workspace()
        workspace.add(path: name, document: try RoomPlanCodec.decode(bytes), stamp: nil, diagnostics: [])
        return workspace
    }

    private func find(_ workspace: Workspace, _ kind: ElementKind, _ expression: String) throws -> [Row] {
        let query = try Query.compile(expression.split(separator: " ").map { QueryWord(String($0)) })
        return workspace.rows(kind).filter(query.matches)
    }

    func testLivingRoomCheckValues() throws {
        let workspace = try workspace("livingroom-1section.json")
        let chairs = try find(workspace, .object, "category = chair")
        XCTAssertEqual(chairs.count, 1)
        XCTAssertEqual(chairs[0].attributes?["ChairType"], .string("swivel"))
        XCTAssertEqual(chairs[0].confidence, .low)
        let parent = try XCTUnwrap(chairs[0].parentHandle)
        XCTAssertEqual(workspace.row(for: workspace.handles.identity(for: parent)!)?.category, "table")
        XCTAssertEqual(workspace.rows(.wall).count, 4)
        XCTAssertEqual(workspace.rows(.room)[0].area ?? 0, 15.37, accuracy: 0.01)
        XCTAssertFalse(chairs[0].sectionInferred, "one section: nothing to infer")
    }

    func testFlatCheckValues() throws {
        let workspace = try workspace("flat-4sections.json")
        var counts: [String: Int] = [:]
        for row in workspace.rows(.object) { counts[row.category!, default: 0] += 1 }
        XCTAssertEqual(counts, ["bed": 2, "table": 4, "storage": 3, "chair": 1, "sink": 1, "toilet": 1, "sofa": 1])
        XCTAssertEqual(workspace.rows(.section).map(\.label), ["bedroom", "bedroom", "bathroom", "unidentified"])
        let toilet = try find(workspace, .object, "category = toilet")[0]
        XCTAssertTrue(toilet.sectionInferred)
        XCTAssertEqual(toilet.label, "bathroom", "the toilet's nearest section is the bathroom")
    }

    func testOperatorsUnitsAndLogic() throws {
        let building = BuildingGenerator.generate(BuildingSpec(seed: 12, rooms: 8))
        var workspace = Workspace()
        workspace.add(path: "b.json", document: .structure(building.structure), stamp: nil, diagnostics: [])
        let objects = workspace.rows(.object)
        func count(_ expression: String) throws -> Int { try find(workspace, .object, expression).count }
        XCTAssertEqual(try count("width > 150cm"), objects.filter { ($0.dimensions?.x ?? 0) > 1.5 }.count)
        XCTAssertEqual(try count("width > 1.5m"), try count("width > 150cm"))
        XCTAssertEqual(try count("width <= 4.92ft"), objects.filter { Double($0.dimensions!.x) <= 4.92 * 0.3048 }.count)
        XCTAssertEqual(try count("confidence < high"), objects.filter { $0.confidence!.rank < 3 }.count)
        XCTAssertEqual(try count("not confidence = high"), try count("confidence < high"))
        XCTAssertEqual(try count("category = chair or category = table"),
                       objects.filter { ["chair", "table"].contains($0.category!) }.count)
        XCTAssertEqual(try count("category = CHAIR"), try count("category = chair"), "text ignores case")
        XCTAssertEqual(try count("category = s*"), objects.filter { $0.category!.hasPrefix("s") }.count, "glob")
        XCTAssertEqual(try count("category ~ ove"), objects.filter { $0.category!.contains("ove") }.count, "contains")
        XCTAssertEqual(try count("(category = chair) and ChairType = dining"),
                       objects.filter { $0.category == "chair" && $0.attributes?["ChairType"] == .string("dining") }.count)
        XCTAssertEqual(try count("width>1m"), try count("width > 1m"), "operators need no blanks")
        let doors = try find(workspace, .door, "open = true")
        XCTAssertTrue(doors.allSatisfy { $0.isOpen == true })
        // What is shown is what matches: a height the file writes as 0.45 is 0.449999988 as
        // RoomPlan's 32-bit number, and failed `height = 0.45m` (passing `height < 0.45m`).
        var exact = Workspace()
        var room = building.captures[0].room
        room.objects[0].dimensions.y = 0.45
        exact.add(path: "r.json", document: .room(room), stamp: nil, diagnostics: [])
        let first = room.objects[0].identifier
        func has(_ expression: String) throws -> Bool { try find(exact, .object, expression).contains { $0.identifier == first } }
        XCTAssertTrue(try has("height = 0.45m"))
        XCTAssertTrue(try has("height >= 45cm"))
        XCTAssertTrue(try has("height <= 0.45m"))
        XCTAssertFalse(try has("height < 0.45m"))
        XCTAssertFalse(try has("height > 0.45m"))
        XCTAssertFalse(try has("height != 0.45m"))
        XCTAssertFalse(try has("height = 0.4501m"), "a tenth of a millimetre is still a difference")
    }

    /// A thing without the field equals no value and is unlike every one: `=` and `!=` split
    /// the rows between them, and `not` of one is the other. `ChairType != swivel` gave 0 of
    /// 13 objects where `not ChairType = swivel` gave 12 (an adversarial pass).
    func testEqualsAndNotEqualsSplitTheRowsWhateverHasTheField() throws {
        var workspace = Workspace()
        let building = BuildingGenerator.generate(BuildingSpec(seed: 12, rooms: 5))
        workspace.add(path: "home.json", document: .structure(building.structure), stamp: nil, diagnostics: [])
        let objects = workspace.rows(.object)
        let chair = try XCTUnwrap(objects.first { $0.category == "chair" })
        guard case .string(let arms)? = chair.attributes?["ChairArmType"] else { return XCTFail("a chair with arms said") }
        let parented = try XCTUnwrap(objects.first { $0.parentHandle != nil })
        for (field, value) in [("ChairArmType", arms), ("parent", parented.parentHandle!), ("category", "chair")] {
            let equal = try find(workspace, .object, "\(field) = \(value)").count
            let unequal = try find(workspace, .object, "\(field) != \(value)").count
            XCTAssertGreaterThan(equal, 0, field)
            XCTAssertEqual(equal + unequal, objects.count, field)
            XCTAssertEqual(try find(workspace, .object, "not ( \(field) != \(value) )").count, equal, field)
            XCTAssertEqual(try find(workspace, .object, "not \(field) = \(value)").count, unequal, field)
        }
    }

    func testErrorsPointAtTheWrongPart() {
        func error(_ expression: String) -> QueryError? {
            do {
                _ = try Query.compile(expression.split(separator: " ").map { QueryWord(String($0)) })
                XCTFail("expected an error for \(expression)")
                return nil
            } catch {
                return error
            }
        }
        XCTAssertEqual(error("widht > 2m"), QueryError(message: "unknown field 'widht' (did you mean width?)", word: 0, offset: 0))
        XCTAssertEqual(error("width > chair")?.message, "width is a length; 'chair' is not one (like 2m, 80cm or 3ft)")
        XCTAssertEqual(error("width > chair")?.word, 2)
        XCTAssertEqual(error("( category = chair")?.message, "a '(' that is never closed")
        XCTAssertEqual(error("category = chair )")?.message, "a ')' without its '('")
        XCTAssertEqual(error("category = chair )")?.word, 3)
        XCTAssertEqual(error("confidence = sure")?.message, "confidence is low, medium or high, not 'sure'")
        XCTAssertEqual(error("category < chair")?.message, "category is text: compare it with =, != or ~ (contains), not <")
        XCTAssertEqual(error("category = chiar")?.message, "no category is called 'chiar' (did you mean chair?)")
        XCTAssertEqual(error("ChairTyp = swivel")?.message, "unknown field 'ChairTyp' (did you mean ChairType?)")
        XCTAssertEqual(error("category =")?.message, "category = needs a value")
        XCTAssertEqual(error("width >= 2m and")?.message, "the expression ends where a comparison should be, like category = chair")
        XCTAssertEqual(error("width => 2m")?.message, "'=>' is not an operator (use = != < <= > >= or ~)")
    }
}
