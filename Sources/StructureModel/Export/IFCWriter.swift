/// What an IFC export may choose: what RoomPlan does not measure, and the header's facts.
public struct IFCExportOptions: Sendable {
    /// Metres, for walls whose depth RoomPlan wrote as 0 (every wall of a single room scan).
    public var wallThickness: Double
    /// Metres; slabs hang below the floor's surface by this much.
    public var slabThickness: Double
    /// FILE_NAME's name (the target's file name).
    public var fileName: String
    /// FILE_NAME's time stamp, ISO 8601 (`2026-11-23T10:00:00`): given, so that a test or a
    /// reproducible build (`SOURCE_DATE_EPOCH`) writes the same bytes every time.
    public var timestamp: String

    public init(fileName: String = "model.ifc", timestamp: String = "1970-01-01T00:00:00",
                wallThickness: Double = 0.1, slabThickness: Double = 0.1) {
        self.fileName = fileName
        self.timestamp = timestamp
        self.wallThickness = wallThickness
        self.slabThickness = slabThickness
    }
}

/// An IFC file and what went into it.
public struct IFCExport: Sendable {
    public var bytes: [UInt8]
    public var entityCount: Int
    /// One line per element written without part of itself (a door in no wall, a floor
    /// without an outline), or left out.
    public var warnings: [String]
    /// How many products of each IFC class were written (`IfcWall`: 31, …).
    public var products: [String: Int]
}

/// Writes an `ExportScene` as IFC4 (ISO 16739-1:2018), a STEP physical file (ISO 10303-21).
///
/// Layout: `IfcProject` → `IfcSite` → `IfcBuilding` → one `IfcBuildingStorey` per story →
/// one `IfcSpace` per room (aggregated). Walls, doors, windows, slabs and objects are
/// contained in their storey (objects of one room in its space); a door, window or opening
/// cuts an `IfcOpeningElement` in its wall (`IfcRelVoidsElement`) which the door or window
/// fills (`IfcRelFillsElement`). Every product carries a `RoomPlan_Common` property set with
/// RoomPlan's facts (identifier, category, confidence, attributes, story, handle, name).
///
/// Geometry: RoomPlan's world (Y up) turned to IFC's (Z up) by (x, y, z) → (x, −z, y), with
/// no other shift, so coordinates can be compared with the JSON. Storeys sit at their
/// elevation; everything else is placed relative to its storey, an opening relative to its
/// wall and a door or window relative to its opening, as IFC's implementers agree.
public enum IFCWriter {
    public static func write(_ scene: ExportScene, options: IFCExportOptions = IFCExportOptions(),
                             progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }) -> IFCExport {
        var builder = IFCBuilder(scene: scene, options: options)
        builder.build(progress: progress)
        let bytes = builder.file.document(description: "ViewDefinition [DesignTransferView]", fileName: options.fileName,
                                          timestamp: options.timestamp, system: "wb", schema: "IFC4")
        return IFCExport(bytes: bytes, entityCount: builder.file.count, warnings: builder.warnings, products: builder.products)
    }

    /// The IFC class (and `PredefinedType`) wb writes for a RoomPlan object category: the
    /// class IFC4 has for the thing, else a furnishing element.
    public static func ifcClass(forObject category: String, attributes: JSONObject?) -> (entity: String, predefinedType: String?) {
        switch category {
        case "bed": return ("IfcFurniture", "BED")
        case "sofa": return ("IfcFurniture", "SOFA")
        case "table": return ("IfcFurniture", "TABLE")
        case "chair": return ("IfcFurniture", "CHAIR")
        case "storage":
            if case .string("shelf")? = attributes?["StorageType"] { return ("IfcFurniture", "SHELF") }
            return ("IfcFurniture", "USERDEFINED")
        case "sink": return ("IfcSanitaryTerminal", "SINK")
        case "toilet": return ("IfcSanitaryTerminal", "TOILETPAN")
        case "bathtub": return ("IfcSanitaryTerminal", "BATH")
        case "refrigerator": return ("IfcElectricAppliance", "REFRIGERATOR")
        case "stove", "oven": return ("IfcElectricAppliance", "ELECTRICCOOKER")
        case "dishwasher": return ("IfcElectricAppliance", "DISHWASHER")
        case "washerDryer": return ("IfcElectricAppliance", "WASHINGMACHINE")
        case "television": return ("IfcAudioVisualAppliance", "DISPLAY")
        case "stairs": return ("IfcStair", "NOTDEFINED")
        case "fireplace": return ("IfcBuildingElementProxy", "USERDEFINED")
        default: return ("IfcFurnishingElement", nil)
        }
    }
}

/// The state of one export: the file so far, the entities every part shares, and the
/// GlobalIds already given out (IFC wants each once).
private struct IFCBuilder {
    let scene: ExportScene
    let options: IFCExportOptions
    var file = STEPFile()
    var warnings: [String] = []
    var products: [String: Int] = [:]
    private var usedIds: Set<IFCGlobalId> = []
    private let projectKey: String

    // Shared entities, made once.
    private var origin3 = STEPRef(number: 0)
    private var origin2 = STEPRef(number: 0)
    private var directions: [SIMD3<Double>: STEPRef] = [:]
    private var bodyContext = STEPRef(number: 0)
    private var axisContext = STEPRef(number: 0)
    private var areaUnit = STEPRef(number: 0)

