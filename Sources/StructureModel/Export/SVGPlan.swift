import Foundation

/// A floor plan as an SVG 1.1 page, drawn to scale (1:50 by default: a metre is 20 mm on
/// paper, and the page's `width`/`height` are in millimetres, so printing at 100 % keeps the
/// scale). One page holds one story, or several stacked top to bottom. The page is sized to
/// what it shows plus margins, a title, a scale bar and a north arrow.
///
/// The page's user units are millimetres on paper. Plan x runs right and plan z down the
/// page (RoomPlan's frame seen from above). Where each story lies on the page is recorded in
/// `<metadata>` (`wb:story` with `mm-per-metre`, `x-offset`, `z-offset`: a plan point (x, z)
/// is at (x · k + x-offset, z · k + z-offset)), so a program can find an element again.
/// The same scene and options always give the same bytes.
public enum SVGPlan {
    public struct Options: Sendable {
        /// Wall lengths along the walls.
        public var dimensions = false
        /// Object footprints with their categories.
        public var objects = false
        /// The compass bearing of the page's up direction, degrees (0: north is up).
        public var north: Double = 0
        /// Where `north` came from, shown under the arrow ("--north", "from the file", "assumed").
        public var northSource = "assumed"
        /// The scale's denominator: 50 draws 1:50.
        public var scale: Double = 50
        public var drawing = PlanDrawing.Options()

        public init(dimensions: Bool = false, objects: Bool = false, north: Double = 0, northSource: String = "assumed",
                    scale: Double = 50, drawing: PlanDrawing.Options = PlanDrawing.Options()) {
            self.dimensions = dimensions
            self.objects = objects
            self.north = north
            self.northSource = northSource
            self.scale = scale
            self.drawing = drawing
        }
    }

    /// A written page.
    public struct Page: Sendable {
        /// The story numbers it shows.
        public var stories: [Int]
        public var text: String
        /// Paper size, millimetres.
        public var width: Double
        public var height: Double
        /// Walls that could not be drawn (zero width), by handle.
        public var skippedWalls: [String]
    }

    /// The page showing `stories` (some or all of `scene.stories`, in that order).
    public static func page(_ scene: ExportScene, stories: [ExportScene.Story], options: Options = Options()) -> Page {
        var writer = PageWriter(scene: scene, options: options)
        return writer.write(stories)
    }

    /// "livingRoom" → "Living room", as a person would write it; other texts (names people
    /// gave sections) unchanged.
    public static func displayLabel(_ label: String) -> String {
        switch label {
        case "livingRoom": return "Living room"
        case "diningRoom": return "Dining room"
        case "bedroom": return "Bedroom"
        case "bathroom": return "Bathroom"
        case "kitchen": return "Kitchen"
        case "unidentified": return "Unidentified"
        default: return shortened(label)
        }
    }

    /// A text a plan can show: at most 200 characters, then "…" (a file's section label of
    /// 100 MB took 50 s to export and was written twice, whole, into a 200 MB plan).
    static func shortened(_ text: String) -> String {
        text.prefix(201).count > 200 ? String(text.prefix(200)) + "…" : text
    }

    /// What a room's label says: the name a person gave it, else its one section's label
    /// ("Bedroom"), else its handle (a capture of several sections shows those at their
    /// centres instead).
    public static func roomTitle(_ room: ExportScene.Room) -> String {
        if let name = room.name, !name.isEmpty { return shortened(name) }
        if room.labels.count == 1, room.labels[0] != "unidentified" { return displayLabel(room.labels[0]) }
        return room.handle
    }

    /// The floor area as the label prints it: "12.3 m²".
    public static func areaText(_ area: Double) -> String { formatted(area, digits: 1) + " m²" }
}

/// Builds one page's text.
private struct PageWriter {
    let scene: ExportScene
    let options: SVGPlan.Options
    /// Millimetres on paper per metre of building.
    let k: Double
    var out = ""

    init(scene: ExportScene, options: SVGPlan.Options) {
        self.scene = scene
        self.options = options
        k = 1000 / max(options.scale, 1e-6)
    }

