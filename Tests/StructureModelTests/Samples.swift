import Foundation
import XCTest

/// The real RoomPlan exports beside the repository, in `../shared/samples/roomplan/`.
/// They are never copied into the repository; a test that needs one skips, saying why,
/// when the folder is absent.
enum Samples {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let roomPlanFolder = packageRoot.appendingPathComponent("../shared/samples/roomplan").standardizedFileURL

    static func roomPlan(_ name: String) throws -> [UInt8] {
        let url = roomPlanFolder.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw XCTSkip("real RoomPlan sample \(url.path) is absent (../shared/samples is not beside this checkout)")
        }
        return try [UInt8](Data(contentsOf: url))
    }
}
