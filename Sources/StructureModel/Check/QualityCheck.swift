import Foundation

/// One problem a person should look at before trusting a scan.
public struct Finding: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case outOfRange = "out-of-range"
        case duplicateWalls = "duplicate-walls"
        case wallGap = "wall-gap"
        case offWall = "off-wall"
        case throughWall = "through-wall"
        case floating
        case danglingParent = "dangling-parent"
        case roomsOverlap = "rooms-overlap"
        case sectionOutside = "section-outside"
        case storyHeight = "story-height"
        case duplicateIdentifier = "duplicate-identifier"
        case storyMismatch = "story-mismatch"
        case structureApart = "structure-apart"
    }

    public var kind: Kind
    public var elements: [Identity]
    /// One line, without handles (the caller names the elements).
    public var reason: String
}

/// How far things may be off before `check` says so: wide enough for real scan noise (a few
/// centimetres, a fraction of a degree), narrow enough to catch what a person must fix.
public struct CheckTolerances: Sendable {
    /// Two walls of one capture closer than this across, and overlapping, are one wall twice.
    public var duplicateOffset = 0.1
    public var duplicateOverlap = 0.2
    /// Wall ends closer than `gapMinimum` meet; between that and `gapMaximum` they nearly do.
    /// A phone places each wall's ends to within 3–4 cm, so two walls meeting at a corner can
    /// miss each other by up to about 8 cm without anything being wrong.
    public var gapMinimum = 0.08
    public var gapMaximum = 0.3
    /// A door or window further than this from its wall's line, or beyond its ends, is off it.
    public var offWall = 0.08
    /// An object reaching this far through a wall goes through it.
    public var throughWall = 0.08
    /// An object whose bottom is this far above the floor, with nothing under it, floats.
    public var floating = 0.15
    /// Rooms of one file on one story overlapping by more than this, m².
    public var roomOverlap = 0.5
    /// A wall this near where an object left its room's floor bounds the floor there (a floor's
    /// edge lies on its walls, or a scan's few centimetres off them).
    public var wallOnEdge = 0.25
    /// A section centre this far outside its room's floor is outside it.
    public var sectionOutside = 0.3
    /// Floors within this of each other are one story.
    public var storyTolerance = 1.0
    /// No scanned element is larger than this (m) or further than `farthest` from its
    /// capture's origin: beyond, a number in the file is broken (a wall of 1e30 m said
    /// "no problems found").
    public var largest = 100.0
    public var farthest = 10_000.0
    /// No building has more stories than this, above ground or below (a story of 4.6e18 said
    /// "no problems found").
    public var highestStory = 200

    public init() {}
}

extension Workspace {
    /// The quality problems of the open files, in the order of the kinds, each with the
    /// elements involved. Linear in the files but for pairs found through a grid.
    ///
    /// `together`: rooms of separate room files known to lie in one frame (placed by `align`
    /// beside the first room): their stories are checked against their floor heights as
    /// one building's, as a structure's rooms are.
    public func check(files ids: [Int]? = nil, together: [Identity] = [], tolerances: CheckTolerances = CheckTolerances()) -> [Finding] {
        var findings: [Finding] = []
        // Rooms of a merge result are copies of open room files: counted once, as those.
        let group = together.filter { room in
            guard let file = file(id: room.file) else { return false }
            return !file.madeByMerge && (ids?.contains(file.id) ?? true)
        }
        let severalFiles = Set(group.map(\.file)).count > 1 && group.contains { file(id: $0.file)?.isStructure == false }
        // Rooms `align` placed in one frame, from separate files, may overlap one another as a
        // structure's rooms may: a room hung on a look-alike doorway lies over a neighbour.
        let acrossFiles = severalFiles ? storyHeights(rooms: group, tolerances) + roomsOverlap(group, tolerances, acrossFiles: true) : []
        for file in files where ids?.contains(file.id) ?? true {
            var byScope: [(scope: Scope, findings: [Finding])] = []
            for scope in file.scopes {
                guard let capture = file.capture(scope) else { continue }
                // An element no scan could give (20 km off) is said as that alone, not also as
                // standing outside its room.
                let broken = outOfRange(file, scope, capture, tolerances)
                let unmeasurable = Set(broken.flatMap(\.elements))
                byScope.append((scope, broken
                                    + duplicateWalls(file, scope, capture, tolerances) + wallGaps(file, scope, capture, tolerances)
                                    + placement(file, scope, capture, tolerances).filter { finding in
                                        finding.kind != .throughWall || !finding.elements.contains { unmeasurable.contains($0) }
                                    }))
            }
            // A structure holds its rooms' elements twice, nested and merged, often with the same
            // identifiers (an Apple export's objects, a merge's surviving doors): a problem of an
            // element in both is said once, for the structure's copy. Walls merged from several
            // copies have identifiers of their own, so a finding about an object or a doorway is
            // matched by that element alone.
            let merged = byScope.first { $0.scope == .structure }?.findings ?? []
            func sameProblem(_ a: Finding, _ b: Finding) -> Bool {
                guard a.kind == b.kind, let first = a.elements.first, let other = b.elements.first else { return false }
                switch a.kind {
                case .throughWall, .floating, .offWall: return first.kind == other.kind && first.key == other.key
                default: return a.elements.map { [$0.kind.rawValue, $0.key] } == b.elements.map { [$0.kind.rawValue, $0.key] }
                }
            }
            // A structure-level wall stands for copies seen from both sides, a wall's thickness
            // apart, and lies between them or on one: an object flush with the far face reaches
            // through it by up to that thickness (Apple's 11-room sample merged: a bathtub, a
            // sink and a cabinet flush with their wall, "through" the merged one). Whether an
            // object goes through a wall is told by its room's own walls, when a room holds it.
            let inRooms = Set(byScope.filter { $0.scope != .structure }.flatMap { file.identities($0.scope, .object).compactMap(\.identifier) })
            for (scope, found) in byScope {
                findings += scope == .structure
                    ? found.filter { finding in
                        !(finding.kind == .throughWall && finding.elements.first.flatMap(\.identifier).map(inRooms.contains) == true)
                    }
                    : found.filter { finding in
                        !merged.contains { sameProblem(finding, $0) && !(finding.kind == .throughWall && inRooms.contains(finding.elements.first?.identifier ?? "")) }
                    }
            }
            findings += danglingParents(file)
            findings += duplicateIdentifiers(file)
            findings += storyMismatches(file, tolerances)
            findings += roomsOverlap(file, tolerances)
            findings += sectionsOutside(file, tolerances)
            findings += storyHeights(file, tolerances)
            findings += structureLevel(file, tolerances)
        }
        // A room a structure's own check found on the wrong story is said once.
        let said = Set(findings.filter { $0.kind == .storyHeight }.flatMap(\.elements))
        findings += acrossFiles.filter { $0.kind != .storyHeight || !$0.elements.contains(where: said.contains) }
        let order = Dictionary(uniqueKeysWithValues: Finding.Kind.allCases.enumerated().map { ($1, $0) })
        return findings.enumerated().sorted { (order[$0.element.kind]!, $0.offset) < (order[$1.element.kind]!, $1.offset) }.map(\.element)
    }

