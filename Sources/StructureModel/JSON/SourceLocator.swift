/// A place in a JSON file, for messages people act on: line and column (1-based,
/// columns counted in characters) and the key path of the value, like `walls[3].transform`.
public struct SourceLocation: Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var keyPath: String

    public init(line: Int, column: Int, keyPath: String) {
        self.line = line
        self.column = column
        self.keyPath = keyPath
    }

    public var description: String { "\(line):\(column)" }
}

/// Turns byte offsets into locations. Only used when something is reported, so the
/// reader itself tracks nothing; the path is found by walking the file again up to the offset.
public enum SourceLocator {
    public static func locate(offset: Int, in bytes: [UInt8]) -> SourceLocation {
        let clamped = max(0, min(offset, bytes.count))
        var line = 1
        var lineStart = 0
        for index in 0..<clamped where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        // Count characters, not bytes, so the caret lines up under UTF-8 text; a byte
        // order mark is not a character anyone sees.
        if lineStart == 0 && startsWithByteOrderMark(bytes) { lineStart = min(3, clamped) }
        var column = 1
        for index in lineStart..<clamped where bytes[index] & 0xC0 != 0x80 {
            column += 1
        }
        return SourceLocation(line: line, column: column, keyPath: keyPath(at: clamped, in: bytes))
    }

    /// The text of line `line` (1-based), without its newline.
    public static func lineText(_ line: Int, in bytes: [UInt8]) -> String {
        var current = 1
        var start = 0
        var index = 0
        while index < bytes.count && current < line {
            if bytes[index] == 0x0A {
                current += 1
                start = index + 1
            }
            index += 1
        }
        if start == 0 && startsWithByteOrderMark(bytes) { start = 3 }
        var end = start
        while end < bytes.count && bytes[end] != 0x0A { end += 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    private enum Frame {
        case object(key: String?)
        case array(index: Int)
    }

    /// Bytes as text for a message: valid UTF-8 as it is, every byte that is not as `\xFF`,
    /// so a key that is not valid UTF-8 is shown as its bytes, not repaired.
    static func escapedText(_ bytes: ArraySlice<UInt8>) -> String {
        var text = ""
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var position = bytes.startIndex
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                text.unicodeScalars.append(Unicode.UTF8.decode(encoded))
                position += encoded.count
            case .error(let length):
                for byte in bytes[position..<(position + length)] {
                    text += "\\x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
                }
                position += length
            case .emptyInput:
                return text
            }
        }
    }

    /// The key path of the innermost value that contains `offset`, tolerant of broken JSON;
    /// long keys and long paths are shortened in the middle, for messages.
    static func keyPath(at offset: Int, in bytes: [UInt8]) -> String {
        var stack: [Frame] = []
        var index = 0
        var expectingKey = false
        while index < offset && index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"):
                stack.append(.object(key: nil))
                expectingKey = true
            case UInt8(ascii: "["):
                stack.append(.array(index: 0))
                expectingKey = false
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if !stack.isEmpty { stack.removeLast() }
                expectingKey = false
            case UInt8(ascii: ","):
                if case .array(let i)? = stack.last {
                    stack[stack.count - 1] = .array(index: i + 1)
                } else if case .object? = stack.last {
                    stack[stack.count - 1] = .object(key: nil)
                    expectingKey = true
                }
            case UInt8(ascii: "\""):
                var end = index + 1
                while end < bytes.count && bytes[end] != UInt8(ascii: "\"") {
                    end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
                }
                if expectingKey, case .object? = stack.last {
                    let key = Abbreviated.text(escapedText(bytes[(index + 1)..<min(end, bytes.count)]))
                    stack[stack.count - 1] = .object(key: key)
                    expectingKey = false
                }
                index = end
            default:
                break
            }
            index += 1
        }
        var path = ""
        for frame in stack {
            switch frame {
            case .object(let key):
                if let key {
                    path += path.isEmpty ? key : "." + key
                }
            case .array(let i):
                path += "[\(i)]"
            }
        }
        return Abbreviated.keyPath(path)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
