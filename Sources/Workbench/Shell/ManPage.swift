/// wb(1), written from the same sources as everything else: the program's options from the
/// argument declaration (its help dump), the shell's commands from the command table, the
/// language from `help`'s own text. `wb --generate-man > wb.1` (Scripts/make-man.sh) writes
/// the page that is checked in; a test fails when the two differ.
enum ManPage {
    /// When this version's page was written (a fixed text, so the page is the same each time
    /// it is generated).
    static let date = "2026-11-22"

    static func render() throws -> String {
        let declaration = try Declaration.current()
        var page = Roff()
        page.request(".TH WB 1 \"\(date)\" \"wb \(Program.version)\" \"User Commands\"")
        page.section("NAME")
        page.text("wb \\- a workbench for Apple RoomPlan scans and Hyperbasis spaces", raw: true)

        page.section("SYNOPSIS")
        page.request(".B wb")
        page.text("[\\fIOPTIONS\\fR] [\\fIPATH\\fR ...]", raw: true)

        page.section("DESCRIPTION")
        page.paragraphs(declaration.abstract)
        page.paragraph("""
            wb opens the JSON that Apple's RoomPlan writes after a LiDAR walk-through (single rooms, CapturedRoom, \
            and merged multi-room structures, CapturedStructure), HBSpace JSON files and Hyperbasis store folders, \
            and lets you inspect, query and fix them in a shell that keeps an undo history, then save them atomically. \
            A file opened and saved without edits comes back byte for byte.
            """)
        page.paragraph("""
            With no -c or -f and a terminal on standard input, wb is an interactive shell (line editing, history, \
            tab completion). With standard input not a terminal, it is read as a script. On a terminal, tables are \
            fitted to its width, long output goes through a pager, and errors, warnings and handles are coloured.
            """)

        page.section("OPTIONS")
        for option in declaration.options where !option.isHidden {
            if option.isPositional {
                page.tag("\\fI\(Roff.escape(option.valueName ?? "PATH"))\\fR ...")
            } else {
                let names = option.names.sorted { $0.count < $1.count }.map { "\\fB\(Roff.escape($0))\\fR" }
                let value = option.takesValue ? " \\fI\(Roff.escape(option.valueName ?? "VALUE"))\\fR" : ""
                page.tag(names.joined(separator: ", ") + value)
            }
            page.text(option.help)
        }
        page.tag("\\fB\\-\\-generate\\-completion\\-script\\fR \\fIbash\\fR|\\fIzsh\\fR|\\fIfish\\fR")
        page.text("Print a completion script for that shell (see EXAMPLES) and exit.")

        page.section("COMMANDS")
        page.paragraph("""
            Inside wb (at the prompt, in -c, in a script file): every command with its synopsis. \
            help COMMAND prints the same text.
            """)
        for command in Shell.standardCommands() {
            if command.forms.isEmpty {
                page.tag("\\fB" + Roff.escape(command.name) + "\\fR" + Roff.escape(String(command.synopsis.dropFirst(command.name.count))))
            } else {
                // One tag line per form (.TQ adds a tag to the .TP before it).
                for (index, form) in command.forms.enumerated() {
                    let line = "\\fB" + Roff.escape(command.name) + "\\fR" + Roff.escape(String(form.dropFirst(command.name.count)))
                    if index == 0 { page.tag(line) } else { page.request(".TQ"); page.request(line) }
                }
            }
            page.text(Self.sentence(command.summary))
            for paragraph in command.details.components(separatedBy: "\n\n") where !paragraph.isEmpty {
                page.request(".IP")
                page.text(paragraph)
            }
            if !command.options.isEmpty {
                page.request(".RS")
                for option in command.options {
                    page.tag("\\fB" + Roff.escape(option.name) + "\\fR"
                             + (option.value == nil ? "" : " \\fI" + Roff.escape(option.valueName) + "\\fR"))
                    page.text(Self.sentence(option.help))
                }
                page.request(".RE")
            }
        }

        page.section("THE LANGUAGE")
        page.paragraphs(Shell.languageHelp)
        page.paragraph(Shell.limitsHelp)
        page.paragraph("""
            References: everything ls prints has a short handle (r2 a room, s1 a section, w4 a wall, d1 a door, \
            n3 a window, p1 an opening, f1 a floor, o12 an object, sp1 a space, a3 an anchor) that every command \
            accepts; so do a full identifier, a unique prefix of one of at least 4 characters, and a room's \
            unique name or label. Lengths take units: 80cm, 3ft, 2.5m.
            """)

        page.section("FILES")
        page.tag("\\fI~/.wb_history\\fR")
        page.text("The interactive shell's history (libedit's format); $WB_HISTORY names another file.")
        page.tag("\\fINAME.wb.json\\fR")
        page.text("""
            Beside NAME.json: the names given to rooms and sections (RoomPlan's JSON has no place for them), \
            written atomically with the file when it is saved.
            """)
        page.tag("\\fI~/.editrc\\fR")
        page.text("libedit's key bindings, read by the interactive shell (lines may start with wb:).")

        page.section("ENVIRONMENT")
        page.tag("\\fBWB_HISTORY\\fR")
        page.text("The history file (default ~/.wb_history); empty: no history is kept.")
        page.tag("\\fBPAGER\\fR")
        page.text("""
            The pager for output longer than the terminal (default less -FRX); empty: none. Used only when \
            standard output is a terminal; --no-pager and the pager off command turn it off.
            """)
        page.tag("\\fBNO_COLOR\\fR")
        page.text("When set and not empty, no colour (unless --color always).")
        page.tag("\\fBCOLUMNS\\fR")
        page.text("""
            The terminal's width for fitting tables, instead of the width the terminal reports. Tables are fitted \
            only on a terminal: a pipe or a file gets every cell whole.
            """)
        page.tag("\\fBTERM\\fR")
        page.text("dumb (or unset): no colour in auto mode.")

        page.section("EXIT STATUS")
        page.tag("0")
        page.text("Everything ran.")
        page.tag("1")
        page.text("A command failed (in a script: the first failure, unless -k), or a PATH could not be opened.")
        page.tag("2")
        page.text("The invocation itself was wrong: an unknown flag, a bad value, an unreadable script file.")

        page.section("EXAMPLES")
        page.paragraph("Open a scan and look around:")
        page.example("wb flat.json")
        page.paragraph("Label a room and save, unattended; stop at the first error:")
        page.example("wb -c 'label r1 kitchen' -c save flat.json")
        page.paragraph("Run a script with a variable, quietly:")
        page.example("wb -q -D out=backup -f backup.wb scans/flat.json")
        page.paragraph("Chairs that are not sure of themselves, as JSON:")
        page.example("""
            wb --json flat.json \\
               -c 'find objects where category = chair and confidence != high'
            """)
        page.paragraph("Install the completion scripts:")
        page.example("""
            wb --generate-completion-script bash \\
               > ~/.local/share/bash-completion/completions/wb
            wb --generate-completion-script zsh > ~/.zfunc/_wb
            wb --generate-completion-script fish \\
               > ~/.config/fish/completions/wb.fish
            """)

        page.section("SEE ALSO")
        page.text("\\fBless\\fR(1), \\fBeditrc\\fR(5), \\fBsqlite3\\fR(1), \\fBpsql\\fR(1)", raw: true)
        return page.text
    }