    init(scene: ExportScene, options: IFCExportOptions) {
        self.scene = scene
        self.options = options
        projectKey = "wb-ifc:" + scene.title
    }

    // MARK: The whole file

    mutating func build(progress: (Int, Int) -> Void) {
        origin3 = file.add("IFCCARTESIANPOINT", [.reals([0, 0, 0])])
        origin2 = file.add("IFCCARTESIANPOINT", [.reals([0, 0])])
        let worldAxes = file.add("IFCAXIS2PLACEMENT3D", [.ref(origin3), .unset, .unset])
        let model = file.add("IFCGEOMETRICREPRESENTATIONCONTEXT", [.unset, .string("Model"), .integer(3), .real(1e-5), .ref(worldAxes), .unset])
        bodyContext = file.add("IFCGEOMETRICREPRESENTATIONSUBCONTEXT", [.string("Body"), .string("Model"), .derived, .derived, .derived, .derived,
                                                                        .ref(model), .unset, .enumeration("MODEL_VIEW"), .unset])
        axisContext = file.add("IFCGEOMETRICREPRESENTATIONSUBCONTEXT", [.string("Axis"), .string("Model"), .derived, .derived, .derived, .derived,
                                                                        .ref(model), .unset, .enumeration("GRAPH_VIEW"), .unset])
        func siUnit(_ type: String, _ name: String) -> STEPRef {
            file.add("IFCSIUNIT", [.derived, .enumeration(type), .unset, .enumeration(name)])
        }
        let units = [siUnit("LENGTHUNIT", "METRE"), siUnit("AREAUNIT", "SQUARE_METRE"), siUnit("VOLUMEUNIT", "CUBIC_METRE"),
                     siUnit("PLANEANGLEUNIT", "RADIAN")]
        areaUnit = units[1]
        let unitAssignment = file.add("IFCUNITASSIGNMENT", [.refs(units)])

        let title = label(scene.title.isEmpty ? "wb export" : scene.title)
        let project = file.add("IFCPROJECT", [guid(hashing: "project"), .unset, .string(title),
                                              .string("RoomPlan capture exported by wb"), .unset, .unset, .unset,
                                              .refs([model]), .ref(unitAssignment)])
        let sitePlacement = placement(.identity, relativeTo: nil)
        let site = file.add("IFCSITE", [guid(hashing: "site"), .unset, .string("Site"), .unset, .unset, .ref(sitePlacement), .unset,
                                        .unset, .enumeration("ELEMENT"), .unset, .unset, .unset, .unset, .unset])
        let buildingPlacement = placement(.identity, relativeTo: sitePlacement)
        let building = file.add("IFCBUILDING", [guid(hashing: "building"), .unset, .string(title), .unset, .unset,
                                                .ref(buildingPlacement), .unset, .unset, .enumeration("ELEMENT"), .unset, .unset, .unset])
        aggregate(project, [site], key: "project")
        aggregate(site, [building], key: "site")

        let total = scene.stories.reduce(0) { $0 + $1.elements.count + $1.rooms.count }
        var done = 0
        var storeys: [STEPRef] = []
        for story in scene.stories {
            storeys.append(write(story, building: buildingPlacement) {
                done += 1
                progress(done, total)
            })
        }
        if !storeys.isEmpty { aggregate(building, storeys, key: "building") }
    }

    // MARK: A story

    /// A wall as the openings in it need it.
    private struct WallEntry {
        var element: ExportScene.Element
        var product: STEPRef
        var placement: STEPRef
        /// In storey coordinates: origin at the start of the scanned face's base line, X
        /// along the wall, Z up.
        var frame: IFCFrame
        var length: Double
        var height: Double
        /// The wall body's extent across the wall, in the frame's Y.
        var across: ClosedRange<Double>
        var segment: PlanSegment
        var openingArea = 0.0
        var grossArea: Double
    }