    // Paper layout, millimetres.
    static let margin = 12.0
    static let inch = 25.4 / 4  // page sizes are whole quarter inches: whole pixels at 96 dpi
    static let font = "DejaVu Sans, Verdana, Helvetica, Arial, sans-serif"
    static let ink = "#262626"
    static let floor = "#f4f1ea"
    static let titleSize = 5.5, subtitleSize = 3.0, headingSize = 4.0
    static let nameSize = 3.2, minimumNameSize = 2.0, areaSize = 2.6, sectionSize = 2.4
    static let dimensionSize = 2.2, objectSize = 1.9, noteSize = 2.2

    mutating func write(_ stories: [ExportScene.Story]) -> SVGPlan.Page {
        let drawings = stories.map { PlanDrawing(story: $0, options: options.drawing) }
        let extents = zip(stories, drawings).map { extent(of: $1, story: $0) }
        let widest = extents.map { $0.map { $0.width * k } ?? 0 }.max() ?? 0
        let width = roundedUp(max(widest + 2 * Self.margin, 170))
        let several = stories.count > 1

        // Heights first: where each story goes.
        var y = Self.margin + 15
        var origins: [(x: Double, y: Double)] = []
        for extent in extents {
            if several { y += 8 }
            let bounds = extent ?? PlanBounds(min: .zero, max: .zero)
            origins.append((x: (width - bounds.width * k) / 2 - bounds.min.x * k, y: y - bounds.min.z * k))
            y += bounds.depth * k + 8
        }
        let footerTop = y
        let height = roundedUp(footerTop + 30 + Self.margin)

        out.reserveCapacity(4096 + drawings.reduce(0) { $0 + 400 * ($1.walls.count + $1.doors.count + $1.items.count) })
        out += "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"\(n(width))mm\" height=\"\(n(height))mm\""
        out += " viewBox=\"0 0 \(n(width)) \(n(height))\" font-family=\"\(Self.font)\">\n"
        let storyText = several ? "\(stories.count) stories" : stories.first.map { "story \($0.number)" } ?? "nothing to draw"
        out += "<title>\(escaped(scene.title)) — \(storyText)</title>\n"
        out += "<desc>Floor plan at 1:\(n(options.scale, digits: 0)), drawn by wb from RoomPlan data.</desc>\n"
        out += "<metadata><wb:plan xmlns:wb=\"urn:x-wb:floor-plan\" scale=\"\(n(options.scale, digits: 0))\" unit=\"mm\">"
        for (story, origin) in zip(stories, origins) {
            out += "<wb:story number=\"\(story.number)\" elevation=\"\(n(story.elevation, digits: 3))\" mm-per-metre=\"\(n(k, digits: 4))\""
            out += " x-offset=\"\(n(origin.x, digits: 4))\" z-offset=\"\(n(origin.y, digits: 4))\"/>"
        }
        out += "</wb:plan></metadata>\n"
        out += "<rect class=\"paper\" x=\"0\" y=\"0\" width=\"\(n(width))\" height=\"\(n(height))\" fill=\"#ffffff\"/>\n"

        let rooms = stories.reduce(0) { $0 + $1.rooms.count }
        let area = stories.reduce(0) { $0 + $1.rooms.reduce(0) { $0 + $1.floorArea } }
        text(scene.title, x: Self.margin, y: Self.margin + Self.titleSize, size: Self.titleSize, anchor: "start", weight: "bold",
             colour: Self.ink, cssClass: "title")
        var subtitle = several ? "\(stories.count) stories" : stories.first.map { "Story \($0.number)" } ?? "Nothing to draw"
        subtitle += " · \(rooms) room\(rooms == 1 ? "" : "s") · \(SVGPlan.areaText(area)) · scale 1:\(n(options.scale, digits: 0))"
        text(subtitle, x: Self.margin, y: Self.margin + Self.titleSize + 5, size: Self.subtitleSize, anchor: "start", colour: "#555555",
             cssClass: "subtitle")

        var defaultThicknessUsed = false
        for (index, story) in stories.enumerated() {
            let drawing = drawings[index]
            let origin = origins[index]
            defaultThicknessUsed = defaultThicknessUsed || drawing.walls.contains { !$0.thicknessFromFile }
            if several {
                let storyArea = story.rooms.reduce(0) { $0 + $1.floorArea }
                let top = origin.y + (extents[index]?.min.z ?? 0) * k
                text("Story \(story.number) · \(story.rooms.count) room\(story.rooms.count == 1 ? "" : "s") · \(SVGPlan.areaText(storyArea))",
                     x: Self.margin, y: top - 3, size: Self.headingSize, anchor: "start", weight: "bold", colour: Self.ink,
                     cssClass: "story-heading")
            }
            drawStory(story, drawing, origin: origin)
        }
        drawFooter(top: footerTop, width: width, defaultThickness: defaultThicknessUsed)
        out += "</svg>\n"
        return SVGPlan.Page(stories: stories.map(\.number), text: out, width: width, height: height,
                            skippedWalls: drawings.flatMap(\.skippedWalls))
    }

