import Foundation
import StructureModel
import XCTest
@testable import Workbench

/// Saves seen from inside one session: a failed save leaves the file and the session as
/// they were, so the next save (once the cause is gone) just works.
final class SaveTests: XCTestCase {
    private func session(in folder: String) throws -> (Shell, BufferedOutput, String) {
        let path = folder + "/room.json"
        let building = BuildingGenerator.generate(BuildingSpec(seed: 21, rooms: 3))
        try FileIO.writeAtomically(RoomPlanCodec.encode(.room(building.captures[0].room)), to: path)
        let output = BufferedOutput()
        let shell = Shell(options: ShellOptions(), output: output)
        XCTAssertTrue(shell.openFile(path), output.standardError)
        return (shell, output, path)
    }

    private func folder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wb-save-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        return folder
    }

    func testAFailedSidecarLeavesTheFileSoTheNextSaveIsNotRefused() throws {
        let folder = try folder()
        let (shell, output, path) = try session(in: folder)
        let original = try FileIO.read(path)
        let sidecar = Sidecar.path(for: path)
        try FileManager.default.createDirectory(atPath: sidecar, withIntermediateDirectories: false)
        XCTAssertFalse(shell.run(script: "name r1 Kitchen\nmove r1 1 0\nsave", source: "-c"))
        XCTAssertEqual(try FileIO.read(path), original, "the RoomPlan file was not rewritten")
        XCTAssertTrue(shell.session.hasUnsavedChanges, "the edits are still there to save")
        try FileManager.default.removeItem(atPath: sidecar)
        XCTAssertTrue(shell.run(script: "save", source: "-c"), output.standardError)
        XCTAssertNotEqual(try FileIO.read(path), original)
        XCTAssertEqual(try Sidecar.decode(FileIO.read(sidecar)).rooms.map(\.name), ["Kitchen"])
    }

    func testAFileRemovedOrReplacedUnderTheSessionIsNotOverwritten() throws {
        let folder = try folder()
        let (shell, output, path) = try session(in: folder)
        XCTAssertTrue(shell.run(script: "move r1 1 0", source: "-c"))
        try FileManager.default.removeItem(atPath: path)
        XCTAssertFalse(shell.run(script: "save", source: "-c"))
        XCTAssertTrue(output.standardError.contains("\(path) was removed since it was opened"), output.standardError)
        XCTAssertNil(FileIO.stamp(of: path), "not written back behind the person's back")
        try FileIO.writeAtomically(Array("{}".utf8), to: path)
        XCTAssertFalse(shell.run(script: "save", source: "-c"))
        XCTAssertTrue(output.standardError.contains("\(path) changed on disk since it was opened"), output.standardError)
        XCTAssertEqual(try FileIO.read(path), Array("{}".utf8))
        XCTAssertTrue(shell.run(script: "save --force", source: "-c"), output.standardError)
        XCTAssertFalse(shell.session.hasUnsavedChanges)
    }

    /// The names file is written with the file: one edited by hand while the session had
    /// it open (its names changed, or the file removed, or made) was replaced without a word.
    /// It is refused as a changed RoomPlan file is, and replaced with --force; the session's
    /// own saves do not count as changes.
    func testANamesFileEditedByHandSinceItWasOpenedIsNotOverwrittenUnasked() throws {
        let folder = try folder()
        let (shell, output, path) = try session(in: folder)
        let sidecar = Sidecar.path(for: path)
        XCTAssertTrue(shell.run(script: "name r1 Kitchen\nsave\nname r1 Larder\nsave", source: "-c"), output.standardError)
        let edited = try String(decoding: FileIO.read(sidecar), as: UTF8.self).replacingOccurrences(of: "\"Larder\"", with: "\"Pantry\"")
        try FileIO.writeAtomically(Array(edited.utf8), to: sidecar)
        XCTAssertFalse(shell.run(script: "name r1 Cellar\nsave", source: "-c"))
        XCTAssertTrue(output.standardError.contains("\(path) has its names in \(sidecar), which changed on disk since it was opened"),
                      output.standardError)
        XCTAssertEqual(try Sidecar.decode(FileIO.read(sidecar)).rooms.map(\.name), ["Pantry"], "the hand edit is still there")
        XCTAssertTrue(shell.session.hasUnsavedChanges)
        try FileManager.default.removeItem(atPath: sidecar)
        XCTAssertFalse(shell.run(script: "save", source: "-c"))
        XCTAssertTrue(output.standardError.contains("\(sidecar), which was removed since it was opened"), output.standardError)
        XCTAssertNil(FileIO.stamp(of: sidecar))
        XCTAssertTrue(shell.run(script: "save --force\nname r1 Attic\nsave", source: "-c"), output.standardError)
        XCTAssertEqual(try Sidecar.decode(FileIO.read(sidecar)).rooms.map(\.name), ["Attic"])
    }
    /// The pages of a plan of several stories are one save: a failure at the second page (a
    /// full disk) leaves every page as it was. Page by page, the first was replaced and the
    /// second kept an earlier export's drawing: a set that no export ever drew.
    func testAPlanOfSeveralPagesIsWrittenWholeOrNotAtAll() throws {
        let folder = try folder()
        let path = folder + "/home.json"
        let building = BuildingGenerator.generate(BuildingSpec(seed: 21, rooms: 4, stories: 2))
        try FileIO.writeAtomically(RoomPlanCodec.encode(.structure(building.structure)), to: path)
        let pages = [folder + "/plan-story0.svg", folder + "/plan-story1.svg"]
        for (index, page) in pages.enumerated() { try Data("an earlier page \(index)".utf8).write(to: URL(fileURLWithPath: page)) }
        var options = ShellOptions()
        // The disk fills up while the second page is written.
        options.faults = WriteFaults(beforeRename: { () throws(FileError) in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            if names.contains(where: { $0.hasPrefix(".plan-story1.svg.wb-") }) {
                throw FileError(path: pages[1], message: "no space left on the device")
            }
        })
        let output = BufferedOutput()
        let shell = Shell(options: options, output: output)
        XCTAssertTrue(shell.openFile(path), output.standardError)
        XCTAssertFalse(shell.run(script: "export svg \(folder)/plan.svg", source: "-c"))
        XCTAssertTrue(output.standardError.contains("no space left on the device"), output.standardError)
        for (index, page) in pages.enumerated() {
            XCTAssertEqual(try String(contentsOfFile: page, encoding: .utf8), "an earlier page \(index)", "\(page) as it was")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".") }, [], "no temporary file left")
    }
}