    private func identities(_ file: WorkspaceFile, _ scope: Scope, _ kind: ElementKind) -> [Identity] {
        file.identities(scope, kind)
    }

    /// Sizes and places no scan gives: a dimension over `largest`, a centre
    /// further than `farthest` from the origin. Such an element spoils every measure it enters
    /// (a room's area, a plan's page, a merge's grid).
    private func outOfRange(_ file: WorkspaceFile, _ scope: Scope, _ capture: CapturedRoom, _ t: CheckTolerances) -> [Finding] {
        var result: [Finding] = []
        // Stories no building has, each said once with every element on it.
        var brokenStories: [Int: [Identity]] = [:]
        func look(_ identity: Identity, _ dimensions: SIMD3<Float>, _ transform: Transform, _ what: String, story: Int? = nil) {
            let names = ["width", "height", "depth"]
            var wrong: [String] = []
            if let story, story.magnitude > t.highestStory { brokenStories[story, default: []].append(identity) }
            for axis in 0..<3 {
                let value = Double(dimensions[axis])
                // A negative size is measured by its magnitude (and warned of when the file opens).
                if !value.isFinite || abs(value) > t.largest { wrong.append("\(names[axis]) \(magnitude(value)) m") }
            }
            let place = transform.translation
            let distance = (place.x * place.x + place.y * place.y + place.z * place.z).squareRoot()
            if !distance.isFinite || distance > t.farthest { wrong.append("its centre \(magnitude(distance)) m from the origin") }
            // A transform that is no rotation (a zero or scaled column: a wall with no direction)
            // said "no problems found"; warned of when the file opens, and said here too.
            let rigidity = transform.rigidityError
            if !rigidity.isFinite || rigidity >= 1e-3 { wrong.append("a transform that is no rotation (off by \(readable(rigidity, digits: 4)))") }
            if what == "wall", dimensions.x == 0 { wrong.append("width 0 m") }
            guard !wrong.isEmpty else { return }
            result.append(Finding(kind: .outOfRange, elements: [identity],
                                  reason: "\(indefinite(what)) with " + wrong.joined(separator: ", ") + ": no scan measures that (a broken number in the file?)"))
        }
        for kind in ElementKind.surfaceKinds {
            let ids = identities(file, scope, kind)
            for (index, surface) in capture.surfaces(kind.surfaceArray!).enumerated() where index < ids.count {
                look(ids[index], surface.dimensions, surface.transform, kind.rawValue, story: surface.story)
                // Its corners too: a floor corner at 1e30 gave a floor of 4e60 m², said of nothing.
                if let corners = surface.polygonCorners,
                   let far = corners.map({ c in max(abs(Double(c.x)), abs(Double(c.y)), abs(Double(c.z))) }).max(),
                   !far.isFinite || far > t.largest {
                    result.append(Finding(kind: .outOfRange, elements: [ids[index]],
                                          reason: "\(indefinite(kind.rawValue)) with a corner \(magnitude(far)) m from its centre: no scan measures that "
                                              + "(a broken number in the file?)"))
                } else if kind == .wall, let corners = surface.polygonCorners, corners.count >= 4, corners.count <= 256,
                          USDMesh.crossesItself(corners.map { SIMD2(Double($0.x), Double($0.y)) }) {
                    // An outline whose edges cross (a bow tie) has no inside: exports draw its box.
                    result.append(Finding(kind: .outOfRange, elements: [ids[index]],
                                          reason: "a wall whose outline (polygonCorners) crosses itself: no scan gives that "
                                              + "(corners out of order in the file?)"))
                } else if kind == .floor, let corners = surface.polygonCorners, !corners.isEmpty, corners.count <= 4096 {
                    // A floor whose corners enclose nothing (all on one line, or a bow tie whose
                    // halves cancel) gave 0 m² in stats, objects "outside" it, and `align using`
                    // "the room has no floor", said of nothing.
                    let ring = corners.map { SIMD2(Double($0.x), Double($0.y)) }
                    let area = abs(polygonArea(ring.map { PlanPoint(x: $0.x, z: $0.y) }))
                    if area < CapturedRoom.leastFloorArea || (corners.count <= 256 && USDMesh.crossesItself(ring)) {
                        result.append(Finding(kind: .outOfRange, elements: [ids[index]],
                                              reason: "a floor whose outline (polygonCorners) " + (area < CapturedRoom.leastFloorArea ? "encloses no area" : "crosses itself")
                                                  + ": no scan gives that (corners out of order in the file?)"))
                    }
                }
            }
        }
        let objects = identities(file, scope, .object)
        for (index, object) in capture.objects.enumerated() where index < objects.count {
            look(objects[index], object.dimensions, object.transform, object.category.name, story: object.story)
        }
        if let story = capture.story, story.magnitude > t.highestStory, let room = scope.roomID.map({ Identity.room($0, file: file.id) }) {
            brokenStories[story, default: []].insert(room, at: 0)
        }
        for story in brokenStories.keys.sorted() {
            let on = brokenStories[story]!
            result.append(Finding(kind: .outOfRange, elements: on,
                                  reason: "\(on.count == 1 ? "an element" : "\(on.count) elements") on story \(story): no building has that many "
                                      + "(a broken number in the file?)"))
        }
        // A section has only a centre (one at 3e38 was said only as lying outside its room).
        let sections = identities(file, scope, .section)
        for (index, section) in capture.sections.enumerated() where index < sections.count && Self.isBroken(section.center, t) {
            let c = SIMD3<Double>(Double(section.center.x), Double(section.center.y), Double(section.center.z))
            result.append(Finding(kind: .outOfRange, elements: [sections[index]],
                                  reason: "a section with its centre \(magnitude((c * c).sum().squareRoot())) m from the origin: no scan measures that "
                                      + "(a broken number in the file?)"))
        }
        return result
    }

