/// What to generate.
public struct BuildingSpec: Sendable, Hashable {
    public var seed: UInt64
    public var rooms: Int
    public var stories: Int
    /// Size of each capture's stand-in `coreModel`, before base64. Real ones are 67 KB
    /// and 164 KB; the default keeps test fixtures small.
    public var coreModelBytes: Int

    public init(seed: UInt64 = 1, rooms: Int = 6, stories: Int = 1, coreModelBytes: Int = 4_000) {
        self.seed = seed
        self.rooms = max(1, rooms)
        self.stories = max(1, min(stories, self.rooms))
        self.coreModelBytes = max(0, coreModelBytes)
    }
}

/// One room as a separate scan session would leave it: in its own coordinate frame.
public struct GeneratedCapture: Sendable {
    public var fileName: String
    public var room: CapturedRoom
    public var label: String
    public var story: Int
    /// Maps the capture's frame into the building's: what `align` should find.
    public var placement: RigidMotion
}

/// A generated building: the merged structure (every room in one frame) and the same
/// rooms as separate captures, with the ground truth that relates them.
public struct GeneratedBuilding: Sendable {
    public var spec: BuildingSpec
    public var structure: CapturedStructure
    public var captures: [GeneratedCapture]

    /// The placement of every capture in the building, as JSON for tests and benchmarks.
    public func groundTruthJSON() -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("captures")
        writer.beginArray()
        for capture in captures {
            writer.beginObject()
            writer.key("file")
            writer.string(capture.fileName)
            writer.key("label")
            writer.string(capture.label)
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
            writer.key("yawDegrees")
            writer.number(JSONNumber(text: formatted(capture.placement.yaw * 180 / .pi, digits: 6)))
            writer.endObject()
        }
        writer.endArray()
        writer.key("rooms")
        writer.int(spec.rooms)
        writer.key("seed")
        writer.number(JSONNumber(text: String(spec.seed)))
        writer.key("stories")
        writer.int(spec.stories)
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

/// Writes realistic RoomPlan data, deterministic by seed: rooms laid out on a grid per
/// story, walls shared between neighbours, doors joining every room to the rest, windows
/// in outside walls, furniture by room type with valid attributes and mixed confidences.
public enum BuildingGenerator {
    static let storyHeight = 3.0
    static let groundFloorY = -1.2

    struct Cell {
        var index: Int
        var story: Int
        var row: Int
        var column: Int
        var x0, x1, z0, z1: Double
        var floorY: Double
        var height: Double
        var label: String
        var centre: SIMD3<Double> { SIMD3((x0 + x1) / 2, floorY + height / 2, (z0 + z1) / 2) }
    }

    /// The four sides of a cell, going round it; `direction` is a wall's local X.
    enum Side: Int, CaseIterable {
        case north, east, south, west

        func segment(of cell: Cell) -> (start: SIMD3<Double>, end: SIMD3<Double>) {
            switch self {
            case .north: return (SIMD3(cell.x0, 0, cell.z0), SIMD3(cell.x1, 0, cell.z0))
            case .east: return (SIMD3(cell.x1, 0, cell.z0), SIMD3(cell.x1, 0, cell.z1))
            case .south: return (SIMD3(cell.x1, 0, cell.z1), SIMD3(cell.x0, 0, cell.z1))
            case .west: return (SIMD3(cell.x0, 0, cell.z1), SIMD3(cell.x0, 0, cell.z0))
            }
        }
    }

    struct DoorSpec {
        var rooms: (Int, Int)
        var point: SIMD3<Double>
        var width: Double
        var height: Double
        var isOpen: Bool
    }

    struct WindowSpec {
        var room: Int
        var side: Side
        var point: SIMD3<Double>
        var width: Double
        var height: Double
    }

