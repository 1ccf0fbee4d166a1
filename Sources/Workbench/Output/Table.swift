/// A listing for people: aligned columns, text left, numbers right, that fit the terminal.
///
/// Given a width (a terminal's), a table wider than it gives way step by step, each step
/// taken only while the table is still too wide: columns empty in every row are left out
/// (an all-empty `name` column kept its width while labels were cut to `bedroom,…`); long
/// headers over short values shorten (`confidence` → `conf`); columns with a shorter form
/// of their cells take it (attributes by their values, the category's own type first);
/// then free-text columns are cut, the widest first, each cut cell ending in `…`, at a
/// blank or a comma where that keeps most of it. When even that cannot make a row fit,
/// every row is shown expanded, one field per line (psql's `\x auto`), whole columns and
/// full headers. The handle column is never cut or left out. Without a width (a pipe, a
/// file, `--wide`) every cell is whole. Cells show control characters as escapes: a tab
/// or an escape sequence in a name would break the columns, or worse.
struct Table {
    var headers: [String]
    var rows: [[String]]
    /// Columns of numbers, aligned right.
    var numeric: Set<Int> = []
    /// Columns of free text (names, labels, attributes, reasons) that may be cut to fit.
    var flexible: Set<Int> = []
    /// Columns shown emphasised when colour is on: the handles.
    var emphasised: Set<Int> = [0]
    /// For some columns, a shorter form of each row's cell that says the same more tersely,
    /// taken (for the whole column) before cells are cut.
    var shorter: [Int: [String]] = [:]
    /// Shorter headers for columns whose values are narrower than their names (`confidence`
    /// over low/medium/high), used only when the table is too wide with the full ones: on an
    /// 80-column terminal every real file's `ls objects` fell back to one field per line.
    static let shortHeaders = ["confidence": "conf", "section": "sect", "attributes": "attrs"]

    init(_ headers: [String], _ rows: [[String]], numeric: Set<Int> = [], flexible: Set<Int> = [], shorter: [Int: [String]] = [:]) {
        self.headers = headers
        self.rows = rows.map { $0.map(\.escapingControls) }
        self.numeric = numeric
        self.flexible = flexible
        self.shorter = shorter.mapValues { $0.map(\.escapingControls) }
    }

    /// Blanks between two columns.
    static let gap = 2
    /// The narrowest a cut column gets: its header, or this much when the header is shorter.
    static let narrowest = 4

    struct Rendered {
        var text: String
        /// Whether some cell was cut short or shortened (the table was fitted to the width).
        var cut = false
        /// Whether rows are shown one field per line.
        var expanded = false
        /// The headers of the columns left out, empty in every row.
        var omitted: [String] = []
    }

    /// The table as lines. `width` nil: every cell whole; `colour`: handles emphasised, with
    /// the column widths measured without the escape codes.
    func render(width: Int?, colour: Bool = false) -> Rendered {
        var cellWidths = rows.map { $0.prefix(headers.count).map(displayWidth) }
        var natural = naturalWidths(cellWidths)
        guard let width, Self.total(natural) > width else {
            return Rendered(text: lines(widths: natural, cellWidths: cellWidths, colour: colour))
        }
        var table = self
        var omitted: [String] = []
        let empty = (1..<max(1, headers.count)).filter { column in rows.allSatisfy { column >= $0.count || $0[column].isEmpty } }
        if !empty.isEmpty {
            omitted = empty.map { headers[$0] }
            table = table.keeping(headers.indices.filter { !empty.contains($0) })
            cellWidths = table.rows.map { $0.prefix(table.headers.count).map(displayWidth) }
            natural = table.naturalWidths(cellWidths)
        }
        // (A free-text column's header shortens only if the column is cut narrower than it.)
        let shortenable = table.headers.indices.filter { Self.shortHeaders[table.headers[$0]] != nil && !table.flexible.contains($0) }
        if Self.total(natural) > width, !shortenable.isEmpty {
            for column in shortenable { table.headers[column] = Self.shortHeaders[table.headers[column]]! }
            natural = table.naturalWidths(cellWidths)
        }
        var shortened = false
        if Self.total(natural) > width, !table.shorter.isEmpty {
            for (column, cells) in table.shorter where column < table.headers.count && cells.count == table.rows.count {
                for index in table.rows.indices where column < table.rows[index].count {
                    table.rows[index][column] = cells[index]
                    cellWidths[index][column] = displayWidth(cells[index])
                }
            }
            table.shorter = [:]
            natural = table.naturalWidths(cellWidths)
            shortened = true
        }
        if Self.total(natural) <= width {
            return Rendered(text: table.lines(widths: natural, cellWidths: cellWidths, colour: colour), cut: shortened, omitted: omitted)
        }
        guard let widths = table.fitted(width: width, natural: natural) else {
            // One field per line has room for every column and the full names.
            return expanded(width: width, colour: colour)
        }
        return Rendered(text: table.lines(widths: widths, cellWidths: cellWidths, colour: colour), cut: true, omitted: omitted)
    }

