import XCTest
@testable import StructureModel

/// A compact writer with scrambled key order and double-precision floats: the way
/// the older NSJSONSerialization-based encoder and default `JSONEncoder()` wrote files.
private func scrambled(_ value: JSONValue, widenFloats: Bool) -> String {
    switch value {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .number(let n):
        guard widenFloats, !n.text.allSatisfy({ $0.isNumber || $0 == "-" }), let f = Float(n.text) else { return n.text }
        return "\(Double(f))"
    case .string(let s):
        // "/" as "\/", as both encoders write it by default (a file that writes it plain keeps
        // it plain: MessageTests.testSlashesAreWrittenAsTheFileWroteThem).
        return "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "/", with: "\\/") + "\""
    case .array(let a): return "[" + a.map { scrambled($0, widenFloats: widenFloats) }.joined(separator: ",") + "]"
    case .object(let o):
        // Reverse order: certainly not sorted.
        return "{" + o.members.reversed().map { "\"\($0.key)\":" + scrambled($0.value, widenFloats: widenFloats) }
            .joined(separator: ",") + "}"
    }
}

/// The same tree with every float spelled at double precision, as `scrambled` spells it.
private func widened(_ value: JSONValue) -> JSONValue {
    switch value {
    case .number(let n):
        guard !n.text.allSatisfy({ $0.isNumber || $0 == "-" }), let f = Float(n.text) else { return value }
        return .number(JSONNumber(text: "\(Double(f))"))
    case .array(let a): return .array(a.map(widened))
    case .object(let o): return .object(JSONObject(o.members.map { JSONMember($0.key, widened($0.value)) }))
    default: return value
    }
}

private func parse(_ bytes: [UInt8]) throws -> JSONValue {
    try withJSONReader(bytes) { reader in
        let value = try reader.readValue()
        try reader.expectEnd()
        return value
    }
}

final class CodecTests: XCTestCase {
    func testNonCanonicalFilesOpenAndAreWrittenInAppleForm() throws {
        let original = try Samples.roomPlan("livingroom-1section.json")
        let tree = try parse(original)
        for widen in [false, true] {
            let compact = Array(scrambled(tree, widenFloats: widen).utf8)
            XCTAssertNotEqual(compact, original)
            let document = try RoomPlanCodec.decode(compact)
            // The layout becomes Apple's; the numbers keep the digits the file gave them.
            var expected = JSONWriter()
            expected.value(widen ? widened(tree) : tree)
            XCTAssertTrue(RoomPlanCodec.encode(document) == expected.bytes,
                          "a compact, unsorted\(widen ? ", double-precision" : "") copy must come back in Apple's layout")
            XCTAssertEqual(try RoomPlanCodec.decode(RoomPlanCodec.encode(document)), try RoomPlanCodec.decode(original))
        }
    }

    func testGeneratedFilesRoundTrip() throws {
        let building = BuildingGenerator.generate(BuildingSpec(seed: 7, rooms: 9, stories: 2))
        let bytes = RoomPlanCodec.encode(.structure(building.structure))
        let decoded = try RoomPlanCodec.decode(bytes)
        XCTAssertEqual(decoded, .structure(building.structure))
        XCTAssertEqual(RoomPlanCodec.encode(decoded), bytes)
        for capture in building.captures {
            let roomBytes = RoomPlanCodec.encode(.room(capture.room))
            XCTAssertEqual(RoomPlanCodec.encode(try RoomPlanCodec.decode(roomBytes)), roomBytes)
        }
    }

    func testStructureKeepsNestedRoomsAndDetectsKindFromContent() throws {
        let building = BuildingGenerator.generate(BuildingSpec(seed: 3, rooms: 4))
        guard case .structure(let structure) = try RoomPlanCodec.decode(RoomPlanCodec.encode(.structure(building.structure))) else {
            return XCTFail("a file with \"rooms\" is a CapturedStructure")
        }
        XCTAssertEqual(structure.rooms.count, 4)
        XCTAssertEqual(structure.rooms.map { $0.sections.map(\.label) }, building.structure.rooms.map { $0.sections.map(\.label) })
        XCTAssertNotNil(structure.rooms[0].coreModel)
        guard case .room = try RoomPlanCodec.decode(RoomPlanCodec.encode(.room(building.captures[0].room))) else {
            return XCTFail("a file with walls and no rooms is a CapturedRoom")
        }
    }

