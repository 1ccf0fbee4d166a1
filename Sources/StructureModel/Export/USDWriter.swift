/// How `export usdz|usda` draws a scene.
public struct USDExportOptions: Sendable {
    /// Walls as plain boxes, no holes (RoomPlan's `.parametric`); else meshes with the
    /// doors, windows and openings cut out (RoomPlan's default `.mesh`).
    public var parametric = false
    /// The thickness, metres, of a wall RoomPlan gave no depth (its `dimensions` end in 0,
    /// as every wall of a single-room scan does): centred on the wall's plane, as RoomPlan
    /// centres the walls it does give a depth. 0 draws such walls as single faces.
    public var wallThickness = 0.1
    /// Models attached to objects (`set o3 model chair.usdz`), by object identifier.
    public var models: [String: USDModel] = [:]

    public init(parametric: Bool = false, wallThickness: Double = 0.1, models: [String: USDModel] = [:]) {
        self.parametric = parametric
        self.wallThickness = wallThickness
        self.models = models
    }
}

/// The USD layer of a scene, as USDA text, laid out as RoomPlan's own export is (a root
/// Xform, the default prim, named after the document; `Arch_grp` for walls, doors,
/// windows, openings and floors; `Object_grp` for objects; `Section_grp` for sections),
/// with wb's own level added: one Xform per story and, under it, one per room. An element
/// several rooms share (a wall between two rooms, a merged floor) sits in the story's own
/// `Arch_grp`/`Object_grp`. Each prim carries RoomPlan's facts in `customData`.
struct USDWriter {
    let scene: ExportScene
    let options: USDExportOptions
    /// The asset path written for each model (by source path): inside the package, or
    /// relative to the .usda's folder.
    let modelPaths: [String: String]
    var text: USDText
    var warnings: [String] = []
    /// Elements left out for having no area, by kind.
    var omitted: [ElementKind: Int] = [:]
    private var rootName = ""
    private var done = 0
    private let progress: ((Int) -> Void)?
    /// Every wall of the scene by identifier, for the doors and windows that name theirs.
    private var wallsByIdentifier: [String: ExportScene.Element] = [:]
    /// The holes cut in each wall (by handle), from the doors, windows and openings in it.
    private var holes: [String: [WallHole]] = [:]

    init(scene: ExportScene, options: USDExportOptions, modelPaths: [String: String], progress: ((Int) -> Void)?) {
        self.scene = scene
        self.options = options
        self.modelPaths = modelPaths
        self.progress = progress
        let elements = scene.stories.reduce(0) { $0 + $1.elements.count }
        text = USDText(capacity: 4096 + elements * 1500)
    }

    /// The materials' colours (UsdPreviewSurface diffuse colour, opacity).
    static func look(_ category: String) -> (color: SIMD3<Double>, opacity: Double) {
        switch category {
        case "wall": return (SIMD3(0.92, 0.91, 0.88), 1)
        case "door": return (SIMD3(0.55, 0.38, 0.24), 1)
        case "window": return (SIMD3(0.62, 0.80, 0.92), 0.35)
        case "opening": return (SIMD3(0.95, 0.75, 0.30), 0.25)
        case "floor": return (SIMD3(0.72, 0.64, 0.52), 1)
        case "bed", "sofa", "chair": return (SIMD3(0.36, 0.46, 0.62), 1)
        case "table", "storage": return (SIMD3(0.60, 0.47, 0.33), 1)
        case "sink", "toilet", "bathtub": return (SIMD3(0.95, 0.96, 0.97), 1)
        case "refrigerator", "stove", "oven", "dishwasher", "washerDryer": return (SIMD3(0.75, 0.76, 0.78), 1)
        case "television": return (SIMD3(0.12, 0.12, 0.14), 1)
        case "fireplace": return (SIMD3(0.55, 0.30, 0.25), 1)
        case "stairs": return (SIMD3(0.50, 0.45, 0.40), 1)
        default: return (SIMD3(0.6, 0.6, 0.6), 1)
        }
    }

    static func capitalized(_ word: String) -> String {
        guard let first = word.first else { return word }
        return first.uppercased() + word.dropFirst()
    }