    /// Elements of one capture (a room, or a structure's own arrays) that share an identifier:
    /// a scan gives each its own, and edits, merges and a structure's provenance take elements
    /// of one identifier for one (the file opens with a warning; `check --json` said nothing).
    private func duplicateIdentifiers(_ file: WorkspaceFile) -> [Finding] {
        var result: [Finding] = []
        for scope in file.scopes {
            var byIdentifier: [String: [Identity]] = [:]
            var order: [String] = []
            for kind in ElementKind.surfaceKinds + [.object] {
                for identity in file.identities(scope, kind) {
                    guard let identifier = identity.identifier else { continue }
                    if byIdentifier[identifier] == nil { order.append(identifier) }
                    byIdentifier[identifier, default: []].append(identity)
                }
            }
            for identifier in order where byIdentifier[identifier]!.count > 1 {
                let shared = byIdentifier[identifier]!
                result.append(Finding(kind: .duplicateIdentifier, elements: shared,
                                      reason: "one identifier on \(shared.count) elements, \(identifier): edits and merges take them for one"))
            }
        }
        return result
    }

    /// Elements of a room on another story than the room (a wall on story -2 and a sofa on
    /// story 3 in a room of story 0, at its height, said nothing: an adversarial pass): one
    /// finding for each story of each room, with every element on it. (A structure's own
    /// elements span its stories.)
    private func storyMismatches(_ file: WorkspaceFile, _ t: CheckTolerances) -> [Finding] {
        var result: [Finding] = []
        for scope in file.scopes where scope != .structure {
            guard let capture = file.capture(scope), let own = capture.effectiveStory, own.magnitude <= t.highestStory else { continue }
            var byStory: [Int: [Identity]] = [:]
            for kind in [ElementKind.section] + ElementKind.surfaceKinds + [.object] {
                let ids = file.identities(scope, kind)
                for index in ids.indices {
                    let story: Int?
                    switch capture.element(kind, at: index) {
                    case .surface(let surface)?: story = surface.story
                    case .object(let object)?: story = object.story
                    case .section(let section)?: story = section.story
                    default: story = nil
                    }
                    // (A story beyond any building's is said as out of range.)
                    if let story, story != own, story.magnitude <= t.highestStory { byStory[story, default: []].append(ids[index]) }
                }
            }
            for story in byStory.keys.sorted() {
                let elements = byStory[story]!
                let room = scope.roomID.map { Identity.room($0, file: file.id) }
                result.append(Finding(kind: .storyMismatch, elements: elements,
                                      reason: "\(elements.count == 1 ? "on" : "\(elements.count) elements on") story \(story), in a room of story \(own)"
                                          + (room.flatMap { handles.handle(for: $0) }.map { " (\($0))" } ?? "")))
            }
        }
        return result
    }

    /// A point further than any scan reaches (or not a number).
    static func isBroken(_ point: SIMD3<Float>, _ t: CheckTolerances) -> Bool {
        let p = SIMD3<Double>(Double(point.x), Double(point.y), Double(point.z))
        let distance = (p * p).sum().squareRoot()
        return !distance.isFinite || distance > t.farthest
    }

