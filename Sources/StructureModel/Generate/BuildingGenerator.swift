/// Writes realistic RoomPlan data, deterministic by seed: homes laid out per story with
/// hallways, rooms of 4 to 10 walls tiling each story, walls with a thickness, doors and
/// openings between rooms, windows in outside walls, furniture by room type with valid
/// attributes and mixed confidences, the whole building turned by an arbitrary yaw. The
/// structure is exact; each room is also written as a separate capture in its own frame,
/// with a scan's noise, and some rooms are scanned again.
///
/// Random numbers come from separate streams: the building from the seed, each capture's
/// noise and the rescans from streams of their own, so the structure does not depend on
/// the noise or the number of rescans.
public enum BuildingGenerator {
    static let storyHeight = 3.0
    static let groundFloorY = -1.2

    /// What the generator knows of one room: enough to write it exactly, from either side
    /// of its walls, as often as needed.
    struct RoomModel {
        /// Index among the building's rooms.
        var index: Int
        var story: Int
        /// Index among its story's rooms.
        var local: Int
        var plan: PlanRoom
        var floorY: Double
        var height: Double
        var runs: [WallRun]
        var wallIDs: [String]
        var wallConfidences: [Confidence]
        /// Doors, openings and windows in this room's walls: the cutout and the run it is in.
        var cutouts: [(cutout: Int, run: Int)] = []
        var floorID: String
        var floorConfidence: Confidence
        /// In the plan's frame.
        var objects: [Object] = []
        var section: Section
        var coreModel: String
    }

    /// A door, an opening or a window: where its centre is on a wall piece, and each
    /// room's copy of it.
    struct Cutout {
        var category: SurfaceCategory
        var story: Int
        var piece: Int
        /// The centre, as a parameter of the piece's line.
        var along: Double
        var width: Double
        var height: Double
        /// Its bottom above the floor.
        var sill: Double
        /// Rooms (building-wide indices) with a copy, the first the one the structure keeps.
        var rooms: [Int]
        var identifiers: [String]
        var confidences: [Confidence]
    }

    struct StoryModel {
        var walls: StoryWalls
        var firstRoom: Int
        var outline: [GridPoint]
        var floorY: Double
        var height: Double
        /// Doors of a few standard widths (see `BuildingSpec.realDoorways`).
        var standardDoors = false
    }

