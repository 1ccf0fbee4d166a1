/// A wall, door, window, opening or floor: `CapturedRoom.Surface`.
///
/// Optional properties are nil when the file does not have the key at all (iOS 16 files
/// lack `parentIdentifier`, `polygonCorners` and `story`), so a file is written back
/// with exactly the keys it had. Keys wb does not model are kept in `extra`.
public struct Surface: Sendable, Hashable {
    public var category: SurfaceCategory
    /// A `Set` on iOS: kept in the order the file lists it.
    public var completedEdges: [SurfaceEdge]?
    public var confidence: Confidence?
    /// Kept as JSON: no real curved wall has been seen, so its shape is not modelled.
    /// nil when the key is absent; `.null` for RoomPlan's explicit `null`.
    public var curve: JSONValue?
    /// [width along local X, height along local Y, depth], metres.
    public var dimensions: SIMD3<Float>
    public var identifier: String
    /// The wall a door, window or opening sits in. Written as `null` when nil and the
    /// file has the key.
    public var parentIdentifier: String? {
        didSet { if parentIdentifier != nil { hasParentKey = true } }
    }
    public var hasParentKey: Bool
    /// In the surface's local plane (z ≈ 0); empty for rectangles.
    public var polygonCorners: [SIMD3<Float>]?
    public var story: Int?
    public var transform: Transform
    public var extra: JSONObject
    /// How the file spelled numbers that `JSONWriter` would print otherwise; see `NumberSpellings`.
    public var numberSpellings = NumberSpellings()

    /// The keys this type reads and writes itself; no key in `extra` may be one of them.
    static let modelledKeys: [StaticString] = [
        "category", "completedEdges", "confidence", "curve", "dimensions", "identifier",
        "parentIdentifier", "polygonCorners", "story", "transform",
    ]

    public init(
        category: SurfaceCategory,
        identifier: String,
        dimensions: SIMD3<Float>,
        transform: Transform,
        confidence: Confidence = .high,
        parentIdentifier: String? = nil,
        polygonCorners: [SIMD3<Float>] = [],
        completedEdges: [SurfaceEdge] = [],
        story: Int = 0
    ) {
        self.category = category
        self.completedEdges = completedEdges
        self.confidence = confidence
        self.curve = JSONValue.null
        self.dimensions = dimensions
        self.identifier = identifier
        self.parentIdentifier = parentIdentifier
        self.hasParentKey = true
        self.polygonCorners = polygonCorners
        self.story = story
        self.transform = transform
        self.extra = JSONObject()
    }
}

extension Surface {
    init(reading reader: inout JSONReader) throws {
        let start = reader.offset
        var category: SurfaceCategory?
        var completedEdges: [SurfaceEdge]?
        var confidence: Confidence?
        var curve: JSONValue?
        var dimensions: SIMD3<Float>?
        var identifier: String?
        var parentIdentifier: String?
        var hasParentKey = false
        var polygonCorners: [SIMD3<Float>]?
        var story: Int?
        var transform: Transform?
        var extra = JSONObject()
        var spellings = NumberSpellingsBuilder()
        var seen = KeySet()
        try reader.readObject { reader, key in
            try seen.insert(key, reader: reader)
            switch key {
            case "category": category = SurfaceCategory(json: try reader.readTagged("category", like: #"{"wall":{}}"#))
            case "completedEdges": completedEdges = try reader.readEdges()
            case "confidence": confidence = Confidence(json: try reader.readTagged("confidence", like: #"{"high":{}}"#))
            case "curve": curve = try reader.readValue()
            case "dimensions":
                dimensions = try reader.readVector("dimensions", spellings: &spellings, first: NumberSlot.of(.dimensions, 0))
            case "identifier": identifier = try reader.readString()
            case "parentIdentifier":
                hasParentKey = true
                parentIdentifier = try reader.readNullIfPresent() ? nil : try reader.readString()
            case "polygonCorners": polygonCorners = try reader.readCorners("polygonCorners", spellings: &spellings)
            case "story": story = try reader.readInt(spellings: &spellings, slot: NumberSlot.of(.story, 0))
            case "transform": transform = try reader.readTransform(spellings: &spellings)
            default: extra.members.append(JSONMember(key.string, try reader.readValue()))
            }
        }
        guard let category else { throw reader.error("a surface needs a \"category\"", absolute: start) }
        guard let dimensions else { throw reader.error("a surface needs \"dimensions\"", absolute: start) }
        guard let identifier else { throw reader.error("a surface needs an \"identifier\"", absolute: start) }
        guard let transform else { throw reader.error("a surface needs a \"transform\"", absolute: start) }
        self.category = category
        self.completedEdges = completedEdges
        self.confidence = confidence
        self.curve = curve
        self.dimensions = dimensions
        self.identifier = identifier
        self.parentIdentifier = parentIdentifier
        self.hasParentKey = hasParentKey
        self.polygonCorners = polygonCorners
        self.story = story
        self.transform = transform
        self.extra = extra
        self.numberSpellings = spellings.build()
    }

    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        var extras = ExtraMembers(extra, modelled: Self.modelledKeys, writer: &writer)
        extras.flush(before: "category", into: &writer)
        writer.key("category")
        writer.tagged(category.json)
        if let completedEdges {
            extras.flush(before: "completedEdges", into: &writer)
            writer.key("completedEdges")
            writer.beginArray()
            for edge in completedEdges { writer.tagged(edge.json) }
            writer.endArray()
        }
        if let confidence {
            extras.flush(before: "confidence", into: &writer)
            writer.key("confidence")
            writer.tagged(confidence.json)
        }
        if let curve {
            extras.flush(before: "curve", into: &writer)
            writer.key("curve")
            writer.value(curve)
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
        if let polygonCorners {
            extras.flush(before: "polygonCorners", into: &writer)
            writer.key("polygonCorners")
            writer.corners(polygonCorners, spellings: numberSpellings)
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