    private func duplicateWalls(_ file: WorkspaceFile, _ scope: Scope, _ capture: CapturedRoom, _ t: CheckTolerances) -> [Finding] {
        let walls = identities(file, scope, .wall)
        // Copies of one wall are one finding, however many: a wall stacked 3,000 times gave
        // 4.5 million pairs (18 s, 2.2 GB). A pair already in one group is not measured again.
        var sets = DisjointSets(count: capture.walls.count)
        var widest: [Int: (length: Double, offset: Double)] = [:]
        // Exact copies (one plan segment, one height) are one group at once, and only the first
        // is compared with the rest, as it would be: the others meet what it meets. Each wall of
        // a stack of thousands still looked at every other through the grid.
        var first: [[UInt64]: Int] = [:]
        var isCopy = [Bool](repeating: false, count: capture.walls.count)
        for (index, wall) in capture.walls.enumerated() {
            let (a, height) = (wall.planSegment, wall.heightRange)
            let key = [a.start.x, a.start.z, a.end.x, a.end.z, height.lowerBound, height.upperBound].map(\.bitPattern)
            guard let original = first[key] else {
                first[key] = index
                continue
            }
            let overlap = a.overlap(with: a)
            guard wall.sharesHeight(with: wall), overlap.angle < 5 * .pi / 180, abs(overlap.offset) < t.duplicateOffset,
                  overlap.length > t.duplicateOverlap else { continue }
            sets.union(original, index)
            widest[sets.find(original)] = (overlap.length, abs(overlap.offset))
            isCopy[index] = true
        }
        var grid = PlanGrid<Int>(cellSize: 1)
        for (index, wall) in capture.walls.enumerated() where !isCopy[index] { grid.insert(index, covering: wall.planSegment.bounds) }
        for (i, wall) in capture.walls.enumerated() where !isCopy[i] {
            let a = wall.planSegment
            // The walls near it not yet in its group, then measured in order (which pairs are
            // measured, and so the widest overlap said, depends on it): in a stack, every wall
            // after the first is in one group already, and costs no sort of the stack.
            var near: [Int] = []
            grid.visitUnordered(intersecting: a.bounds.expanded(by: t.duplicateOffset)) { j in
                if j > i, sets.find(i) != sets.find(j), wall.sharesHeight(with: capture.walls[j]) { near.append(j) }
                return true
            }
            near.sort()
            var previous = -1
            for j in near where j != previous {
                previous = j
                guard sets.find(i) != sets.find(j) else { continue }
                let overlap = a.overlap(with: capture.walls[j].planSegment)
                guard overlap.angle < 5 * .pi / 180, abs(overlap.offset) < t.duplicateOffset, overlap.length > t.duplicateOverlap else { continue }
                let (old, other) = (widest[sets.find(i)], widest[sets.find(j)])
                sets.union(i, j)
                let merged = [old, other, (overlap.length, abs(overlap.offset))].compactMap { $0 }
                widest[sets.find(i)] = (merged.map(\.length).max()!, merged.map(\.offset).max()!)
            }
        }
        var result: [Finding] = []
        for group in sets.groups() where group.count > 1 {
            let (length, offset) = widest[sets.find(group[0])]!
            let apart = "\(formatted(offset * 100, digits: 0)) cm apart"
            result.append(Finding(kind: .duplicateWalls, elements: group.map { walls[$0] },
                                  reason: group.count == 2
                                      ? "overlap along \(formatted(length, digits: 2)) m, \(apart): one wall scanned twice?"
                                      : "\(group.count) walls overlap along up to \(formatted(length, digits: 2)) m, up to \(apart): "
                                        + "one wall scanned \(group.count) times?"))
        }
        return result
    }

    private func wallGaps(_ file: WorkspaceFile, _ scope: Scope, _ capture: CapturedRoom, _ t: CheckTolerances) -> [Finding] {
        let walls = identities(file, scope, .wall)
        let segments = capture.walls.map(\.planSegment)
        var grid = PlanGrid<Int>(cellSize: 1)
        for (index, segment) in segments.enumerated() { grid.insert(index, covering: segment.bounds) }
        var reported = Set<[Int]>()
        var result: [Finding] = []
        for (i, segment) in segments.enumerated() {
            for end in [segment.start, segment.end] {
                // An end that touches another wall meets it; one that comes close to none but one
                // nearly does (the nearest, the first of equals). The first wall found touching
                // answers it: an end of a stack of thousands of walls looked at them all.
                var touches = false
                var closest: (index: Int, distance: Double)?
                grid.visitUnordered(intersecting: PlanBounds(min: end, max: end).expanded(by: t.gapMaximum)) { j in
                    guard j != i, capture.walls[i].sharesHeight(with: capture.walls[j]) else { return true }
                    let distance = segments[j].distance(to: end)
                    if distance < t.gapMinimum {
                        touches = true
                        return false
                    }
                    if distance <= t.gapMaximum, closest.map({ (distance, j) < ($0.distance, $0.index) }) ?? true { closest = (j, distance) }
                    return true
                }
                guard !touches, let closest else { continue }
                let pair = [min(i, closest.index), max(i, closest.index)]
                guard reported.insert(pair).inserted else { continue }
                result.append(Finding(kind: .wallGap, elements: [walls[pair[0]], walls[pair[1]]],
                                      reason: "nearly meet: a \(formatted(closest.distance * 100, digits: 0)) cm gap"))
            }
        }
        return result
    }