    private mutating func write(_ story: ExportScene.Story, building: STEPRef, tick: () -> Void) -> STEPRef {
        let elevation = finite(story.elevation)
        let storeyFrame = IFCFrame(origin: SIMD3(0, 0, elevation), x: SIMD3(1, 0, 0), z: SIMD3(0, 0, 1))
        let storeyPlacement = placement(storeyFrame, relativeTo: building)
        let storeyKey = "storey:\(story.number)"
        let storey = file.add("IFCBUILDINGSTOREY", [guid(hashing: storeyKey), .unset, .string("Story \(story.number)"), .unset, .unset,
                                                    .ref(storeyPlacement), .unset, .unset, .enumeration("ELEMENT"), .real(elevation)])
        addProperties(to: storey, key: storeyKey, [("Story", .typed("IFCINTEGER", .integer(story.number)))])

        /// A RoomPlan world point in storey coordinates.
        func local(_ p: SIMD3<Double>) -> SIMD3<Double> { ifcVector(p) - SIMD3(0, 0, elevation) }

        // Rooms become spaces.
        var spaces: [STEPRef] = []
        var spaceContents: [[STEPRef]] = Array(repeating: [], count: story.rooms.count)
        // The tops of the story's walls, and of each room's own, in one pass.
        var allTops: [Double] = []
        var roomTops: [[Double]] = Array(repeating: [], count: story.rooms.count)
        for element in story.elements where element.kind == .wall {
            guard let top = wallTop(element) else { continue }
            allTops.append(top)
            if let room = element.room, roomTops.indices.contains(room) { roomTops[room].append(top) }
        }
        let storyWallTop = median(allTops)
        for (index, room) in story.rooms.enumerated() {
            var height = (median(roomTops[index]) ?? storyWallTop ?? room.floorHeight + 2.5) - room.floorHeight
            if !(height > 0.01) { height = 2.5 }
            spaces.append(writeSpace(room, height: height, storeyPlacement: storeyPlacement, floorZ: finite(room.floorHeight) - elevation))
            tick()
        }
        if !spaces.isEmpty { aggregate(storey, spaces, key: storeyKey) }

        var contained: [STEPRef] = []
        var walls: [WallEntry] = []
        var wallIndex: [String: Int] = [:]
        for element in story.elements where element.kind == .wall {
            if let entry = writeWall(element, story: story, local: local, storeyPlacement: storeyPlacement) {
                contained.append(entry.product)
                if wallIndex[element.identifier] == nil { wallIndex[element.identifier] = walls.count }
                walls.append(entry)
            }
            tick()
        }
        for element in story.elements where [.door, .window, .opening].contains(element.kind) {
            let host = hostWall(of: element, walls: walls, byIdentifier: wallIndex, local: local)
            if let product = writeInsert(element, host: host.map { walls[$0] }, local: local, storeyPlacement: storeyPlacement) {
                contained.append(product)
            }
            if let host, let surface = element.surface {
                walls[host].openingArea += Double(surface.dimensions.x) * Double(surface.dimensions.y)
            }
            tick()
        }
        for wall in walls {
            addQuantities(to: wall.product, key: wall.element.identifier, name: "Qto_WallBaseQuantities", [
                ("IFCQUANTITYLENGTH", "Length", wall.length), ("IFCQUANTITYLENGTH", "Height", wall.height),
                ("IFCQUANTITYLENGTH", "Width", wall.across.upperBound - wall.across.lowerBound),
                ("IFCQUANTITYAREA", "GrossSideArea", wall.grossArea),
                ("IFCQUANTITYAREA", "NetSideArea", max(0, wall.grossArea - wall.openingArea)),
            ])
        }
        for element in story.elements where element.kind == .floor {
            if let product = writeSlab(element, story: story, local: local, storeyPlacement: storeyPlacement) { contained.append(product) }
            tick()
        }
        for element in story.elements where element.kind == .object {
            if let product = writeObject(element, story: story, local: local, storeyPlacement: storeyPlacement) {
                if let room = element.room, spaces.indices.contains(room) {
                    spaceContents[room].append(product)
                } else {
                    contained.append(product)
                }
            }
            tick()
        }
        if !contained.isEmpty { contain(contained, in: storey, key: storeyKey) }
        for (index, contents) in spaceContents.enumerated() where !contents.isEmpty {
            contain(contents, in: spaces[index], key: "\(storeyKey):space:\(index)")
        }
        return storey
    }

    private func wallTop(_ element: ExportScene.Element) -> Double? {
        let top = element.transform.translation.y + Double(element.dimensions.y) / 2
        return top.isFinite ? top : nil
    }

    // MARK: Spaces

    private mutating func writeSpace(_ room: ExportScene.Room, height: Double, storeyPlacement: STEPRef, floorZ: Double) -> STEPRef {
        let frame = IFCFrame(origin: SIMD3(0, 0, floorZ), x: SIMD3(1, 0, 0), z: SIMD3(0, 0, 1))
        let spacePlacement = placement(frame, relativeTo: storeyPlacement)
        var solids: [STEPRef] = []
        for outline in room.outlines {
            let points = cleanRing(outline.map { SIMD2($0.x, -$0.z) })
            guard points.count >= 3 else { continue }
            let profile = polygonProfile(points)
            solids.append(extrusion(profile, position: nil, direction: SIMD3(0, 0, 1), depth: height))
        }
        if solids.isEmpty { warnings.append("\(room.handle) has no floor outline: its space has no shape") }
        let shape = solids.isEmpty ? STEPValue.unset : .ref(productShape(body: solids, axis: nil))
        let name = room.name.flatMap { $0.isEmpty ? nil : $0 } ?? room.handle
        let longName = room.labels.isEmpty ? nil : room.labels.joined(separator: ", ")
        let key = "space:" + (room.identifier ?? room.handle)
        let id = room.identifier.flatMap { IFCGlobalId(uuid: $0) } ?? IFCGlobalId(hashing: projectKey + "/" + key)
        let space = file.add("IFCSPACE", [guid(id), .unset, .string(label(name)), .unset, .unset, .ref(spacePlacement), shape,
                                          .text(longName.map(label)), .enumeration("ELEMENT"), .enumeration("SPACE"), .unset])
        count("IfcSpace")
        var properties: [(String, STEPValue)] = [("Handle", identifierValue(room.handle))]
        if let given = room.name, !given.isEmpty { properties.append(("Name", labelValue(given))) }
        if let longName { properties.append(("Labels", labelValue(longName))) }
        if let identifier = room.identifier { properties.append(("Identifier", identifierValue(identifier))) }
        properties.append(("Story", .typed("IFCINTEGER", .integer(room.story))))
        addProperties(to: space, key: key, properties)
        let area = max(0, finite(room.floorArea))
        addQuantities(to: space, key: key, name: "Qto_SpaceBaseQuantities", [
            ("IFCQUANTITYLENGTH", "Height", height), ("IFCQUANTITYAREA", "GrossFloorArea", area),
            ("IFCQUANTITYAREA", "NetFloorArea", area),
        ])
        return space
    }

