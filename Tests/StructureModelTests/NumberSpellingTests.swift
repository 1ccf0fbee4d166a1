import XCTest
@testable import StructureModel

/// Files whose numbers are not spelled the way shortest round-trip printing spells them
/// (real exports exist with `4.5781748` for the float printed `4.5781746`) come back byte
/// for byte when saved unedited, and an edit changes only the numbers it edits.
final class NumberSpellingTests: XCTestCase {
    private func structureText(seed: UInt64 = 5, rooms: Int = 4) -> String {
        let building = BuildingGenerator.generate(BuildingSpec(seed: seed, rooms: rooms, stories: 2))
        return String(decoding: RoomPlanCodec.encode(.structure(building.structure)), as: UTF8.self)
    }

    private func lines(_ bytes: [UInt8]) -> [Substring] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// The 0-based numbers of the lines that differ; both texts must have as many lines.
    private func changedLines(_ a: [UInt8], _ b: [UInt8]) -> [Int] {
        let (x, y) = (lines(a), lines(b))
        XCTAssertEqual(x.count, y.count, "the same number of lines")
        return zip(x, y).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
    }

    func testTheIssuesDigitsAreTheSameFloats() {
        // The premise: these are other digits for the same value, not other values.
        XCTAssertEqual(Float("4.5781748")!.bitPattern, Float("4.5781746")!.bitPattern)
        XCTAssertEqual(Float("-2.2890874")!.bitPattern, Float("-2.2890873")!.bitPattern)
    }

    func testNoOpSaveKeepsOtherDigitsForTheSameFloats() throws {
        var text = structureText()
        // The issue's own spellings, in a transform, next to shortest ones.
        let target = "\"transform\" : [\n"
        let at = text.range(of: target)!.upperBound
        let lineEnd = text[at...].firstIndex(of: ",")!
        text.replaceSubrange(at..<lineEnd, with: "        4.5781748")
        let issue = Array(text.utf8)
        XCTAssertEqual(RoomPlanCodec.encode(try RoomPlanCodec.decode(issue)), issue)

        for every in [1, 3, 7] {
            let odd = Array(Respelling.sameValues(in: text, every: every, seed: every).utf8)
            XCTAssertNotEqual(odd, issue)
            let document = try RoomPlanCodec.decode(odd)
            XCTAssertEqual(document, try RoomPlanCodec.decode(issue), "the same values, spelled otherwise")
            let saved = RoomPlanCodec.encode(document)
            XCTAssertTrue(saved == odd, "a no-op save changed \(changedLines(saved, odd).count) lines (every \(every))")
        }
    }

    func testExponentsTrailingZerosNegativeZeroAndWholeNumbersKeepTheirSpelling() throws {
        let room = BuildingGenerator.generate(BuildingSpec(seed: 2, rooms: 1)).captures[0].room
        var text = String(decoding: RoomPlanCodec.encode(.room(room)), as: UTF8.self)
        let spellings = ["1e-3", "1E+2", "-0", "-0.0", "1.50", "0.30000001192092896", "2.5000E0", "-1.17549435E-38",
                         "123456789012345678901234567890", "1e-50", "0." + String(repeating: "9", count: 200)]
        text = text.replacingOccurrences(of: "\"version\" : 2", with: "\"version\" : 2.0")
            .replacingOccurrences(of: "\"story\" : 0,", with: "\"story\" : 0e0,")
        var next = 0
        text = Respelling.numbers(in: text) { number, index in
            guard index % 5 == 1, number != "2.0", number != "0e0" else { return number }
            defer { next += 1 }
            return spellings[next % spellings.count]
        }
        let bytes = Array(text.utf8)
        let document = try RoomPlanCodec.decode(bytes)
        XCTAssertTrue(RoomPlanCodec.encode(document) == bytes, "changed lines: \(changedLines(RoomPlanCodec.encode(document), bytes))")
        guard case .room(let read) = document else { return XCTFail("a room") }
        XCTAssertEqual(read.version, 2)
    }

    func testFilesInTheWritersSpellingKeepNothingExtra() throws {
        // The common case costs one empty word per element: nothing is kept.
        var documents = [try RoomPlanCodec.decode(Array(structureText().utf8))]
        for name in ["livingroom-1section.json", "flat-4sections.json"] {
            if let bytes = try? Samples.roomPlan(name) { documents.append(try RoomPlanCodec.decode(bytes)) }
        }
        for document in documents {
            let rooms: [CapturedRoom]
            switch document {
            case .room(let room): rooms = [room]
            case .structure(let structure): rooms = structure.rooms + [structure.merged]
            }
            for room in rooms {
                XCTAssertTrue(room.numberSpellings.isEmpty)
                XCTAssertTrue((room.walls + room.doors + room.windows + room.openings + room.floors).allSatisfy(\.numberSpellings.isEmpty))
                XCTAssertTrue(room.objects.allSatisfy(\.numberSpellings.isEmpty))
                XCTAssertTrue(room.sections.allSatisfy(\.numberSpellings.isEmpty))
            }
        }
    }

