import XCTest
@testable import StructureModel

/// The codec's law, for the fuzzer to lean on: whatever the reader accepts, the writer
/// writes to bytes that read back to the same model (and that write again to the same
/// bytes); and a file in Apple's layout that was not edited is written back unchanged,
/// however its numbers are spelled. Checked over generated buildings and the real samples,
/// perturbed: numbers respelled (other digits, exponents, `-0`, trailing zeros, many
/// digits, other values), unknown members of every JSON kind, strings that need escapes,
/// shuffled keys and odd whitespace, byte order marks, and random byte edits.
final class CodecLawTests: XCTestCase {
    private static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    private struct Tally {
        var accepted = 0
        var rejected = 0
    }

    private func bases() throws -> [[UInt8]] {
        var result: [[UInt8]] = []
        for seed in UInt64(1)...3 {
            let building = BuildingGenerator.generate(BuildingSpec(seed: seed, rooms: 2, stories: 1 + Int(seed % 2), coreModelBytes: 48))
            result.append(RoomPlanCodec.encode(.structure(building.structure)))
            result.append(RoomPlanCodec.encode(.room(building.captures[0].room)))
        }
        for name in ["livingroom-1section.json", "flat-4sections.json"] {
            if let bytes = try? Samples.roomPlan(name) { result.append(bytes) }
        }
        return result
    }

    private func parse(_ bytes: [UInt8]) throws -> JSONValue {
        try withJSONReader(bytes) { reader in
            let value = try reader.readValue()
            try reader.expectEnd()
            return value
        }
    }

    /// Checks the law on `bytes`; `unchanged` when they are in Apple's layout, as `encode` writes.
    private func check(_ bytes: [UInt8], unchanged: Bool, _ tally: inout Tally, _ what: @autoclosure () -> String) {
        let first: RoomPlanDocument
        do {
            first = try RoomPlanCodec.decode(bytes)
        } catch {
            tally.rejected += 1
            return
        }
        tally.accepted += 1
        do {
            let written = try RoomPlanCodec.encodeChecked(first)
            let second = try RoomPlanCodec.decode(written)
            XCTAssertEqual(second, first, "read back to another model: \(what())")
            XCTAssertTrue(RoomPlanCodec.encode(second) == written, "wrote other bytes the second time: \(what())")
            if unchanged {
                XCTAssertTrue(written == bytes, "an unedited file in Apple's layout changed: \(what())")
            }
        } catch {
            XCTFail("\(what()): the writer's output does not read back: \(error)")
        }
    }

    func testWhatTheReaderAcceptsReadsBackTheSame() throws {
        var tally = Tally()
        for (index, base) in try bases().enumerated() {
            let tree = try parse(base)
            // The real samples are large (their coreModel): fewer variants of them.
            for variant in 0..<(base.count > 100_000 ? 4 : 16) {
                var rng = SplitMix(seed: UInt64(index * 1_000 + variant))
                let perturbed = Perturbation.value(tree, &rng, inElement: false)
                var apple = JSONWriter()
                apple.value(perturbed)
                let mark = variant % 4 == 0 ? Self.bom : []
                check(mark + apple.bytes, unchanged: true, &tally, "base \(index), variant \(variant), Apple's layout")
                let loose = Array(Perturbation.serialize(perturbed, &rng).utf8)
                check(mark + loose, unchanged: false, &tally, "base \(index), variant \(variant), loose layout")
            }
        }
        // The law is only worth something over inputs the reader takes.
        XCTAssertGreaterThan(tally.accepted, 9 * tally.rejected, "\(tally)")
    }

    func testRandomByteEditsAreRefusedOrReadBackTheSame() throws {
        var tally = Tally()
        let alphabet = Array("0123456789-+.eE\"\\/ u{}[],:tfn\u{7F}".utf8) + [0x00, 0x0A, 0xC3, 0xFF, 0xEF, 0xBB, 0xBF, 0x80]
        for (index, base) in try bases().enumerated() {
            var rng = SplitMix(seed: UInt64(77 + index))
            for trial in 0..<(base.count > 100_000 ? 12 : 80) {
                var bytes = base
                for _ in 0..<(1 + Int(rng.next() % 3)) {
                    let at = Int(rng.next() % UInt64(bytes.count))
                    let byte = alphabet[Int(rng.next() % UInt64(alphabet.count))]
                    switch rng.next() % 3 {
                    case 0: bytes[at] = byte
                    case 1: bytes.insert(byte, at: at)
                    default: bytes.remove(at: at)
                    }
                }
                check(bytes, unchanged: false, &tally, "base \(index), byte edit \(trial)")
            }
        }
        XCTAssertGreaterThan(tally.accepted, 0, "some edits (a digit for a digit) still read")
        XCTAssertGreaterThan(tally.rejected, 0, "most edits break the file")
    }
}

