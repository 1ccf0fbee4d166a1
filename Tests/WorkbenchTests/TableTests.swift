import XCTest
@testable import Workbench

/// Tables fitted to a width, and the display widths they are measured in.
final class TableTests: XCTestCase {
    func testDisplayWidths() {
        XCTAssertEqual(displayWidth("w×h×d m²"), 8)
        XCTAssertEqual(displayWidth("Küche"), 5, "a precomposed accent")
        XCTAssertEqual(displayWidth("Ku\u{308}che"), 5, "a combining mark takes no column")
        XCTAssertEqual(displayWidth("客厅"), 4, "CJK takes two")
        XCTAssertEqual(displayWidth("🛋️"), 2, "an emoji with its variation selector")
        XCTAssertEqual(displayWidth("👩‍👩‍👧"), 2, "a family of joined emoji is one")
        XCTAssertEqual(displayWidth("한국"), 4)
        XCTAssertEqual(truncated("客厅和餐厅", to: 6), "客厅…", "a wide character never straddles the cut")
        XCTAssertEqual(truncated("abcdef", to: 4), "abc…")
    }

    private let table = Table(["object", "category", "attributes"], [
        ["o1", "table", "TableShapeType=rectangular TableType=coffee"],
        ["o2", "chair", "ChairType=dining"],
        ["o10", "客厅", ""],
    ], flexible: [2])

    func testWholeWithoutAWidthAndWhenItFits() {
        let whole = table.render(width: nil)
        XCTAssertFalse(whole.cut)
        XCTAssertEqual(whole.text, """
            object  category  attributes
            o1      table     TableShapeType=rectangular TableType=coffee
            o2      chair     ChairType=dining
            o10     客厅

            """)
        XCTAssertEqual(table.render(width: 200).text, whole.text)
    }

    func testFreeTextIsCutWidestFirstAndTheHandleNever() {
        let fitted = table.render(width: 40)
        XCTAssertTrue(fitted.cut)
        XCTAssertFalse(fitted.expanded)
        let lines = fitted.text.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines[1], "o1      table     TableShapeType=rectan…")
        XCTAssertEqual(lines[2], "o2      chair     ChairType=dining")
        XCTAssertTrue(lines.allSatisfy { displayWidth($0) <= 40 })

