import Foundation
import StructureModel
import XCTest

/// Runs the built `wb` (and `wbgen`) binaries the way a person or a script would.
enum Harness {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static var productsDirectory: URL {
        #if os(macOS)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        #endif
        return Bundle.main.bundleURL
    }

    static var wb: URL { productsDirectory.appendingPathComponent("wb") }
    static var wbgen: URL { productsDirectory.appendingPathComponent("wbgen") }

    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("../shared/samples/roomplan").standardizedFileURL

    /// Writes every capture of `building` into `folder` as a room file (paths in capture order,
    /// so the rooms open as r1, r2, …) and gives the commands that put each room where the
    /// ground truth says, as a chain of aligns would (a turn about the origin, then a move).
    static func captures(of building: GeneratedBuilding, in folder: URL) throws -> (paths: [String], placing: [String]) {
        var paths: [String] = [], placing: [String] = []
        for (index, capture) in building.captures.enumerated() {
            let path = folder.appendingPathComponent(capture.fileName).path
            try Data(RoomPlanCodec.encode(.room(capture.room))).write(to: URL(fileURLWithPath: path))
            paths.append(path)
            let p = capture.placement
            placing.append("rotate r\(index + 1) \(p.yaw * 180 / .pi) --about 0 0")
            placing.append("move r\(index + 1) \(p.translation.x) \(p.translation.z) \(p.translation.y)")
        }
        return (paths, placing)
    }

    static func sample(_ name: String) throws -> String {
        let path = samples.appendingPathComponent(name).path
        guard FileManager.default.fileExists(atPath: path) else {
            throw XCTSkip("real RoomPlan sample \(path) is absent (../shared/samples is not beside this checkout)")
        }
        return path
    }

    /// Runs `executable` with `arguments`, feeding `stdin` (closed at once when nil).
    @discardableResult
    static func run(_ arguments: [String], executable: URL = wb, stdin: String? = nil,
                    environment: [String: String] = [:], in directory: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        if let directory { process.currentDirectoryURL = directory }
        let input = Pipe(), output = Pipe(), error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        // Read both pipes concurrently so neither fills up and blocks the child.
        nonisolated(unsafe) var errorData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errorData = error.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: outputData, as: UTF8.self),
                      stderr: String(decoding: errorData, as: UTF8.self))
    }

    /// A fresh temporary folder, removed when the test ends.
    static func temporaryFolder(_ test: XCTestCase) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("wb-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// A generated room written to `folder`, as a person's scan would be.
    static func generatedRoom(in folder: URL, seed: UInt64 = 21, name: String = "room.json") throws -> String {
        let building = BuildingGenerator.generate(BuildingSpec(seed: seed, rooms: 3))
        let path = folder.appendingPathComponent(name).path
        try Data(RoomPlanCodec.encode(.room(building.captures[0].room))).write(to: URL(fileURLWithPath: path))
        return path
    }
}

extension Harness {
    /// The objects of a JSON array wb printed (a listing with --json).
    static func jsonArray(_ text: String) throws -> [[String: Any]] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], "a JSON array: \(text)")
    }
}