/// Random changes to a JSON tree that keep it a RoomPlan file (mostly), and a serialiser
/// in a layout other than Apple's.
private enum Perturbation {
    static let wildFloats = ["1e-3", "1E+2", "-0", "-0.0", "1.50", "2.5E-0", "0.000", "1e-50", "-1.17549435E-38",
                             "340282346638528859811704183484516925440", "0.1000000000000000055511151231257827"]
    static let unknownKeys = ["zUnknown", "_private", "Ünïcödé", "a/b", "tab\tkey", "nul\u{0}key", "😀", "e\u{301}", "\u{E9}", "\"quoted\""]

    static func pick<T>(_ options: [T], _ rng: inout SplitMix) -> T {
        options[Int(rng.next() % UInt64(options.count))]
    }

    static func chance(_ percent: UInt64, _ rng: inout SplitMix) -> Bool {
        rng.next() % 100 < percent
    }

    static func number(_ text: String, _ rng: inout SplitMix) -> String {
        guard chance(35, &rng) else { return text }
        let isWhole = !text.contains(".") && !text.contains("e") && !text.contains("E")
        // Whole numbers may be a story or a version: only whole respellings keep the file valid.
        if isWhole { return pick(Respelling.sameInt(text) + [text], &rng) }
        if chance(15, &rng) { return pick(wildFloats, &rng) }
        let same = Respelling.sameFloat(text)
        return same.isEmpty ? text : pick(same, &rng)
    }

    static func randomValue(_ rng: inout SplitMix, depth: Int = 0) -> JSONValue {
        switch rng.next() % (depth > 2 ? 4 : 6) {
        case 0: return .null
        case 1: return .bool(chance(50, &rng))
        case 2: return .number(JSONNumber(text: pick(wildFloats + ["7", "-12", "0"], &rng)))
        case 3: return .string(pick(["", "plain", "quote\" back\\slash /slash", "ctl\u{1}\u{1F}\n\t", "é😀\u{2028}", "\u{FEFF}bom"], &rng))
        case 4: return .array((0..<Int(rng.next() % 4)).map { _ in randomValue(&rng, depth: depth + 1) })
        default:
            var object = JSONObject()
            for _ in 0..<Int(rng.next() % 4) { object[pick(unknownKeys, &rng)] = randomValue(&rng, depth: depth + 1) }
            return .object(object)
        }
    }

    /// Respells numbers everywhere; adds unknown members to rooms and elements (objects
    /// with an `identifier`, `center` or `walls`), never to tagged values like `{"wall":{}}`.
    static func value(_ value: JSONValue, _ rng: inout SplitMix, inElement: Bool) -> JSONValue {
        switch value {
        case .number(let n): return .number(JSONNumber(text: number(n.text, &rng)))
        case .array(let elements): return .array(elements.map { Perturbation.value($0, &rng, inElement: false) })
        case .object(let object):
            var result = JSONObject(object.members.map { JSONMember($0.key, Perturbation.value($0.value, &rng, inElement: false)) })
            let isHost = object["identifier"] != nil || object["center"] != nil || object["walls"] != nil
            if isHost && chance(30, &rng) {
                let key = pick(unknownKeys, &rng)
                if result[key] == nil { result[key] = randomValue(&rng) }
            }
            return .object(result)
        default: return value
        }
    }

    static func whitespace(_ rng: inout SplitMix) -> String {
        pick(["", "", " ", "\n", "\t", "\r\n  ", "  "], &rng)
    }

    /// Any legal spelling of a string: some characters as `\u` escapes, `/` either way.
    static func string(_ text: String, _ rng: inout SplitMix) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/": out += chance(50, &rng) ? "\\/" : "/"
            default:
                if scalar.value < 0x20 || chance(5, &rng) {
                    for unit in String(scalar).utf16 { out += "\\u" + String(format: "%04X", unit) }
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// Shuffled members, random whitespace, strings spelled in any legal way.
    static func serialize(_ value: JSONValue, _ rng: inout SplitMix) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let n): return n.text
        case .string(let text): return string(text, &rng)
        case .array(let elements):
            return "[" + whitespace(&rng) + elements.map { serialize($0, &rng) + whitespace(&rng) }.joined(separator: "," + whitespace(&rng)) + "]"
        case .object(let object):
            var members = object.members
            members.shuffle(using: &rng)
            return "{" + whitespace(&rng) + members.map {
                string($0.key, &rng) + whitespace(&rng) + ":" + whitespace(&rng) + serialize($0.value, &rng) + whitespace(&rng)
            }.joined(separator: "," + whitespace(&rng)) + "}"
        }
    }
}
