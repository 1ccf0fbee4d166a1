/// A piece of furniture or a fixture: `CapturedRoom.Object`. Its transform puts the
/// centre of its box in the world; `dimensions` is the box.
public struct Object: Sendable, Hashable {
    /// iOS 17: attribute type name to value, as in the file (`"ChairType": "swivel"`).
    /// nil when the file has no `attributes` key (iOS 16).
    public var attributes: JSONObject?
    public var category: ObjectCategory
    public var confidence: Confidence?
    public var dimensions: SIMD3<Float>
    public var identifier: String
    /// Another object (a chair's table) or a surface. Written as `null` when nil and
    /// the file has the key.
    public var parentIdentifier: String? {
        didSet { if parentIdentifier != nil { hasParentKey = true } }
    }
    public var hasParentKey: Bool
    public var story: Int?
    public var transform: Transform
    public var extra: JSONObject
    /// How the file spelled numbers that `JSONWriter` would print otherwise; see `NumberSpellings`.
    public var numberSpellings = NumberSpellings()

    /// The keys this type reads and writes itself; no key in `extra` may be one of them.
    static let modelledKeys: [StaticString] = [
        "attributes", "category", "confidence", "dimensions", "identifier", "parentIdentifier", "story", "transform",
    ]

    public init(
        category: ObjectCategory,
        identifier: String,
        dimensions: SIMD3<Float>,
        transform: Transform,
        confidence: Confidence = .high,
        attributes: [(String, String)] = [],
        parentIdentifier: String? = nil,
        story: Int = 0
    ) {
        self.attributes = JSONObject(attributes.map { JSONMember($0.0, .string($0.1)) })
        self.category = category
        self.confidence = confidence
        self.dimensions = dimensions
        self.identifier = identifier
        self.parentIdentifier = parentIdentifier
        self.hasParentKey = true
        self.story = story
        self.transform = transform
        self.extra = JSONObject()
    }

    /// The value of an attribute when it is a string, as every known attribute is.
    public func attribute(_ name: String) -> String? {
        guard case .string(let value)? = attributes?[name] else { return nil }
        return value
    }
}

extension Object {
    init(reading reader: inout JSONReader) throws {
        let start = reader.offset
        var attributes: JSONObject?
        var category: ObjectCategory?
        var confidence: Confidence?
        var dimensions: SIMD3<Float>?
        var identifier: String?
        var parentIdentifier: String?
        var hasParentKey = false
        var story: Int?
        var transform: Transform?
        var extra = JSONObject()
        var spellings = NumberSpellingsBuilder()
        var seen = KeySet()
        try reader.readObject { reader, key in
            try seen.insert(key, reader: reader)
            switch key {
            case "attributes":
                let at = reader.offset
                guard case .object(let object) = try reader.readValue() else {
                    throw reader.error("expected \"attributes\" to be an object", absolute: at)
                }
                attributes = object
            case "category": category = ObjectCategory(json: try reader.readTagged("category", like: #"{"table":{}}"#))
            case "confidence": confidence = Confidence(json: try reader.readTagged("confidence", like: #"{"high":{}}"#))
            case "dimensions":
                dimensions = try reader.readVector("dimensions", spellings: &spellings, first: NumberSlot.of(.dimensions, 0))
            case "identifier": identifier = try reader.readString()
            case "parentIdentifier":
                hasParentKey = true
                parentIdentifier = try reader.readNullIfPresent() ? nil : try reader.readString()
            case "story": story = try reader.readInt(spellings: &spellings, slot: NumberSlot.of(.story, 0))
            case "transform": transform = try reader.readTransform(spellings: &spellings)
            default: extra.members.append(JSONMember(key.string, try reader.readValue()))
            }
        }
        guard let category else { throw reader.error("an object needs a \"category\"", absolute: start) }
        guard let dimensions else { throw reader.error("an object needs \"dimensions\"", absolute: start) }
        guard let identifier else { throw reader.error("an object needs an \"identifier\"", absolute: start) }
        guard let transform else { throw reader.error("an object needs a \"transform\"", absolute: start) }
        self.attributes = attributes
        self.category = category
        self.confidence = confidence
        self.dimensions = dimensions
        self.identifier = identifier
        self.parentIdentifier = parentIdentifier
        self.hasParentKey = hasParentKey
        self.story = story
        self.transform = transform
        self.extra = extra
        self.numberSpellings = spellings.build()
    }

    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        var extras = ExtraMembers(extra, modelled: Self.modelledKeys, writer: &writer)
        if let attributes {
            extras.flush(before: "attributes", into: &writer)
            writer.key("attributes")
            writer.value(.object(attributes))
        }
        extras.flush(before: "category", into: &writer)
        writer.key("category")
        writer.tagged(category.json)
        if let confidence {
            extras.flush(before: "confidence", into: &writer)
            writer.key("confidence")
            writer.tagged(confidence.json)
        }
        extras.flush(before: "dimensions", into: &writer)
        writer.key("dimensions")
        writer.vector(dimensions, spellings: numberSpellings, first: NumberSlot.of(.dimensions, 0))
        extras.flush(before: "identifier", into: &writer)
        writer.key("identifier")
        writer.string(identifier)
        if hasParentKey {
            extras.flush(before: "parentIdentifier", into: &writer)
            writer.key("parentIdentifier")
            if let parentIdentifier { writer.string(parentIdentifier) } else { writer.null() }
        }
        if let story {
            extras.flush(before: "story", into: &writer)
            writer.key("story")
            writer.int(story, spellings: numberSpellings, slot: NumberSlot.of(.story, 0))
        }
        extras.flush(before: "transform", into: &writer)
        writer.key("transform")
        writer.transform(transform, spellings: numberSpellings)
        extras.flushRest(into: &writer)
        writer.endObject()
    }
}
