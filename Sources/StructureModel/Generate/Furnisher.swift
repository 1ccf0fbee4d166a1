/// The part of a room furniture may use: a rectangle clear of its walls, in the plan's
/// metres (before the building is turned).
struct FurnishingArea {
    var x0, x1, z0, z1: Double
    var floorY: Double
    var story: Int
    var label: String
}

/// Furniture for one generated room, by its label: boxes against the sides of its
/// furnishing area, turned to face into the room, with the attributes RoomPlan gives each
/// category.
struct Furnisher {
    enum Side {
        case north, east, south, west
    }

    let area: FurnishingArea
    var rng: SplitMix
    var objects: [Object] = []
    /// The sides not yet used, so pieces do not stack on one wall.
    private var freeSides: [Side] = [.north, .east, .south, .west]

    init(area: FurnishingArea, rng: SplitMix) {
        self.area = area
        self.rng = rng
    }

    mutating func furnish(stairs: Bool) {
        switch area.label {
        case "livingRoom":
            let sofa = place(.sofa, size: (2.1, 0.85, 0.95), attributes: [("SofaType", "lShaped")])
            if let sofa, rng.chance(0.5) {
                _ = placeBeside(sofa, .sofa, size: (0.9, 0.85, 1.6), attributes: [("SofaType", "lShapedExtension")])
            }
            _ = placeCentre(.table, size: (1.1, 0.45, 0.6),
                            attributes: [("TableShapeType", "rectangular"), ("TableType", "coffee")])
            _ = place(.television, size: (1.2, 0.7, 0.1), attributes: [])
            _ = place(.storage, size: (0.9, 1.8, 0.4), attributes: [("StorageType", "shelf")])
        case "bedroom":
            _ = place(.bed, size: (1.6, 0.55, 2.05), attributes: [])
            _ = place(.storage, size: (1.2, 2.0, 0.6), attributes: [("StorageType", "cabinet")])
            if let desk = place(.table, size: (1.0, 0.75, 0.55),
                                attributes: [("TableShapeType", "rectangular"), ("TableType", "unidentified")]) {
                _ = placeBeside(desk, .chair, size: (0.5, 0.95, 0.55), attributes: chair("swivel", legs: "star"), parent: desk)
            }
        case "kitchen":
            _ = place(.refrigerator, size: (0.7, 1.85, 0.7), attributes: [])
            _ = place(.stove, size: (0.6, 0.9, 0.6), attributes: [])
            _ = place(.sink, size: (0.8, 0.9, 0.6), attributes: [])
            _ = place(.dishwasher, size: (0.6, 0.85, 0.6), attributes: [])
            _ = placeCentre(.oven, size: (0.6, 0.6, 0.55), attributes: [])
        case "bathroom":
            _ = place(.toilet, size: (0.4, 0.75, 0.65), attributes: [])
            _ = place(.sink, size: (0.6, 0.85, 0.45), attributes: [])
            _ = place(.bathtub, size: (1.7, 0.55, 0.75), attributes: [])
            if rng.chance(0.4) { _ = place(.washerDryer, size: (0.6, 0.85, 0.6), attributes: []) }
        case "diningRoom":
            let shape = rng.pick(["rectangular", "circularElliptic"])
            if let table = placeCentre(.table, size: (1.6, 0.75, 0.9),
                                       attributes: [("TableShapeType", shape), ("TableType", "dining")]) {
                for offset in [-0.45, 0.45] {
                    for across in [-1.0, 1.0] {
                        let centre = table.transform.translation
                        addObject(.chair, size: (0.45, 0.9, 0.5),
                                  at: SIMD3(centre.x + offset, 0, centre.z + across * 0.75),
                                  quarterTurns: across < 0 ? 0 : 2, attributes: chair("dining", legs: "four"),
                                  parent: table.identifier)
                    }
                }
            }
            _ = place(.storage, size: (1.4, 0.9, 0.45), attributes: [("StorageType", "cabinet")])
        default:
            _ = place(.storage, size: (1.0, 1.2, 0.5), attributes: [("StorageType", rng.pick(["cabinet", "shelf"]))])
        }
        if stairs {
            _ = place(.stairs, size: (1.0, 2.9, 2.6), attributes: [])
        }
    }

    private mutating func chair(_ type: String, legs: String) -> [(String, String)] {
        [("ChairArmType", rng.chance(0.5) ? "existing" : "missing"), ("ChairBackType", "existing"),
         ("ChairLegType", legs), ("ChairType", type)]
    }

