import XCTest
@testable import StructureModel

/// Expressions far larger than a person writes: deep ones are refused where the nesting
/// goes too far; long flat ones are parsed and matched without recursion.
final class QueryDepthTests: XCTestCase {
    private struct StoryRow: QueryRow {
        var story: Double
        func value(_ field: String) -> FieldValue? { field == "story" ? .number(story) : nil }
    }

    private func words(_ text: String) -> [QueryWord] {
        text.split(separator: " ").map { QueryWord(String($0)) }
    }

    func testTwentyThousandNestedParenthesesAreRefusedAtTheFirstTooDeep() {
        let depth = 20_000
        let text = String(repeating: "( ", count: depth) + "story = 1" + String(repeating: " )", count: depth)
        XCTAssertThrowsError(try Query.compile(words(text))) { error in
            // Word 100 is the 101st '(' (words count from 0).
            XCTAssertEqual(error as? QueryError,
                           QueryError(message: "parentheses nest too deeply (more than 100 levels)", word: 100, offset: 0))
        }
        // Within one word, the offset is the parenthesis's own.
        let packed = String(repeating: "(", count: depth) + "story=1" + String(repeating: ")", count: depth)
        XCTAssertThrowsError(try Query.compile([QueryWord(packed)])) { error in
            XCTAssertEqual((error as? QueryError)?.offset, 100)
        }
    }

    func testNestingUpToTheLimitWorks() throws {
        let depth = 100
        let text = String(repeating: "( ", count: depth) + "story = 1" + String(repeating: " )", count: depth)
        let query = try Query.compile(words(text))
        XCTAssertTrue(query.matches(StoryRow(story: 1)))
        XCTAssertFalse(query.matches(StoryRow(story: 2)))
    }

    func testNinetyThousandOrTermsParseAndMatch() throws {
        let count = 90_000
        let text = (1...count).map { "story = \($0)" }.joined(separator: " or ")
        let query = try Query.compile(words(text))
        XCTAssertTrue(query.matches(StoryRow(story: 90_000)), "the last term decides")
        XCTAssertTrue(query.matches(StoryRow(story: 1)))
        XCTAssertFalse(query.matches(StoryRow(story: 0)))
    }

    func testNinetyThousandAndTermsAndNotsParseAndMatch() throws {
        let count = 90_000
        let text = (1...count).map { "story != \($0)" }.joined(separator: " and ")
        let query = try Query.compile(words(text))
        XCTAssertTrue(query.matches(StoryRow(story: 0)))
        XCTAssertFalse(query.matches(StoryRow(story: 90_000)), "the last term decides")

        let nots = try Query.compile(words(String(repeating: "not ", count: count + 1) + "story = 1"))
        XCTAssertFalse(nots.matches(StoryRow(story: 1)), "an odd number of nots negates")
        XCTAssertTrue(nots.matches(StoryRow(story: 2)))
        let even = try Query.compile(words(String(repeating: "not ", count: count) + "story = 1"))
        XCTAssertTrue(even.matches(StoryRow(story: 1)))
    }

    func testMixedAndOrKeepTheirPrecedence() throws {
        let query = try Query.compile(words("story = 1 or story = 2 and story = 3 or not ( story = 4 or story = 5 ) and story = 6"))
        XCTAssertTrue(query.matches(StoryRow(story: 1)))
        XCTAssertFalse(query.matches(StoryRow(story: 2)))
        XCTAssertTrue(query.matches(StoryRow(story: 6)))
        XCTAssertFalse(query.matches(StoryRow(story: 4)))
    }
}