    func testAnEditedNumberIsWrittenCanonicallyAndNothingElseChanges() throws {
        let odd = Array(Respelling.sameValues(in: structureText()).utf8)
        guard case .structure(var structure) = try RoomPlanCodec.decode(odd) else { return XCTFail("a structure") }
        XCTAssertFalse(structure.rooms[1].walls[0].numberSpellings.isEmpty, "the test needs odd spellings")
        structure.rooms[1].walls[0].transform.elements[12] += 0.25
        let saved = RoomPlanCodec.encode(.structure(structure))
        let changed = changedLines(saved, odd)
        XCTAssertEqual(changed.count, 1, "only the edited number's line")
        let line = lines(saved)[changed[0]].trimmingCharacters(in: .whitespaces).dropLast()
        XCTAssertEqual(String(line), "\(structure.rooms[1].walls[0].transform.elements[12])".replacingOccurrences(of: ".0", with: ""),
                       "an edited number is written in the canonical form")
    }

    func testMovingOneRoomRewritesOnlyThatRoomAndUndoGivesTheOriginalBytes() throws {
        let odd = Array(Respelling.sameValues(in: structureText()).utf8)
        var workspace = Workspace()
        workspace.add(path: "/tmp/odd.json", document: try RoomPlanCodec.decode(odd), stamp: nil, diagnostics: [])
        let roomIndex = 2
        let moved = workspace.files[0].rooms[roomIndex]
        var step = workspace.perform(try workspace.planMove(room: moved, by: RigidMotion(yaw: 0.3, translation: SIMD3(1, 0, 2))).changes)
        let saved = RoomPlanCodec.encode(workspace.files[0].document)
        let changed = changedLines(saved, odd)
        XCTAssertFalse(changed.isEmpty)
        // In Apple's layout the nested rooms are the lines "    {" ... "    }" inside "rooms".
        let all = lines(saved)
        let roomsStart = all.firstIndex(of: "  \"rooms\" : [")!
        let roomsEnd = all[roomsStart...].firstIndex { $0 == "  ]," || $0 == "  ]" }!
        let roomStarts = (roomsStart..<roomsEnd).filter { all[$0] == "    {" }
        let elsewhere = changed.filter { line in
            line > roomsStart && line < roomsEnd && roomStarts.lastIndex { $0 < line } != roomIndex
        }
        XCTAssertEqual(elsewhere.count, 0, "lines of other rooms changed, the first: \(elsewhere.first.map { String(all[$0]) } ?? "")")
        workspace.revert(&step, forward: false)
        XCTAssertTrue(RoomPlanCodec.encode(workspace.files[0].document) == odd, "undo to the start saves the original bytes")
    }

    func testAWholeNumberKeepsItsSpellingOnlyWhileItHasItsValue() throws {
        let text = String(decoding: RoomPlanCodec.encode(.room(BuildingGenerator.generate(BuildingSpec(seed: 2, rooms: 1)).captures[0].room)),
                          as: UTF8.self).replacingOccurrences(of: "\"version\" : 2", with: "\"version\" : 20E-1")
        guard case .room(var room) = try RoomPlanCodec.decode(Array(text.utf8)) else { return XCTFail("a room") }
        XCTAssertTrue(String(decoding: RoomPlanCodec.encode(.room(room)), as: UTF8.self).contains("\"version\" : 20E-1"))
        // The same low 32 bits, another value: written as digits.
        room.version = 2 + (1 << 32)
        XCTAssertTrue(String(decoding: RoomPlanCodec.encode(.room(room)), as: UTF8.self).contains("\"version\" : 4294967298"))
        room.version = 3
        XCTAssertTrue(String(decoding: RoomPlanCodec.encode(.room(room)), as: UTF8.self).contains("\"version\" : 3"))
    }

    func testSpellingsDoNotMakeElementsUnequal() throws {
        let text = structureText()
        let plain = try RoomPlanCodec.decode(Array(text.utf8))
        let odd = try RoomPlanCodec.decode(Array(Respelling.sameValues(in: text).utf8))
        XCTAssertEqual(plain, odd)
        XCTAssertEqual(plain.hashValue, odd.hashValue)
    }
}
