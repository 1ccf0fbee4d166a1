import Foundation

/// What a real scan does to a room, at `scale` times a phone's size (1): each wall's
/// centre off by up to 1.5 cm along and 2 cm across it (2.5 cm in all), its length by up
/// to ±3 cm (so its ends by up to 3 cm), its height by ±2 cm and its heading by ±0.5°; now and then a wall comes in two
/// parts (each with its own error) or only partly scanned, one end short by 15–35 % (never
/// where a door or window is). Doors, windows and openings stay in their (noisy) wall, off
/// along it by up to 1 cm and in width by up to ±1.5 cm, so the two sides of one door
/// differ by at most 3 cm. Objects move up to 2 cm each way and turn up to 0.5°, floor
/// corners move up to 2 cm, section centres up to 5 cm.
///
/// With `realDoorways` (see `BuildingSpec.realDoorways`), a doorway's width is off by up to
/// ±4 cm and its middle by up to 16 cm along its wall; 1 in 10 is not seen at all, and 1 in
/// 12 is seen 0.3 to 1.1 m wider on one side. These draws come from a stream of their own,
/// so the rest of each capture is as without.
struct ScanNoise {
    let scale: Double
    var realDoorways = false
    var rng: SplitMix
    /// The draws for `realDoorways`, apart from `rng`.
    var doorwayRng = SplitMix(seed: 0)

    init(scale: Double, realDoorways: Bool = false, rng: SplitMix) {
        self.scale = scale
        self.realDoorways = realDoorways
        self.rng = rng
        var seeder = rng
        doorwayRng = SplitMix(seed: seeder.next() ^ 0x5EED_D00B_5EED_D00B)
    }

    static let unseenChance = 0.1
    static let widenedChance = 1.0 / 12

    static let maxYaw = 0.5 * Double.pi / 180
    static let splitChance = 0.08
    static let partialChance = 0.07

    private mutating func jitter(_ size: Double) -> Double { rng.double(-size, size) * scale }

    /// The room as this scan saw it, and for each identifier of `exact` the identifiers
    /// that stand for it now. With `freshIdentifiers` (a rescan) every element is new.
    mutating func apply(to exact: CapturedRoom, freshIdentifiers: Bool) -> (room: CapturedRoom, sources: [String: [String]]) {
        var room = exact
        var sources: [String: [String]] = [:]
        var renamed: [String: String] = [:]
        func rename(_ identifier: inout String) {
            let fresh = freshIdentifiers ? rng.uuid() : identifier
            renamed[identifier] = fresh
            sources[identifier] = [fresh]
            identifier = fresh
        }
        for i in room.walls.indices { rename(&room.walls[i].identifier) }
        for i in room.doors.indices { rename(&room.doors[i].identifier) }
        for i in room.windows.indices { rename(&room.windows[i].identifier) }
        for i in room.openings.indices { rename(&room.openings[i].identifier) }
        for i in room.floors.indices { rename(&room.floors[i].identifier) }
        for i in room.objects.indices { rename(&room.objects[i].identifier) }
        if freshIdentifiers {
            func reparent(_ parent: String?) -> String? { parent.map { renamed[$0] ?? $0 } }
            for i in room.doors.indices { room.doors[i].parentIdentifier = reparent(room.doors[i].parentIdentifier) }
            for i in room.windows.indices { room.windows[i].parentIdentifier = reparent(room.windows[i].parentIdentifier) }
            for i in room.openings.indices { room.openings[i].parentIdentifier = reparent(room.openings[i].parentIdentifier) }
            for i in room.objects.indices { room.objects[i].parentIdentifier = reparent(room.objects[i].parentIdentifier) }
        }
        guard scale > 0 else { return (room, sources) }
        var originalOf: [String: String] = [:]
        for (original, now) in renamed { originalOf[now] = original }
        let walls = room.walls
        room.walls = []
        for wall in walls {
            for part in scanned(wall, in: &room) {
                room.walls.append(part)
                if part.identifier != wall.identifier, let original = originalOf[wall.identifier] {
                    sources[original, default: []].append(part.identifier)
                }
            }
        }
        if realDoorways {
            // Doorways one side does not see: out of this capture, and out of what stands for them.
            for key in [CapturedRoom.ArrayKey.doors, .openings] {
                var unseen: Set<String> = []
                for surface in room.surfaces(key) where doorwayRng.double(0, 1) < Self.unseenChance * min(1, scale) {
                    unseen.insert(surface.identifier)
                }
                guard !unseen.isEmpty else { continue }
                switch key {
                case .doors: room.doors.removeAll { unseen.contains($0.identifier) }
                default: room.openings.removeAll { unseen.contains($0.identifier) }
                }
                for (original, now) in sources { sources[original] = now.filter { !unseen.contains($0) } }
            }
        }
        for i in room.objects.indices { room.objects[i] = jittered(room.objects[i]) }
        for i in room.floors.indices {
            var floor = room.floors[i]
            let corners = (floor.polygonCorners ?? []).map { corner in
                SIMD3<Float>(corner.x + Float(jitter(0.02)), corner.y + Float(jitter(0.02)), corner.z)
            }
            floor.polygonCorners = corners
            if let first = corners.first {
                let low = corners.reduce(first) { pointwiseMin($0, $1) }, high = corners.reduce(first) { pointwiseMax($0, $1) }
                floor.dimensions = SIMD3(high.x - low.x, high.y - low.y, 0)
            }
            room.floors[i] = floor
        }
        for i in room.sections.indices {
            room.sections[i].center.x += Float(jitter(0.05))
            room.sections[i].center.z += Float(jitter(0.05))
        }
        return (room, sources)
    }

