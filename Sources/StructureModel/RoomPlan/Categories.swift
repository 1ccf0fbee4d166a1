/// RoomPlan writes payload-free enums as single-key objects (`{"high":{}}`). A value whose
/// case wb does not know (a newer iOS) keeps its whole JSON as `.other`, is shown by its
/// case name and written back untouched.
func taggedName(_ value: JSONValue) -> String? {
    guard case .object(let object) = value, object.count == 1 else { return nil }
    return object.members[0].key
}

func taggedPayloadIsEmpty(_ value: JSONValue) -> Bool {
    guard case .object(let object) = value, object.count == 1,
          case .object(let payload) = object.members[0].value else { return false }
    return payload.isEmpty
}

func tagged(_ name: String, _ payload: JSONObject = JSONObject()) -> JSONValue {
    .object(JSONObject([JSONMember(name, .object(payload))]))
}

/// How sure RoomPlan is of an element.
public enum Confidence: Sendable, Hashable, CustomStringConvertible {
    case low, medium, high
    case other(JSONValue)

    public init(json: JSONValue) {
        switch (taggedName(json), taggedPayloadIsEmpty(json)) {
        case ("low", true): self = .low
        case ("medium", true): self = .medium
        case ("high", true): self = .high
        default: self = .other(json)
        }
    }

    public init?(name: String) {
        switch name {
        case "low": self = .low
        case "medium": self = .medium
        case "high": self = .high
        default: return nil
        }
    }

    public var json: JSONValue {
        switch self {
        case .low: return tagged("low")
        case .medium: return tagged("medium")
        case .high: return tagged("high")
        case .other(let value): return value
        }
    }

    public var name: String {
        switch self {
        case .low: return "low"
        case .medium: return "medium"
        case .high: return "high"
        case .other(let value): return taggedName(value) ?? "?"
        }
    }

    /// low < medium < high; unknown levels sort first.
    public var rank: Int {
        switch self {
        case .low: return 1
        case .medium: return 2
        case .high: return 3
        case .other: return 0
        }
    }

    public var description: String { name }
}

/// What a `Surface` is. `door` carries whether it was open.
public enum SurfaceCategory: Sendable, Hashable, CustomStringConvertible {
    case wall, opening, window, floor
    case door(isOpen: Bool)
    case other(JSONValue)

    public init(json: JSONValue) {
        let name = taggedName(json)
        if taggedPayloadIsEmpty(json) {
            switch name {
            case "wall": self = .wall; return
            case "opening": self = .opening; return
            case "window": self = .window; return
            case "floor": self = .floor; return
            default: break
            }
        }
        if name == "door", case .object(let outer) = json, case .object(let payload) = outer.members[0].value,
           payload.count == 1, case .bool(let isOpen)? = payload["isOpen"] {
            self = .door(isOpen: isOpen)
            return
        }
        self = .other(json)
    }

    public var json: JSONValue {
        switch self {
        case .wall: return tagged("wall")
        case .opening: return tagged("opening")
        case .window: return tagged("window")
        case .floor: return tagged("floor")
        case .door(let isOpen): return tagged("door", JSONObject([JSONMember("isOpen", .bool(isOpen))]))
        case .other(let value): return value
        }
    }

    public var name: String {
        switch self {
        case .wall: return "wall"
        case .opening: return "opening"
        case .window: return "window"
        case .floor: return "floor"
        case .door: return "door"
        case .other(let value): return taggedName(value) ?? "?"
        }
    }

    public var description: String { name }

    /// Whether a door is open, also for a door a newer iOS writes with more in its payload
    /// (`{"door":{"isOpen":true,…}}`, kept as `.other`): it is a door all the same. nil for
    /// anything else.
    public var doorIsOpen: Bool? {
        switch self {
        case .door(let isOpen): return isOpen
        case .other(let value):
            guard let payload = Self.doorPayload(value), case .bool(let isOpen)? = payload["isOpen"] else { return nil }
            return isOpen
        default: return nil
        }
    }

    /// The same door opened or closed, the rest of a newer iOS's payload kept as it was;
    /// nil when this is not a door.
    public func settingDoorOpen(_ isOpen: Bool) -> SurfaceCategory? {
        switch self {
        case .door: return .door(isOpen: isOpen)
        case .other(let value):
            guard doorIsOpen != nil, var payload = Self.doorPayload(value) else { return nil }
            payload["isOpen"] = .bool(isOpen)
            return .other(tagged("door", payload))
        default: return nil
        }
    }

