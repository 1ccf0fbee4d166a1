import StructureModel
import XCTest

/// The geometry of an exported plan: walls mitred at any angle, run into the walls they
/// stop at, cut where doors sit; door leaves swinging into their room; labels inside
/// concave rooms; text made safe for XML.
final class PlanDrawingTests: XCTestCase {
    private var nextIdentifier = 0

    private func surface(_ category: SurfaceCategory, from a: PlanPoint, to b: PlanPoint, depth: Float = 0,
                         parent: String? = nil) -> Surface {
        nextIdentifier += 1
        let d = (b - a).normalized, middle = (a + b) * 0.5
        return Surface(category: category, identifier: "ID-\(nextIdentifier)", dimensions: SIMD3(Float(a.distance(to: b)), 2.4, depth),
                       transform: Transform(elements: SIMD16<Float>(Float(d.x), 0, Float(d.z), 0, 0, 1, 0, 0, Float(-d.z), 0, Float(d.x), 0,
                                                                   Float(middle.x), 1.2, Float(middle.z), 1)),
                       parentIdentifier: parent)
    }

    private func story(_ surfaces: [(ElementKind, Surface)], rooms: [ExportScene.Room] = [], room: Int? = nil) -> ExportScene.Story {
        ExportScene.Story(number: 0, elevation: 0, rooms: rooms,
                          elements: surfaces.enumerated().map { index, entry in
                              ExportScene.Element(kind: entry.0, handle: "\(entry.0.handlePrefix)\(index + 1)", body: .surface(entry.1), room: room)
                          })
    }

    private func assertClose(_ a: PlanPoint, _ b: PlanPoint, _ tolerance: Double = 0.001, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertLessThanOrEqual(a.distance(to: b), tolerance, "\(a) is not \(b)", file: file, line: line)
    }

    func testWallsMeetingAt60DegreesShareOneMitre() {
        let corner = PlanPoint(x: 4, z: 0), far = PlanPoint(x: 4 + 3 * cos(Double.pi / 3), z: 3 * sin(Double.pi / 3))
        let drawing = PlanDrawing(story: story([(.wall, surface(.wall, from: PlanPoint(x: 0, z: 0), to: corner, depth: 0.2)),
                                                (.wall, surface(.wall, from: PlanPoint(x: 4.03, z: 0.02), to: far, depth: 0.2))]))
        let first = drawing.walls[0].pieces[0], second = drawing.walls[1].pieces[0]
        // The first wall's end edge is the second's start edge: one outline, no notch, no overlap.
        XCTAssertEqual(Set([first[1], first[2]].map { "\($0)" }), Set([second[0], second[3]].map { "\($0)" }))
        // Both mitre points lie on the bisector, 0.1 / sin(60°) from where the centre lines meet.
        let meet = PlanPoint(x: 4.03 - 0.02 / tan(Double.pi / 3), z: 0)  // where the two centre lines cross
        for point in [first[1], first[2]] {
            XCTAssertEqual(point.distance(to: meet), 0.1 / sin(Double.pi / 3), accuracy: 0.001)
        }
    }

    func testAWallStoppingShortOfAnotherRunsIntoIt() {
        let drawing = PlanDrawing(story: story([(.wall, surface(.wall, from: PlanPoint(x: 0, z: 0), to: PlanPoint(x: 6, z: 0), depth: 0.2)),
                                                (.wall, surface(.wall, from: PlanPoint(x: 3, z: 0.05), to: PlanPoint(x: 3, z: 3), depth: 0.1))]))
        let through = drawing.walls[0].pieces, stem = drawing.walls[1].pieces[0]
        XCTAssertEqual(through.count, 1)
        assertClose(through[0][0], PlanPoint(x: 0, z: 0.1))
        // The stem's end runs on to the middle of the other wall's band.
        assertClose(stem[0], PlanPoint(x: 2.95, z: 0))
        assertClose(stem[3], PlanPoint(x: 3.05, z: 0))
    }