    private func naturalWidths(_ cellWidths: [[Int]]) -> [Int] {
        var natural = headers.map(displayWidth)
        for widths in cellWidths {
            for (index, cellWidth) in widths.enumerated() where index < natural.count { natural[index] = max(natural[index], cellWidth) }
        }
        return natural
    }

    /// The table of only `columns` (in order), its column sets renumbered.
    private func keeping(_ columns: [Int]) -> Table {
        var table = self
        var number: [Int: Int] = [:]
        for (new, old) in columns.enumerated() { number[old] = new }
        table.headers = columns.map { headers[$0] }
        table.rows = rows.map { row in columns.map { $0 < row.count ? row[$0] : "" } }
        table.numeric = Set(numeric.compactMap { number[$0] })
        table.flexible = Set(flexible.compactMap { number[$0] })
        table.emphasised = Set(emphasised.compactMap { number[$0] })
        table.shorter = Dictionary(uniqueKeysWithValues: shorter.compactMap { key, value in number[key].map { ($0, value) } })
        return table
    }

    /// Columns and the gaps between them.
    private static func total(_ widths: [Int]) -> Int { widths.reduce(0, +) + gap * max(0, widths.count - 1) }

    /// Column widths that fit `width`, free-text columns cut widest first; nil when cutting
    /// them as far as they go is not enough.
    private func fitted(width: Int, natural: [Int]) -> [Int]? {
        let count = headers.count
        func total(_ widths: [Int]) -> Int { Self.total(widths) }
        var widths = natural
        let minimum = (0..<count).map { index in
            flexible.contains(index) && index != 0
                ? min(natural[index], max(displayWidth(Self.shortHeaders[headers[index]] ?? headers[index]), Self.narrowest)) : natural[index]
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
        return excess <= 0 ? widths : nil
    }

    private func lines(widths: [Int], cellWidths: [[Int]], colour: Bool) -> String {
        var text = ""
        func line(_ cells: [String], _ measured: [Int], header: Bool) {
            var pieces: [String] = []
            for (index, cell) in cells.prefix(widths.count).enumerated() {
                var shown = cell, shownWidth = measured[index]
                if shownWidth > widths[index] {
                    shown = truncated(cell, to: widths[index], atWords: !header)
                    shownWidth = displayWidth(shown)
                }
                let pad = String(repeating: " ", count: max(0, widths[index] - shownWidth))
                if !header && colour && emphasised.contains(index) && !shown.isEmpty { shown = Style.handle.apply(shown) }
                pieces.append(numeric.contains(index) ? pad + shown : shown + pad)
            }
            text += pieces.joined(separator: String(repeating: " ", count: Self.gap)).trimmingTrailingBlanks() + "\n"
        }
        // A header wider than its cut column: its short form.
        let shownHeaders = headers.indices.map { index in
            displayWidth(headers[index]) > widths[index] ? Self.shortHeaders[headers[index]] ?? headers[index] : headers[index]
        }
        line(shownHeaders, shownHeaders.map(displayWidth), header: true)
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

/// `text` cut to `width` columns, its end replaced by `…`. `atWords`: at the last blank or
/// comma that keeps at least half of what fits (`swivel Arm=existing` in 12 columns is
/// `swivel…`, not `swivel Arm=…`; `bedroom,bedroom` in 12 is `bedroom,…`).
func truncated(_ text: String, to width: Int, atWords: Bool = false) -> String {
    guard width > 0 else { return "" }
    var result = ""
    var used = 0
    var lastBreak: (end: String.Index, used: Int)?
    for character in text {
        let next = displayWidth(character)
        if used + next > width - 1 { break }
        if character == " " { lastBreak = (result.endIndex, used) }
        result.append(character)
        used += next
        if character == "," { lastBreak = (result.endIndex, used) }
    }
    if atWords, let lastBreak, lastBreak.used * 2 >= width - 1 {
        return String(result[..<lastBreak.end]) + "…"
    }
    return result + "…"
}

/// `show`'s fields, one a line: each name as printed (control characters escaped) padded
/// to the widest in terminal columns, then its value. (Padded by the names' raw lengths, a
/// name holding a control character was cut short where its escape made it longer.)
func fieldLines(_ fields: [(String, String)]) -> String {
    let names = fields.map(\.0.escapingControls)
    let width = names.map(displayWidth).max() ?? 0
    return zip(names, fields).map { name, field in
        name + String(repeating: " ", count: width - displayWidth(name)) + "  " + field.1.escapingControls
    }.joined(separator: "\n") + "\n"
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