    private static func doorPayload(_ value: JSONValue) -> JSONObject? {
        guard taggedName(value) == "door", case .object(let outer) = value,
              case .object(let payload) = outer.members[0].value else { return nil }
        return payload
    }
}

/// The 16 object categories of RoomPlan (iOS 16 and 17), plus any newer one as `.other`.
public enum ObjectCategory: Sendable, Hashable, CustomStringConvertible {
    case storage, refrigerator, stove, bed, sink, washerDryer, toilet, bathtub, oven
    case dishwasher, table, sofa, chair, fireplace, television, stairs
    case other(JSONValue)

    public static let known: [ObjectCategory] = [
        .storage, .refrigerator, .stove, .bed, .sink, .washerDryer, .toilet, .bathtub, .oven,
        .dishwasher, .table, .sofa, .chair, .fireplace, .television, .stairs,
    ]

    public init?(name: String) {
        guard let match = Self.known.first(where: { $0.name == name }) else { return nil }
        self = match
    }

    public init(json: JSONValue) {
        if taggedPayloadIsEmpty(json), let name = taggedName(json), let known = ObjectCategory(name: name) {
            self = known
        } else {
            self = .other(json)
        }
    }

    public var json: JSONValue {
        if case .other(let value) = self { return value }
        return tagged(name)
    }

    public var name: String {
        switch self {
        case .storage: return "storage"
        case .refrigerator: return "refrigerator"
        case .stove: return "stove"
        case .bed: return "bed"
        case .sink: return "sink"
        case .washerDryer: return "washerDryer"
        case .toilet: return "toilet"
        case .bathtub: return "bathtub"
        case .oven: return "oven"
        case .dishwasher: return "dishwasher"
        case .table: return "table"
        case .sofa: return "sofa"
        case .chair: return "chair"
        case .fireplace: return "fireplace"
        case .television: return "television"
        case .stairs: return "stairs"
        case .other(let value): return taggedName(value) ?? "?"
        }
    }

    public var description: String { name }

    /// The iOS 17 attributes RoomPlan gives objects of this category, with their values.
    public var attributeSchema: [(name: String, values: [String])] {
        switch self {
        case .chair:
            return [("ChairArmType", ["existing", "missing"]),
                    ("ChairBackType", ["existing", "missing"]),
                    ("ChairLegType", ["four", "star", "unidentified"]),
                    ("ChairType", ["dining", "stool", "swivel", "unidentified"])]
        case .sofa:
            return [("SofaType", ["rectangular", "lShaped", "lShapedExtension", "singleSeat", "unidentified"])]
        case .table:
            return [("TableShapeType", ["rectangular", "circularElliptic", "lShaped", "unidentified"]),
                    ("TableType", ["coffee", "dining", "unidentified"])]
        case .storage:
            return [("StorageType", ["cabinet", "shelf"])]
        default:
            return []
        }
    }
}

/// An edge of a surface that RoomPlan saw completely.
public enum SurfaceEdge: Sendable, Hashable, CustomStringConvertible {
    case top, bottom, left, right
    case other(JSONValue)

    public init(json: JSONValue) {
        switch (taggedName(json), taggedPayloadIsEmpty(json)) {
        case ("top", true): self = .top
        case ("bottom", true): self = .bottom
        case ("left", true): self = .left
        case ("right", true): self = .right
        default: self = .other(json)
        }
    }

    public var json: JSONValue {
        if case .other(let value) = self { return value }
        return tagged(description)
    }

    public var description: String {
        switch self {
        case .top: return "top"
        case .bottom: return "bottom"
        case .left: return "left"
        case .right: return "right"
        case .other(let value): return taggedName(value) ?? "?"
        }
    }
}

/// The labels RoomPlan gives sections. Stored as the string in the file, so a label from
/// a newer iOS survives; `isKnown` tells whether it is one of these.
public enum SectionLabel {
    public static let known = ["livingRoom", "bedroom", "bathroom", "kitchen", "diningRoom", "unidentified"]

    public static func isKnown(_ label: String) -> Bool { known.contains(label) }
}