    /// What a story's drawing covers, in plan metres, with a little room around it.
    func extent(of drawing: PlanDrawing, story: ExportScene.Story) -> PlanBounds? {
        var points = drawing.walls.flatMap { $0.pieces.flatMap { $0 } + [$0.segment.start, $0.segment.end] }
        points += drawing.rooms.flatMap { $0.outlines.flatMap { $0 } }
        points += drawing.doors.flatMap { [$0.hinge, $0.leafEnd, $0.closedEnd] }
        points += drawing.windows.flatMap(\.frame)
        if options.objects { points += drawing.items.flatMap(\.corners) }
        if options.dimensions {
            points += drawing.walls.flatMap { wall -> [PlanPoint] in
                let line = dimensionLine(wall)
                return [line.start, line.end]
            }
        }
        return PlanBounds(containing: points.filter { $0.x.isFinite && $0.z.isFinite })?.expanded(by: 0.3)
    }

    // MARK: A story

    mutating func drawStory(_ story: ExportScene.Story, _ drawing: PlanDrawing, origin: (x: Double, y: Double)) {
        func p(_ point: PlanPoint) -> (Double, Double) { (point.x * k + origin.x, point.z * k + origin.y) }
        func path(_ polygons: [[PlanPoint]]) -> String {
            polygons.map { polygon in
                polygon.enumerated().map { index, point in
                    let (x, y) = p(point)
                    return (index == 0 ? "M" : "L") + n(x) + " " + n(y)
                }.joined(separator: " ") + " Z"
            }.joined(separator: " ")
        }
        func line(_ segments: [PlanSegment]) -> String {
            segments.map { segment in
                let (x0, y0) = p(segment.start), (x1, y1) = p(segment.end)
                return "M\(n(x0)) \(n(y0)) L\(n(x1)) \(n(y1))"
            }.joined(separator: " ")
        }

        out += "<g class=\"story\" id=\"story\(story.number < 0 ? "-minus\(story.number.magnitude)" : "-\(story.number)")\">\n"

        out += "<g class=\"rooms\" fill=\"\(Self.floor)\" stroke=\"none\">\n"
        for room in drawing.rooms where !room.outlines.isEmpty {
            let entry = story.rooms[room.index]
            out += "<path class=\"room\" id=\"\(id(entry.handle))\" d=\"\(path(room.outlines))\">"
            out += "<title>\(escaped(SVGPlan.roomTitle(entry))), \(escaped(SVGPlan.areaText(entry.floorArea)))</title></path>\n"
        }
        out += "</g>\n"

        if options.objects {
            out += "<g class=\"objects\" fill=\"#ffffff\" fill-opacity=\"0.6\" stroke=\"#8c8c8c\" stroke-width=\"0.18\">\n"
            for item in drawing.items {
                out += "<path class=\"object\" id=\"\(id(item.handle))\" d=\"\(path([item.corners]))\"><title>\(escaped(item.category))</title></path>\n"
            }
            out += "</g>\n"
        }

        // One fill and a hairline of the same colour per wall: neighbours overlap by the
        // hairline, so no light seam shows where two walls' polygons meet.
        out += "<g class=\"walls\" fill=\"\(Self.ink)\" stroke=\"\(Self.ink)\" stroke-width=\"0.12\" stroke-linejoin=\"round\">\n"
        for wall in drawing.walls where !wall.pieces.isEmpty {
            out += "<path class=\"wall\" id=\"\(id(wall.handle))\" d=\"\(path(wall.pieces))\"/>\n"
        }
        out += "</g>\n"

        // Doorways and openings are floor: filled like the rooms, over any gap between a
        // scanned floor's edge and the wall.
        out += "<g class=\"gaps\" fill=\"\(Self.floor)\" stroke=\"\(Self.floor)\" stroke-width=\"0.12\">\n"
        for gap in drawing.doors.map(\.gap) + drawing.openings.map(\.gap) {
            out += "<path d=\"\(path([gap]))\"/>\n"
        }
        out += "</g>\n"
        out += "<g class=\"windows\">\n"
        for window in drawing.windows {
            out += "<g class=\"window\" id=\"\(id(window.handle))\">"
            out += "<path d=\"\(path([window.frame]))\" fill=\"#ffffff\" stroke=\"\(Self.ink)\" stroke-width=\"0.18\"/>"
            out += "<path d=\"\(line(window.glass))\" fill=\"none\" stroke=\"#3a6ea5\" stroke-width=\"0.2\"/></g>\n"
        }
        out += "</g>\n"

        out += "<g class=\"openings\" fill=\"none\" stroke=\"#7a7a7a\" stroke-width=\"0.18\" stroke-dasharray=\"0.9 0.7\">\n"
        for opening in drawing.openings {
            out += "<path class=\"opening\" id=\"\(id(opening.handle))\" d=\"\(line(opening.faces))\"/>\n"
        }
        out += "</g>\n"

        out += "<g class=\"doors\" fill=\"none\" stroke=\"\(Self.ink)\">\n"
        for door in drawing.doors {
            let (hx, hy) = p(door.hinge), (lx, ly) = p(door.leafEnd), (cx, cy) = p(door.closedEnd)
            let r = door.radius * k
            // From the open leaf back to the shut position, the short way round.
            let sweep = (lx - hx) * (cy - hy) - (ly - hy) * (cx - hx) > 0 ? 1 : 0
            out += "<g class=\"door\" id=\"\(id(door.handle))\">"
            out += "<path class=\"leaf\" d=\"M\(n(hx)) \(n(hy)) L\(n(lx)) \(n(ly))\" stroke-width=\"0.35\"/>"
            out += "<path class=\"swing\" d=\"M\(n(lx)) \(n(ly)) A\(n(r)) \(n(r)) 0 0 \(sweep) \(n(cx)) \(n(cy))\" stroke-width=\"0.15\"/></g>\n"
        }
        out += "</g>\n"

        if options.dimensions {
            out += "<g class=\"dimensions\" fill=\"none\" stroke=\"#5a5a5a\" stroke-width=\"0.15\">\n"
            for wall in drawing.walls where wall.segment.length >= 0.25 {
                let dimension = dimensionLine(wall)
                let u = wall.segment.direction.normalized, side = dimensionSide(wall)
                let tick = (u + wall.segment.normal * Double(side)) * (1.2 / k)
                let ticks = [dimension.start, dimension.end].map { PlanSegment(start: $0 - tick, end: $0 + tick) }
                let (tx, ty) = p(dimension.midpoint + wall.segment.normal * (Double(side) * 1.6 / k))
                out += "<g class=\"dimension\"><path d=\"\(line([dimension] + ticks))\"/>"
                out += textElement(formatted(wall.segment.length, digits: 2), x: tx, y: ty, size: Self.dimensionSize,
                                   colour: "#4a4a4a", rotation: readableAngle(u)) + "</g>\n"
            }
            out += "</g>\n"
        }

        if options.objects {
            out += "<g class=\"object-labels\">\n"
            for item in drawing.items {
                let sides = (item.corners[1].distance(to: item.corners[0]), item.corners[3].distance(to: item.corners[0]))
                let (long, short) = (max(sides.0, sides.1) * k, min(sides.0, sides.1) * k)
                let words = Double(estimatedWidth(item.category)) * Self.objectSize
                guard short >= Self.objectSize * 1.6, long >= words + 1 else { continue }
                let axis = sides.0 >= sides.1 ? item.corners[1] - item.corners[0] : item.corners[3] - item.corners[0]
                let centre = (item.corners[0] + item.corners[2]) * 0.5
                let (x, y) = p(centre)
                out += textElement(item.category, x: x, y: y, size: Self.objectSize, colour: "#808080",
                                   rotation: readableAngle(axis), cssClass: "object-label") + "\n"
            }
            out += "</g>\n"
        }

        out += "<g class=\"labels\">\n"
        for room in drawing.rooms {
            let entry = story.rooms[room.index]
            for section in room.sectionLabels {
                let (x, y) = p(section.point)
                out += textElement(SVGPlan.displayLabel(section.text), x: x, y: y, size: Self.sectionSize, colour: "#6a6a6a",
                                   italic: true, cssClass: "section-label") + "\n"
            }
            guard let point = room.labelPoint else { continue }
            drawRoomLabel(entry, at: p(point), room: room)
        }
        out += "</g>\n"
        out += "</g>\n"
    }