    // MARK: Walls

    private mutating func writeWall(_ element: ExportScene.Element, story: ExportScene.Story,
                                    local: (SIMD3<Double>) -> SIMD3<Double>, storeyPlacement: STEPRef) -> WallEntry? {
        guard let surface = element.surface, isFinite(surface) else {
            warnings.append("\(element.handle) has coordinates that are not numbers: left out")
            return nil
        }
        let t = surface.transform
        let length = Double(surface.dimensions.x), height = Double(surface.dimensions.y)
        let depth = Double(surface.dimensions.z)
        let thickness = depth > 0.001 ? depth : options.wallThickness
        var along = ifcVector(t.column(0))
        along.z = 0
        // Walls are written standing: one that leans (no scan writes one; a hand edit or a broken
        // transform) would otherwise come out upright without a word.
        if let lean = degreesFromUpright(t.column(1)), lean > 2 {
            warnings.append("\(element.handle) leans \(formatted(lean, digits: 0))° from upright: written upright")
        }
        let centre = local(t.translation)
        let frameAtCentre = IFCFrame(origin: centre, x: along, z: SIMD3(0, 0, 1))
        let frame = IFCFrame(origin: frameAtCentre.point(SIMD3(-length / 2, 0, -height / 2)), x: frameAtCentre.x, z: frameAtCentre.z)
        // The scanned surface is the wall's face seen from its room: the body goes behind it,
        // away from the room. A wall no one room owns (a structure's shared wall) is centred.
        let across: ClosedRange<Double>
        var side: Int?
        if let room = element.room, story.rooms.indices.contains(room) {
            side = insideSide(of: surface.planSegment, outlines: story.rooms[room].outlines)
        }
        switch side {
        case 1: across = -thickness...0
        case -1: across = 0...thickness
        default: across = (-thickness / 2)...(thickness / 2)
        }
        let wallPlacement = placement(frame, relativeTo: storeyPlacement)
        var body: [STEPRef] = []
        var grossArea = max(0, length) * max(0, height)
        let corners = cleanRing((surface.polygonCorners ?? []).map { SIMD2(Double($0.x) + length / 2, Double($0.y) + height / 2) })
        if corners.count >= 3 {
            // A sloped or odd-shaped wall: its outline in the wall's plane, pushed through it.
            let profile = polygonProfile(corners)
            let position = axes(IFCFrame(origin: SIMD3(0, across.upperBound, 0), x: SIMD3(1, 0, 0), z: SIMD3(0, -1, 0)))
            body.append(extrusion(profile, position: position, direction: SIMD3(0, 0, 1), depth: thickness))
            grossArea = abs(signedArea(corners))
        } else if length > 0.001 && height > 0.001 {
            let profile = rectangleProfile(centre: SIMD2(length / 2, (across.lowerBound + across.upperBound) / 2), x: length, y: thickness)
            body.append(extrusion(profile, position: nil, direction: SIMD3(0, 0, 1), depth: height))
        } else {
            warnings.append("\(element.handle) has no length or height: written without a shape")
        }
        var axis: [SIMD2<Double>]?
        if length > 0.001 { axis = [SIMD2(0, 0), SIMD2(length, 0)] }
        let shape = body.isEmpty && axis == nil ? STEPValue.unset : .ref(productShape(body: body, axis: axis))
        let product = file.add("IFCWALL", productHead(element, id: IFCGlobalId(identifier: element.identifier, kind: "wall"),
                                                      objectType: nil, placement: wallPlacement, shape: shape)
                                          + [.enumeration("NOTDEFINED")])
        count("IfcWall")
        addProperties(to: product, key: element.identifier, elementProperties(element, story: story))
        return WallEntry(element: element, product: product, placement: wallPlacement, frame: frame, length: length, height: height,
                         across: across, segment: surface.planSegment, grossArea: grossArea)
    }

    /// Which side of a wall's plan line its room lies on: +1 the side of the segment's
    /// normal, −1 the other; nil when both or neither side is inside (a wall standing in a
    /// room, a room without an outline).
    private func insideSide(of segment: PlanSegment, outlines: [[PlanPoint]]) -> Int? {
        guard segment.length > 0.001, !outlines.isEmpty else { return nil }
        let probe = segment.normal * 0.2
        let positive = outlines.contains { $0.encloses(segment.midpoint + probe) }
        let negative = outlines.contains { $0.encloses(segment.midpoint - probe) }
        if positive == negative { return nil }
        return positive ? 1 : -1
    }

