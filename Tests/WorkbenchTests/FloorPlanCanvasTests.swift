import XCTest
@testable import Workbench

/// Labels in the terminal plan: on empty cells, never flush against a wall's run.
final class FloorPlanCanvasTests: XCTestCase {
    /// A hallway's name written in the gap between two runs of its diagonal walls read as part
    /// of the wall (`░░────s3 unidentified ─────`: an adversarial pass). A label needs an empty
    /// cell at each end; where its whole text has none, its handle goes alone.
    func testALabelKeepsACellFromTheWalls() {
        var canvas = FloorPlanCanvas(width: 40, height: 1, unicode: true)
        canvas.line(from: (0, 0), to: (9, 0))
        canvas.line(from: (26, 0), to: (39, 0))
        canvas.label("s3 unidentified", at: 17, 0)
        let row = canvas.text.split(separator: "\n").first.map(String.init) ?? ""
        XCTAssertFalse(row.contains("s3 unidentified"), row)
        XCTAssertTrue(row.contains(" s3 "), row)
        // With room on both sides, the whole label.
        var open = FloorPlanCanvas(width: 40, height: 1, unicode: true)
        open.line(from: (0, 0), to: (5, 0))
        open.label("s3 unidentified", at: 22, 0)
        XCTAssertTrue(open.text.contains(" s3 unidentified"), open.text)
    }
}