    /// The room's title and floor area, as large as fits the room (down to a legible
    /// minimum), a long title broken over two lines before it is shrunk.
    mutating func drawRoomLabel(_ room: ExportScene.Room, at centre: (Double, Double), room drawn: PlanDrawing.Room) {
        let title = SVGPlan.roomTitle(room), area = SVGPlan.areaText(room.floorArea)
        // Room for the label: the circle clear of the outline, less a wall's half thickness.
        let available = max(2 * (drawn.clearance - 0.08) * k * 0.92, 1)
        var lines = [title]
        var size = Self.nameSize
        func widest(_ lines: [String], _ size: Double) -> Double {
            lines.map { estimatedWidth($0) * size }.max() ?? 0
        }
        if widest(lines, size) > available, let split = splitInTwo(title) {
            lines = split
        }
        if widest(lines, size) > available {
            size = max(Self.minimumNameSize, size * available / widest(lines, size))
        }
        let areaSize = min(Self.areaSize, size * 0.85)
        let lineHeight = size * 1.2
        let height = Double(lines.count) * lineHeight + areaSize * 1.25
        let top = centre.1 - height / 2
        out += "<g class=\"room-label\" id=\"label-\(id(room.handle))\">"
        for (index, line) in lines.enumerated() {
            out += textElement(line, x: centre.0, y: top + Double(index) * lineHeight + size * 0.92, size: size, weight: "bold",
                               colour: Self.ink, cssClass: "name", baseline: true)
        }
        out += textElement(area, x: centre.0, y: top + Double(lines.count) * lineHeight + areaSize * 1.0, size: areaSize,
                           colour: "#4d4d4d", cssClass: "area", baseline: true)
        out += "</g>\n"
    }