    /// The wall a door, window or opening sits in: the one its `parentIdentifier` names, else
    /// (iOS 16 files, a parent merged away) the nearest wall on the story that it lies in,
    /// parallel and within 15 cm of its plane.
    private func hostWall(of element: ExportScene.Element, walls: [WallEntry], byIdentifier: [String: Int],
                          local: (SIMD3<Double>) -> SIMD3<Double>) -> Int? {
        guard let surface = element.surface else { return nil }
        if let parent = surface.parentIdentifier, let index = byIdentifier[identifier: parent] { return index }
        let segment = surface.planSegment
        let middle = segment.midpoint
        let centreZ = local(surface.transform.translation).z
        var best: (index: Int, distance: Double)?
        for (index, wall) in walls.enumerated() where wall.segment.length > 0.001 {
            let distance = abs(wall.segment.signedDistance(to: middle))
            guard distance <= 0.15 else { continue }
            let t = wall.segment.parameter(of: middle)
            let slack = 0.05 / wall.segment.length
            guard t >= -slack, t <= 1 + slack else { continue }
            if segment.length > 0.001 {
                let turn = abs(segment.direction.normalized.cross(wall.segment.direction.normalized))
                guard turn < 0.2 else { continue }
            }
            guard centreZ >= wall.frame.origin.z - 0.05, centreZ <= wall.frame.origin.z + wall.height + 0.05 else { continue }
            if best == nil || distance < best!.distance { best = (index, distance) }
        }
        return best?.index
    }

    // MARK: Doors, windows, openings

    private mutating func writeInsert(_ element: ExportScene.Element, host: WallEntry?,
                                      local: (SIMD3<Double>) -> SIMD3<Double>, storeyPlacement: STEPRef) -> STEPRef? {
        guard let surface = element.surface, isFinite(surface) else {
            warnings.append("\(element.handle) has coordinates that are not numbers: left out")
            return nil
        }
        let width = Double(surface.dimensions.x), height = Double(surface.dimensions.y)
        let t = surface.transform
        var along = ifcVector(t.column(0))
        along.z = 0
        // Walls are written standing: one that leans (no scan writes one; a hand edit or a broken
        // transform) would otherwise come out upright without a word.
        if let lean = degreesFromUpright(t.column(1)), lean > 2 {
            warnings.append("\(element.handle) leans \(formatted(lean, digits: 0))° from upright: written upright")
        }
        let centre = local(t.translation)
        let atCentre = IFCFrame(origin: centre, x: along, z: SIMD3(0, 0, 1))
        // Origin at the lower left corner, seen from the side local Y points away from.
        let frame = IFCFrame(origin: atCentre.point(SIMD3(-width / 2, 0, -height / 2)), x: atCentre.x, z: atCentre.z)
        let sized = width > 0.001 && height > 0.001

        var relativeTo = storeyPlacement, parentFrame = IFCFrame.identity
        var opening: STEPRef?
        if let host, sized {
            // The opening runs along the wall, through all of its body, from the insert's
            // lower left (in the wall's own direction); a little deeper than the wall, and
            // below a floor-level door's sill, so no sliver of wall is left on a face.
            let inWall = host.frame.local(centre)
            let start = inWall.x - width / 2
            let bottom = inWall.z - height / 2
            let below = bottom <= 0.01 ? 0.05 : 0
            let openingFrame = IFCFrame(origin: host.frame.point(SIMD3(start, 0, bottom - below)), x: host.frame.x, z: host.frame.z)
            let openingPlacement = placement(openingFrame.relative(to: host.frame), relativeTo: host.placement)
            let margin = 0.05
            let across = (host.across.lowerBound - margin)...(host.across.upperBound + margin)
            let profile = rectangleProfile(centre: SIMD2(width / 2, (across.lowerBound + across.upperBound) / 2),
                                           x: width, y: across.upperBound - across.lowerBound)
            let solid = extrusion(profile, position: nil, direction: SIMD3(0, 0, 1), depth: height + below)
            let product = file.add("IFCOPENINGELEMENT", [
                guid(IFCGlobalId(hashing: "opening:" + element.identifier)), .unset, .string(label(element.name ?? element.handle)),
                .string(element.kind == .opening ? "opening" : "opening for \(element.kind.rawValue) \(element.handle)"),
                .unset, .ref(openingPlacement), .ref(productShape(body: [solid], axis: nil)), .unset, .enumeration("OPENING"),
            ])
            count("IfcOpeningElement")
            relate("IFCRELVOIDSELEMENT", key: "voids:" + element.identifier, [.ref(host.product), .ref(product)])
            if element.kind == .opening {
                addProperties(to: product, key: element.identifier, elementProperties(element, story: nil))
                return nil
            }
            opening = product
            relativeTo = openingPlacement
            parentFrame = openingFrame
        } else {
            let why = host == nil ? "lies in no wall" + (sized ? "" : " and has no size") : "has no size"
            warnings.append("\(element.handle) \(why): " + (element.kind == .opening ? "left out" : "written without an opening"))
            if element.kind == .opening { return nil }
        }

        let relativeFrame = opening == nil ? frame : frame.relative(to: parentFrame)
        let insertPlacement = placement(relativeFrame, relativeTo: relativeTo)
        var shape = STEPValue.unset
        if sized {
            let depth = Double(surface.dimensions.z) > 0.001 ? Double(surface.dimensions.z) : 0.05
            let profile = rectangleProfile(centre: SIMD2(width / 2, 0), x: width, y: depth)
            shape = .ref(productShape(body: [extrusion(profile, position: nil, direction: SIMD3(0, 0, 1), depth: height)], axis: nil))
        }
        let isDoor = element.kind == .door
        let product = file.add(isDoor ? "IFCDOOR" : "IFCWINDOW",
                               productHead(element, id: IFCGlobalId(identifier: element.identifier, kind: element.kind.rawValue),
                                           objectType: nil, placement: insertPlacement, shape: shape)
                                   + [positiveLength(height), positiveLength(width), .enumeration(isDoor ? "DOOR" : "WINDOW"), .unset, .unset])
        count(isDoor ? "IfcDoor" : "IfcWindow")
        addProperties(to: product, key: element.identifier, elementProperties(element, story: nil))
        if let opening {
            relate("IFCRELFILLSELEMENT", key: "fills:" + element.identifier, [.ref(opening), .ref(product)])
        }
        return product
    }

