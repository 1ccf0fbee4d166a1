/// Writing the generator's model as RoomPlan elements: each room as one capture saw it,
/// rescans, and the structure-level arrays with what each element stands for.
extension BuildingGenerator {
    /// A structure-level element and the room elements (room index, identifier in the
    /// structure's room) it stands for.
    struct Provenance {
        var array: CapturedRoom.ArrayKey
        var identifier: String
        var sources: [(room: Int, identifier: String)]
        var thickness: Double? = nil
        var isExterior: Bool? = nil
    }

    /// A room exactly, in the plan's frame, with each wall `offsets[j]` metres into the room
    /// from its centre line and the doors, openings and windows in those walls.
    static func exactRoom(_ room: RoomModel, offsets: [Double], cutouts: [Cutout], walls: StoryWalls) -> CapturedRoom {
        var result = CapturedRoom()
        result.coreModel = room.coreModel
        result.story = room.story
        result.version = 2
        let copies = StoryWalls.copies(of: room.runs, offsets: offsets)
        for (j, run) in room.runs.enumerated() {
            let (a, b) = copies[j]
            let middle = (a + b) / 2
            result.walls.append(Surface(
                category: .wall, identifier: room.wallIDs[j],
                dimensions: SIMD3(Float(((b - a) * (b - a)).sum().squareRoot()), Float(room.height), 0),
                transform: surfaceTransform(direction: plan3(run.direction),
                                            centre: SIMD3(middle.x, room.floorY + room.height / 2, middle.y)),
                confidence: room.wallConfidences[j], story: room.story))
        }
        for (index, j) in room.cutouts {
            let cutout = cutouts[index]
            let k = cutout.rooms.firstIndex(of: room.index)!
            let run = room.runs[j]
            let point = walls.pieces[cutout.piece].line.metres(at: cutout.along) + run.inward * offsets[j]
            let surface = Surface(
                category: cutout.category, identifier: cutout.identifiers[k],
                dimensions: SIMD3(Float(cutout.width), Float(cutout.height), 0),
                transform: surfaceTransform(direction: plan3(run.direction),
                                            centre: SIMD3(point.x, room.floorY + cutout.sill + cutout.height / 2, point.y)),
                confidence: cutout.confidences[k], parentIdentifier: room.wallIDs[j], story: room.story)
            result.append(surface)
        }
        // The floor is what the capture saw: bounded by its own copies of the walls (a room
        // scanned on the wall faces has a floor a wall's half thickness smaller all round).
        result.floors = [floorSurface(outline: copies.map { PlanPoint(x: $0.start.x, z: $0.start.y) }, floorY: room.floorY,
                                      identifier: room.floorID, story: room.story, confidence: room.floorConfidence)]
        result.sections = [room.section]
        result.objects = room.objects
        return result
    }

    /// `spec.rescans` rooms scanned again in sessions of their own: another frame, its own
    /// wall placement and noise, new identifiers, written as extra capture files.
    static func rescans(_ spec: BuildingSpec, rooms: [RoomModel], cutouts: [Cutout], stories: [StoryModel],
                        building: RigidMotion, firstCaptures: [GeneratedCapture]) -> [GeneratedCapture] {
        guard spec.rescans > 0 else { return [] }
        var rng = SplitMix(seed: streamSeed(spec.seed, stream: 2, index: 0))
        var order = Array(rooms.indices)
        for i in 0..<spec.rescans {
            order.swapAt(i, i + Int(rng.next() % UInt64(order.count - i)))
        }
        var result: [GeneratedCapture] = []
        for index in order.prefix(spec.rescans).sorted() {
            let room = rooms[index]
            let placementKind: WallPlacement = rng.chance(0.5) ? .face : .centreLine
            var exact = exactRoom(room, offsets: wallOffsets(room.runs, placementKind, &rng), cutouts: cutouts,
                                  walls: stories[room.story].walls).moved(by: building)
            exact.coreModel = rng.base64(byteCount: spec.coreModelBytes)
            exact.referenceOriginTransform = RigidMotion(yaw: rng.double(-.pi, .pi),
                                                         translation: SIMD3(rng.double(-0.1, 0.1), rng.double(-0.2, 0.2),
                                                                            rng.double(-0.1, 0.1)))
                .apply(to: .identity)
            let placement = RigidMotion(
                yaw: rng.double(-.pi, .pi),
                translation: SIMD3(rng.double(-6, 6), rng.double(-0.4, 0.4), rng.double(-6, 6)))
            var noise = ScanNoise(scale: spec.noise, realDoorways: spec.realDoorways, rng: SplitMix(seed: streamSeed(spec.seed, stream: 3, index: index)))
            let (scanned, sources) = noise.apply(to: exact, freshIdentifiers: true)
            let label = room.plan.label
            result.append(GeneratedCapture(
                fileName: "room-\(String(format2: index + 1))-\(label)-rescan.json",
                room: scanned.moved(by: placement.inverse), label: label, story: room.story, placement: placement,
                roomIndex: index, rescanOf: firstCaptures[index].fileName, wallPlacement: placementKind,
                identifiers: sources))
        }
        return result
    }