    // MARK: Footer: scale bar, north arrow, note

    mutating func drawFooter(top: Double, width: Double, defaultThickness: Bool) {
        let left = Self.margin, baseline = top + 10
        // The longest round length that takes at most a third of the page.
        let lengths: [(metres: Double, parts: Int)] = [(1, 2), (2, 2), (5, 5), (10, 5), (20, 4), (50, 5), (100, 5)]
        let usable = (width - 2 * Self.margin) / 3
        let chosen = lengths.last { $0.metres * k <= usable } ?? lengths[0]
        let part = chosen.metres * k / Double(chosen.parts)
        out += "<g class=\"scale-bar\">\n"
        for i in 0..<chosen.parts {
            out += "<rect x=\"\(n(left + Double(i) * part))\" y=\"\(n(baseline))\" width=\"\(n(part))\" height=\"1.6\""
            out += " fill=\"\(i % 2 == 0 ? Self.ink : "#ffffff")\" stroke=\"\(Self.ink)\" stroke-width=\"0.2\"/>\n"
        }
        for i in 0...chosen.parts {
            let metres = chosen.metres * Double(i) / Double(chosen.parts)
            let label = formatted(metres, digits: metres == metres.rounded() ? 0 : 1) + (i == chosen.parts ? " m" : "")
            out += textElement(label, x: left + Double(i) * part, y: baseline - 1.2, size: 2.4, colour: Self.ink, baseline: true) + "\n"
        }
        out += textElement("1:\(n(options.scale, digits: 0)) printed at 100 %", x: left, y: baseline + 5.5, size: 2.4,
                           anchor: "start", colour: "#555555", baseline: true) + "\n"
        out += "</g>\n"

        // The arrow points to north: the page's up direction has bearing `north`, so north
        // lies that many degrees anticlockwise of up.
        let cx = width - Self.margin - 8, cy = top + 8
        out += "<g class=\"north-arrow\">\n"
        out += "<circle cx=\"\(n(cx))\" cy=\"\(n(cy))\" r=\"6.5\" fill=\"none\" stroke=\"#8c8c8c\" stroke-width=\"0.2\"/>\n"
        out += "<g transform=\"rotate(\(n(-options.north, digits: 3)) \(n(cx)) \(n(cy)))\">"
        out += "<path d=\"M\(n(cx)) \(n(cy - 6)) L\(n(cx + 2.4)) \(n(cy + 4)) L\(n(cx)) \(n(cy + 2.4)) Z\" fill=\"\(Self.ink)\"/>"
        out += "<path d=\"M\(n(cx)) \(n(cy - 6)) L\(n(cx - 2.4)) \(n(cy + 4)) L\(n(cx)) \(n(cy + 2.4)) Z\" fill=\"#ffffff\" stroke=\"\(Self.ink)\" stroke-width=\"0.2\"/>"
        out += textElement("N", x: cx, y: cy - 7.6, size: 3, weight: "bold", colour: Self.ink, baseline: true)
        out += "</g>\n"
        let bearing = formatted(options.north.truncatingRemainder(dividingBy: 360), digits: options.north == options.north.rounded() ? 0 : 1)
        out += textElement("up = \(bearing)° (\(options.northSource))", x: cx, y: top + 19.5, size: 2.2, colour: "#555555",
                           baseline: true) + "\n"
        out += "</g>\n"

        var note = "Drawn by wb from RoomPlan data; areas are floor areas as scanned."
        if defaultThickness {
            note += " Walls without a thickness in the scan are drawn \(formatted(options.drawing.wallThickness * 100, digits: 0)) cm thick."
        }
        out += textElement(note, x: left, y: top + 28, size: Self.noteSize, anchor: "start", colour: "#7a7a7a", cssClass: "note",
                           baseline: true) + "\n"
    }