    // MARK: Floors and objects

    private mutating func writeSlab(_ element: ExportScene.Element, story: ExportScene.Story,
                                    local: (SIMD3<Double>) -> SIMD3<Double>, storeyPlacement: STEPRef) -> STEPRef? {
        guard let surface = element.surface, isFinite(surface) else {
            warnings.append("\(element.handle) has coordinates that are not numbers: left out")
            return nil
        }
        let t = surface.transform
        let frame = IFCFrame(origin: local(t.translation), x: ifcVector(t.column(0)), z: ifcVector(t.column(2)))
        var outline = cleanRing((surface.polygonCorners ?? []).map { SIMD2(Double($0.x), Double($0.y)) })
        if outline.count < 3 {
            let w = Double(surface.dimensions.x) / 2, h = Double(surface.dimensions.y) / 2
            outline = w > 0.0005 && h > 0.0005 ? [SIMD2(-w, -h), SIMD2(w, -h), SIMD2(w, h), SIMD2(-w, h)] : []
        }
        var shape = STEPValue.unset
        let area = abs(signedArea(outline))
        if outline.count >= 3 {
            let solid = extrusion(polygonProfile(outline), position: nil, direction: SIMD3(0, 0, -1), depth: options.slabThickness)
            shape = .ref(productShape(body: [solid], axis: nil))
        } else {
            warnings.append("\(element.handle) has no polygon and no size: written without a shape")
        }
        let product = file.add("IFCSLAB", productHead(element, id: IFCGlobalId(identifier: element.identifier, kind: "floor"),
                                                      objectType: nil, placement: placement(frame, relativeTo: storeyPlacement), shape: shape)
                                          + [.enumeration("FLOOR")])
        count("IfcSlab")
        addProperties(to: product, key: element.identifier, elementProperties(element, story: story))
        addQuantities(to: product, key: element.identifier, name: "Qto_SlabBaseQuantities", [
            ("IFCQUANTITYLENGTH", "Width", options.slabThickness), ("IFCQUANTITYAREA", "GrossArea", area),
            ("IFCQUANTITYAREA", "NetArea", area),
        ])
        return product
    }

    private mutating func writeObject(_ element: ExportScene.Element, story: ExportScene.Story,
                                      local: (SIMD3<Double>) -> SIMD3<Double>, storeyPlacement: STEPRef) -> STEPRef? {
        guard let object = element.object, isFinite(object.transform), isFinite(object.dimensions) else {
            warnings.append("\(element.handle) has coordinates that are not numbers: left out")
            return nil
        }
        let t = object.transform
        let w = Double(object.dimensions.x), h = Double(object.dimensions.y), d = Double(object.dimensions.z)
        let atCentre = IFCFrame(origin: local(t.translation), x: ifcVector(t.column(0)), z: ifcVector(t.column(1)))
        let frame = IFCFrame(origin: atCentre.point(SIMD3(0, 0, -h / 2)), x: atCentre.x, z: atCentre.z)
        var shape = STEPValue.unset
        if w > 0.0005, h > 0.0005, d > 0.0005 {
            let solid = extrusion(rectangleProfile(centre: .zero, x: w, y: d), position: nil, direction: SIMD3(0, 0, 1), depth: h)
            shape = .ref(productShape(body: [solid], axis: nil))
        } else {
            warnings.append("\(element.handle) has no size: written without a shape")
        }
        let (entity, predefined) = IFCWriter.ifcClass(forObject: element.category, attributes: object.attributes)
        var parameters = productHead(element, id: IFCGlobalId(identifier: element.identifier, kind: "object"),
                                     objectType: element.category, placement: placement(frame, relativeTo: storeyPlacement), shape: shape)
        if let predefined { parameters.append(.enumeration(predefined)) }
        let product = file.add(entity.uppercased(), parameters)
        count(entity)
        addProperties(to: product, key: element.identifier, elementProperties(element, story: story))
        return product
    }

    // MARK: Products' common parts

    /// GlobalId, OwnerHistory, Name, Description, ObjectType, ObjectPlacement, Representation, Tag.
    private mutating func productHead(_ element: ExportScene.Element, id: IFCGlobalId, objectType: String?,
                                      placement: STEPRef, shape: STEPValue) -> [STEPValue] {
        [guid(id), .unset, .string(label(element.name ?? element.handle)), .unset, .text(objectType.map(label)),
         .ref(placement), shape, .string(label(element.identifier))]
    }