    /// One wall as scanned: one part, two parts, or one shortened part, each with its own
    /// error; the doors, windows and openings in it moved along with their part.
    private mutating func scanned(_ wall: Surface, in room: inout CapturedRoom) -> [Surface] {
        let centre = wall.transform.translation
        let direction = wall.transform.column(0), normal = wall.transform.column(2)
        let length = Double(wall.dimensions.x)
        var children: [(key: CapturedRoom.ArrayKey, index: Int, along: Double, half: Double)] = []
        for key in [CapturedRoom.ArrayKey.doors, .windows, .openings] {
            for (index, surface) in room.surfaces(key).enumerated() where surface.parentIdentifier == wall.identifier {
                let along = ((surface.transform.translation - centre) * direction).sum()
                children.append((key, index, along, Double(surface.dimensions.x) / 2))
            }
        }
        func clear(_ u: Double) -> Bool { children.allSatisfy { abs($0.along - u) > $0.half + 0.1 } }
        var parts: [(low: Double, high: Double, identifier: String)] = [(-length / 2, length / 2, wall.identifier)]
        let roll = rng.double(0, 1)
        let likelihood = min(1, scale)
        if roll < Self.splitChance * likelihood, length >= 2 {
            for _ in 0..<4 {
                let u = rng.double(-length / 2 + 0.6, length / 2 - 0.6)
                if clear(u) {
                    parts = [(-length / 2, u, wall.identifier), (u, length / 2, rng.uuid())]
                    break
                }
            }
        } else if roll < (Self.splitChance + Self.partialChance) * likelihood {
            let cut = rng.double(0.15, 0.35) * length
            let lowFree = children.allSatisfy { $0.along - $0.half > -length / 2 + cut + 0.1 }
            let highFree = children.allSatisfy { $0.along + $0.half < length / 2 - cut - 0.1 }
            if length - cut >= 0.5 && (lowFree || highFree) {
                let atLow = lowFree && (!highFree || rng.chance(0.5))
                parts = [atLow ? (-length / 2 + cut, length / 2, wall.identifier)
                               : (-length / 2, length / 2 - cut, wall.identifier)]
            }
        }
        var result: [Surface] = []
        for part in parts {
            let middle = (part.low + part.high) / 2
            let turned = RigidMotion(yaw: jitter(Self.maxYaw)).rotate(direction)
            let heightChange = jitter(0.02)
            var partCentre = centre + direction * (middle + jitter(0.015)) + normal * jitter(0.02)
            partCentre.y += heightChange / 2
            var surface = wall
            surface.identifier = part.identifier
            surface.dimensions.x = Float(part.high - part.low + jitter(0.03))
            surface.dimensions.y += Float(heightChange)
            surface.transform = BuildingGenerator.surfaceTransform(direction: turned, centre: partCentre)
            for child in children where child.along > part.low && child.along < part.high {
                var element = room.surfaces(child.key)[child.index]
                var childCentre = partCentre + turned * (child.along - middle + jitter(0.01))
                childCentre.y = element.transform.translation.y
                var widening = 0.0
                if realDoorways && child.key != .windows {
                    // On top of the ±1 cm and ±1.5 cm above: ±16 cm along, ±4 cm in width. Real sides
                    // of one doorway lie apart along their wall far more than in width: in Apple's
                    // 11-room home (one session, so in one frame), its 10 doorways seen from both
                    // rooms had their two middles 4 to 25 cm apart along the wall, 13 cm on average,
                    // and their widths 2 to 5 cm apart. (It was ±2.5 cm, which hid that a room met
                    // only through a doorway has its place along that wall to within that alone.)
                    childCentre += turned * (doorwayRng.double(-0.15, 0.15) * scale)
                    widening = doorwayRng.double(-0.025, 0.025) * scale
                    if doorwayRng.double(0, 1) < Self.widenedChance * min(1, scale) {
                        // Run into what is beside it (a wardrobe, the next leaf): wider to one side.
                        let extra = doorwayRng.double(0.3, 1.1)
                        widening += extra
                        childCentre += turned * (extra / 2 * (doorwayRng.chance(0.5) ? 1 : -1))
                    }
                }
                element.transform = BuildingGenerator.surfaceTransform(direction: turned, centre: childCentre)
                element.dimensions.x += Float(jitter(0.015) + widening)
                element.parentIdentifier = part.identifier
                room.replace(child.key, at: child.index, with: element)
            }
            result.append(surface)
        }
        return result
    }

    private mutating func jittered(_ object: Object) -> Object {
        var copy = object
        let centre = object.transform.translation
        let turn = RigidMotion(yaw: jitter(Self.maxYaw))
        let shift = SIMD3(jitter(0.02), 0, jitter(0.02))
        copy.transform = RigidMotion(yaw: turn.yaw, translation: centre - turn.rotate(centre) + shift).apply(to: object.transform)
        copy.dimensions.x += Float(jitter(0.02))
        copy.dimensions.z += Float(jitter(0.02))
        return copy
    }
}

extension CapturedRoom {
    mutating func replace(_ key: ArrayKey, at index: Int, with surface: Surface) {
        switch key {
        case .walls: walls[index] = surface
        case .doors: doors[index] = surface
        case .windows: windows[index] = surface
        case .openings: openings[index] = surface
        case .floors: floors[index] = surface
        case .objects, .sections: break
        }
    }
}