    // MARK: Pieces

    /// The side of a wall its dimension goes on: away from its room, else the normal's side.
    func dimensionSide(_ wall: PlanDrawing.Wall) -> Int { wall.roomSide.map { -$0 } ?? 1 }

    /// A wall's dimension line: parallel to it, clear of its outer face, as long as the wall.
    func dimensionLine(_ wall: PlanDrawing.Wall) -> PlanSegment {
        let side = dimensionSide(wall)
        let offset = (side > 0 ? wall.high : wall.low) + Double(side) * (4 / k)
        let shift = wall.segment.normal * offset
        return PlanSegment(start: wall.segment.start + shift, end: wall.segment.end + shift)
    }

    /// Degrees to turn text to run along `direction`, kept upright (never upside down).
    func readableAngle(_ direction: PlanPoint) -> Double {
        var angle = atan2(direction.z, direction.x) * 180 / .pi
        if angle > 90.0001 { angle -= 180 }
        if angle <= -90 { angle += 180 }
        return angle
    }

    mutating func text(_ content: String, x: Double, y: Double, size: Double, anchor: String = "middle", weight: String? = nil,
                       colour: String, cssClass: String? = nil) {
        out += textElement(content, x: x, y: y, size: size, anchor: anchor, weight: weight, colour: colour, cssClass: cssClass,
                           baseline: true) + "\n"
    }

