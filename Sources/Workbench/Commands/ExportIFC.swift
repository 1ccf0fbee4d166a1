#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import StructureModel

extension Shell {
    /// `export ifc PATH [ROOM|NAME] [--story N] [--wall-thickness M]`: an IFC4 model of what
    /// `exportScene` picks, written atomically (or printed, for `-`).
    func exportIFC(_ invocation: Invocation) throws {
        let path = invocation.positionals[1]
        try checkExportPath(path, text: true, format: "ifc")
        var options = IFCExportOptions(fileName: FileIO.baseName(of: path.text), timestamp: Self.ifcTimestamp())
        if let word = invocation.values["--wall-thickness"] {
            guard let metres = Double(word.text), metres.isFinite, metres >= 0.005, metres <= 2 else {
                throw CommandFailure("--wall-thickness takes metres between 0.005 and 2, like --wall-thickness 0.12", at: word)
            }
            options.wallThickness = metres
        }
        let scene = try exportScene(invocation)
        if self.options.dryRun && !printsToStandardOutput(path) {
            try preflightExport(path)
            inform("would write \(path.text.escapingControls) (IFC4: \(scene.summary); --dry-run)")
            return
        }
        let total = scene.stories.reduce(0) { $0 + $1.rooms.count + $1.elements.count }
        let bar = ProgressBar(shell: self, label: "export ifc", total: total)
        let result = IFCWriter.write(scene, options: options) { done, _ in bar.update(done) }
        bar.finish()
        let shown = 5
        for warning in result.warnings.prefix(shown) { warn(warning) }
        if result.warnings.count > shown { warn("… and \(result.warnings.count - shown) more like these") }
        if try export(result.bytes, to: path) { return }
        inform("wrote \(path.text.escapingControls) (IFC4, \(Self.byteSize(result.bytes.count)), \(result.entityCount) entities: \(scene.summary))")
    }

    /// FILE_NAME's time stamp: `SOURCE_DATE_EPOCH` when set (reproducible output, as for
    /// builds), else now; UTC, ISO 8601.
    static func ifcTimestamp() -> String {
        var seconds = time(nil)
        if let text = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"], let epoch = Int(text) {
            seconds = time_t(epoch)
        }
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }

    static func byteSize(_ count: Int) -> String {
        if count < 10_000 { return "\(count) bytes" }
        if count < 10_000_000 { return "\(Int((Double(count) / 1000).rounded())) kB" }
        return String(format: "%.1f MB", Double(count) / 1e6)
    }
}