    /// Doors and windows off their wall; objects through walls or floating.
    private func placement(_ file: WorkspaceFile, _ scope: Scope, _ capture: CapturedRoom, _ t: CheckTolerances) -> [Finding] {
        var result: [Finding] = []
        let wallKeys = file.keys(scope, .wall)
        for kind in [ElementKind.door, .window, .opening] {
            let ids = identities(file, scope, kind)
            for (index, surface) in capture.surfaces(kind.surfaceArray!).enumerated() {
                guard let parent = surface.parentIdentifier, let wallIndex = wallKeys.index(ofIdentifier: parent)?.index else { continue }
                let wall = capture.walls[wallIndex].planSegment
                let middle = surface.planSegment.midpoint
                let across = abs(wall.signedDistance(to: middle))
                let along = wall.parameter(of: middle)
                let margin = wall.length > 0 ? t.offWall / wall.length : 0
                // Up and down too: a window raised above its wall's top, a door lifted off the floor.
                let wallSurface = capture.walls[wallIndex]
                let below = wallSurface.heightRange.lowerBound - surface.heightRange.lowerBound
                let above = surface.heightRange.upperBound - wallSurface.heightRange.upperBound
                if across > t.offWall || along < -margin || along > 1 + margin || below > t.offWall || above > t.offWall {
                    let wallIdentity = Identity(file: file.id, scope: scope, kind: .wall, key: wallKeys.keys[wallIndex])
                    let how = across > t.offWall ? "\(across < 1e4 ? formatted(across * 100, digits: 0) + " cm" : magnitude(across) + " m") from its wall's plane"
                        : along < -margin || along > 1 + margin ? "beyond the end of its wall"
                        : above > t.offWall ? "\(above < 1e4 ? formatted(above * 100, digits: 0) + " cm" : magnitude(above) + " m") above its wall's top"
                        : "\(below < 1e4 ? formatted(below * 100, digits: 0) + " cm" : magnitude(below) + " m") below its wall's bottom"
                    result.append(Finding(kind: .offWall, elements: [ids[index], wallIdentity], reason: how))
                }
            }
        }
        let objects = identities(file, scope, .object)
        // The floor under an object: the highest floor at or below it (a structure has one per story).
        let floorHeights = capture.floors.isEmpty ? capture.floorHeight.map { [$0] } ?? [] : capture.floors.map { $0.transform.translation.y }
        var grid = PlanGrid<Int>(cellSize: 1)
        for (index, wall) in capture.walls.enumerated() { grid.insert(index, covering: wall.planSegment.bounds) }
        let walls = identities(file, scope, .wall)
        // A room's floor, to tell an object that stands outside it.
        let outlines = scope == .structure ? [] : capture.planOutlines
        for (index, object) in capture.objects.enumerated() {
            // A fireplace is built into its wall (a real living room's reached 17 cm into it):
            // it goes through only where a wall runs through its middle.
            let isFireplace = object.category.name == "fireplace"
            let box = isFireplace ? object.planBox(shrunkBy: t.throughWall, depthBy: max(t.throughWall, Double(abs(object.dimensions.z)) / 2 - 0.01))
                : object.planBox(shrunkBy: t.throughWall)
            var through = false
            if box.count == 4, let bounds = PlanBounds(containing: box) {
                for w in grid.elements(intersecting: bounds) where object.sharesHeight(with: capture.walls[w]) && box.crosses(capture.walls[w].planSegment) {
                    result.append(Finding(kind: .throughWall, elements: [objects[index], walls[w]],
                                          reason: "the \(object.category.name) reaches more than \(formatted(t.throughWall * 100, digits: 0)) cm through the wall"))
                    through = true
                    break
                }
            }
            // Pushed further, the part left inside no longer reaches 8 cm past the wall, and one
            // wholly outside crosses no wall at all: said by where its middle stands.
            let middle = PlanPoint(object.transform.translation)
            if !through, !outlines.isEmpty, !outlines.contains(where: { $0.encloses(middle) }), !capture.walls.isEmpty {
                let edges = outlines.flatMap { outline in outline.indices.map { PlanSegment(start: outline[$0], end: outline[($0 + 1) % outline.count]) } }
                let edge = edges.min { $0.distance(to: middle) < $1.distance(to: middle) }
                let beyond = edge?.distance(to: middle) ?? 0
                // Through the wall along the floor's edge it left by; where no wall bounds the floor
                // there (a side the scan left open: a real room's chairs stood 26 cm past its floor's
                // edge, the nearest wall a stub 1.6 m off), it went through none.
                let exit = edge?.closestPoint(to: middle) ?? middle
                let nearest = capture.walls.indices.min { capture.walls[$0].planSegment.distance(to: exit) < capture.walls[$1].planSegment.distance(to: exit) }!
                let bounded = capture.walls[nearest].planSegment.distance(to: exit) <= t.wallOnEdge
                // (A fireplace's middle behind its wall at all: it is not set into it but through it.)
                if bounded && beyond > (isFireplace ? 0.01 : t.throughWall) {
                    result.append(Finding(kind: .throughWall, elements: [objects[index], walls[nearest]],
                                          reason: "the \(object.category.name)'s middle is \(beyond < 1e4 ? formatted(beyond, digits: 2) : magnitude(beyond)) m outside its room's floor"))
                }
            }
            let bottom = object.transform.translation.y - abs(Double(object.dimensions.y)) / 2
            // Sunk below its room's floor (half a metre, 30 m: "no problems found"). (A
            // structure's objects are its rooms', checked there; its floors may be wrong instead.)
            if scope != .structure, let lowest = floorHeights.min(), lowest - bottom > t.floating {
                result.append(Finding(kind: .floating, elements: [objects[index]],
                                      reason: "the \(object.category.name)'s bottom is \(magnitude(lowest - bottom)) m below the floor"))
                continue
            }
            // Nor above it: a story's one floor lies at one height, and a room whose floor its
            // merge put lower (rooms of one story scanned 46 cm apart) had every object found
            // floating there though its own room said nothing (an adversarial pass).
            if scope != .structure || file.rooms.isEmpty,
               let floor = floorHeights.filter({ $0 <= bottom + 0.05 }).max(), bottom - floor > t.floating, object.parentIdentifier == nil,
               !capture.objects.contains(where: { other in other.identifier != object.identifier && other.supports(object) }),
               !object.hangsOnAWall(capture.walls, near: grid) {
                result.append(Finding(kind: .floating, elements: [objects[index]],
                                      reason: "the \(object.category.name)'s bottom is \(magnitude(bottom - floor)) m above the floor with nothing under it"))
            }
        }
        return result
    }