    func testADoorCutsItsWallAndSwingsIntoItsRoom() {
        let wall = surface(.wall, from: PlanPoint(x: 0, z: 0), to: PlanPoint(x: 5, z: 0))
        let door = surface(.door(isOpen: true), from: PlanPoint(x: 1.55, z: 0), to: PlanPoint(x: 2.45, z: 0), parent: wall.identifier)
        let window = surface(.window, from: PlanPoint(x: 3.5, z: 0.02), to: PlanPoint(x: 4.5, z: 0.02))
        let outline = [PlanPoint(x: 0, z: 0), PlanPoint(x: 5, z: 0), PlanPoint(x: 5, z: 4), PlanPoint(x: 0, z: 4)]
        let room = ExportScene.Room(handle: "r1", name: nil, labels: ["bedroom"], identifier: nil, story: 0, floorHeight: 0,
                                    floorArea: 20, outlines: [outline], sections: [])
        let drawing = PlanDrawing(story: story([(.wall, wall), (.door, door), (.window, window)], rooms: [room], room: 0))
        let pieces = drawing.walls[0].pieces
        XCTAssertEqual(pieces.count, 3, "cut at the door and at the window (found without a parent)")
        // The default 12 cm, outside the room (the room is at z > 0; the scan saw the face).
        XCTAssertEqual(drawing.walls[0].thickness, 0.12, accuracy: 1e-9)
        XCTAssertEqual(pieces[0].map(\.z).min()!, -0.12, accuracy: 1e-9)
        XCTAssertEqual(pieces[0].map(\.z).max()!, 0, accuracy: 1e-9)
        XCTAssertEqual(pieces[1].map(\.x).min()! - pieces[0].map(\.x).max()!, 0.9, accuracy: 0.001, "the doorway is the door's width")
        let leaf = drawing.doors[0]
        assertClose(leaf.hinge, PlanPoint(x: 1.55, z: 0), 1e-6)  // the end nearer the wall's end
        assertClose(leaf.leafEnd, PlanPoint(x: 1.55, z: 0.9), 1e-6)  // into the room
        assertClose(leaf.closedEnd, PlanPoint(x: 2.45, z: 0), 1e-6)
        XCTAssertEqual(drawing.windows[0].glass.count, 2)
        XCTAssertEqual(drawing.windows[0].hostWall, "w1")
    }

    func testTheLabelOfAnLShapedRoomIsInsideIt() throws {
        let ell = [PlanPoint(x: 0, z: 0), PlanPoint(x: 6, z: 0), PlanPoint(x: 6, z: 1.5), PlanPoint(x: 1.5, z: 1.5),
                   PlanPoint(x: 1.5, z: 6), PlanPoint(x: 0, z: 6)]
        XCTAssertFalse(ell.encloses(try XCTUnwrap(ell.centroid)))
        let room = ExportScene.Room(handle: "r1", name: nil, labels: [], identifier: nil, story: 0, floorHeight: 0, floorArea: polygonArea(ell),
                                    outlines: [ell], sections: [])
        let drawing = PlanDrawing(story: ExportScene.Story(number: 0, elevation: 0, rooms: [room]))
        let spot = try XCTUnwrap(drawing.rooms[0].labelPoint)
        XCTAssertTrue(ell.encloses(spot))
        XCTAssertGreaterThan(drawing.rooms[0].clearance, 0.6, "in the middle of a 1.5 m wide leg")
    }

    func testTextIsEscapedForXML() {
        XCTAssertEqual(SVGPlan.xmlEscaped("a<b>&\"c\"'d'\u{7}\nü"), "a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;\u{FFFD} ü")
        XCTAssertEqual(SVGPlan.displayLabel("livingRoom"), "Living room")
        XCTAssertEqual(SVGPlan.areaText(15.37), "15.4 m²")
    }
}