    public static func generate(_ spec: BuildingSpec) -> GeneratedBuilding {
        var rng = SplitMix(seed: spec.seed)
        let cells = layout(spec, &rng)
        let neighbours = findNeighbours(cells)
        let doors = planDoors(cells, neighbours, &rng)
        let windows = planWindows(cells, neighbours, &rng)

        var nestedRooms: [CapturedRoom] = []
        var captures: [GeneratedCapture] = []
        for cell in cells {
            let room = buildRoom(cell, neighbours: neighbours[cell.index], doors: doors, windows: windows,
                                 cells: cells, spec: spec, rng: &rng)
            nestedRooms.append(room)
            // A separate session starts wherever the phone was: a random heading and origin.
            let placement = RigidMotion(
                yaw: rng.double(-.pi, .pi),
                translation: SIMD3(rng.double(-6, 6), rng.double(-0.4, 0.4), rng.double(-6, 6)))
            var capture = room.moved(by: placement.inverse)
            capture.referenceOriginTransform = RigidMotion(yaw: rng.double(-.pi, .pi),
                                                           translation: SIMD3(rng.double(-0.1, 0.1), rng.double(-0.2, 0.2),
                                                                              rng.double(-0.1, 0.1)))
                .apply(to: .identity)
            var nested = room
            nested.referenceOriginTransform = capture.referenceOriginTransform
            nestedRooms[nestedRooms.count - 1] = nested
            let name = "room-\(String(format2: cell.index + 1))-\(cell.label).json"
            captures.append(GeneratedCapture(fileName: name, room: capture, label: cell.label,
                                             story: cell.story, placement: placement))
        }
        let merged = mergedContents(cells, neighbours: neighbours, doors: doors, windows: windows,
                                    rooms: nestedRooms, rng: &rng)
        return GeneratedBuilding(spec: spec, structure: CapturedStructure(rooms: nestedRooms, merged: merged),
                                 captures: captures)
    }

    // MARK: Layout

    static func layout(_ spec: BuildingSpec, _ rng: inout SplitMix) -> [Cell] {
        var cells: [Cell] = []
        let groundLabels = ["livingRoom", "kitchen", "bathroom", "bedroom", "diningRoom"]
        let upperLabels = ["bedroom", "bathroom", "bedroom", "livingRoom"]
        let others = ["bedroom", "bedroom", "bathroom", "unidentified", "diningRoom", "kitchen", "livingRoom"]
        var remaining = spec.rooms
        for story in 0..<spec.stories {
            let count = remaining / (spec.stories - story) + (remaining % (spec.stories - story) > 0 ? 1 : 0)
            remaining -= count
            let columns = max(1, Int((Double(count) * 1.4).squareRoot().rounded(.up)))
            let rows = (count + columns - 1) / columns
            let widths = (0..<columns).map { _ in rng.double(3.0, 5.5) }
            let depths = (0..<rows).map { _ in rng.double(2.8, 4.8) }
            let height = rng.double(2.35, 2.75)
            let floorY = groundFloorY + Double(story) * storyHeight
            for i in 0..<count {
                let row = i / columns, column = i % columns
                let x0 = widths[..<column].reduce(0, +)
                let z0 = depths[..<row].reduce(0, +)
                let labels = story == 0 ? groundLabels : upperLabels
                let label = i < labels.count ? labels[i] : rng.pick(others)
                cells.append(Cell(index: cells.count, story: story, row: row, column: column,
                                  x0: x0, x1: x0 + widths[column], z0: z0, z1: z0 + depths[row],
                                  floorY: floorY, height: height, label: label))
            }
        }
        return cells
    }

    /// For each cell and side, the cell across that side (same story), if any.
    static func findNeighbours(_ cells: [Cell]) -> [[Side: Int]] {
        var byPosition: [String: Int] = [:]
        for cell in cells { byPosition["\(cell.story)/\(cell.row)/\(cell.column)"] = cell.index }
        return cells.map { cell in
            var result: [Side: Int] = [:]
            let offsets: [(Side, Int, Int)] = [(.north, -1, 0), (.east, 0, 1), (.south, 1, 0), (.west, 0, -1)]
            for (side, dr, dc) in offsets {
                if let other = byPosition["\(cell.story)/\(cell.row + dr)/\(cell.column + dc)"] {
                    result[side] = other
                }
            }
            return result
        }
    }

    /// Every room joins its west neighbour, the first column joins the row above, and a
    /// few more doors make loops, so the plan is connected like a real home.
    static func planDoors(_ cells: [Cell], _ neighbours: [[Side: Int]], _ rng: inout SplitMix) -> [DoorSpec] {
        var doors: [DoorSpec] = []
        for cell in cells {
            var sides: [Side] = []
            if neighbours[cell.index][.west] != nil { sides.append(.west) }
            if neighbours[cell.index][.north] != nil && (cell.column == 0 || rng.chance(0.3)) { sides.append(.north) }
            for side in sides {
                let (start, end) = side.segment(of: cell)
                let t = rng.double(0.3, 0.7)
                let height = rng.double(1.95, 2.1)
                var point = start + (end - start) * t
                point.y = cell.floorY + height / 2
                doors.append(DoorSpec(rooms: (cell.index, neighbours[cell.index][side]!), point: point,
                                      width: rng.double(0.75, 0.95), height: height, isOpen: rng.chance(0.5)))
            }
        }
        return doors
    }