    private func danglingParents(_ file: WorkspaceFile) -> [Finding] {
        // Where RoomPlan looks for a parent, as a reopen does (and `save` warns): a room's
        // elements in their own room; the structure's own in the structure or any of its rooms
        // (Apple's merged files point at elements only rooms hold).
        var inScope: [Scope: Set<String>] = [:]
        var anywhere = Set<String>()
        for scope in file.scopes {
            var own = Set<String>()
            for kind in ElementKind.surfaceKinds + [.object] { own.formUnion(file.keys(scope, kind).keys.compactMap { Identity(file: file.id, scope: scope, kind: kind, key: $0).identifier }) }
            inScope[scope] = own
            anywhere.formUnion(own)
        }
        // What each identifier is (the first element of it met), and each one's parent.
        var element: [String: (identity: Identity, what: String)] = [:]
        var parentOf: [String: String] = [:]
        var links: [(identity: Identity, kind: ElementKind, own: String, parent: String)] = []
        for scope in file.scopes {
            guard let capture = file.capture(scope) else { continue }
            for kind in [ElementKind.door, .window, .opening, .wall, .floor, .object] {
                let ids = identities(file, scope, kind)
                for index in ids.indices {
                    guard let own = ids[index].identifier else { continue }
                    if element[own] == nil {
                        let what = kind == .object ? indefinite("\(capture.objects[index].category.name) (object)") : indefinite(kind.rawValue)
                        element[own] = (ids[index], what)
                    }
                    if let parent = capture.parentIdentifier(of: kind, at: index) {
                        links.append((ids[index], kind, own, parent))
                        if parentOf[own] == nil { parentOf[own] = parent }
                    }
                }
            }
        }
        var result: [Finding] = []
        for link in links {
            guard anywhere.contains(identifier: link.parent) else {
                result.append(Finding(kind: .danglingParent, elements: [link.identity], reason: "its parent \(link.parent.prefix(8))… is nowhere in \(file.name)"))
                continue
            }
            if link.identity.scope != .structure, !(inScope[link.identity.scope] ?? []).contains(identifier: link.parent) {
                // Where it is instead, so a person looks in the right place: a room by its handle,
                // or only the structure's own arrays (a room's wall deleted under a shared one).
                let holder = file.scopes.first { $0 != .structure && (inScope[$0] ?? []).contains(identifier: link.parent) }
                let reason: String
                if let room = holder?.roomID {
                    let handle = handles.handle(for: Identity.room(room, file: file.id)).map { " (\($0))" } ?? ""
                    reason = "is in another room\(handle), not its own (RoomPlan looks in its own)"
                } else {
                    reason = "is one of the structure's own elements, in no room (RoomPlan looks in the \(link.kind.rawValue)'s own room)"
                }
                result.append(Finding(kind: .danglingParent, elements: [link.identity], reason: "its parent \(link.parent.prefix(8))… " + reason))
                continue
            }
            // A parent that exists but cannot be one: the element itself, (for a door, window
            // or opening, which RoomPlan hangs on walls) something that is not a wall, or (for a
            // wall) a wall or what hangs on one: a wall hung on a wall passed as sound.
            if identifierSpellings(link.parent).contains(link.own) {
                result.append(Finding(kind: .danglingParent, elements: [link.identity], reason: "its parent is itself"))
            } else if [.door, .window, .opening].contains(link.kind), let parent = element[identifier: link.parent], parent.identity.kind != .wall {
                result.append(Finding(kind: .danglingParent, elements: [link.identity, parent.identity],
                                      reason: "its parent is \(parent.what), not a wall"))
            } else if link.kind == .wall, let parent = element[identifier: link.parent], [.wall, .door, .window, .opening].contains(parent.identity.kind) {
                result.append(Finding(kind: .danglingParent, elements: [link.identity, parent.identity],
                                      reason: "its parent is \(parent.what), but a wall hangs on nothing (RoomPlan hangs doors, windows and openings on walls)"))
            }
        }
        // Parents that lead round in a loop (two objects each the other's parent), once per loop.
        var done = Set<String>()
        for start in parentOf.keys.sorted() where !done.contains(start) {
            var chain: [String] = [], seen: [String: Int] = [:]
            var node: String? = start
            while let current = node, !done.contains(current), seen[current] == nil {
                seen[current] = chain.count
                chain.append(current)
                node = parentOf[current].flatMap { parent in identifierSpellings(parent).first { parentOf[$0] != nil || element[$0] != nil } }
            }
            if let current = node, let at = seen[current], chain.count - at > 1 {
                let loop = Array(chain[at...])
                result.append(Finding(kind: .danglingParent, elements: loop.compactMap { element[$0]?.identity },
                                      reason: "their parents lead round in a loop (\(loop.count) elements)"))
            }
            done.formUnion(chain)
        }
        return result
    }

    private func roomsOverlap(_ file: WorkspaceFile, _ t: CheckTolerances) -> [Finding] {
        roomsOverlap(file.rooms, t)
    }

    /// Rooms whose floors overlap, of `rooms` (all in one frame); with `acrossFiles`, only pairs
    /// of rooms of two files (each file's own pairs are found with the file).
    private func roomsOverlap(_ rooms: [Identity], _ t: CheckTolerances, acrossFiles: Bool = false) -> [Finding] {
        let outlines = rooms.map { capture($0)?.planOutlines ?? [] }
        var grid = PlanGrid<Int>(cellSize: 4)
        for (index, outline) in outlines.enumerated() {
            if let bounds = PlanBounds(containing: outline.joined()) { grid.insert(index, covering: bounds) }
        }
        var result: [Finding] = []
        for (i, outline) in outlines.enumerated() {
            guard let bounds = PlanBounds(containing: outline.joined()) else { continue }
            for j in grid.elements(intersecting: bounds) where j > i && capture(rooms[i])?.effectiveStory == capture(rooms[j])?.effectiveStory
                && (!acrossFiles || rooms[i].file != rooms[j].file) {
                let area = outline.reduce(0) { sum, a in outlines[j].reduce(sum) { $0 + a.overlapArea(with: $1) } }
                if area > t.roomOverlap {
                    // How much of each floor: most of both is one room scanned twice (a rescan laid
                    // on its first scan), a strip along a wall is a room set too far across it.
                    let shares = [outline, outlines[j]].map { pieces in
                        let own = pieces.reduce(0) { $0 + abs($1.signedArea) }
                        return own > 0 ? min(100, (100 * area / own).rounded()) : 100
                    }
                    let why = shares.min()! >= 80 ? "one room scanned twice?" : "misplaced, or one room scanned twice?"
                    result.append(Finding(kind: .roomsOverlap, elements: [rooms[i], rooms[j]],
                                          reason: "their floors overlap by \(formatted(area, digits: 2)) m², \(Int(shares[0])) % and \(Int(shares[1])) % of each (\(why))"))
                }
            }
        }
        return result
    }

    private func sectionsOutside(_ file: WorkspaceFile, _ t: CheckTolerances) -> [Finding] {
        var result: [Finding] = []
        for room in file.rooms {
            guard let capture = capture(room) else { continue }
            let outlines = capture.planOutlines
            guard !outlines.isEmpty else { continue }
            for (index, section) in capture.sections.enumerated() where !Self.isBroken(section.center, t) {
                let centre = PlanPoint(x: Double(section.center.x), z: Double(section.center.z))
                let inside = outlines.contains { $0.encloses(centre) }
                let distance = outlines.flatMap { outline in outline.indices.map { PlanSegment(start: outline[$0], end: outline[($0 + 1) % outline.count]).distance(to: centre) } }.min() ?? 0
                if !inside && distance > t.sectionOutside {
                    result.append(Finding(kind: .sectionOutside, elements: [file.identities(room.scope, .section)[index], room],
                                          reason: "its centre is \(magnitude(distance)) m outside the room's floor"))
                }
            }
        }
        return result
    }