    mutating func write() -> [UInt8] {
        rootName = USDName.identifier(scene.title.isEmpty ? "Scene" : scene.title)
        for story in scene.stories {
            for element in story.elements where element.kind == .wall { wallsByIdentifier[element.identifier] = element }
        }
        if !options.parametric { findHoles() }

        text.raw("#usda 1.0\n(\n")
        text.push()
        text.indent()
        text.raw("doc = ")
        text.string("\(scene.title) exported by wb: \(scene.summary)")
        text.raw("\n")
        text.indent()
        text.raw("defaultPrim = ")
        text.string(rootName)
        text.raw("\n")
        text.line("metersPerUnit = 1")
        text.line("upAxis = \"Y\"")
        text.pop()
        text.raw(")\n\n")

        text.line("def Xform \"\(rootName)\" (")
        text.push()
        customData([("title", .text(scene.title)), ("exportedBy", .text("wb")),
                    ("style", .text(options.parametric ? "parametric" : "mesh"))])
        text.pop()
        text.line(")")
        text.line("{")
        text.push()
        var rootSiblings = USDName.Siblings()
        _ = rootSiblings.unique("Looks")
        writeLooks()
        for story in scene.stories {
            let name = rootSiblings.unique("Story_" + (story.number < 0 ? "m\(story.number.magnitude)" : "\(story.number)"))
            write(story, named: name)
        }
        text.close()
        return text.bytes
    }

    // MARK: Materials

    private mutating func writeLooks() {
        var categories: [String] = []
        var seen: Set<String> = []
        for story in scene.stories {
            for element in story.elements where seen.insert(element.category).inserted { categories.append(element.category) }
        }
        text.open("def Scope \"Looks\"")
        for category in categories.sorted() {
            let name = materialName(category)
            let look = Self.look(category)
            text.open("def Material \"\(name)\"")
            text.line("token outputs:surface.connect = </\(rootName)/Looks/\(name)/Surface.outputs:surface>")
            text.open("def Shader \"Surface\"")
            text.line("uniform token info:id = \"UsdPreviewSurface\"")
            text.indent()
            text.raw("color3f inputs:diffuseColor = ")
            text.tuple(look.color)
            text.raw("\n")
            text.line("float inputs:metallic = 0")
            if look.opacity < 1 {
                text.indent()
                text.raw("float inputs:opacity = ")
                text.number(look.opacity)
                text.raw("\n")
            }
            text.line("float inputs:roughness = 0.8")
            text.line("token outputs:surface")
            text.close()
            text.close()
        }
        text.close()
    }

    private func materialName(_ category: String) -> String {
        USDName.identifier(Self.capitalized(category))
    }

    // MARK: Stories and rooms

    private mutating func write(_ story: ExportScene.Story, named name: String) {
        text.line("def Xform \"\(name)\" (")
        text.push()
        customData([("story", .int(story.number)), ("elevation", .number(story.elevation))])
        text.pop()
        text.line(")")
        text.line("{")
        text.push()
        var siblings = USDName.Siblings()
        for reserved in ["Arch_grp", "Object_grp"] { _ = siblings.unique(reserved) }
        var byRoom: [Int: [ExportScene.Element]] = [:]
        var shared: [ExportScene.Element] = []
        for element in story.elements {
            if let room = element.room, story.rooms.indices.contains(room) {
                byRoom[room, default: []].append(element)
            } else {
                shared.append(element)
            }
        }
        for (index, room) in story.rooms.enumerated() {
            var base = room.displayName
            if base != room.handle { base += "_" + room.handle }
            let roomName = siblings.unique(USDName.identifier(base))
            text.line("def Xform \"\(roomName)\" (")
            text.push()
            var facts: [(String, USDValue)] = [("handle", .text(room.handle)), ("story", .int(room.story)),
                                               ("floorArea", .number(room.floorArea)), ("labels", .texts(room.labels))]
            if let identifier = room.identifier { facts.append(("identifier", .text(identifier))) }
            if let name = room.name { facts.append(("name", .text(name))) }
            customData(facts)
            text.indent()
            text.raw("displayName = ")
            text.string(room.displayName)
            text.raw("\n")
            text.pop()
            text.line(")")
            text.line("{")
            text.push()
            writeGroups(byRoom[index] ?? [], story: story.number)
            writeSections(room)
            text.close()
        }
        writeGroups(shared, story: story.number)
        text.close()
    }

