import XCTest
@testable import StructureModel

final class RoundTripTests: XCTestCase {
    func testRealSamplesRoundTripByteForByte() throws {
        for name in ["livingroom-1section.json", "flat-4sections.json"] {
            let bytes = try Samples.roomPlan(name)
            let document = try RoomPlanCodec.decode(bytes)
            let written = RoomPlanCodec.encode(document)
            if written != bytes {
                let firstDifference = (0..<min(written.count, bytes.count)).first { written[$0] != bytes[$0] } ?? min(written.count, bytes.count)
                let location = SourceLocator.locate(offset: firstDifference, in: bytes)
                XCTFail("\(name): differs at line \(location.line) (\(location.keyPath)); sizes \(written.count) vs \(bytes.count)\n"
                        + "ours:   \(SourceLocator.lineText(location.line, in: written))\n"
                        + "theirs: \(SourceLocator.lineText(location.line, in: bytes))")
            }
        }
    }
}
