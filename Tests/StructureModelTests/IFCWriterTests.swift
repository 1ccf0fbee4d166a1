import Foundation
@testable import StructureModel
import XCTest

/// The IFC writer without the shell: STEP's spelling of strings and numbers, GlobalIds,
/// and what it writes for odd scenes. IfcOpenShell's checks are in the end-to-end tests.
final class IFCWriterTests: XCTestCase {
    func testStringsAreSpelledAsISO10303_21Wants() {
        XCTAssertEqual(STEPFile.encode("Bedroom"), "'Bedroom'")
        XCTAssertEqual(STEPFile.encode("O'Brien"), "'O''Brien'")
        XCTAssertEqual(STEPFile.encode("a\\b"), "'a\\\\b'")
        XCTAssertEqual(STEPFile.encode("Küche"), "'K\\X2\\00FC\\X0\\che'")
        // Consecutive characters share one \X2\ run; a line break is not written raw.
        XCTAssertEqual(STEPFile.encode("中文\n"), "'\\X2\\4E2D6587000A\\X0\\'")
        // Beyond the BMP: \X4\ with eight hex digits.
        XCTAssertEqual(STEPFile.encode("😀"), "'\\X4\\0001F600\\X0\\'")
        // The file is ASCII whatever the names.
        XCTAssertTrue(STEPFile.encode("<&> \"x\" ✓ é 😀").utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F })
    }

    func testRealsAlwaysHaveAPointAndNoFloatNoise() {
        XCTAssertEqual(STEPFile.real(0), "0.")
        XCTAssertEqual(STEPFile.real(-0.0), "0.")
        XCTAssertEqual(STEPFile.real(2), "2.")
        XCTAssertEqual(STEPFile.real(-0.25), "-0.25")
        XCTAssertEqual(STEPFile.real(0.1 + 0.2), "0.3")
        XCTAssertEqual(STEPFile.real(1e-5), "0.00001")
        XCTAssertEqual(STEPFile.real(1.0000004), "1.")
        XCTAssertEqual(STEPFile.real(123.4567891), "123.456789")
        XCTAssertEqual(STEPFile.real(1e30), "1.E+30")
        XCTAssertEqual(STEPFile.real(-2.5e17), "-2.5E+17")
        XCTAssertEqual(STEPFile.real(2.5e15), "2500000000000000.0")
        for value in [0.5, -3.75, 1e-6, 12345.678901, 9.99e11, -7e20] {
            let text = STEPFile.real(value)
            XCTAssertTrue(text.contains("."), text)
            let parsed = Double(text.replacingOccurrences(of: ".E", with: ".0E")) ?? .nan
            XCTAssertEqual(parsed, value, accuracy: max(1e-6, abs(value) * 1e-12), text)
        }
    }

    func testAGlobalIdKeepsTheUUIDsBits() throws {
        // The bits survive: decode the 22 characters again with IFC's alphabet.
        let uuid = "62A0867A-5203-4880-8CBC-1FC91CFA65CB"
        let id = try XCTUnwrap(IFCGlobalId(uuid: uuid))
        XCTAssertEqual(id.high, 0x62A0_867A_5203_4880)
        XCTAssertEqual(id.low, 0x8CBC_1FC9_1CFA_65CB)
        let text = id.description
        XCTAssertEqual(text.count, 22)
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$")
        var high: UInt64 = 0, low: UInt64 = 0
        for character in text {
            let value = UInt64(try XCTUnwrap(alphabet.firstIndex(of: character)))
            // Shift the 128-bit number left by 6 and add the digit.
            high = high << 6 | low >> 58
            low = low << 6 | value
        }
        XCTAssertEqual(high, id.high)
        XCTAssertEqual(low, id.low)
        XCTAssertLessThanOrEqual(alphabet.firstIndex(of: text.first!)!, 3, "the first character carries 2 bits")
        XCTAssertEqual(IFCGlobalId(uuid: uuid.lowercased()), id)
        XCTAssertNil(IFCGlobalId(uuid: "not-a-uuid"))
        XCTAssertNil(IFCGlobalId(uuid: "62A0867A52034880-8CBC-1FC91CFA65CB"))
    }

    func testHashedGlobalIdsAreStableAndDistinct() {
        let a = IFCGlobalId(hashing: "space:r1"), b = IFCGlobalId(hashing: "space:r2")
        XCTAssertEqual(a, IFCGlobalId(hashing: "space:r1"))
        XCTAssertNotEqual(a, b)
        // Marked as a version-8 (custom) UUID of the RFC 4122 variant.
        XCTAssertEqual((a.high >> 12) & 0xF, 8)
        XCTAssertEqual(a.low >> 62, 0b10)
        XCTAssertEqual(IFCGlobalId(identifier: "wb-object-7", kind: "object"), IFCGlobalId(hashing: "object:wb-object-7"))
    }

    func testTheSameSceneGivesTheSameBytes() {
        let scene = Self.scene(of: BuildingGenerator.generate(BuildingSpec(seed: 3, rooms: 2, noise: 0)).captures[0].room)
        let first = IFCWriter.write(scene), second = IFCWriter.write(scene)
        XCTAssertEqual(first.bytes, second.bytes)
        let text = String(decoding: first.bytes, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("ISO-10303-21;\nHEADER;\n"))
        XCTAssertTrue(text.contains("FILE_SCHEMA(('IFC4'));"))
        XCTAssertTrue(text.hasSuffix("ENDSEC;\nEND-ISO-10303-21;\n"))
        // Entities are numbered 1, 2, 3, … in order.
        let numbers = text.split(separator: "\n").filter { $0.hasPrefix("#") }.map { Int($0.dropFirst().prefix { $0 != "=" })! }
        XCTAssertEqual(numbers, Array(1...first.entityCount))
    }

    /// A door whose wall is gone keeps its place and loses its opening; an opening without a
    /// wall is left out; a floor with neither polygon nor size has no shape: each says so.
    func testElementsThatCannotBeWholeAreWrittenWithAWarning() throws {
        var room = BuildingGenerator.generate(BuildingSpec(seed: 8, rooms: 2, noise: 0)).captures[0].room
        let door = try XCTUnwrap(room.doors.first)
        room.walls.removeAll { $0.identifier == door.parentIdentifier }
        room.openings = [Surface(category: .opening, identifier: "B0000000-0000-4000-8000-000000000001",
                                 dimensions: SIMD3(1, 2, 0), transform: Transform.identity)]
        room.floors = [Surface(category: .floor, identifier: "F0000000-0000-4000-8000-000000000001",
                               dimensions: SIMD3(0, 0, 0), transform: Transform.identity)]
        let wall = try XCTUnwrap(room.walls.first)
        room.doors.append(Surface(category: .door(isOpen: false), identifier: "D0000000-0000-4000-8000-000000000001",
                                  dimensions: SIMD3(0, 0, 0), transform: wall.transform, parentIdentifier: wall.identifier))
        let export = IFCWriter.write(Self.scene(of: room))
        let text = String(decoding: export.bytes, as: UTF8.self)
        // IFC wants a door's sizes above 0: a door of no size has none.
        XCTAssertTrue(text.contains("'D0000000-0000-4000-8000-000000000001',$,$,.DOOR.,$,$);"))
        XCTAssertTrue(export.warnings.contains { $0.contains("has no size: written without an opening") }, "\(export.warnings)")
        XCTAssertTrue(export.warnings.contains { $0.contains("lies in no wall: written without an opening") }, "\(export.warnings)")
        XCTAssertTrue(export.warnings.contains { $0.contains("lies in no wall: left out") }, "\(export.warnings)")
        XCTAssertTrue(export.warnings.contains { $0.contains("no polygon and no size") }, "\(export.warnings)")
        XCTAssertEqual(export.products["IfcDoor"], room.doors.count)
        let walls = Set(room.walls.map(\.identifier))
        let hosted = (room.doors + room.windows).filter { ($0.parentIdentifier.map(walls.contains) ?? false) && $0.dimensions.x > 0 }.count
        XCTAssertLessThan(hosted, room.doors.count + room.windows.count)
        XCTAssertEqual(export.products["IfcOpeningElement"], hosted)
        XCTAssertEqual(export.products["IfcSlab"], 1)
    }

    /// A wall that leans is written standing, and says so (it was written upright silently).
    func testALeaningWallIsWrittenUprightWithAWarning() throws {
        var room = BuildingGenerator.generate(BuildingSpec(seed: 8, rooms: 2, noise: 0)).captures[0].room
        XCTAssertEqual(IFCWriter.write(Self.scene(of: room)).warnings.filter { $0.contains("leans") }, [], "scanned walls stand upright")
        // Tip the first wall 15° about its own length (its up column turned towards its normal).
        let angle = 15.0 * .pi / 180
        var t = room.walls[0].transform
        let up = t.column(1), normal = t.column(2)
        let tipped = up * cos(angle) + normal * sin(angle), across = normal * cos(angle) - up * sin(angle)
        for row in 0..<3 {
            t.elements[4 + row] = Float(tipped[row])
            t.elements[8 + row] = Float(across[row])
        }
        room.walls[0].transform = t
        let warnings = IFCWriter.write(Self.scene(of: room)).warnings.filter { $0.contains("leans") }
        XCTAssertEqual(warnings.count, 1, "\(warnings)")
        XCTAssertTrue(warnings.first?.hasSuffix("leans 15° from upright: written upright") == true, "\(warnings)")
    }

    func testObjectCategoriesMapToIFCClasses() {
        XCTAssertEqual(IFCWriter.ifcClass(forObject: "toilet", attributes: nil).entity, "IfcSanitaryTerminal")
        XCTAssertEqual(IFCWriter.ifcClass(forObject: "toilet", attributes: nil).predefinedType, "TOILETPAN")
        XCTAssertEqual(IFCWriter.ifcClass(forObject: "storage", attributes: JSONObject([JSONMember("StorageType", .string("shelf"))])).predefinedType, "SHELF")
        XCTAssertEqual(IFCWriter.ifcClass(forObject: "storage", attributes: nil).predefinedType, "USERDEFINED")
        XCTAssertEqual(IFCWriter.ifcClass(forObject: "hammock", attributes: nil).entity, "IfcFurnishingElement")
        XCTAssertNil(IFCWriter.ifcClass(forObject: "hammock", attributes: nil).predefinedType)
    }

    /// A one-room scene as the shell would build it.
    static func scene(of room: CapturedRoom) -> ExportScene {
        var elements: [ExportScene.Element] = []
        for (kind, surfaces) in [(ElementKind.wall, room.walls), (.door, room.doors), (.window, room.windows),
                                 (.opening, room.openings), (.floor, room.floors)] {
            elements += surfaces.enumerated().map { ExportScene.Element(kind: kind, handle: "\(kind.handlePrefix)\($0 + 1)", body: .surface($1), room: 0) }
        }
        elements += room.objects.enumerated().map { ExportScene.Element(kind: .object, handle: "o\($0 + 1)", body: .object($1), room: 0) }
        let entry = ExportScene.Room(handle: "r1", name: nil, labels: room.sections.map(\.label), identifier: nil, story: 0,
                                     floorHeight: room.floorHeight ?? 0, floorArea: room.measurements.floorArea,
                                     outlines: room.planOutlines, sections: [])
        return ExportScene(title: "room", isStructure: false,
                           stories: [ExportScene.Story(number: 0, elevation: room.floorHeight ?? 0, rooms: [entry], elements: elements)])
    }
}
