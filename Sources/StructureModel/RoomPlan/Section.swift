/// A labelled part of a room (iOS 17): `CapturedRoom.Section`. Sections have no
/// identifier and no geometry beyond their centre; nothing in the file says which
/// elements belong to which section.
public struct Section: Sendable, Hashable {
    public var center: SIMD3<Float>
    /// As written in the file; `SectionLabel.isKnown` tells whether RoomPlan knows it.
    public var label: String
    public var story: Int?
    public var extra: JSONObject
    /// How the file spelled numbers that `JSONWriter` would print otherwise; see `NumberSpellings`.
    public var numberSpellings = NumberSpellings()

    /// The keys this type reads and writes itself; no key in `extra` may be one of them.
    static let modelledKeys: [StaticString] = ["center", "label", "story"]

    public init(label: String, center: SIMD3<Float>, story: Int = 0) {
        self.center = center
        self.label = label
        self.story = story
        self.extra = JSONObject()
    }
}

extension Section {
    init(reading reader: inout JSONReader) throws {
        let start = reader.offset
        var center: SIMD3<Float>?
        var label: String?
        var story: Int?
        var extra = JSONObject()
        var spellings = NumberSpellingsBuilder()
        var seen = KeySet()
        try reader.readObject { reader, key in
            try seen.insert(key, reader: reader)
            switch key {
            case "center": center = try reader.readVector("center", spellings: &spellings, first: NumberSlot.of(.center, 0))
            case "label": label = try reader.readString()
            case "story": story = try reader.readInt(spellings: &spellings, slot: NumberSlot.of(.story, 0))
            default: extra.members.append(JSONMember(key.string, try reader.readValue()))
            }
        }
        guard let center else { throw reader.error("a section needs a \"center\"", absolute: start) }
        guard let label else { throw reader.error("a section needs a \"label\"", absolute: start) }
        self.center = center
        self.label = label
        self.story = story
        self.extra = extra
        self.numberSpellings = spellings.build()
    }

    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        var extras = ExtraMembers(extra, modelled: Self.modelledKeys, writer: &writer)
        extras.flush(before: "center", into: &writer)
        writer.key("center")
        writer.vector(center, spellings: numberSpellings, first: NumberSlot.of(.center, 0))
        extras.flush(before: "label", into: &writer)
        writer.key("label")
        writer.string(label)
        if let story {
            extras.flush(before: "story", into: &writer)
            writer.key("story")
            writer.int(story, spellings: numberSpellings, slot: NumberSlot.of(.story, 0))
        }
        extras.flushRest(into: &writer)
        writer.endObject()
    }
}