    public static func generate(_ spec: BuildingSpec) -> GeneratedBuilding {
        var rng = SplitMix(seed: spec.seed)
        let building = RigidMotion(yaw: rng.double(-.pi, .pi),
                                   translation: SIMD3(rng.double(-4, 4), 0, rng.double(-4, 4)))
        let exteriorThickness = rng.int(20...40)
        var rooms: [RoomModel] = []
        var stories: [StoryModel] = []
        var cutouts: [Cutout] = []
        var remaining = spec.rooms
        for story in 0..<spec.stories {
            let count = remaining / (spec.stories - story) + (remaining % (spec.stories - story) > 0 ? 1 : 0)
            remaining -= count
            let plan = FloorLayout.story(story, rooms: count, rng: &rng)
            let walls = StoryWalls(rooms: plan.rooms.map(\.polygon), exteriorThickness: exteriorThickness, rng: &rng)
            let model = StoryModel(walls: walls, firstRoom: rooms.count, outline: walls.outline(),
                                   floorY: groundFloorY + Double(story) * storyHeight, height: rng.double(2.35, 2.75),
                                   standardDoors: spec.realDoorways)
            for (local, room) in plan.rooms.enumerated() {
                rooms.append(makeRoom(room, local: local, story: story, model: model, spec: spec, rng: &rng))
            }
            let storyCutouts = cutouts.count
            for connection in plan.connections {
                guard let cutout = doorway(connection, story: story, model: model, rng: &rng) else { continue }
                cutouts.append(cutout)
            }
            for room in plan.entrances {
                guard let cutout = frontDoor(room, story: story, model: model, rng: &rng) else { continue }
                cutouts.append(cutout)
            }
            var taken: [Int: Cutout] = [:]
            for cutout in cutouts[storyCutouts...] { taken[cutout.piece] = cutout }
            for local in plan.rooms.indices {
                cutouts += windows(room: model.firstRoom + local, rooms: rooms, model: model, taken: taken, rng: &rng)
            }
            stories.append(model)
        }
        for (index, cutout) in cutouts.enumerated() {
            for room in cutout.rooms {
                let walls = stories[cutout.story].walls
                rooms[room].cutouts.append((index, walls.run(of: cutout.piece, in: rooms[room].local)!))
            }
        }

        // Each room as its first capture's session saw it, turned into the building.
        var nested: [CapturedRoom] = []
        var captures: [GeneratedCapture] = []
        nested.reserveCapacity(rooms.count)
        for (index, room) in rooms.enumerated() {
            let placementKind: WallPlacement = rng.chance(0.5) ? .face : .centreLine
            let offsets = wallOffsets(room.runs, placementKind, &rng)
            var exact = exactRoom(room, offsets: offsets, cutouts: cutouts, walls: stories[room.story].walls)
                .moved(by: building)
            // A separate session starts wherever the phone was: a random heading and origin.
            let placement = RigidMotion(
                yaw: rng.double(-.pi, .pi),
                translation: SIMD3(rng.double(-6, 6), rng.double(-0.4, 0.4), rng.double(-6, 6)))
            exact.referenceOriginTransform = RigidMotion(yaw: rng.double(-.pi, .pi),
                                                         translation: SIMD3(rng.double(-0.1, 0.1), rng.double(-0.2, 0.2),
                                                                            rng.double(-0.1, 0.1)))
                .apply(to: .identity)
            nested.append(exact)
            var noise = ScanNoise(scale: spec.noise, realDoorways: spec.realDoorways, rng: SplitMix(seed: streamSeed(spec.seed, stream: 1, index: index)))
            let (scanned, sources) = noise.apply(to: exact, freshIdentifiers: false)
            let label = room.plan.label
            captures.append(GeneratedCapture(
                fileName: "room-\(String(format2: index + 1))-\(label).json", room: scanned.moved(by: placement.inverse),
                label: label, story: room.story, placement: placement, roomIndex: index, rescanOf: nil,
                wallPlacement: placementKind, identifiers: sources))
        }
        captures += rescans(spec, rooms: rooms, cutouts: cutouts, stories: stories, building: building,
                            firstCaptures: captures)

        let (merged, provenance) = structureLevel(rooms: rooms, stories: stories, cutouts: cutouts, rng: &rng)
        var sourcesOfRoom: [[Int]] = Array(repeating: [], count: rooms.count)
        for (index, capture) in captures.enumerated() { sourcesOfRoom[capture.roomIndex].append(index) }
        let truth = provenance.map { item in
            StructureElementTruth(
                array: item.array, identifier: item.identifier,
                sources: item.sources.flatMap { room, identifier in
                    sourcesOfRoom[room].flatMap { c in
                        (captures[c].identifiers[identifier] ?? []).map {
                            CaptureElement(file: captures[c].fileName, identifier: $0)
                        }
                    }
                },
                thickness: item.thickness, isExterior: item.isExterior)
        }
        return GeneratedBuilding(spec: spec, structure: CapturedStructure(rooms: nested, merged: merged.moved(by: building)),
                                 captures: captures, provenance: truth, buildingYaw: building.yaw)
    }

    /// A seed for one of the independent streams (capture noise, rescans), mixed from the
    /// building's seed.
    static func streamSeed(_ seed: UInt64, stream: UInt64, index: Int) -> UInt64 {
        var mixer = SplitMix(seed: seed ^ (stream &* 0x9E37_79B9_7F4A_7C15) ^ (UInt64(index) &* 0xD1B5_4A32_D192_ED03))
        return mixer.next()
    }

    static func makeRoom(_ plan: PlanRoom, local: Int, story: Int, model: StoryModel, spec: BuildingSpec,
                         rng: inout SplitMix) -> RoomModel {
        let runs = model.walls.runs[local]
        let core = plan.core
        let area = FurnishingArea(x0: Double(core.x0) / 100 + 0.2, x1: Double(core.x1) / 100 - 0.2,
                                  z0: Double(core.z0) / 100 + 0.2, z1: Double(core.z1) / 100 - 0.2,
                                  floorY: model.floorY, story: story, label: plan.label)
        var room = RoomModel(
            index: model.firstRoom + local, story: story, local: local, plan: plan, floorY: model.floorY,
            height: model.height, runs: runs,
            wallIDs: runs.map { _ in rng.uuid() }, wallConfidences: runs.map { _ in confidence(&rng) },
            floorID: rng.uuid(), floorConfidence: confidence(&rng),
            section: Section(label: plan.label,
                             center: SIMD3<Float>(SIMD3((area.x0 + area.x1) / 2, model.floorY + model.height / 2,
                                                        (area.z0 + area.z1) / 2)),
                             story: story),
            coreModel: rng.base64(byteCount: spec.coreModelBytes))
        var furnisher = Furnisher(area: area, rng: rng)
        furnisher.furnish(stairs: spec.stories > 1 && local == 0)
        room.objects = furnisher.objects.map { keepClear($0, of: runs, outline: plan.polygon) }
        rng = furnisher.rng
        return room
    }

