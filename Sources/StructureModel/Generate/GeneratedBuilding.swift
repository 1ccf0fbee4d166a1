/// What to generate.
public struct BuildingSpec: Sendable, Hashable {
    public var seed: UInt64
    public var rooms: Int
    public var stories: Int
    /// Size of each capture's stand-in `coreModel`, before base64. Real ones are 67 KB
    /// and 164 KB; the default keeps test fixtures small.
    public var coreModelBytes: Int
    /// How much the separate captures stray from the truth, as a scan does: 1 is a real
    /// phone's (walls off by up to 3 cm and 0.5°, now and then split in two or partly
    /// scanned), 0 exact captures; other values scale the sizes. The structure is the same
    /// whatever the noise.
    public var noise: Double
    /// How many rooms are captured a second time, in a session of their own.
    public var rescans: Int
    /// Doorways as real RoomPlan exports show them rather than as the noise above alone
    /// would: doors of a few standard widths (0.76, 0.81 or 0.86 m), so look-alikes abound;
    /// each side's width off by up to ±4 cm and its middle by up to 16 cm along the wall (the
    /// two sides of a real doorway lie 4 to 25 cm apart along it, see `ScanNoise`);
    /// now and then (1 in 10) a doorway one side does not see at all, and (1 in 12) one that
    /// a side sees 0.3 to 1.1 m wider, run into what is beside it. (In a real 5-room home
    /// exported by RoomPlan the two sides of one doorway differed by 6 to 8 cm, one room saw a
    /// double door as one 1.93 m door where the next saw two, another a 3.78 m door where its
    /// neighbour saw 0.62 m, and one door was seen from one side only.)
    public var realDoorways: Bool

    public init(seed: UInt64 = 1, rooms: Int = 6, stories: Int = 1, coreModelBytes: Int = 4_000,
                noise: Double = 1, rescans: Int = 0, realDoorways: Bool = false) {
        self.seed = seed
        self.rooms = max(1, rooms)
        self.stories = max(1, min(stories, self.rooms))
        self.coreModelBytes = max(0, coreModelBytes)
        self.noise = noise.isFinite ? max(0, noise) : 0
        self.rescans = max(0, min(rescans, self.rooms))
        self.realDoorways = realDoorways
    }
}

/// Where a capture put the walls it shares: on the wall's face toward its room, or near
/// the wall's centre line. Real exports do both, so two rooms' copies of one wall are
/// between 0 and the wall's thickness apart.
public enum WallPlacement: String, Sendable, Hashable {
    case face
    case centreLine
}

/// One room as a separate scan session would leave it: in its own coordinate frame.
public struct GeneratedCapture: Sendable {
    public var fileName: String
    public var room: CapturedRoom
    public var label: String
    public var story: Int
    /// Maps the capture's frame into the building's: what `align` should find.
    public var placement: RigidMotion
    /// Which of the structure's rooms this is a scan of.
    public var roomIndex: Int
    /// For a rescan, the file of the room's first capture.
    public var rescanOf: String?
    public var wallPlacement: WallPlacement
    /// For each element identifier of the structure's room, the identifiers that stand for
    /// it in this capture: the same one for a first capture (two for a wall scanned in two
    /// parts), new ones for a rescan.
    public var identifiers: [String: [String]]
}

/// A capture element: the file it is in and its identifier there.
public struct CaptureElement: Sendable, Hashable {
    public var file: String
    public var identifier: String
}

/// What one structure-level element stands for: every capture element (in first captures
/// and rescans) that a perfect merge would fold into it.
public struct StructureElementTruth: Sendable, Hashable {
    /// `walls`, `doors`, `windows`, `openings`, `floors` or `objects`.
    public var array: CapturedRoom.ArrayKey
    public var identifier: String
    public var sources: [CaptureElement]
    /// For walls: face to face, in metres.
    public var thickness: Double?
    /// For walls: whether it is an outside wall (one room beside it).
    public var isExterior: Bool?
}

/// A generated building: the merged structure (every room in one frame, exact) and the
/// same rooms as separate captures (each in its own frame, with a scan's noise), with the
/// ground truth that relates them.
public struct GeneratedBuilding: Sendable {
    public var spec: BuildingSpec
    public var structure: CapturedStructure
    /// First captures in room order, then rescans.
    public var captures: [GeneratedCapture]
    /// For every structure-level wall, door, window, opening, floor and object, in that
    /// order and in array order, the capture elements it stands for.
    public var provenance: [StructureElementTruth]
    /// How far the whole building is turned from the grid it was laid out on (radians).
    public var buildingYaw: Double