    private mutating func writeGroups(_ elements: [ExportScene.Element], story: Int) {
        let arch = elements.filter { $0.kind != .object }
        let objects = elements.filter { $0.kind == .object }
        if !arch.isEmpty {
            text.open("def Xform \"Arch_grp\"")
            var siblings = USDName.Siblings()
            for element in arch { write(element, story: story, siblings: &siblings) }
            text.close()
        }
        if !objects.isEmpty {
            text.open("def Xform \"Object_grp\"")
            var siblings = USDName.Siblings()
            for element in objects { write(element, story: story, siblings: &siblings) }
            text.close()
        }
    }

    private mutating func writeSections(_ room: ExportScene.Room) {
        guard !room.sections.isEmpty else { return }
        text.open("def Xform \"Section_grp\"")
        var siblings = USDName.Siblings()
        for section in room.sections {
            let name = siblings.unique(USDName.identifier(section.label))
            text.line("def Xform \"\(name)\" (")
            text.push()
            customData([("label", .text(section.label))])
            text.pop()
            text.line(")")
            text.line("{")
            text.push()
            text.indent()
            text.raw("double3 xformOp:translate = ")
            text.tuple(SIMD3(section.center.x, room.floorHeight, section.center.z))
            text.raw("\n")
            text.line("uniform token[] xformOpOrder = [\"xformOp:translate\"]")
            text.close()
        }
        text.close()
    }

    // MARK: Elements

    /// The most corners a wall's outline is drawn by (a scan's have a handful).
    static let outlineCorners = 256

    private mutating func write(_ element: ExportScene.Element, story: Int, siblings: inout USDName.Siblings) {
        defer {
            done += 1
            progress?(done)
        }
        let category = element.category
        let name = siblings.unique(USDName.identifier(Self.capitalized(category) + "_" + element.handle))
        let dims = SIMD3<Double>(element.dimensions)
        var mesh: USDMesh
        var doubleSided = false
        switch element.kind {
        case .wall:
            let depth = dims.z > 0 ? dims.z : max(0, options.wallThickness)
            let outline = (element.surface?.polygonCorners ?? []).map { SIMD2(Double($0.x), Double($0.y)) }
            if options.parametric {
                mesh = .box(SIMD3(dims.x, dims.y, depth))
            } else if outline.count >= 3 && outline.count <= Self.outlineCorners && !USDMesh.crossesItself(outline) {
                // A sloped or stepped wall: its polygon, not the rectangle around it (a real iOS 26
                // wall 1.21 m tall at one end was drawn 2.36 m tall), its openings cut through.
                mesh = .wall(width: dims.x, height: dims.y, thickness: depth, holes: holes[element.handle] ?? [], outline: outline)
            } else {
                if outline.count >= 3 {
                    // No scan gives a wall hundreds of corners, nor one whose edges cross: its box
                    // (100,000 corners took 13 s; a bow tie was drawn inside out).
                    warnings.append("\(element.handle): its outline (polygonCorners: \(outline.count) corners"
                                    + "\(outline.count <= Self.outlineCorners ? ", edges crossing" : "")) is drawn as its box")
                }
                mesh = .wall(width: dims.x, height: dims.y, thickness: depth, holes: holes[element.handle] ?? [])
            }
            doubleSided = depth <= 0
        case .floor:
            mesh = floorMesh(element)
            doubleSided = true
        case .object:
            if let object = element.object, let model = options.models[object.identifier], let path = modelPaths[model.path] {
                if let problem = Self.unreferenceable(model, at: path) {
                    warnings.append("\(element.handle): its model \(Self.shown(model.name)) \(problem); exported as its box")
                } else {
                    writeModel(element, model: model, assetPath: path, name: name, story: story)
                    return
                }
            }
            mesh = .box(dims)
        default:
            mesh = .box(dims)
            doubleSided = dims.z <= 0
        }
        if mesh.isEmpty {
            warnings.append("\(element.handle): a \(category) with no area (\(element.kind == .floor ? "no polygon" : "a size of 0")); left out")
            omitted[element.kind, default: 0] += 1
            return
        }
        text.line("def Mesh \"\(name)\" (")
        text.push()
        text.line("prepend apiSchemas = [\"MaterialBindingAPI\"]")
        customData(facts(of: element, story: story))
        if let display = element.name {
            text.indent()
            text.raw("displayName = ")
            text.string(display)
            text.raw("\n")
        }
        text.pop()
        text.line(")")
        text.line("{")
        text.push()
        if doubleSided { text.line("uniform bool doubleSided = 1") }
        let (low, high) = mesh.extent
        text.indent()
        text.raw("float3[] extent = ")
        text.tuples([low, high])
        text.raw("\n")
        text.indent()
        text.raw("int[] faceVertexCounts = ")
        text.integers(mesh.counts)
        text.raw("\n")
        text.indent()
        text.raw("int[] faceVertexIndices = ")
        text.integers(mesh.indices)
        text.raw("\n")
        text.line("rel material:binding = </\(rootName)/Looks/\(materialName(category))>")
        text.indent()
        text.raw("normal3f[] normals = ")
        text.tuples(mesh.normals)
        text.raw(" (\n")
        text.push()
        text.line("interpolation = \"uniform\"")
        text.pop()
        text.line(")")
        text.indent()
        text.raw("point3f[] points = ")
        text.tuples(mesh.points)
        text.raw("\n")
        // An opening is a gap, not a thing: kept (with its size and place) as guide
        // geometry, which viewers do not draw.
        if element.kind == .opening { text.line("uniform token purpose = \"guide\"") }
        text.line("uniform token subdivisionScheme = \"none\"")
        text.indent()
        text.raw("matrix4d xformOp:transform = ")
        text.matrix(element.transform)
        text.raw("\n")
        text.line("uniform token[] xformOpOrder = [\"xformOp:transform\"]")
        text.close()
    }