    /// A summary as a sentence: capitalised, with a full stop.
    static func sentence(_ text: String) -> String {
        guard let first = text.first else { return text }
        let body = first.uppercased() + text.dropFirst()
        return body.hasSuffix(".") ? body : body + "."
    }
}

/// man(7) text, built line by line, escaping what roff would read as requests or escapes.
struct Roff {
    var text = ""

    /// A backslash is `\e`; a dash `\-` (a minus, so that options copy and search right).
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
    }

    mutating func request(_ line: String) { text += Self.ascii(line) + "\n" }

    mutating func section(_ name: String) { request(".SH \"\(name)\"") }

    /// A tagged paragraph: `tag` on its line (already in roff), the text after indented.
    mutating func tag(_ tag: String) {
        request(".TP")
        request(tag)
    }

    /// Running text: its lines joined and refilled by roff; nothing in it is a request.
    mutating func text(_ body: String, raw: Bool = false) {
        let joined = body.split(separator: "\n", omittingEmptySubsequences: true)
            .map { $0.trimmingCharacters(in: " ") }
            .joined(separator: " ")
        var line = Self.ascii(raw ? joined : joined.replacingOccurrences(of: "\\", with: "\\e"))
        // One sentence per line, as roff wants (a full stop at a line's end gets two spaces).
        if !raw { line = line.replacingOccurrences(of: ". ", with: ".\n") }
        for piece in line.split(separator: "\n") {
            let trimmed = piece.trimmingCharacters(in: " ")
            guard !trimmed.isEmpty else { continue }
            for short in Self.wrap(trimmed) { text += Self.line(short) }
        }
    }

    /// A text line as roff takes it: never read as a request.
    static func line(_ text: String) -> String {
        (text.hasPrefix(".") || text.hasPrefix("'") ? "\\&" : "") + text + "\n"
    }

    /// Every character ASCII, as man pages are: box-drawing characters (the plan's legend)
    /// as the ASCII ones `plan --ascii` draws, others as `\[uXXXX]`, which groff and
    /// mandoc both know.
    static func ascii(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                result.unicodeScalars.append(scalar)
            } else if let plain = boxDrawing[scalar] {
                result += plain
            } else {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            }
        }
        return result
    }

    static let boxDrawing: [Unicode.Scalar: String] = ["─": "-", "│": "|", "═": "=", "║": "\"", "░": ".", "◆": "*"]

    /// Lines of at most about 80 bytes, broken between words (man pages are read as source too).
    static func wrap(_ text: String, width: Int = 78) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if !current.isEmpty && current.utf8.count + 1 + word.utf8.count > width {
                lines.append(current)
                current = ""
            }
            current += (current.isEmpty ? "" : " ") + word
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    mutating func paragraph(_ body: String) {
        // A section heading starts a paragraph already.
        if !(text.split(separator: "\n").last?.hasPrefix(".SH") ?? false) { request(".PP") }
        text(body)
    }

    /// Paragraphs separated by blank lines.
    mutating func paragraphs(_ body: String) {
        for part in body.components(separatedBy: "\n\n") where !part.isEmpty { paragraph(part) }
    }

    /// Lines shown as they are, indented.
    mutating func example(_ body: String) {
        if !(text.split(separator: "\n").last?.hasPrefix(".SH") ?? false) { request(".PP") }
        request(".RS 4")
        request(".nf")
        for line in body.split(separator: "\n") {
            text += Self.line(Self.ascii(line.replacingOccurrences(of: "\\", with: "\\e")))
        }
        request(".fi")
        request(".RE")
    }
}

private extension String {
    func trimmingCharacters(in set: Character) -> String {
        var result = Substring(self)
        while result.first == set { result.removeFirst() }
        while result.last == set { result.removeLast() }
        return String(result)
    }
}

private extension Substring {
    func trimmingCharacters(in set: Character) -> String { String(self).trimmingCharacters(in: set) }
}