    private func storyHeights(_ file: WorkspaceFile, _ t: CheckTolerances) -> [Finding] {
        storyHeights(rooms: file.rooms, t)
    }

    private func storyHeights(rooms: [Identity], _ t: CheckTolerances) -> [Finding] {
        let assignment = storiesByHeight(of: rooms, tolerance: t.storyTolerance)
        guard assignment.levels.count > 0 else { return [] }
        // A story number means one height: the rooms of each height level should share one,
        // and no two levels the same one.
        var result: [Finding] = []
        let usual = assignment.levels.map { level in mostCommon(level.rooms.compactMap { capture($0)?.effectiveStory }) }
        for (index, level) in assignment.levels.enumerated() {
            guard let story = usual[index] else { continue }
            let clash = usual.indices.contains { other in
                other != index && usual[other] == story
                    && (assignment.levels[other].rooms.count, other) > (level.rooms.count, index)
            }
            for room in level.rooms {
                guard let own = capture(room)?.effectiveStory, own != story || clash else { continue }
                let lower = assignment.levels.indices.filter { usual[$0] == own && $0 != index }
                let with = lower.first.map { " with story \(own)'s rooms at \(formatted(assignment.levels[$0].height, digits: 2)) m" } ?? ""
                result.append(Finding(kind: .storyHeight, elements: [room],
                                      reason: "on story \(own)\(with), but its floor is at \(formatted(level.height, digits: 2)) m"))
            }
        }
        return result
    }

    /// A structure's own arrays, which its rooms do not hold: a section or an object far from
    /// every floor of the building (its rooms' and its own), a story's floor at another height
    /// than the rooms of that story (a structure-level section moved 40 m off, a sofa 30 m out
    /// of the building and a floor lifted 3 m were "no problems found").
    private func structureLevel(_ file: WorkspaceFile, _ t: CheckTolerances) -> [Finding] {
        guard file.isStructure, let merged = file.capture(.structure) else { return [] }
        var result: [Finding] = []
        let rooms = file.rooms.compactMap { room in capture(room).map { (room, $0) } }
        let outlines = merged.planOutlines + rooms.flatMap { $0.1.planOutlines }
        func outside(_ point: PlanPoint) -> Double? {
            guard !outlines.isEmpty, !outlines.contains(where: { $0.encloses(point) }) else { return nil }
            return outlines.flatMap { outline in outline.indices.map { PlanSegment(start: outline[$0], end: outline[($0 + 1) % outline.count]).distance(to: point) } }.min()
        }
        let sections = file.identities(.structure, .section)
        for (index, section) in merged.sections.enumerated() {
            if let distance = outside(PlanPoint(x: Double(section.center.x), z: Double(section.center.z))), distance > t.sectionOutside {
                result.append(Finding(kind: .sectionOutside, elements: [sections[index]],
                                      reason: "its centre is \(magnitude(distance)) m outside every floor of the structure"))
            }
        }
        // (An object a room holds is checked in its room; a copy that left it is said below.)
        var held: Set<String> = []
        for (_, room) in rooms { for object in room.objects { held.insert(object.identifier) } }
        let objects = file.identities(.structure, .object)
        for (index, object) in merged.objects.enumerated() where !held.contains(object.identifier) {
            if let distance = outside(PlanPoint(object.transform.translation)), distance > t.throughWall {
                result.append(Finding(kind: .throughWall, elements: [objects[index]],
                                      reason: "the \(object.category.name)'s middle is \(distance < 1e4 ? formatted(distance, digits: 2) : magnitude(distance)) m outside every floor of the structure"))
            }
        }
        // A structure-level element under a room element's identifier stands for it, and lies
        // where it does (Apple's merge moves them by a centimetre, wb's by up to a wall's
        // thickness across, or along to a corner): one a metre off said "no problems found"
        // (an adversarial pass). Judged as merge pairs copies; said once for each room, as a
        // room moved since the merge has all of its copies apart.
        let options = MergeOptions()
        var apartOf: [Scope: [(structure: Identity, room: Identity, distance: Double)]] = [:]
        var roomOrder: [Scope] = []
        for (own, link) in file.links.sorted(by: { ($0.key.kind.rawValue, $0.key.key) < ($1.key.kind.rawValue, $1.key.key) })
        where own.identifier != nil && own.identifier == link.element.identifier {
            guard let mine = element(own), let theirs = element(link.element) else { continue }
            let apart: Double?
            switch (mine, theirs) {
            case (.surface(let a), .surface(let b)) where own.kind == .wall:
                // A wall of no length (said as out of range) has no line to lie along: its copy is
                // judged by where it is (one at the very same place was said to lie 0.00 m apart).
                let distance = b.planSegment.distance(to: a.planSegment.midpoint)
                let pointlike = a.planSegment.length == 0 || b.planSegment.length == 0
                apart = (pointlike ? distance <= options.wallGap : StructureMerger.sameWall(a, b, options)) ? nil : distance
            case (.surface(let a), .surface(let b)) where own.kind != .floor:
                apart = StructureMerger.sameOpening(a, b, options) ? nil : b.planSegment.midpoint.distance(to: a.planSegment.midpoint)
            case (.object(let a), .object(let b)):
                let distance = (a.transform.translation - b.transform.translation)
                let length = (distance * distance).sum().squareRoot()
                apart = length > t.sectionOutside ? length : nil
            default:
                apart = nil
            }
            guard let apart else { continue }
            if apartOf[own.scope] == nil { roomOrder.append(own.scope) }
            apartOf[own.scope, default: []].append((link.element, own, apart))
        }
        func metres(_ value: Double) -> String { value < 1e4 ? formatted(value, digits: 2) : magnitude(value) }
        for scope in roomOrder {
            let pairs = apartOf[scope]!
            let room = scope.roomID.flatMap { handles.handle(for: Identity.room($0, file: file.id)) }.map { " (\($0))" } ?? ""
            if pairs.count == 1, let pair = pairs.first {
                result.append(Finding(kind: .structureApart, elements: [pair.structure, pair.room],
                                      reason: "the structure's copy lies \(metres(pair.distance)) m from its room's\(room), under one identifier "
                                          + "(merge rebuilds the structure's arrays)"))
            } else {
                let distances = pairs.map(\.distance)
                let low = metres(distances.min()!), high = metres(distances.max()!)
                result.append(Finding(kind: .structureApart, elements: pairs.map(\.structure),
                                      reason: "\(pairs.count) of the structure's copies lie \(low == high ? low : low + " to " + high) m from their room's\(room), "
                                          + "under their identifiers (merge rebuilds the structure's arrays)"))
            }
        }
        // Each story's floor against its rooms' floors (within a story's tolerance).
        let floors = file.identities(.structure, .floor)
        for (index, floor) in merged.floors.enumerated() {
            guard let story = floor.story else { continue }
            let heights = rooms.filter { $0.1.effectiveStory == story }.compactMap { $0.1.floorHeight }.sorted()
            guard !heights.isEmpty else { continue }
            let middle = heights[heights.count / 2], height = floor.transform.translation.y
            if abs(height - middle) > t.storyTolerance / 2 {
                result.append(Finding(kind: .storyHeight, elements: [floors[index]],
                                      reason: "story \(story)'s floor is at \(formatted(height, digits: 2)) m, its rooms' floors at \(formatted(middle, digits: 2)) m"))
            }
        }
        return result
    }