    /// Why a model cannot be referenced from USD text, if it cannot: an asset path holds no
    /// control character (a newline in a file name made the whole .usda unreadable), and a
    /// prim path only a prim name (a root prim `a>b` did the same).
    static func unreferenceable(_ model: USDModel, at assetPath: String) -> String? {
        if assetPath.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "is at a path USD text cannot hold (a control character in \(shown(assetPath)))"
        }
        if model.defaultPrim == nil, let prim = model.firstRootPrim, !isPrimName(prim) {
            return "has no prim USD text can reference (no defaultPrim, and its root prim is \(shown(prim)))"
        }
        return nil
    }

    /// A prim name, as USD's identifiers are: XID_Start or `_`, then XID_Continue.
    private static func isPrimName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.properties.isXIDStart || first == "_" else { return false }
        return text.unicodeScalars.allSatisfy { $0.properties.isXIDContinue }
    }

    /// Text from a file, with control characters shown as escapes, for a warning.
    static func shown(_ text: String) -> String {
        text.unicodeScalars.map { scalar in
            switch scalar {
            case "\n": return "\\n"
            case "\t": return "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: return String(scalar)
            }
        }.joined()
    }

    /// An attached model instead of the object's box: an Xform at the box, holding one that
    /// scales and centres the model into the box, holding the reference (so the model's own
    /// root transform is kept, not overridden).
    private mutating func writeModel(_ element: ExportScene.Element, model: USDModel, assetPath: String, name: String, story: Int) {
        let dims = SIMD3<Double>(element.dimensions)
        var scale = SIMD3<Double>(1, 1, 1), offset = SIMD3<Double>(0, 0, 0)
        if let (low, high) = model.bounds {
            let size = high - low
            for axis in 0..<3 where size[axis] > 1e-9 && dims[axis] > 0 { scale[axis] = dims[axis] / size[axis] }
            offset = -(low + high) / 2 * scale
        } else {
            warnings.append("\(element.handle): the bounds of \(model.name) could not be read (\(model.boundsUnknown ?? "\(model.rootLayer) gives none")); "
                            + "placed unscaled with its origin at the box centre")
        }
        text.line("def Xform \"\(name)\" (")
        text.push()
        var facts = facts(of: element, story: story)
        facts.append(("model", .text(model.name)))
        customData(facts)
        text.pop()
        text.line(")")
        text.line("{")
        text.push()
        text.indent()
        text.raw("matrix4d xformOp:transform = ")
        text.matrix(element.transform)
        text.raw("\n")
        text.line("uniform token[] xformOpOrder = [\"xformOp:transform\"]")
        text.open("def Xform \"Fit\"")
        text.indent()
        text.raw("double3 xformOp:scale = ")
        text.tuple(scale)
        text.raw("\n")
        text.indent()
        text.raw("double3 xformOp:translate = ")
        text.tuple(offset)
        text.raw("\n")
        text.line("uniform token[] xformOpOrder = [\"xformOp:translate\", \"xformOp:scale\"]")
        text.line("def \"Model\" (")
        text.push()
        text.indent()
        text.raw("prepend references = ")
        // A path with an `@` in it takes USD's `@@@` form (`@a_b.usdz@` named no file).
        if assetPath.contains("@") {
            text.raw("@@@" + assetPath.replacingOccurrences(of: "@@@", with: "\\@@@") + "@@@")
        } else {
            text.raw("@" + assetPath + "@")
        }
        if model.defaultPrim == nil, let prim = model.firstRootPrim { text.raw("</\(prim)>") }
        text.raw("\n")
        text.pop()
        text.line(")")
        text.line("{")
        text.line("}")
        text.close()
        text.close()
    }

    private func floorMesh(_ element: ExportScene.Element) -> USDMesh {
        guard let surface = element.surface else { return USDMesh() }
        var corners = (surface.polygonCorners ?? []).map { SIMD3<Double>($0) }
        if corners.isEmpty {
            let w = Double(surface.dimensions.x) / 2, h = Double(surface.dimensions.y) / 2
            corners = [SIMD3(-w, -h, 0), SIMD3(w, -h, 0), SIMD3(w, h, 0), SIMD3(-w, h, 0)]
        }
        // A floor's local Z is world up in RoomPlan's files; face whichever way is up.
        let up = surface.transform.column(2).y >= 0 ? 1.0 : -1.0
        return .polygon(corners, facing: up)
    }

    private func facts(of element: ExportScene.Element, story: Int) -> [(String, USDValue)] {
        var facts: [(String, USDValue)] = [("identifier", .text(element.identifier)), ("category", .text(element.category)),
                                           ("handle", .text(element.handle)), ("story", .int(story))]
        if let name = element.name { facts.append(("name", .text(name))) }
        let dims = element.dimensions
        facts.append(("dimensions", .numbers([Double(dims.x), Double(dims.y), Double(dims.z)])))
        switch element.body {
        case .surface(let surface):
            if let confidence = surface.confidence { facts.append(("confidence", .text(confidence.name))) }
            if let isOpen = surface.category.doorIsOpen { facts.append(("isOpen", .bool(isOpen))) }
            if let parent = surface.parentIdentifier { facts.append(("parentIdentifier", .text(parent))) }
        case .object(let object):
            if let confidence = object.confidence { facts.append(("confidence", .text(confidence.name))) }
            if let parent = object.parentIdentifier { facts.append(("parentIdentifier", .text(parent))) }
            if let attributes = object.attributes, !attributes.isEmpty {
                facts.append(("attributes", .dictionary(attributes.sortedMembers.map { member in
                    switch member.value {
                    case .string(let s): return (member.key, .text(s))
                    case .bool(let b): return (member.key, .bool(b))
                    case .number(let n): return (member.key, .text(n.text))
                    default: return (member.key, .text(member.value.typeName))
                    }
                })))
            }
        }
        return facts
    }

    // MARK: customData

    indirect enum USDValue {
        case text(String), int(Int), number(Double), bool(Bool), texts([String]), numbers([Double])
        case dictionary([(String, USDValue)])
    }

    private mutating func customData(_ entries: [(String, USDValue)]) {
        text.line("customData = {")
        text.push()
        dictionaryBody(entries)
        text.pop()
        text.line("}")
    }

    private mutating func dictionaryBody(_ entries: [(String, USDValue)]) {
        for (key, value) in entries {
            text.indent()
            let typeName: String
            switch value {
            case .text: typeName = "string"
            // (A story beyond 32 bits opens, and as `int` no USD reader took the file: an adversarial pass.)
            case .int(let n): typeName = Int32(exactly: n) == nil ? "int64" : "int"
            case .number: typeName = "double"
            case .bool: typeName = "bool"
            case .texts: typeName = "string[]"
            case .numbers: typeName = "double[]"
            case .dictionary: typeName = "dictionary"
            }
            text.raw(typeName + " ")
            if USDName.identifier(key) == key { text.raw(key) } else { text.string(key) }
            text.raw(" = ")
            switch value {
            case .text(let s): text.string(s)
            case .int(let n): text.integer(n)
            case .number(let d): text.number(d)
            case .bool(let b): text.raw(b ? "1" : "0")
            case .texts(let list):
                text.raw("[")
                for (index, s) in list.enumerated() {
                    if index > 0 { text.raw(", ") }
                    text.string(s)
                }
                text.raw("]")
            case .numbers(let list):
                text.raw("[")
                for (index, d) in list.enumerated() {
                    if index > 0 { text.raw(", ") }
                    text.number(d)
                }
                text.raw("]")
            case .dictionary(let inner):
                text.raw("{\n")
                text.push()
                dictionaryBody(inner)
                text.pop()
                text.indent()
                text.raw("}")
            }
            text.raw("\n")
        }
    }

    // MARK: Holes

    /// Each door, window and opening cuts a hole in its wall: the one its
    /// `parentIdentifier` names (iOS 17) when it lies in that wall's plane, else the wall
    /// of its story whose plane holds it (iOS 16 files name no parent).
    private mutating func findHoles() {
        for story in scene.stories {
            let walls = story.elements.filter { $0.kind == .wall }
            for element in story.elements where [.door, .window, .opening].contains(element.kind) {
                guard let surface = element.surface else { continue }
                var host: ExportScene.Element?
                if let parent = surface.parentIdentifier, let wall = wallsByIdentifier[parent],
                   let fit = Self.fit(element, in: wall), fit.across < 0.5 {
                    host = wall
                } else {
                    var best: (ExportScene.Element, Double)?
                    for wall in walls {
                        guard let fit = Self.fit(element, in: wall) else { continue }
                        let reach = 0.15 + Double(wall.dimensions.z) / 2
                        if fit.across <= reach && fit.across < (best?.1 ?? .infinity) { best = (wall, fit.across) }
                    }
                    host = best?.0
                }
                guard let host, let hole = Self.hole(element, in: host) else { continue }
                holes[host.handle, default: []].append(hole)
            }
        }
    }

    /// How far an opening's centre is from a wall's plane, when it is parallel to the wall
    /// and within its extent.
    static func fit(_ element: ExportScene.Element, in wall: ExportScene.Element) -> (across: Double, along: Double)? {
        let w = wall.transform, e = element.transform
        guard abs((w.column(0) * e.column(0)).sum()) > 0.95 else { return nil }
        let d = e.translation - w.translation
        let along = (d * w.column(0)).sum(), up = (d * w.column(1)).sum(), across = abs((d * w.column(2)).sum())
        let dims = SIMD3<Double>(wall.dimensions)
        guard abs(along) <= dims.x / 2 + 0.05, abs(up) <= dims.y / 2 + 0.05 else { return nil }
        return (across, along)
    }

    /// The opening's rectangle in the wall's x, y, clipped to the wall; nil when nothing of
    /// it is left. Edges within a millimetre of the wall's own are moved onto them.
    static func hole(_ element: ExportScene.Element, in wall: ExportScene.Element) -> WallHole? {
        let w = wall.transform, e = element.transform
        let size = SIMD3<Double>(element.dimensions) / 2
        var xs: [Double] = [], ys: [Double] = []
        for sx in [-1.0, 1.0] {
            for sy in [-1.0, 1.0] {
                let p = e.apply(toPoint: SIMD3(sx * size.x, sy * size.y, 0)) - w.translation
                xs.append((p * w.column(0)).sum())
                ys.append((p * w.column(1)).sum())
            }
        }
        let hw = Double(wall.dimensions.x) / 2, hh = Double(wall.dimensions.y) / 2
        func clip(_ v: Double, _ limit: Double) -> Double {
            let c = min(max(v, -limit), limit)
            if abs(c - limit) < 0.001 { return limit }
            if abs(c + limit) < 0.001 { return -limit }
            return c
        }
        let hole = WallHole(x0: clip(xs.min()!, hw), x1: clip(xs.max()!, hw), y0: clip(ys.min()!, hh), y1: clip(ys.max()!, hh))
        guard hole.x1 - hole.x0 > 0.001, hole.y1 - hole.y0 > 0.001 else { return nil }
        return hole
    }
}