    /// A `<text>`; (x, y) is its baseline when `baseline`, else the middle of its height,
    /// worked out here rather than left to `dominant-baseline`, which renderers treat differently.
    func textElement(_ content: String, x: Double, y: Double, size: Double, anchor: String = "middle", weight: String? = nil,
                     colour: String, italic: Bool = false, rotation: Double = 0, cssClass: String? = nil, baseline: Bool = false) -> String {
        let y = baseline ? y : y + size * 0.36
        var element = "<text"
        if let cssClass { element += " class=\"\(cssClass)\"" }
        element += " x=\"\(n(x))\" y=\"\(n(y))\" font-size=\"\(n(size))\""
        if anchor != "start" { element += " text-anchor=\"\(anchor)\"" }
        if let weight { element += " font-weight=\"\(weight)\"" }
        if italic { element += " font-style=\"italic\"" }
        element += " fill=\"\(colour)\""
        if abs(rotation) > 0.005 {
            let pivotY = baseline ? y : y - size * 0.36
            element += " transform=\"rotate(\(n(rotation)) \(n(x)) \(n(pivotY)))\""
        }
        return element + ">" + escaped(content) + "</text>"
    }

    func roundedUp(_ millimetres: Double) -> Double {
        (millimetres / Self.inch).rounded(.up) * Self.inch
    }
}

// MARK: Text

/// A number for the page: two decimals (a hundredth of a millimetre), no "-0".
private func n(_ value: Double, digits: Int = 2) -> String {
    let text = formatted(value, digits: digits)
    return text.hasPrefix("-") && text.allSatisfy({ "-0.".contains($0) }) ? String(text.dropFirst()) : text
}

private func escaped(_ text: String) -> String { SVGPlan.xmlEscaped(text) }

extension SVGPlan {
/// Text made safe for XML content and attribute values: the five special characters as
/// entities, and characters XML 1.0 cannot carry (control characters, U+FFFE, U+FFFF)
/// shown as U+FFFD; line breaks become spaces, as a one-line label needs.
public static func xmlEscaped(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "&": result += "&amp;"
        case "<": result += "&lt;"
        case ">": result += "&gt;"
        case "\"": result += "&quot;"
        case "'": result += "&apos;"
        case "\n", "\r", "\t": result += " "
        default:
            if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                result.unicodeScalars.append("\u{FFFD}")
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
    }
    return result
}
}

/// An id attribute's value from a handle: a valid XML name, unchanged for handles (`w12`).
private func id(_ handle: String) -> String {
    var result = ""
    for scalar in handle.unicodeScalars {
        let ok = (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || (scalar >= "0" && scalar <= "9")
            || scalar == "-" || scalar == "_" || scalar == "."
        result.unicodeScalars.append(ok ? scalar : "_")
    }
    if let first = result.unicodeScalars.first, !((first >= "a" && first <= "z") || (first >= "A" && first <= "Z") || first == "_") {
        result = "_" + result
    }
    return result.isEmpty ? "_" : result
}

/// The width of `text` in ems, roughly as DejaVu Sans Bold sets it (wide: better to shrink
/// a label that would have fitted than to let one run over a wall).
private func estimatedWidth(_ text: String) -> Double {
    var width = 0.0
    for scalar in text.unicodeScalars {
        let v = scalar.value
        if scalar.properties.generalCategory == .nonspacingMark || scalar.properties.generalCategory == .enclosingMark {
            continue
        } else if (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
                    || (0xF900...0xFAFF).contains(v) || (0xFF00...0xFF60).contains(v) || (0x1F300...0x1FAFF).contains(v) || v >= 0x20000 {
            width += 1.0
        } else if scalar == " " {
            width += 0.35
        } else if scalar.properties.isUppercase || (scalar >= "0" && scalar <= "9") || scalar == "m" || scalar == "w" {
            width += 0.76
        } else if "iljtf.,:;'!|".unicodeScalars.contains(scalar) {
            width += 0.38
        } else {
            width += 0.66
        }
    }
    return width
}

/// A title broken at the space nearest its middle; nil without a space.
private func splitInTwo(_ text: String) -> [String]? {
    let characters = Array(text)
    let middle = characters.count / 2
    let spaces = characters.indices.filter { characters[$0] == " " }
    guard let cut = spaces.min(by: { abs($0 - middle) < abs($1 - middle) }) else { return nil }
    let first = String(characters[..<cut]), second = String(characters[(cut + 1)...])
    return first.isEmpty || second.isEmpty ? nil : [first, second]
}