    /// The ground truth, as JSON for tests and benchmarks (`ground-truth.json`). Keys are
    /// sorted; lengths are metres, angles degrees.
    ///
    /// ```
    /// {
    ///   "buildingYawDegrees": 37.5,        // the building's turn from its layout grid
    ///   "captures": [{                      // first captures in room order, then rescans
    ///     "file": "room-01-livingRoom.json",
    ///     "label": "livingRoom", "story": 0,
    ///     "rescanOf": null,                 // or the file of the room's first capture
    ///     "room": 0,                        // index in structure.json's "rooms"
    ///     "transform": [16 floats],         // column-major: capture frame -> building frame
    ///     "translation": [x, y, z], "yawDegrees": 12.5,   // the same placement
    ///     "wallPlacement": "face"           // or "centreLine": where its shared walls lie
    ///   }],
    ///   "noise": 1, "rescans": 0, "rooms": 6, "seed": 1, "stories": 1,
    ///   "structure": {                      // one entry per element of structure.json's
    ///     "doors": [{                       // top-level arrays, in their order
    ///       "identifier": "…",              // the structure element's identifier
    ///       "sources": [{"file": "room-01-livingRoom.json", "identifier": "…"}, …]
    ///     }],
    ///     "floors": […], "objects": […], "openings": […], "windows": […],
    ///     "walls": [{"exterior": false, "identifier": "…", "sources": […], "thickness": 0.12}]
    ///   }
    /// }
    /// ```
    ///
    /// A wall between two rooms stands for both rooms' walls along it (a hallway's side,
    /// one wall in the hallway's capture, is part of several structure walls); a wall
    /// scanned in two parts lists both; a story's floor stands for every room floor of
    /// that story. Sections have no identifiers: structure section i is room i's.
    public func groundTruthJSON() -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("buildingYawDegrees")
        writer.number(JSONNumber(text: formatted(buildingYaw * 180 / .pi, digits: 6)))
        writer.key("captures")
        writer.beginArray()
        for capture in captures {
            writer.beginObject()
            writer.key("file")
            writer.string(capture.fileName)
            writer.key("label")
            writer.string(capture.label)
            writer.key("rescanOf")
            if let original = capture.rescanOf { writer.string(original) } else { writer.null() }
            writer.key("room")
            writer.int(capture.roomIndex)
            writer.key("story")
            writer.int(capture.story)
            writer.key("transform")
            writer.floats(RigidMotionMatrix.elements(of: capture.placement))
            writer.key("translation")
            writer.beginArray()
            for value in [capture.placement.translation.x, capture.placement.translation.y,
                          capture.placement.translation.z] {
                writer.number(JSONNumber(text: formatted(value, digits: 6)))
            }
            writer.endArray()
            writer.key("wallPlacement")
            writer.string(capture.wallPlacement.rawValue)
            writer.key("yawDegrees")
            writer.number(JSONNumber(text: formatted(capture.placement.yaw * 180 / .pi, digits: 6)))
            writer.endObject()
        }
        writer.endArray()
        writer.key("noise")
        writer.number(JSONNumber(text: "\(spec.noise)"))
        if spec.realDoorways {
            writer.key("realDoorways")
            writer.bool(true)
        }
        writer.key("rescans")
        writer.int(spec.rescans)
        writer.key("rooms")
        writer.int(spec.rooms)
        writer.key("seed")
        writer.number(JSONNumber(text: String(spec.seed)))
        writer.key("stories")
        writer.int(spec.stories)
        writer.key("structure")
        writer.beginObject()
        let keys: [CapturedRoom.ArrayKey] = [.doors, .floors, .objects, .openings, .walls, .windows]
        var byArray: [CapturedRoom.ArrayKey: [StructureElementTruth]] = [:]
        for truth in provenance { byArray[truth.array, default: []].append(truth) }
        for key in keys {
            writer.key(key.rawValue)
            writer.beginArray()
            for truth in byArray[key] ?? [] {
                writer.beginObject()
                if let isExterior = truth.isExterior {
                    writer.key("exterior")
                    writer.bool(isExterior)
                }
                writer.key("identifier")
                writer.string(truth.identifier)
                writer.key("sources")
                writer.beginArray()
                for source in truth.sources {
                    writer.beginObject()
                    writer.key("file")
                    writer.string(source.file)
                    writer.key("identifier")
                    writer.string(source.identifier)
                    writer.endObject()
                }
                writer.endArray()
                if let thickness = truth.thickness {
                    writer.key("thickness")
                    writer.number(JSONNumber(text: formatted(thickness, digits: 2)))
                }
                writer.endObject()
            }
            writer.endArray()
        }
        writer.endObject()
        writer.endObject()
        return writer.bytes
    }
}

enum RigidMotionMatrix {
    static func elements(of motion: RigidMotion) -> [Float] {
        let matrix = motion.apply(to: .identity).elements
        return (0..<16).map { matrix[$0] }
    }
}