    static func planWindows(_ cells: [Cell], _ neighbours: [[Side: Int]], _ rng: inout SplitMix) -> [WindowSpec] {
        var windows: [WindowSpec] = []
        for cell in cells {
            for side in Side.allCases where neighbours[cell.index][side] == nil {
                let (start, end) = side.segment(of: cell)
                let length = (end - start).length
                guard length > 2.0, rng.chance(0.75) else { continue }
                let height = rng.double(1.0, 1.45)
                var point = start + (end - start) * rng.double(0.35, 0.65)
                point.y = cell.floorY + 0.9 + height / 2
                windows.append(WindowSpec(room: cell.index, side: side, point: point,
                                          width: rng.double(0.8, min(1.8, length - 1.0)), height: height))
            }
        }
        return windows
    }

    // MARK: Elements

    static func surfaceTransform(direction d: SIMD3<Double>, centre: SIMD3<Double>) -> Transform {
        // Local X along the wall, Y up, Z = X × Y (the wall normal), as RoomPlan has them.
        let normal = SIMD3(-d.z, 0, d.x)
        return Transform(elements: SIMD16<Float>(
            Float(d.x), 0, Float(d.z), 0,
            0, 1, 0, 0,
            Float(normal.x), 0, Float(normal.z), 0,
            Float(centre.x), Float(centre.y), Float(centre.z), 1))
    }

    static func confidence(_ rng: inout SplitMix) -> Confidence {
        let roll = rng.double(0, 1)
        return roll < 0.7 ? .high : roll < 0.9 ? .medium : .low
    }

    static func floorSurface(outline: [PlanPoint], floorY: Double, identifier: String,
                             story: Int, confidence: Confidence) -> Surface {
        let xs = outline.map(\.x), zs = outline.map(\.z)
        let centre = SIMD3((xs.min()! + xs.max()!) / 2, floorY, (zs.min()! + zs.max()!) / 2)
        // Local X = world X, local Y = world -Z, local Z = world up (X × Y).
        let transform = Transform(elements: SIMD16<Float>(
            1, 0, 0, 0,
            0, 0, -1, 0,
            0, 1, 0, 0,
            Float(centre.x), Float(centre.y), Float(centre.z), 1))
        let corners = outline.map { SIMD3<Float>(Float($0.x - centre.x), Float(centre.z - $0.z), 0) }
        return Surface(category: .floor, identifier: identifier,
                       dimensions: SIMD3(Float(xs.max()! - xs.min()!), Float(zs.max()! - zs.min()!), 0),
                       transform: transform, confidence: confidence, polygonCorners: corners, story: story)
    }

    static func buildRoom(_ cell: Cell, neighbours: [Side: Int], doors: [DoorSpec], windows: [WindowSpec],
                          cells: [Cell], spec: BuildingSpec, rng: inout SplitMix) -> CapturedRoom {
        var room = CapturedRoom()
        room.coreModel = rng.base64(byteCount: spec.coreModelBytes)
        room.story = cell.story
        room.version = 2
        var wallBySide: [Side: Surface] = [:]
        for side in Side.allCases {
            let (start, end) = side.segment(of: cell)
            let direction = (end - start) / (end - start).length
            var centre = (start + end) / 2
            centre.y = cell.floorY + cell.height / 2
            let wall = Surface(category: .wall, identifier: rng.uuid(),
                               dimensions: SIMD3(Float((end - start).length), Float(cell.height), 0),
                               transform: surfaceTransform(direction: direction, centre: centre),
                               confidence: confidence(&rng), story: cell.story)
            wallBySide[side] = wall
            room.walls.append(wall)
        }
        for door in doors where door.rooms.0 == cell.index || door.rooms.1 == cell.index {
            let other = door.rooms.0 == cell.index ? door.rooms.1 : door.rooms.0
            guard let side = neighbours.first(where: { $0.value == other })?.key, let wall = wallBySide[side] else { continue }
            room.doors.append(Surface(
                category: .door(isOpen: door.isOpen), identifier: rng.uuid(),
                dimensions: SIMD3(Float(door.width), Float(door.height), 0),
                transform: surfaceTransform(direction: wall.transform.column(0), centre: door.point),
                confidence: confidence(&rng), parentIdentifier: wall.identifier, story: cell.story))
        }
        for window in windows where window.room == cell.index {
            guard let wall = wallBySide[window.side] else { continue }
            room.windows.append(Surface(
                category: .window, identifier: rng.uuid(),
                dimensions: SIMD3(Float(window.width), Float(window.height), 0),
                transform: surfaceTransform(direction: wall.transform.column(0), centre: window.point),
                confidence: confidence(&rng), parentIdentifier: wall.identifier, story: cell.story))
        }
        let outline = [PlanPoint(x: cell.x0, z: cell.z0), PlanPoint(x: cell.x1, z: cell.z0),
                       PlanPoint(x: cell.x1, z: cell.z1), PlanPoint(x: cell.x0, z: cell.z1)]
        room.floors = [floorSurface(outline: outline, floorY: cell.floorY, identifier: rng.uuid(),
                                    story: cell.story, confidence: confidence(&rng))]
        room.sections = [Section(label: cell.label, center: SIMD3<Float>(cell.centre), story: cell.story)]
        var furnisher = Furnisher(cell: cell, rng: rng)
        furnisher.furnish(stairs: spec.stories > 1 && cells.first(where: { $0.story == cell.story })?.index == cell.index)
        room.objects = furnisher.objects
        rng = furnisher.rng
        return room
    }