    /// The structure-level arrays, in the plan's frame: one wall per piece on the wall's
    /// centre line with its thickness as depth (a wall between two rooms once), each door
    /// and opening once in it, the windows, one floor per story whose outline is the union
    /// of its rooms, every object and section. An element keeps the identifier of one of
    /// the room elements it stands for, as Apple's merge does; a wall piece takes the
    /// identifier of a room wall that is exactly that piece where there is one. A story's
    /// floor is new (no room floor survives in it), so it has an identifier of its own:
    /// keeping one room's would make that room its only owner.
    static func structureLevel(rooms: [RoomModel], stories: [StoryModel], cutouts: [Cutout],
                               rng: inout SplitMix) -> (CapturedRoom, [Provenance]) {
        var merged = CapturedRoom()
        merged.version = 2
        var provenance: [Provenance] = []
        var used = rooms.map { Array(repeating: false, count: $0.runs.count) }
        var wallOfPiece: [[String]] = []
        for (story, model) in stories.enumerated() {
            var identifiers: [String] = []
            identifiers.reserveCapacity(model.walls.pieces.count)
            for (index, piece) in model.walls.pieces.enumerated() {
                let sides = piece.rooms.map { local in
                    (room: model.firstRoom + local, run: model.walls.run(of: index, in: local)!)
                }
                let chosen = sides.first { !used[$0.room][$0.run] && rooms[$0.room].runs[$0.run].pieces == [index] }
                    ?? sides.first { !used[$0.room][$0.run] }
                let identifier: String
                let confidence: Confidence
                if let chosen {
                    used[chosen.room][chosen.run] = true
                    identifier = rooms[chosen.room].wallIDs[chosen.run]
                    confidence = rooms[chosen.room].wallConfidences[chosen.run]
                } else {
                    identifier = rng.uuid()
                    confidence = .high
                }
                let (a, b) = piece.ends(from: (chosen ?? sides[0]).room - model.firstRoom)
                let middle = (a + b) / 2
                merged.walls.append(Surface(
                    category: .wall, identifier: identifier,
                    dimensions: SIMD3(Float(piece.length), Float(model.height), Float(piece.thickness) / 100),
                    transform: surfaceTransform(direction: plan3((b - a) / piece.length),
                                                centre: SIMD3(middle.x, model.floorY + model.height / 2, middle.y)),
                    confidence: confidence, story: story))
                identifiers.append(identifier)
                provenance.append(Provenance(array: .walls, identifier: identifier,
                                             sources: sides.map { ($0.room, rooms[$0.room].wallIDs[$0.run]) },
                                             thickness: Double(piece.thickness) / 100, isExterior: piece.isExterior))
            }
            wallOfPiece.append(identifiers)
        }
        for array in [CapturedRoom.ArrayKey.doors, .windows, .openings] {
            for cutout in cutouts where cutout.array == array {
                let model = stories[cutout.story]
                let piece = model.walls.pieces[cutout.piece]
                let (a, b) = piece.ends(from: cutout.rooms[0] - model.firstRoom)
                let point = piece.line.metres(at: cutout.along)
                merged.append(Surface(
                    category: cutout.category, identifier: cutout.identifiers[0],
                    dimensions: SIMD3(Float(cutout.width), Float(cutout.height), 0),
                    transform: surfaceTransform(direction: plan3((b - a) / piece.length),
                                                centre: SIMD3(point.x, model.floorY + cutout.sill + cutout.height / 2, point.y)),
                    confidence: cutout.confidences[0], parentIdentifier: wallOfPiece[cutout.story][cutout.piece],
                    story: cutout.story))
                provenance.append(Provenance(array: array, identifier: cutout.identifiers[0],
                                             sources: Array(zip(cutout.rooms, cutout.identifiers))))
            }
        }
        for (story, model) in stories.enumerated() {
            let end = story + 1 < stories.count ? stories[story + 1].firstRoom : rooms.count
            let identifier = rng.uuid()
            merged.floors.append(floorSurface(outline: model.outline.map(PlanPoint.init), floorY: model.floorY,
                                              identifier: identifier, story: story, confidence: .high))
            provenance.append(Provenance(array: .floors, identifier: identifier,
                                         sources: (model.firstRoom..<end).map { ($0, rooms[$0].floorID) }))
        }
        for (index, room) in rooms.enumerated() {
            merged.objects += room.objects
            merged.sections.append(room.section)
            for object in room.objects {
                provenance.append(Provenance(array: .objects, identifier: object.identifier,
                                             sources: [(index, object.identifier)]))
            }
        }
        return (merged, provenance)
    }

    // MARK: Elements

    static func plan3(_ v: SIMD2<Double>) -> SIMD3<Double> { SIMD3(v.x, 0, v.y) }

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
}

extension BuildingGenerator.Cutout {
    var array: CapturedRoom.ArrayKey {
        switch category {
        case .door: return .doors
        case .window: return .windows
        default: return .openings
        }
    }
}

extension CapturedRoom {
    /// Into the array its category belongs in.
    mutating func append(_ surface: Surface) {
        switch surface.category {
        case .door: doors.append(surface)
        case .window: windows.append(surface)
        case .opening: openings.append(surface)
        case .floor: floors.append(surface)
        case .wall, .other: walls.append(surface)
        }
    }
}

extension PlanPoint {
    init(_ point: GridPoint) {
        self.init(x: Double(point.x) / 100, z: Double(point.z) / 100)
    }
}

extension String {
    /// Two digits at least: 01, 02, ... 120.
    init(format2 value: Int) {
        self = value < 10 ? "0\(value)" : "\(value)"
    }
}