    func testUnknownKeysCategoriesAndAttributesSurviveInPlace() throws {
        var tree = try parse(Array(RoomPlanCodec.encode(.room(BuildingGenerator.generate(BuildingSpec(seed: 1, rooms: 2)).captures[0].room))))
        guard case .object(var top) = tree, case .array(var walls)? = top["walls"], case .object(var wall) = walls[0],
              case .array(var objects)? = top["objects"], case .object(var object) = objects[0] else {
            return XCTFail("unexpected shape")
        }
        top["aaFutureTopLevel"] = .object(JSONObject([JSONMember("z", .number(JSONNumber(text: "1.50"))),
                                                      JSONMember("a", .string("x/y"))]))
        top["zzTrailing"] = .array([.bool(true), .null])
        wall["dimensionsV2"] = .number(JSONNumber(text: "12345678901234567890"))
        wall["category"] = .object(JSONObject([JSONMember("curtainWall", .object(JSONObject([JSONMember("glass", .bool(true))])))]))
        wall["confidence"] = .object(JSONObject([JSONMember("certain", .object(JSONObject()))]))
        object["category"] = .object(JSONObject([JSONMember("piano", .object(JSONObject()))]))
        object["attributes"] = .object(JSONObject([JSONMember("PianoType", .string("grand")),
                                                   JSONMember("ChairType", .string("throne"))]))
        walls[0] = .object(wall)
        objects[0] = .object(object)
        top["walls"] = .array(walls)
        top["objects"] = .array(objects)
        tree = .object(top)
        var writer = JSONWriter()
        writer.value(tree)
        let edited = writer.bytes

        let document = try RoomPlanCodec.decode(edited)
        XCTAssertEqual(RoomPlanCodec.encode(document), edited, "unknown keys and values must be written back in place")
        guard case .room(let room) = document else { return XCTFail() }
        XCTAssertEqual(room.walls[0].category.name, "curtainWall")
        XCTAssertEqual(room.walls[0].confidence?.name, "certain")
        XCTAssertEqual(room.objects[0].category.name, "piano")
        XCTAssertEqual(room.objects[0].attribute("PianoType"), "grand")
        XCTAssertEqual(room.walls[0].extra["dimensionsV2"], .number(JSONNumber(text: "12345678901234567890")),
                       "an unknown number keeps its exact text")
    }

    func testIOS16FileOpensAndKeepsItsKeySet() throws {
        let room = BuildingGenerator.generate(BuildingSpec(seed: 5, rooms: 1)).captures[0].room
        guard case .object(var top) = try parse(RoomPlanCodec.encode(.room(room))) else { return XCTFail() }
        for key in ["floors", "sections", "story", "version", "coreModel", "referenceOriginTransform"] { top[key] = nil }
        func strip(_ array: String, _ keys: [String]) {
            guard case .array(let elements)? = top[array] else { return }
            top[array] = .array(elements.map { element in
                guard case .object(var object) = element else { return element }
                for key in keys { object[key] = nil }
                return .object(object)
            })
        }
        for array in ["walls", "doors", "windows", "openings"] { strip(array, ["parentIdentifier", "polygonCorners", "story"]) }
        strip("objects", ["attributes", "parentIdentifier", "story"])
        var writer = JSONWriter()
        writer.value(.object(top))
        let ios16 = writer.bytes

        let document = try RoomPlanCodec.decode(ios16)
        guard case .room(let decoded) = document else { return XCTFail() }
        XCTAssertNil(decoded.version)
        XCTAssertTrue(decoded.floors.isEmpty)
        XCTAssertNil(decoded.objects.first?.attributes)
        XCTAssertEqual(RoomPlanCodec.encode(document), ios16, "no key is added to an iOS 16 file")
        XCTAssertGreaterThan(decoded.measurements.floorArea, 5, "without a floor, the area comes from the walls")
        XCTAssertTrue(decoded.measurements.floorAreaFromWalls)
    }