    /// RoomPlan's facts about an element, for its `RoomPlan_Common` property set.
    private func elementProperties(_ element: ExportScene.Element, story: ExportScene.Story?) -> [(String, STEPValue)] {
        var properties: [(String, STEPValue)] = [
            ("Identifier", identifierValue(element.identifier)), ("Handle", identifierValue(element.handle)),
            ("Category", labelValue(element.category)),
        ]
        if let name = element.name, !name.isEmpty { properties.append(("Name", labelValue(name))) }
        var confidence: Confidence?, parent: String?, elementStory: Int?
        var attributes: JSONObject?
        switch element.body {
        case .surface(let s):
            confidence = s.confidence; parent = s.parentIdentifier; elementStory = s.story
            if let isOpen = s.category.doorIsOpen { properties.append(("IsOpen", .typed("IFCBOOLEAN", .boolean(isOpen)))) }
        case .object(let o):
            confidence = o.confidence; parent = o.parentIdentifier; elementStory = o.story; attributes = o.attributes
        }
        if let confidence { properties.append(("Confidence", labelValue(confidence.name))) }
        if let parent { properties.append(("ParentIdentifier", identifierValue(parent))) }
        if let elementStory { properties.append(("Story", .typed("IFCINTEGER", .integer(elementStory)))) }
        if let room = element.room, let story, story.rooms.indices.contains(room) {
            properties.append(("Room", identifierValue(story.rooms[room].handle)))
        }
        var names = Set(properties.map(\.0))
        for member in attributes?.members ?? [] where !names.contains(member.key) && !member.key.isEmpty {
            names.insert(member.key)
            let text: String
            switch member.value {
            case .string(let s): text = s
            default:
                var writer = JSONWriter(capacity: 64, compact: true)
                writer.value(member.value)
                text = String(decoding: writer.bytes, as: UTF8.self)
            }
            properties.append((label(member.key), labelValue(text)))
        }
        return properties
    }

    // MARK: Property sets, quantities, relationships

    private mutating func addProperties(to product: STEPRef, key: String, _ properties: [(String, STEPValue)]) {
        guard !properties.isEmpty else { return }
        let values = properties.map { file.add("IFCPROPERTYSINGLEVALUE", [.string($0.0), .unset, $0.1, .unset]) }
        let set = file.add("IFCPROPERTYSET", [guid(hashing: "pset:" + key), .unset, .string("RoomPlan_Common"), .unset, .refs(values)])
        relate("IFCRELDEFINESBYPROPERTIES", key: "pset-of:" + key, [.refs([product]), .ref(set)])
    }

    private mutating func addQuantities(to product: STEPRef, key: String, name: String, _ quantities: [(type: String, name: String, value: Double)]) {
        let values = quantities.map { file.add($0.type, [.string($0.name), .unset, .unset, .real(max(0, finite($0.value))), .unset]) }
        let set = file.add("IFCELEMENTQUANTITY", [guid(hashing: "qto:" + name + ":" + key), .unset, .string(name), .unset, .unset, .refs(values)])
        relate("IFCRELDEFINESBYPROPERTIES", key: "qto-of:" + name + ":" + key, [.refs([product]), .ref(set)])
    }

    private mutating func aggregate(_ whole: STEPRef, _ parts: [STEPRef], key: String) {
        relate("IFCRELAGGREGATES", key: "aggregates:" + key, [.ref(whole), .refs(parts)])
    }

    private mutating func contain(_ elements: [STEPRef], in structure: STEPRef, key: String) {
        relate("IFCRELCONTAINEDINSPATIALSTRUCTURE", key: "contains:" + key, [.refs(elements), .ref(structure)])
    }

    /// A relationship: GlobalId, no owner history, name or description, then `tail`.
    private mutating func relate(_ type: String, key: String, _ tail: [STEPValue]) {
        file.add(type, [guid(hashing: key), .unset, .unset, .unset] + tail)
    }

    private mutating func count(_ entity: String) { products[entity, default: 0] += 1 }

    /// A GlobalId not given out before in this file: a repeated identifier (the same room
    /// opened twice) is rehashed, deterministically, until it is new.
    private mutating func guid(_ id: IFCGlobalId) -> STEPValue {
        var id = id
        var round = 1
        while usedIds.contains(id) {
            id = IFCGlobalId(hashing: "\(id)#\(round)")
            round += 1
        }
        usedIds.insert(id)
        return .string(id.description)
    }

    private mutating func guid(hashing key: String) -> STEPValue {
        guid(IFCGlobalId(hashing: projectKey + "/" + key))
    }

    // MARK: Geometry entities

    private mutating func point(_ p: SIMD3<Double>) -> STEPRef {
        p == .zero ? origin3 : file.add("IFCCARTESIANPOINT", [.reals([p.x, p.y, p.z])])
    }

    private mutating func point(_ p: SIMD2<Double>) -> STEPRef {
        p == .zero ? origin2 : file.add("IFCCARTESIANPOINT", [.reals([p.x, p.y])])
    }

    /// Directions along the axes are shared; others written as they come.
    private mutating func direction(_ v: SIMD3<Double>) -> STEPRef {
        let snapped = (v * 1e9).rounded(.toNearestOrEven) / 1e9
        let isAxis = (snapped * snapped).sum() == 1 && [snapped.x, snapped.y, snapped.z].filter { $0 != 0 }.count == 1
        if isAxis, let shared = directions[snapped] { return shared }
        let ref = file.add("IFCDIRECTION", [.reals([v.x, v.y, v.z])])
        if isAxis { directions[snapped] = ref }
        return ref
    }

