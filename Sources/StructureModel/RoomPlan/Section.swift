/// A labelled part of a room (iOS 17): `CapturedRoom.Section`. Sections have no
/// identifier and no geometry beyond their centre; nothing in the file says which
/// elements belong to which section.
public struct Section: Sendable, Hashable {
    public var center: SIMD3<Float>
    /// As written in the file; `SectionLabel.isKnown` tells whether RoomPlan knows it.
    public var label: String
    public var story: Int?
    public var extra: JSONObject

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
        var seen = KeySet()
        try reader.readObject { reader, key in
            try seen.insert(key, reader: reader)
            switch key {
            case "center": center = try reader.readVector("center")
            case "label": label = try reader.readString()
            case "story": story = try reader.readInt()
            default: extra.members.append(JSONMember(key.string, try reader.readValue()))
            }
        }
        guard let center else { throw reader.error("a section needs a \"center\"", absolute: start) }
        guard let label else { throw reader.error("a section needs a \"label\"", absolute: start) }
        self.center = center
        self.label = label
        self.story = story
        self.extra = extra
    }

    func write(to writer: inout JSONWriter) {
        var extras = ExtraMembers(extra)
        writer.beginObject()
        extras.flush(before: "center", into: &writer)
        writer.key("center")
        writer.vector(center)
        extras.flush(before: "label", into: &writer)
        writer.key("label")
        writer.string(label)
        if let story {
            extras.flush(before: "story", into: &writer)
            writer.key("story")
            writer.int(story)
        }
        extras.flushRest(into: &writer)
        writer.endObject()
    }
}
