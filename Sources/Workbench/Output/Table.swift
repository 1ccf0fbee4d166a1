/// A listing for people: aligned columns, text left, numbers right, that fit the terminal.
///
/// Given a width (a terminal's), a table wider than it has its free-text columns cut, the
/// widest first, each cut cell ending in `…`; when even that cannot make a row fit, every
/// row is shown expanded, one field per line (psql's `\x auto`). The handle column is never
/// cut. Without a width (a pipe, a file, `--wide`) every cell is whole. Cells show control
/// characters as escapes: a tab or an escape sequence in a name would break the columns, or
/// worse.
struct Table {
    var headers: [String]
    var rows: [[String]]
    /// Columns of numbers, aligned right.
    var numeric: Set<Int> = []
    /// Columns of free text (names, labels, attributes, reasons) that may be cut to fit.
    var flexible: Set<Int> = []
    /// Columns shown emphasised when colour is on: the handles.
    var emphasised: Set<Int> = [0]
    /// Shorter headers for columns whose values are narrower than their names (`confidence`
    /// over low/medium/high), used only when the table is too wide with the full ones: on an
    /// 80-column terminal every real file's `ls objects` fell back to one field per line.
    static let shortHeaders = ["confidence": "conf", "section": "sect"]

    init(_ headers: [String], _ rows: [[String]], numeric: Set<Int> = [], flexible: Set<Int> = []) {
        self.headers = headers
        self.rows = rows.map { $0.map(\.escapingControls) }
        self.numeric = numeric
        self.flexible = flexible
    }

    /// Blanks between two columns.
    static let gap = 2
    /// The narrowest a cut column gets: its header, or this much when the header is shorter.
    static let narrowest = 4

    struct Rendered {
        var text: String
        /// Whether some cell was cut short (the table was fitted to the width).
        var cut = false
        /// Whether rows are shown one field per line.
        var expanded = false
    }

    /// The table as lines. `width` nil: every cell whole; `colour`: handles emphasised, with
    /// the column widths measured without the escape codes.
    func render(width: Int?, colour: Bool = false) -> Rendered {
        // Cells are measured once: shortened headers change only the headers' widths.
        let cellWidths = rows.map { $0.prefix(headers.count).map(displayWidth) }
        return render(width: width, colour: colour, cellWidths: cellWidths, shortening: true)
    }

    private func render(width: Int?, colour: Bool, cellWidths: [[Int]], shortening: Bool) -> Rendered {
        var natural = headers.map(displayWidth)
        for widths in cellWidths {
            for (index, cellWidth) in widths.enumerated() { natural[index] = max(natural[index], cellWidth) }
        }
        guard let width, Self.total(natural) > width else {
            return Rendered(text: lines(widths: natural, cellWidths: cellWidths, colour: colour))
        }
        if shortening, headers.contains(where: { Self.shortHeaders[$0] != nil }) {
            var shorter = self
            shorter.headers = headers.map { Self.shortHeaders[$0] ?? $0 }
            // Rows are already escaped: keep them as they are. One field per line has room for
            // the full names.
            let rendered = shorter.render(width: width, colour: colour, cellWidths: cellWidths, shortening: false)
            return rendered.expanded ? expanded(width: width, colour: colour) : rendered
        }
        return fitted(width: width, natural: natural, cellWidths: cellWidths, colour: colour)
    }

    /// Columns and the gaps between them.
    private static func total(_ widths: [Int]) -> Int { widths.reduce(0, +) + gap * max(0, widths.count - 1) }

    private func fitted(width: Int, natural: [Int], cellWidths: [[Int]], colour: Bool) -> Rendered {
        let count = headers.count
        func total(_ widths: [Int]) -> Int { Self.total(widths) }
        var widths = natural
        let minimum = (0..<count).map { index in
            flexible.contains(index) && index != 0 ? min(natural[index], max(displayWidth(headers[index]), Self.narrowest)) : natural[index]
        }
        var excess = total(widths) - width
        while excess > 0 {
            // The widest column that may still give, cut down to the next widest (or as far as needed).
            let candidates = (0..<count).filter { widths[$0] > minimum[$0] }
            guard let widest = candidates.max(by: { widths[$0] < widths[$1] }) else { break }
            let next = candidates.filter { $0 != widest }.map { widths[$0] }.max() ?? 0
            let step = max(1, min(excess, widths[widest] - max(next, minimum[widest])))
            widths[widest] -= step
            excess -= step
        }
        if excess <= 0 {
            return Rendered(text: lines(widths: widths, cellWidths: cellWidths, colour: colour), cut: true)
        }
        return expanded(width: width, colour: colour)
    }