        // Two free columns: the wider is cut first, down to the other.
        let two = Table(["h", "name", "label"], [["r1", String(repeating: "n", count: 30), String(repeating: "l", count: 10)]],
                        flexible: [1, 2])
        XCTAssertEqual(two.render(width: 30).text.split(separator: "\n")[1], "r1  " + String(repeating: "n", count: 13) + "…  "
                       + String(repeating: "l", count: 10))
        // A handle column is never cut, even when marked free.
        let handles = Table(["handle", "x"], [[String(repeating: "h", count: 30), "y"]], flexible: [0])
        XCTAssertTrue(handles.render(width: 20).expanded)
    }

    func testRowsExpandWhenNothingCanFit() {
        let narrow = table.render(width: 20)
        XCTAssertTrue(narrow.expanded)
        XCTAssertEqual(narrow.text.split(separator: "\n").prefix(4).map(String.init),
                       ["-[ RECORD 1 ]-------", "object     o1", "category   table", "attributes TableSha…"])
        XCTAssertTrue(narrow.text.split(separator: "\n").allSatisfy { displayWidth(String($0)) <= 20 })
    }

    /// A column empty in every row gives its width to the others when the table is too wide
    /// (and is said), rather than keeping it while they are cut; a table that fits, or has
    /// no width, keeps it. One field per line shows it too.
    func testAnEmptyColumnGivesWayBeforeCellsAreCut() {
        let rooms = Table(["room", "file", "labels", "name", "area"],
                          [["r1", "flat-4sections", "bedroom,bedroom,bathroom", "", "47.74"],
                           ["r2", "flat-4sections", "kitchen", "", "12.00"]], numeric: [4], flexible: [1, 2, 3])
        let fitted = rooms.render(width: 56)
        XCTAssertEqual(fitted.omitted, ["name"])
        XCTAssertFalse(fitted.cut, fitted.text)
        XCTAssertEqual(fitted.text.split(separator: "\n").map(String.init), [
            "room  file            labels                     area",
            "r1    flat-4sections  bedroom,bedroom,bathroom  47.74",
            "r2    flat-4sections  kitchen                   12.00"])
        XCTAssertEqual(rooms.render(width: nil).text.split(separator: "\n").first, "room  file            labels                    name   area")
        XCTAssertEqual(rooms.render(width: 80).omitted, [], "it fits: nothing left out")
        XCTAssertTrue(rooms.render(width: 20).text.contains("\nname\n"), "one field per line has every column")
    }

    /// Cells are cut where they keep meaning: after a word or a comma that keeps at least
    /// half of what fits; and a column with a shorter form takes it before it is cut.
    func testCellsCutAtWordsAndTakeTheirShorterFormFirst() {
        XCTAssertEqual(truncated("bedroom,bedroom,bathroom", to: 12, atWords: true), "bedroom,…")
        XCTAssertEqual(truncated("swivel Arm=existing", to: 12, atWords: true), "swivel…")
        XCTAssertEqual(truncated("TableShapeType=rectangular", to: 12, atWords: true), "TableShapeT…", "no break keeps half: by character")
        XCTAssertEqual(truncated("a bcdefghijklmnop", to: 12, atWords: true), "a bcdefghij…", "a break keeping too little is not taken")
        let objects = Table(["object", "category", "attributes"],
                            [["o1", "chair", "ChairArmType=existing ChairBackType=existing ChairLegType=star ChairType=swivel"],
                             ["o2", "bed", ""]],
                            flexible: [2], shorter: [2: ["swivel Arm=existing Back=existing Leg=star", ""]])
        XCTAssertEqual(objects.render(width: 40).text.split(separator: "\n")[1], "o1      chair     swivel Arm=existing…")
        XCTAssertTrue(objects.render(width: 40).cut)
        XCTAssertEqual(objects.render(width: 60).text.split(separator: "\n")[1], "o1      chair     swivel Arm=existing Back=existing Leg=star")
        XCTAssertTrue(objects.render(width: nil).text.contains("ChairArmType=existing"), "whole without a width")
    }

    /// Headers wider than their values give way before rows go one field per line: every real
    /// file's `ls objects` was records on an 80-column terminal.
    func testLongHeadersShortenBeforeRowsExpand() {
        let objects = Table(["object", "room", "section", "story", "category", "confidence", "w×h×d m", "attributes", "parent"],
                            [["o1", "r1", "s1", "0", "sofa", "low", "1.90×0.98×0.79", "SofaType=rectangular", ""],
                             ["o5", "r1", "s1", "0", "chair", "medium", "0.68×0.77×0.71", "ChairArmType=existing ChairType=swivel", "o2"]],
                            numeric: [3], flexible: [7])
        let fitted = objects.render(width: 80)
        XCTAssertFalse(fitted.expanded, fitted.text)
        XCTAssertEqual(fitted.text.split(separator: "\n").first.map(String.init),
                       "object  room  sect  story  category  conf    w×h×d m         attributes   parent")
        XCTAssertTrue(fitted.text.split(separator: "\n").allSatisfy { displayWidth(String($0)) <= 80 }, fitted.text)
        // Too narrow even so: one field per line, under the full names.
        let records = objects.render(width: 40)
        XCTAssertTrue(records.expanded)
        XCTAssertTrue(records.text.contains("\nconfidence low\n") && records.text.contains("\nsection    s1\n"), records.text)
        // Wide enough for the full headers: they stay.
        XCTAssertTrue(objects.render(width: 200).text.hasPrefix("object  room  section  story  category  confidence"))
    }

    func testColourDoesNotChangeTheWidths() {
        let plain = table.render(width: 40).text
        let coloured = table.render(width: 40, colour: true).text
        XCTAssertNotEqual(plain, coloured)
        XCTAssertEqual(Pager.withoutStyles(coloured), plain)
        XCTAssertTrue(coloured.contains("\u{1B}[1;36mo10\u{1B}[0m "))
    }

    func testControlCharactersInCellsAreShownAsEscapes() {
        let hostile = Table(["h", "name"], [["r1", "a\u{1B}[2Jb\tc"]])
        XCTAssertEqual(hostile.render(width: nil).text.split(separator: "\n")[1], "r1  a\\u{1B}[2Jb\\tc")
    }

    func testNaturalOrder() {
        let words = ["o10", "o2", "o1", "sp2", "sp10", "scan-10.json", "scan-9.json", "o02"]
        XCTAssertEqual(words.sorted(by: naturalOrder), ["o1", "o02", "o2", "o10", "scan-9.json", "scan-10.json", "sp2", "sp10"])
    }
}
