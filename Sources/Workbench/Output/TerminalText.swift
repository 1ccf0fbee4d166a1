import StructureModel

/// Text from files (names, labels, attribute values, identifiers, paths, a rejected file's
/// lines) may hold control characters; written raw, `ESC ] 0 ; … BEL` retitles the window
/// and `ESC [ 2 J` clears the screen. What wb prints for people shows them instead, as
/// Swift writes them in a string literal: `\0 \t \n \r`, and `\u{1B}` (hexadecimal) for
/// the rest of C0, DEL and C1. JSON output is left alone: its writer escapes them itself.
extension Unicode.Scalar {
    var isTerminalControl: Bool {
        value < 0x20 || (0x7F...0x9F).contains(value) || isBidiControl
    }

    /// The invisible marks that reorder text on screen (U+061C, U+200E–U+200F, U+202A–U+202E,
    /// U+2066–U+2069): in a name they could make one handle or path look like another.
    var isBidiControl: Bool {
        value == 0x061C || value == 0x200E || value == 0x200F || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }

    var visibleEscape: String {
        switch value {
        case 0: return "\\0"
        case 0x09: return "\\t"
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        default: return "\\u{" + String(value, radix: 16, uppercase: true) + "}"
        }
    }
}

extension String {
    /// The text with every control character shown as an escape (one line stays one line).
    var escapingControls: String {
        escapingControls { $0.isTerminalControl }
    }

    /// The text with control characters shown as escapes, but line breaks kept: for text
    /// that wb composed of lines, with file strings inside.
    var escapingControlsKeepingLines: String {
        escapingControls { $0.isTerminalControl && $0 != "\n" }
    }

    func escapingControls(where isEscaped: (Unicode.Scalar) -> Bool) -> String {
        // Nearly all text has none: check the bytes first (C1 starts with 0xC2 in UTF-8, the
        // bidi marks with 0xD8 or 0xE2).
        guard utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xD8 || $0 == 0xE2 }) else { return self }
        guard unicodeScalars.contains(where: isEscaped) else { return self }
        var result = ""
        result.reserveCapacity(utf8.count + 16)
        for scalar in unicodeScalars {
            if isEscaped(scalar) {
                result += scalar.visibleEscape
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

/// The shell's output as every command writes it: C0 control characters other than line
/// breaks and tabs are shown as escapes on both streams, whatever command printed them, so
/// that no path from a file's text to the terminal is left open. JSON never holds them raw,
/// so it passes unchanged. (The shell's own coloured error labels are written past this, to
/// the sink underneath.)
final class TerminalSafeOutput: OutputSink {
    let base: OutputSink

    init(_ base: OutputSink) {
        self.base = base
    }

    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 && scalar != "\n" && scalar != "\t"
    }

    func write(_ text: String) { base.write(text.escapingControls(where: Self.isUnsafe)) }
    func writeError(_ text: String) { base.writeError(text.escapingControls(where: Self.isUnsafe)) }
    func writeStyled(_ text: String) { base.writeStyled(text) }
    var isTerminal: Bool { base.isTerminal }
    var columns: Int? { base.columns }
    var colorsOutput: Bool { base.colorsOutput }
    var colorsErrors: Bool { base.colorsErrors }
    var errorIsTerminal: Bool { base.errorIsTerminal }
    func beginCommand(paging: Bool) { base.beginCommand(paging: paging) }
    func endCommand() { base.endCommand() }
    func releaseHeldOutput() { base.releaseHeldOutput() }
}