    private func lines(widths: [Int], cellWidths: [[Int]], colour: Bool) -> String {
        var text = ""
        func line(_ cells: [String], _ measured: [Int], header: Bool) {
            var pieces: [String] = []
            for (index, cell) in cells.prefix(widths.count).enumerated() {
                var shown = cell, shownWidth = measured[index]
                if shownWidth > widths[index] {
                    shown = truncated(cell, to: widths[index])
                    shownWidth = displayWidth(shown)
                }
                let pad = String(repeating: " ", count: max(0, widths[index] - shownWidth))
                if !header && colour && emphasised.contains(index) && !shown.isEmpty { shown = Style.handle.apply(shown) }
                pieces.append(numeric.contains(index) ? pad + shown : shown + pad)
            }
            text += pieces.joined(separator: String(repeating: " ", count: Self.gap)).trimmingTrailingBlanks() + "\n"
        }
        line(headers, headers.map(displayWidth), header: true)
        for (row, measured) in zip(rows, cellWidths) { line(row, measured, header: false) }
        return text
    }

    /// One field per line, each record headed `-[ RECORD n ]`, values cut to the width.
    private func expanded(width: Int, colour: Bool) -> Rendered {
        let labelWidth = headers.map(displayWidth).max() ?? 0
        let valueWidth = max(1, width - labelWidth - 1)
        var text = ""
        var cut = false
        for (number, row) in rows.enumerated() {
            let title = "-[ RECORD \(number + 1) ]"
            text += title + String(repeating: "-", count: max(0, min(width, 40) - title.count)) + "\n"
            for (index, header) in headers.enumerated() {
                var value = index < row.count ? row[index] : ""
                if displayWidth(value) > valueWidth {
                    value = truncated(value, to: valueWidth)
                    cut = true
                }
                if colour && emphasised.contains(index) && !value.isEmpty { value = Style.handle.apply(value) }
                let pad = String(repeating: " ", count: labelWidth - displayWidth(header))
                text += (header + pad + " " + value).trimmingTrailingBlanks() + "\n"
            }
        }
        return Rendered(text: text, cut: cut, expanded: true)
    }
}

/// `text` cut to `width` columns, its end replaced by `…`.
func truncated(_ text: String, to width: Int) -> String {
    guard width > 0 else { return "" }
    var result = ""
    var used = 0
    for character in text {
        let next = displayWidth(character)
        if used + next > width - 1 { break }
        result.append(character)
        used += next
    }
    return result + "…"
}

/// How many terminal columns `text` takes: East Asian wide and fullwidth characters (CJK) and
/// emoji take two, combining marks and other zero-width characters none, the rest one.
func displayWidth(_ text: String) -> Int {
    if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.utf8.count }
    return text.reduce(0) { $0 + displayWidth($1) }
}

func displayWidth(_ character: Character) -> Int {
    let scalars = character.unicodeScalars
    guard let first = scalars.first else { return 0 }
    if first.isASCII { return first.value < 0x20 || first.value == 0x7F ? 0 : 1 }
    let properties = first.properties
    switch properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format, .control: return 0
    default: break
    }
    if properties.isEmojiPresentation || (properties.isEmoji && scalars.contains("\u{FE0F}")) { return 2 }
    if scalars.count > 1 && scalars.contains(where: { $0.properties.isEmojiPresentation }) { return 2 }
    return isWide(first) ? 2 : 1
}

/// East Asian Wide (W) and Fullwidth (F) blocks of Unicode's EastAsianWidth.txt, by block.
private func isWide(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
         0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
         0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1AFF0...0x1B2FF,
         0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
        return true
    default:
        return false
    }
}

/// wb's own escape codes for a terminal that wants colour. Text from files never carries
/// them: it is escaped before it is shown.
enum Style: String {
    case error = "31"
    case warning = "33"
    case handle = "1;36"
    case unsaved = "1;33"

    func apply(_ text: String) -> String { "\u{1B}[\(rawValue)m\(text)\u{1B}[0m" }
}
