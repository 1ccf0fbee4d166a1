import Foundation

/// A batch's progress on standard error when that is a terminal: files done of all, the
/// failures so far, the rate and the time left, redrawn in place at most ten times a second
/// (and at once after it was taken down). The main thread takes it down before it prints a
/// file's output on the terminal and draws it again after.
final class BatchProgressBar {
    let total: Int?
    let output: OutputSink
    private var lastDrawn = -1.0
    private var shown = false

    init(total: Int?, output: OutputSink) {
        self.total = total
        self.output = output
    }

    func draw(_ tally: BatchTally, seconds: Double, force: Bool = false) {
        guard force || !shown || seconds - lastDrawn >= 0.1 else { return }
        lastDrawn = seconds
        let done = tally.files
        let rate = seconds > 0 ? Double(done) / seconds : 0
        var line = ""
        if let total, total > 0 {
            let width = 24
            let filled = min(width, done * width / total)
            line = "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
                + "\(done)/\(total) files"
        } else {
            line = "\(done) files"
        }
        line += ", \(tally.failed) failed"
        if done > 0 {
            line += ", " + (rate >= 10 ? String(format: "%.0f", rate) : String(format: "%.1f", rate)) + " files/s"
            if let total, total > done, rate > 0 {
                line += ", " + Self.duration(Double(total - done) / rate) + " left"
            }
        }
        output.writeError("\r\u{1B}[K" + line)
        shown = true
    }

    func clear() {
        guard shown else { return }
        output.writeError("\r\u{1B}[K")
        shown = false
    }

    /// `0.83 s`, `42 s`, `3 min 20 s`, `2 h 05 min`.
    static func duration(_ seconds: Double) -> String {
        if seconds < 10 { return String(format: "%.2f s", seconds) }
        let whole = Int(seconds.rounded())
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return "\(whole / 60) min \(whole % 60) s" }
        return "\(whole / 3600) h " + String(format: "%02d", (whole % 3600) / 60) + " min"
    }
}