    private func mostCommon(_ values: [Int]) -> Int? {
        var counts: [Int: Int] = [:]
        for value in values { counts[value, default: 0] += 1 }
        // The lower story wins a tie (compared so, not by negating it: -Int.min traps).
        return counts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
    }
}

extension Surface {
    /// The heights a surface spans, bottom to top.
    var heightRange: ClosedRange<Double> {
        // A file may give a negative height: its size is taken (the range would trap otherwise).
        let middle = transform.translation.y, half = abs(Double(dimensions.y)) / 2
        return (middle - half)...(middle + half)
    }

    /// Whether two surfaces span common heights (more than 10 cm): on one story.
    func sharesHeight(with other: Surface) -> Bool {
        min(heightRange.upperBound, other.heightRange.upperBound) - max(heightRange.lowerBound, other.heightRange.lowerBound) > 0.1
    }
}

extension Object {
    func sharesHeight(with wall: Surface) -> Bool {
        let middle = transform.translation.y, half = abs(Double(dimensions.y)) / 2
        return min(middle + half, wall.heightRange.upperBound) - max(middle - half, wall.heightRange.lowerBound) > 0.1
    }

    /// The object's footprint in plan, its four corners, each side pulled in by `margin`.
    func planBox(shrunkBy margin: Double, depthBy depthMargin: Double? = nil) -> [PlanPoint] {
        let w = Double(dimensions.x) / 2 - margin, d = Double(dimensions.z) / 2 - (depthMargin ?? margin)
        guard w > 0, d > 0 else { return [] }
        return [(-w, -d), (w, -d), (w, d), (-w, d)].map { x, z in PlanPoint(transform.apply(toPoint: SIMD3(x, 0, z))) }
    }

    /// What is hung on walls as often as it stands: wall cabinets and shelves, a television, a
    /// wall-hung sink or toilet, a fireplace.
    static let wallHung: Set<String> = ["storage", "television", "sink", "toilet", "fireplace"]

    /// Whether this is a thing hung on a wall (see `wallHung`) whose footprint touches a wall
    /// (within 10 cm) at its height: a kitchen's wall cabinets at 1.8 m are not floating (a real
    /// home merged by Apple had two, flagged until this), nor one set across a corner (a real
    /// iOS 26 kitchen's corner cabinet, turned 42° to both walls, one corner on a wall).
    func hangsOnAWall(_ walls: [Surface], near grid: PlanGrid<Int>) -> Bool {
        guard Self.wallHung.contains(category.name) else { return false }
        let box = planBox(shrunkBy: 0)
        guard box.count == 4, let bounds = PlanBounds(containing: box) else { return false }
        let sides = (0..<4).map { PlanSegment(start: box[$0], end: box[($0 + 1) % 4]) }
        return grid.elements(intersecting: bounds.expanded(by: 0.1)).contains { w in
            let wall = walls[w]
            guard sharesHeight(with: wall) else { return false }
            let segment = wall.planSegment
            return sides.contains { $0.distance(to: segment) <= 0.1 }
        }
    }

    /// Whether this object holds `other` up: `other`'s footprint centre over this one's and
    /// its bottom within 15 cm of this one's top.
    func supports(_ other: Object) -> Bool {
        let top = transform.translation.y + abs(Double(dimensions.y)) / 2
        let bottom = other.transform.translation.y - abs(Double(other.dimensions.y)) / 2
        let box = planBox(shrunkBy: -0.05)
        // A television's box is its screen: the stand it stands on lifts it (a real one 32 cm
        // over the cabinet under it).
        let gap = other.category.name == "television" ? 0.4 : 0.15
        return bottom - top > -0.15 && bottom - top < gap && box.count == 4 && box.encloses(PlanPoint(other.transform.translation))
    }
}

extension Array where Element == PlanPoint {
    /// Whether a segment passes through this (convex) polygon's inside.
    func crosses(_ segment: PlanSegment) -> Bool {
        if encloses(segment.start) || encloses(segment.end) { return true }
        return indices.contains { PlanSegment(start: self[$0], end: self[($0 + 1) % count]).intersects(segment) }
    }
}
