@testable import StructureModel
import XCTest

final class USDWriterTests: XCTestCase {
    /// A 4 m wall with a 1 m door on its floor: 3 columns × 2 rows of cells, the door's one
    /// of them; 5 cells on each face, 9 edges of the outline and 3 of the door's reveal.
    func testWallWithDoorCells() {
        let door = WallHole(x0: -0.5, x1: 0.5, y0: -1.25, y1: 0.75)
        let mesh = USDMesh.wall(width: 4, height: 2.5, thickness: 0.1, holes: [door])
        XCTAssertEqual(mesh.counts.count, 5 + 5 + 9 + 3)
        XCTAssertEqual(mesh.normals.count, mesh.counts.count)
        let (low, high) = mesh.extent
        XCTAssertEqual(low, SIMD3(-2, -1.25, -0.05))
        XCTAssertEqual(high, SIMD3(2, 1.25, 0.05))
        // No face covers the door's middle.
        var covered = false
        var start = 0
        for count in mesh.counts {
            let ring = mesh.points[start..<(start + count)]
            start += count
            let xs = ring.map(\.x), ys = ring.map(\.y)
            if xs.min()! < 0 && xs.max()! > 0 && ys.min()! < 0 && ys.max()! > 0 { covered = true }
        }
        XCTAssertFalse(covered)
        // Without thickness: the 5 cells of one face.
        XCTAssertEqual(USDMesh.wall(width: 4, height: 2.5, thickness: 0, holes: [door]).counts.count, 5)
    }

    func testLShapedFloorTriangulates() {
        let l: [SIMD3<Double>] = [SIMD3(0, 0, 0), SIMD3(4, 0, 0), SIMD3(4, 2, 0), SIMD3(2, 2, 0), SIMD3(2, 4, 0), SIMD3(0, 4, 0)]
        let mesh = USDMesh.polygon(l, facing: 1)
        XCTAssertEqual(mesh.counts, [3, 3, 3, 3])
        var area = 0.0
        for t in 0..<4 {
            let a = mesh.points[t * 3], b = mesh.points[t * 3 + 1], c = mesh.points[t * 3 + 2]
            let z = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
            XCTAssertGreaterThan(z, 0, "every triangle faces +Z")
            area += z / 2
        }
        XCTAssertEqual(area, 12, accuracy: 1e-9)
    }

    func testIdentifiersAndNumbers() {
        XCTAssertEqual(USDName.identifier("Guest bedroom"), "Guest_bedroom")
        XCTAssertEqual(USDName.identifier("2nd floor"), "_2nd_floor")
        XCTAssertEqual(USDName.identifier("Küche \"A\" <b>"), "K_che_A_b")
        XCTAssertEqual(USDName.identifier(""), "_")
        var siblings = USDName.Siblings()
        XCTAssertEqual([siblings.unique("Wall"), siblings.unique("Wall"), siblings.unique("Wall")], ["Wall", "Wall_2", "Wall_3"])
        var text = USDText(capacity: 64)
        for v in [0, -0.0, 2.3925, -1.5, 0.0000004, 1e20, 12.0000015] {
            text.number(v)
            text.raw(" ")
        }
        XCTAssertEqual(String(decoding: text.bytes, as: UTF8.self), "0 0 2.3925 -1.5 0 1e+20 12.000002 ")
    }

    func testPackageAlignment() throws {
        let entries = (1...5).map { USDZPackage.Entry(name: String(repeating: "n", count: $0 * 7) + ".usda", data: Array(repeating: UInt8($0), count: $0 * 13)) }
        let bytes = try USDZPackage.archive(entries)
        let read = try USDZPackage.entries(of: bytes)
        XCTAssertEqual(read.map(\.name), entries.map(\.name))
        for (entry, original) in zip(read, entries) {
            XCTAssertEqual(entry.data.lowerBound % 64, 0)
            XCTAssertEqual(Array(bytes[entry.data]), original.data)
        }
    }
}