    /// The structure-level arrays: each shared wall once, one floor per story, the doors
    /// and windows in the merged walls, every object and section.
    static func mergedContents(_ cells: [Cell], neighbours: [[Side: Int]], doors: [DoorSpec],
                               windows: [WindowSpec], rooms: [CapturedRoom], rng: inout SplitMix) -> CapturedRoom {
        var merged = CapturedRoom()
        merged.version = 2
        var mergedWall: [String: Surface] = [:]
        func boundaryKey(_ a: Int, _ b: Int?) -> String { b.map { "\(min(a, $0))-\(max(a, $0))" } ?? "" }
        for cell in cells {
            for side in Side.allCases {
                let other = neighbours[cell.index][side]
                if let other, other < cell.index { continue }
                let wall = rooms[cell.index].walls[side.rawValue]
                var copy = wall
                copy.identifier = rng.uuid()
                merged.walls.append(copy)
                mergedWall[other == nil ? "\(cell.index)/\(side.rawValue)" : boundaryKey(cell.index, other)] = copy
            }
        }
        for door in doors {
            guard let wall = mergedWall[boundaryKey(door.rooms.0, door.rooms.1)] else { continue }
            merged.doors.append(Surface(
                category: .door(isOpen: door.isOpen), identifier: rng.uuid(),
                dimensions: SIMD3(Float(door.width), Float(door.height), 0),
                transform: surfaceTransform(direction: wall.transform.column(0), centre: door.point),
                confidence: confidence(&rng), parentIdentifier: wall.identifier, story: cells[door.rooms.0].story))
        }
        for window in windows {
            guard let wall = mergedWall["\(window.room)/\(window.side.rawValue)"] else { continue }
            merged.windows.append(Surface(
                category: .window, identifier: rng.uuid(),
                dimensions: SIMD3(Float(window.width), Float(window.height), 0),
                transform: surfaceTransform(direction: wall.transform.column(0), centre: window.point),
                confidence: confidence(&rng), parentIdentifier: wall.identifier, story: cells[window.room].story))
        }
        for story in Set(cells.map(\.story)).sorted() {
            let storyCells = cells.filter { $0.story == story }
            merged.floors.append(floorSurface(outline: footprint(storyCells), floorY: storyCells[0].floorY,
                                              identifier: rng.uuid(), story: story, confidence: .high))
        }
        merged.objects = rooms.flatMap(\.objects)
        merged.sections = rooms.flatMap(\.sections)
        return merged
    }

    /// The outline of one story's cells: full rows, then a last row that may be shorter.
    static func footprint(_ cells: [Cell]) -> [PlanPoint] {
        let x0 = cells.map(\.x0).min()!, x1 = cells.map(\.x1).max()!
        let z0 = cells.map(\.z0).min()!, z1 = cells.map(\.z1).max()!
        let lastRow = cells.map(\.row).max()!
        let lastRowCells = cells.filter { $0.row == lastRow }
        let lastX1 = lastRowCells.map(\.x1).max()!
        if lastX1 >= x1 - 1e-9 || lastRow == 0 {
            return [PlanPoint(x: x0, z: z0), PlanPoint(x: x1, z: z0), PlanPoint(x: x1, z: z1), PlanPoint(x: x0, z: z1)]
        }
        let lastZ0 = lastRowCells[0].z0
        return [PlanPoint(x: x0, z: z0), PlanPoint(x: x1, z: z0), PlanPoint(x: x1, z: lastZ0),
                PlanPoint(x: lastX1, z: lastZ0), PlanPoint(x: lastX1, z: z1), PlanPoint(x: x0, z: z1)]
    }
}

extension SIMD3 where Scalar == Double {
    var length: Double { (self * self).sum().squareRoot() }
}

extension String {
    /// Two digits at least: 01, 02, ... 120.
    init(format2 value: Int) {
        self = value < 10 ? "0\(value)" : "\(value)"
    }
}