    /// `object` moved into the room, 2 cm clear of each wall's face where its footprint reached
    /// past it: the furnishing area keeps 20 cm from the walls' centre lines and lets a piece
    /// stand 15 cm past that, which a 36 cm outside wall's face is not, nor a cut corner's (a
    /// freshly generated building had a chair 14 cm and a bathtub 9 cm through walls, and
    /// `check` said so). Moved, not redrawn: no other piece or seed changes.
    static func keepClear(_ object: Object, of runs: [WallRun], outline: [GridPoint]) -> Object {
        let polygon = outline.map(\.metres)
        func inside(_ p: SIMD2<Double>) -> Bool {
            var result = false
            for i in polygon.indices {
                let a = polygon[i], b = polygon[(i + 1) % polygon.count]
                if (a.y > p.y) != (b.y > p.y), p.x < a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y) { result.toggle() }
            }
            return result
        }
        var moved = object
        for _ in 0..<3 {
            let t = moved.transform, half = SIMD2(Double(moved.dimensions.x) / 2, Double(moved.dimensions.z) / 2)
            let axisX = SIMD2(t.column(0).x, t.column(0).z), axisZ = SIMD2(t.column(2).x, t.column(2).z)
            let centre = SIMD2(t.translation.x, t.translation.z)
            let corners = [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)].map { centre + axisX * ($0.0 * half.x) + axisZ * ($0.1 * half.y) }
            var push = SIMD2<Double>(0, 0)
            for run in runs {
                let a = run.start.metres, b = run.end.metres, length = ((b - a) * (b - a)).sum().squareRoot()
                guard length > 0 else { continue }
                let along = (b - a) / length
                var inward = SIMD2(-along.y, along.x)
                if !inside((a + b) / 2 + inward * 0.05) { inward = -inward }
                let face = Double(run.thickness) / 200
                for corner in corners {
                    let s = ((corner - a) * along).sum(), depth = ((corner - a) * inward).sum()
                    guard s > 0, s < length, depth < face, depth > -face - 0.5 else { continue }
                    let need = inward * (face + 0.02 - depth)
                    if (need * need).sum() > (push * push).sum() { push = need }
                }
            }
            guard push != SIMD2(0, 0) else { break }
            moved.transform.translation += SIMD3(push.x, 0, push.y)
        }
        return moved
    }

    /// How far into the room each run's copy lies from the wall's centre line.
    static func wallOffsets(_ runs: [WallRun], _ placement: WallPlacement, _ rng: inout SplitMix) -> [Double] {
        runs.map { run in placement == .face ? Double(run.thickness) / 200 : rng.double(0, 0.015) }
    }

    // MARK: Doors, openings and windows

    /// A door or an opening on the longest piece the two rooms share, clear of its ends.
    static func doorway(_ connection: Connection, story: Int, model: StoryModel, rng: inout SplitMix) -> Cutout? {
        let walls = model.walls
        var best: Int?
        for run in walls.runs[connection.a] {
            for index in run.pieces where walls.pieces[index].rooms.contains(connection.b) {
                if best == nil || walls.pieces[index].length > walls.pieces[best!].length { best = index }
            }
        }
        guard let best else { return nil }
        return door(on: best, isOpening: connection.isOpening, margin: Double(connection.margin) / 100,
                    rooms: [connection.a, connection.b], story: story, model: model, rng: &rng)
    }

    /// A front door in the room's longest outside wall, nearer one end, leaving the rest
    /// of the wall to windows.
    static func frontDoor(_ room: Int, story: Int, model: StoryModel, rng: inout SplitMix) -> Cutout? {
        let walls = model.walls
        let outside = walls.runs[room].flatMap(\.pieces).filter { walls.pieces[$0].isExterior }
        guard let best = outside.max(by: { walls.pieces[$0].length < walls.pieces[$1].length }) else { return nil }
        return door(on: best, isOpening: false, margin: 0.3, rooms: [room], story: story, model: model,
                    nearEnd: walls.pieces[best].length > 2.5, rng: &rng)
    }

    static func door(on index: Int, isOpening: Bool, margin: Double, rooms: [Int], story: Int, model: StoryModel,
                     nearEnd: Bool = false, rng: inout SplitMix) -> Cutout? {
        let piece = model.walls.pieces[index]
        var width = isOpening ? rng.double(0.9, 1.6) : rng.double(0.75, 0.95)
        if model.standardDoors && !isOpening {
            // The same draw (the rest of the building as without), onto a standard width.
            width = [0.76, 0.81, 0.86][min(2, Int((width - 0.75) / 0.2 * 3))]
        }
        width = min(width, piece.length - 2 * margin)
        guard width >= 0.7 else { return nil }
        let height = isOpening ? rng.double(2.0, 2.2) : rng.double(1.95, 2.1)
        let slack = piece.length - 2 * margin - width
        var fraction = rng.double(0, 1)
        if nearEnd { fraction = fraction < 0.5 ? fraction * 0.3 : 1 - (1 - fraction) * 0.3 }
        let centre = margin + width / 2 + fraction * slack
        let category: SurfaceCategory = isOpening ? .opening : .door(isOpen: rng.chance(0.5))
        let indices = rooms.map { model.firstRoom + $0 }
        return Cutout(category: category, story: story, piece: index, along: parameter(of: piece, at: centre),
                      width: width, height: height, sill: 0, rooms: indices,
                      identifiers: indices.map { _ in rng.uuid() }, confidences: indices.map { _ in confidence(&rng) })
    }

    /// Windows in a room's outside walls: most rooms have one per outside wall, two in a
    /// long one; bathrooms small high ones; hallways seldom any. Beside a front door
    /// (`taken`), only the longer stretch of wall left is used.
    static func windows(room index: Int, rooms: [RoomModel], model: StoryModel, taken: [Int: Cutout],
                        rng: inout SplitMix) -> [Cutout] {
        let room = rooms[index]
        let likelihood = room.plan.isHallway ? 0.3 : room.plan.label == "bathroom" ? 0.6 : 0.9
        var result: [Cutout] = []
        for run in room.runs where run.isExterior {
            for pieceIndex in run.pieces {
                let piece = model.walls.pieces[pieceIndex]
                var (start, end) = (0.4, piece.length - 0.4)
                if let door = taken[pieceIndex] {
                    let centre = (door.along - Double(piece.low)) * piece.line.scale
                    let (before, after) = (centre - door.width / 2 - 0.3, centre + door.width / 2 + 0.3)
                    if before - start >= end - after { end = before } else { start = after }
                }
                let usable = end - start
                guard usable >= 0.8, rng.chance(likelihood) else { continue }
                let count = usable >= 4.2 ? 2 : 1
                let part = usable / Double(count)
                for k in 0..<count {
                    let width = rng.double(0.8, max(0.8, min(1.8, part - 0.2)))
                    let low = start + Double(k) * part
                    let centre = low + width / 2 + rng.double(0, 1) * max(0, part - width)
                    let (height, sill): (Double, Double)
                    if room.plan.label == "bathroom" {
                        (height, sill) = (rng.double(0.6, 0.9), 1.3)
                    } else if room.plan.isHallway {
                        (height, sill) = (rng.double(0.6, 1.0), 1.1)
                    } else {
                        (height, sill) = (rng.double(1.0, 1.45), 0.9)
                    }
                    result.append(Cutout(category: .window, story: room.story, piece: pieceIndex,
                                         along: parameter(of: piece, at: centre), width: width,
                                         height: height, sill: sill, rooms: [index], identifiers: [rng.uuid()],
                                         confidences: [confidence(&rng)]))
                }
            }
        }
        return result
    }

    /// The line parameter `metres` from the piece's low end.
    static func parameter(of piece: WallPiece, at metres: Double) -> Double {
        Double(piece.low) + metres / piece.line.scale
    }
}