    /// Against the next free wall, centred along it with some play.
    private mutating func place(_ category: ObjectCategory, size: (Double, Double, Double),
                                attributes: [(String, String)]) -> Object? {
        guard !freeSides.isEmpty else { return placeCentre(category, size: size, attributes: attributes) }
        let side = freeSides.removeFirst()
        let (w, _, d) = size
        let spanX = area.x1 - area.x0, spanZ = area.z1 - area.z0
        let alongX = side == .north || side == .south
        let span = alongX ? spanX : spanZ
        guard span > w + 0.3 else { return placeCentre(category, size: size, attributes: attributes) }
        let along = rng.double(-(span - w) / 2 + 0.15, (span - w) / 2 - 0.15)
        let point: SIMD3<Double>
        let turns: Int
        switch side {
        case .north: point = SIMD3((area.x0 + area.x1) / 2 + along, 0, area.z0 + d / 2 + 0.05); turns = 0
        case .south: point = SIMD3((area.x0 + area.x1) / 2 + along, 0, area.z1 - d / 2 - 0.05); turns = 2
        case .east: point = SIMD3(area.x1 - d / 2 - 0.05, 0, (area.z0 + area.z1) / 2 + along); turns = 1
        case .west: point = SIMD3(area.x0 + d / 2 + 0.05, 0, (area.z0 + area.z1) / 2 + along); turns = 3
        }
        return addObject(category, size: size, at: point, quarterTurns: turns, attributes: attributes, parent: nil)
    }

    private mutating func placeCentre(_ category: ObjectCategory, size: (Double, Double, Double),
                                      attributes: [(String, String)]) -> Object? {
        let point = SIMD3((area.x0 + area.x1) / 2 + rng.double(-0.3, 0.3), 0,
                          (area.z0 + area.z1) / 2 + rng.double(-0.3, 0.3))
        return addObject(category, size: size, at: point, quarterTurns: rng.int(0...3), attributes: attributes, parent: nil)
    }

    /// Next to `anchor`, along its local X, as a sofa extension or a desk chair sits: on
    /// whichever end leaves it inside the room, or nowhere.
    private mutating func placeBeside(_ anchor: Object, _ category: ObjectCategory, size: (Double, Double, Double),
                                      attributes: [(String, String)], parent: Object? = nil) -> Object? {
        let axis = anchor.transform.column(0)
        let offset = Double(anchor.dimensions.x) / 2 + size.0 / 2 + 0.05
        let turns = Int(((anchor.transform.yaw / (.pi / 2)).rounded())) & 3
        for side in [1.0, -1.0] {
            let centre = anchor.transform.translation + axis * (offset * side)
            guard fits(centre, size: size, quarterTurns: turns) else { continue }
            return addObject(category, size: size, at: SIMD3(centre.x, 0, centre.z), quarterTurns: turns,
                             attributes: attributes, parent: (parent ?? anchor).identifier)
        }
        return nil
    }

    /// Whether a box stays in the area, or at most 15 cm past it (the area keeps 20 cm
    /// clear of the walls).
    private func fits(_ centre: SIMD3<Double>, size: (Double, Double, Double), quarterTurns: Int) -> Bool {
        let (halfX, halfZ) = quarterTurns % 2 == 0 ? (size.0 / 2, size.2 / 2) : (size.2 / 2, size.0 / 2)
        return centre.x - halfX >= area.x0 - 0.15 && centre.x + halfX <= area.x1 + 0.15
            && centre.z - halfZ >= area.z0 - 0.15 && centre.z + halfZ <= area.z1 + 0.15
    }

    @discardableResult
    private mutating func addObject(_ category: ObjectCategory, size: (Double, Double, Double), at point: SIMD3<Double>,
                                    quarterTurns: Int, attributes: [(String, String)], parent: String?) -> Object {
        let (w, h, d) = size
        var centre = point
        centre.y = area.floorY + h / 2
        let yaw = Double(quarterTurns) * .pi / 2 + rng.double(-0.02, 0.02)
        let motion = RigidMotion(yaw: yaw, translation: centre)
        let object = Object(category: category, identifier: rng.uuid(),
                            dimensions: SIMD3(Float(w * rng.double(0.95, 1.05)), Float(h), Float(d * rng.double(0.95, 1.05))),
                            transform: motion.apply(to: .identity),
                            confidence: BuildingGenerator.confidence(&rng), attributes: attributes,
                            parentIdentifier: parent, story: area.story)
        objects.append(object)
        return object
    }
}