    /// An `IfcAxis2Placement3D`, leaving out the axes when they are the defaults.
    private mutating func axes(_ frame: IFCFrame) -> STEPRef {
        let isDefault = abs(frame.z.z - 1) < 1e-12 && abs(frame.x.x - 1) < 1e-12
        let location = point(cleaned(frame.origin))
        if isDefault { return file.add("IFCAXIS2PLACEMENT3D", [.ref(location), .unset, .unset]) }
        return file.add("IFCAXIS2PLACEMENT3D", [.ref(location), .ref(direction(cleaned(frame.z))), .ref(direction(cleaned(frame.x)))])
    }

    private mutating func placement(_ frame: IFCFrame, relativeTo parent: STEPRef?) -> STEPRef {
        let relative = axes(frame)
        return file.add("IFCLOCALPLACEMENT", [parent.map { .ref($0) } ?? .unset, .ref(relative)])
    }

    private mutating func rectangleProfile(centre: SIMD2<Double>, x: Double, y: Double) -> STEPRef {
        let position = file.add("IFCAXIS2PLACEMENT2D", [.ref(point(centre)), .unset])
        return file.add("IFCRECTANGLEPROFILEDEF", [.enumeration("AREA"), .unset, .ref(position), .real(x), .real(y)])
    }

    private mutating func polygonProfile(_ ring: [SIMD2<Double>]) -> STEPRef {
        let points = (ring + [ring[0]]).map { point($0) }
        let polyline = file.add("IFCPOLYLINE", [.refs(points)])
        return file.add("IFCARBITRARYCLOSEDPROFILEDEF", [.enumeration("AREA"), .unset, .ref(polyline)])
    }

    private mutating func extrusion(_ profile: STEPRef, position: STEPRef?, direction vector: SIMD3<Double>, depth: Double) -> STEPRef {
        file.add("IFCEXTRUDEDAREASOLID", [.ref(profile), position.map { .ref($0) } ?? .unset, .ref(direction(vector)), .real(depth)])
    }

    /// The product's shape: its swept solids (`Body`) and, for a wall, its axis line (`Axis`).
    private mutating func productShape(body: [STEPRef], axis: [SIMD2<Double>]?) -> STEPRef {
        var representations: [STEPRef] = []
        if let axis {
            let line = file.add("IFCPOLYLINE", [.refs(axis.map { point($0) })])
            representations.append(file.add("IFCSHAPEREPRESENTATION", [.ref(axisContext), .string("Axis"), .string("Curve2D"), .refs([line])]))
        }
        if !body.isEmpty {
            representations.append(file.add("IFCSHAPEREPRESENTATION", [.ref(bodyContext), .string("Body"), .string("SweptSolid"), .refs(body)]))
        }
        return file.add("IFCPRODUCTDEFINITIONSHAPE", [.unset, .unset, .refs(representations)])
    }

}

/// IFC's labels and identifiers hold at most 255 characters.
private func label(_ text: String) -> String {
    text.count <= 255 ? text : String(text.prefix(255))
}

private func labelValue(_ text: String) -> STEPValue { .typed("IFCLABEL", .string(label(text))) }
private func identifierValue(_ text: String) -> STEPValue { .typed("IFCIDENTIFIER", .string(label(text))) }

// MARK: Numeric helpers

private func finite(_ value: Double) -> Double { value.isFinite ? value : 0 }

/// An `IfcPositiveLengthMeasure`, or `$` for a size RoomPlan gave as 0 (IFC wants it above 0).
private func positiveLength(_ value: Double) -> STEPValue { value > 0 && value.isFinite ? .real(value) : .unset }

/// Rounds away float noise (1e-17 for 0) so that a direction along an axis is written as one.
private func cleaned(_ v: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(abs(v.x) < 1e-12 ? 0 : v.x, abs(v.y) < 1e-12 ? 0 : v.y, abs(v.z) < 1e-12 ? 0 : v.z)
}

private func isFinite(_ transform: Transform) -> Bool {
    (0..<16).allSatisfy { transform[$0].isFinite }
}

private func isFinite(_ v: SIMD3<Float>) -> Bool { v.x.isFinite && v.y.isFinite && v.z.isFinite }

private func isFinite(_ surface: Surface) -> Bool {
    isFinite(surface.transform) && isFinite(surface.dimensions) && (surface.polygonCorners ?? []).allSatisfy(isFinite)
}

/// A polygon's points without repeats (consecutive, or the last equal to the first) closer
/// than 0.1 mm; what an `IfcPolyline` profile should hold. Empty when no area is left.
private func cleanRing(_ points: [SIMD2<Double>]) -> [SIMD2<Double>] {
    var ring: [SIMD2<Double>] = []
    for p in points where p.x.isFinite && p.y.isFinite {
        if let last = ring.last, ((p - last) * (p - last)).sum() < 1e-8 { continue }
        ring.append(p)
    }
    while ring.count > 1, let first = ring.first, let last = ring.last, ((first - last) * (first - last)).sum() < 1e-8 {
        ring.removeLast()
    }
    return ring.count >= 3 && abs(signedArea(ring)) > 1e-8 ? ring : []
}

private func signedArea(_ ring: [SIMD2<Double>]) -> Double {
    guard ring.count >= 3 else { return 0 }
    var sum = 0.0
    for i in ring.indices {
        let a = ring[i], b = ring[(i + 1) % ring.count]
        sum += a.x * b.y - b.x * a.y
    }
    return sum / 2
}