    /// A `coreModel` that is not a string, or a `referenceOriginTransform` that is not 16
    /// numbers (another exporter, another iOS), refused the whole file though wb never reads
    /// `coreModel`. Both are kept exactly, said, and the origin is not used.
    func testPrivateKeysOfAnotherShapeAreKeptNotRefused() throws {
        let room = BuildingGenerator.generate(BuildingSpec(seed: 5, rooms: 1)).captures[0].room
        let shapes: [(JSONValue, JSONValue)] = [
            (.null, .array([.array([]), .null])),
            (.object(JSONObject([JSONMember("blob", .string("x"))])), .array((0..<15).map { _ in .number(JSONNumber(text: "1")) })),
            (.number(JSONNumber(text: "42")), .string("identity")),
        ]
        for (core, origin) in shapes {
            guard case .object(var top) = try parse(RoomPlanCodec.encode(.room(room))) else { return XCTFail() }
            top["coreModel"] = core
            top["referenceOriginTransform"] = origin
            var writer = JSONWriter()
            writer.value(.object(top))
            let bytes = writer.bytes
            let document = try RoomPlanCodec.decode(bytes)
            guard case .room(let decoded) = document else { return XCTFail() }
            XCTAssertNil(decoded.coreModel)
            XCTAssertNil(decoded.referenceOriginTransform, "an origin not read is not used")
            XCTAssertEqual(RoomPlanCodec.encode(document), bytes, "kept exactly, in place")
            let said = RoomPlanDiagnostics.check(document).map(\.description)
            XCTAssertTrue(said.contains("referenceOriginTransform: not 16 numbers: kept as it is, and not used to put the room in its scan session"), "\(said)")
            XCTAssertTrue(said.contains("coreModel: not a string: kept as it is (wb never reads it)"), "\(said)")
            // Moved, it is still written as it was.
            var moved = decoded
            moved.walls[0].transform[12] += 1
            guard case .object(let written) = try parse(RoomPlanCodec.encode(.room(moved))) else { return XCTFail() }
            XCTAssertEqual(written["coreModel"], core)
            XCTAssertEqual(written["referenceOriginTransform"], origin)
        }
    }

    func testFloatsAreWrittenAsJSONEncoderWritesFloat() {
        var writer = JSONWriter()
        writer.floats([1, 0, -0.0, 0.6787059, 5.9843063e-05, 1.0000001, 16777216, 1e10, 0.1])
        let text = String(decoding: writer.bytes, as: UTF8.self).filter { !$0.isWhitespace }
        XCTAssertEqual(text, "[1,0,-0,0.6787059,5.9843063e-05,1.0000001,16777216,1e+10,0.1]")
    }

    func testStringsAreEscapedAsAppleEscapesThem() throws {
        var writer = JSONWriter()
        writer.string("a/b\u{1}é\t\"\\\u{1f}\u{8}\u{c}")
        XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self), #""a\/b\u0001é\t\"\\\u001f\b\f""#)
        XCTAssertEqual(try parse(writer.bytes), .string("a/b\u{1}é\t\"\\\u{1f}\u{8}\u{c}"))
        XCTAssertEqual(try parse(Array(#""\ud83d\ude00 \u00e9""#.utf8)), .string("😀 é"))
    }

    func testEmptyContainersSpanABlankLine() {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("a")
        writer.beginArray()
        writer.endArray()
        writer.key("b")
        writer.beginObject()
        writer.endObject()
        writer.endObject()
        XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self), "{\n  \"a\" : [\n\n  ],\n  \"b\" : {\n\n  }\n}")
    }
}

final class StringScanningTests: XCTestCase {
    /// Strings with escapes and multi-byte characters at every offset round-trip through
    /// the writer and reader, whose fast paths skip eight bytes at a time.
    func testStringsRoundTripAtEveryOffset() throws {
        let specials: [Character] = ["\"", "\\", "/", "\n", "\t", "\u{1}", "\u{1f}", "é", "😀", "a", "\u{7f}"]
        var rng = SplitMix(seed: 99)
        for length in 0..<40 {
            for _ in 0..<20 {
                let text = String((0..<length).map { _ in rng.chance(0.2) ? rng.pick(specials) : Character(UnicodeScalar(UInt8(rng.int(0x30...0x7A)))) })
                var writer = JSONWriter()
                writer.string(text)
                let decoded = try withJSONReader(writer.bytes) { reader in try reader.readString() }
                XCTAssertEqual(decoded, text)
            }
        }
    }
}
