// libFuzzer harness: the where-expression parser (`list where …`, `anchors where …`).
//
// The input is the expression's words, one per line; a line starting with a double quote
// is a quoted word (the quote itself is dropped). Each input is compiled against the
// element schema and against an open-ended schema like the anchors', and whatever
// compiles is run over a few rows. The laws: no traps; a QueryError names a word that
// exists and a character offset inside (or just past the end of) that word.
@testable import StructureModel

struct FuzzRow: QueryRow {
    var schema: QuerySchema
    var variant: Int

    func value(_ field: String) -> FieldValue? {
        let kind = schema.fields[field] ?? (schema.openEnded ? .dynamic : nil)
        guard let kind, variant > 0 else { return nil }
        let big = variant == 2
        switch kind {
        case .length: return .length(big ? 1e300 : 0.8)
        case .area: return .area(big ? -0.0 : 12.5)
        case .number: return .number(big ? -7 : 2)
        case .confidence: return .confidence(big ? 2 : 0, big ? "high" : "low")
        case .text: return .text(big ? "Ünïcödé *?[" : "Chair")
        case .flag: return .flag(big)
        case .reference: return .reference(big ? "o12" : "r1")
        case .category: return .text(big ? "unknownThing" : "chair")
        case .dynamic: return big ? .text("yellow") : .number(3)
        }
    }
}

let openSchema = QuerySchema(
    fields: ["handle": .reference, "space": .reference, "room": .reference, "identifier": .text, "state": .text,
             "deleted": .flag, "version": .number, "x": .length, "y": .length, "z": .length],
    openEnded: true, suggestions: [])

func fuzzWords(_ bytes: [UInt8]) -> [QueryWord] {
    let text = String(decoding: bytes, as: UTF8.self)
    return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
        line.first == "\"" ? QueryWord(String(line.dropFirst()), quoted: true) : QueryWord(String(line))
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func whereFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let words = fuzzWords(fuzzInput(data, size))
    for schema in [QuerySchema.elements, openSchema] {
        do {
            let query = try Query.compile(words, schema: schema)
            for variant in 0..<3 {
                _ = query.matches(FuzzRow(schema: schema, variant: variant))
            }
        } catch {
            if words.isEmpty ? error.word != 0 : !(0..<words.count).contains(error.word) {
                violation("QueryError names word \(error.word) of \(words.count): \(error.message)")
            }
            let length = words.isEmpty ? 0 : words[error.word].text.count
            if error.offset < 0 || error.offset > length {
                violation("QueryError offset \(error.offset) outside word \(error.word) of \(length) characters: \(error.message)")
            }
        }
    }
    return 0
}
