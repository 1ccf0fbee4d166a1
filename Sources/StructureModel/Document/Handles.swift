/// Short names for everything open, stable for the whole session: `r2` for a room, `s1`
/// a section, `w4` a wall, `d1` a door, `n3` a window, `p1` an opening, `f1` a floor,
/// `o12` an object; `sp1` a Hyperbasis space, `a3` an anchor. A handle is given once per
/// identity, the first time that identity is seen (opened, created, inserted), and is
/// never given to anything else, so a handle in a script means the same thing from its
/// first line to its last, across undo, redo, close and reopen. Replaying the same
/// commands gives the same handles.
public struct HandleTable: Sendable {
    /// Each identity's handle number; the handle is the kind's letter and this number.
    private var numbers: [Identity: Int] = [:]
    /// Every identity in the order its handle was given, per kind (handle `w5` is the fifth
    /// wall's): listings go by it. It keeps identities that are gone (closed, deleted),
    /// which listings skip.
    public private(set) var order: [ElementKind: [Identity]] = [:]
    private var storeItems: [StoreItem: String] = [:]
    private var storeItemByHandle: [String: StoreItem] = [:]
    private var spaceCount = 0
    private var anchorCount = 0

    /// A space or an anchor of an open store, by its id (upper-cased, as file names are),
    /// or by its id and file when the id is in several files (`handleKey`).
    public struct StoreItem: Sendable, Hashable {
        public var store: Int
        public var isSpace: Bool
        public var id: String
    }

    public init() {}

    /// Gives handles to everything in a file that has none yet.
    mutating func assign(_ file: WorkspaceFile) {
        for scope in file.scopes { assign(file, scope: scope) }
    }

    mutating func assign(_ file: WorkspaceFile, scope: Scope) {
        if case .room(let id) = scope { give(Identity.room(id, file: file.id)) }
        guard let keys = file.keys[scope] else { return }
        for kind in [ElementKind.section] + ElementKind.surfaceKinds + [.object] {
            for key in keys[kind].keys { give(Identity(file: file.id, scope: scope, kind: kind, key: key)) }
        }
    }

    mutating func assign(_ entry: StoreEntry) {
        for space in entry.store.spaces {
            give(StoreItem(store: entry.id, isSpace: true, id: space.handleKey))
        }
        for anchor in entry.store.anchors {
            give(StoreItem(store: entry.id, isSpace: false, id: anchor.handleKey))
        }
    }

    /// A handle for an identity that has none (nothing for one that has).
    mutating func give(_ identity: Identity) {
        let next = (order[identity.kind]?.count ?? 0) + 1
        var isNew = false
        // One hash: the default subscript hands the slot over in place.
        Self.claim(&numbers[identity, default: 0], next, &isNew)
        if isNew { order[identity.kind, default: []].append(identity) }
    }

    private static func claim(_ slot: inout Int, _ number: Int, _ isNew: inout Bool) {
        if slot == 0 {
            slot = number
            isNew = true
        }
    }

    private mutating func give(_ item: StoreItem) {
        guard storeItems[item] == nil else { return }
        let handle: String
        if item.isSpace {
            spaceCount += 1
            handle = "sp\(spaceCount)"
        } else {
            anchorCount += 1
            handle = "a\(anchorCount)"
        }
        storeItems[item] = handle
        storeItemByHandle[handle] = item
    }

    /// The identity a handle names: the kind from its letter, the number its place.
    public func identity(for handle: String) -> Identity? {
        guard let letter = handle.first, let number = Int(handle.dropFirst()), number >= 1, handle.dropFirst().first != "+",
              let kind = ElementKind.byHandlePrefix[letter], let list = order[kind], number <= list.count else { return nil }
        return list[number - 1]
    }

    public func handle(for identity: Identity) -> String? {
        numbers[identity].map { identity.kind.handlePrefix + String($0) }
    }

    public func handle(forSpace space: SpaceRecord, store: Int) -> String? {
        storeItems[StoreItem(store: store, isSpace: true, id: space.handleKey)]
    }

    public func handle(forAnchor anchor: AnchorRecord, store: Int) -> String? {
        storeItems[StoreItem(store: store, isSpace: false, id: anchor.handleKey)]
    }

    public func storeItem(for handle: String) -> StoreItem? { storeItemByHandle[handle] }

    /// Every handle given so far (of things open or not).
    public var allHandles: [String] {
        order.flatMap { kind, list in list.indices.map { kind.handlePrefix + String($0 + 1) } } + Array(storeItemByHandle.keys)
    }

    /// Identities whose identifier starts with `prefix` (case-insensitive), for UUID references.
    public func identities(withIdentifierPrefix prefix: String) -> [Identity] {
        let upper = prefix.uppercased()
        return numbers.keys.filter { $0.kind != .room && $0.kind != .section && $0.key.uppercased().hasPrefix(upper) }
    }
}

/// Links the rooms of a `CapturedStructure` to the structure-level arrays Apple's merge
/// built from them (provenance), so an edit of a room keeps both in step. A room element
/// stands for the structure-level element with its identifier or, failing that, the one
/// merge would have joined it into: a wall up to a wall's thickness away along which it
/// runs, a door or window on the other side of the wall, an object of its kind in the same
/// place (within 5 cm), a section of its label within 10 cm in plan, the story's floor whose
/// outline holds the room's floor. Several room elements may stand for one
/// structure-level element (a wall seen from two rooms, one floor under several rooms).
/// Linear in the file: identifiers through a dictionary, places through a grid.
enum StructureTwins {
    static let tolerance = 0.05
    static let sectionTolerance = 0.1

    static func find(_ file: WorkspaceFile) -> [Identity: StructureLink] {
        guard let merged = file.capture(.structure), let mergedKeys = file.keys[.structure] else { return [:] }
        var links: [Identity: StructureLink] = [:]
        // Grids of structure-level elements by place, built for a kind when first needed
        // (most elements are found by identifier).
        var grids: [ElementKind: PlanGrid<Int>] = [:]
        func grid(_ kind: ElementKind) -> PlanGrid<Int> {
            if let grid = grids[kind] { return grid }
            var grid = PlanGrid<Int>(cellSize: 1)
            for index in 0..<merged.count(of: kind) {
                if kind == .wall {
                    grid.insert(index, covering: merged.walls[index].planSegment.bounds)
                } else {
                    grid.insert(index, at: merged.anchorPoint(kind, at: index))
                }
            }
            grids[kind] = grid
            return grid
        }
        let options = MergeOptions()
        for roomID in file.roomIDs {
            let scope = Scope.room(roomID)
            guard let room = file.capture(scope), let keys = file.keys[scope] else { continue }
            for kind in ElementKind.surfaceKinds + [.object, .section] {
                let roomKeys = keys[kind].keys
                for index in roomKeys.indices {
                    let element = room.element(kind, at: index)!
                    var match: Int?
                    if kind != .section, let byKey = mergedKeys[kind].index(of: roomKeys[index]) {
                        match = byKey
                    } else if case .surface(let surface) = element, kind == .wall {
                        // The structure's copy of a wall may lie up to its thickness away (on its
                        // centre line, or on the other room's face) and run on past this room.
                        let candidates = grid(kind).elements(intersecting: surface.planSegment.bounds.expanded(by: options.wallGap))
                            .filter { StructureMerger.sameWall(surface, merged.walls[$0], options) }
                        match = candidates.max { a, b in
                            surface.planSegment.overlap(with: merged.walls[a].planSegment).length
                                < surface.planSegment.overlap(with: merged.walls[b].planSegment).length
                        }
                    } else if kind == .floor, case .surface(let surface) = element {
                        // Apple's merge gives the story's floor, the union of its rooms', an
                        // identifier of its own: a room's floor stands for the one of its story
                        // whose outline holds the middle of its own.
                        guard let middle = surface.planPolygon.centroid else { continue }
                        match = merged.floors.indices.first { candidate in
                            let floor = merged.floors[candidate]
                            return floor.story == surface.story && floor.planPolygon.count >= 3 && floor.planPolygon.encloses(middle)
                        }
                    } else if case .surface(let surface) = element {
                        let point = room.anchorPoint(kind, at: index)
                        match = grid(kind).elements(within: options.doorGap, of: point)
                            .filter { StructureMerger.sameOpening(surface, merged.surfaces(kind.surfaceArray!)[$0], options) }
                            .min { merged.anchorPoint(kind, at: $0).distance(to: point) < merged.anchorPoint(kind, at: $1).distance(to: point) }
                    } else if kind == .section {
                        // Apple's merge writes the structure's sections at the story's floor
                        // height (the rooms' at 0) and moves them by a few centimetres: the
                        // nearest of the same label within 10 cm in plan.
                        let point = room.anchorPoint(kind, at: index)
                        match = grid(kind).elements(within: sectionTolerance, of: point)
                            .filter { samePlace(element, merged.element(kind, at: $0)!) }
                            .min { merged.anchorPoint(kind, at: $0).distance(to: point) < merged.anchorPoint(kind, at: $1).distance(to: point) }
                    } else {
                        match = grid(kind).elements(within: tolerance, of: room.anchorPoint(kind, at: index)).first { candidate in
                            samePlace(element, merged.element(kind, at: candidate)!)
                        }
                    }
                    guard let match else { continue }
                    let own = Identity(file: file.id, scope: scope, kind: kind, key: roomKeys[index])
                    let target = Identity(file: file.id, scope: .structure, kind: kind, key: mergedKeys[kind].keys[match])
                    links[own] = link(own: element, target: merged.element(kind, at: match)!, identity: target)
                }
            }
        }
        return links
    }

    /// A link with the relation of the two elements as they are now.
    static func link(own: Element, target: Element, identity: Identity) -> StructureLink {
        StructureLink(element: identity, relation: relation(own, target), sameStory: own.story == target.story)
    }

    /// How `b` sits relative to `a`, in terms a rigid motion of both leaves unchanged: for
    /// surfaces and objects, b's position and first axis in a's frame; for sections (a
    /// centre only), their distance.
    static func relation(_ a: Element, _ b: Element) -> SIMD8<Float> {
        switch (a.transform, b.transform) {
        case (let x?, let y?):
            let d = y.translation - x.translation
            let axes = [x.column(0), x.column(1), x.column(2)]
            let offset = SIMD3((axes[0] * d).sum(), (axes[1] * d).sum(), (axes[2] * d).sum())
            let c = y.column(0)
            let axis = SIMD3((axes[0] * c).sum(), (axes[1] * c).sum(), (axes[2] * c).sum())
            return SIMD8(Float(offset.x), Float(offset.y), Float(offset.z), Float(axis.x), Float(axis.y), Float(axis.z), 0, 0)
        default:
            guard case .section(let s) = a, case .section(let t) = b else { return SIMD8() }
            return SIMD8(Float(SIMD3<Double>(t.center).distance(to: SIMD3<Double>(s.center))), 0, 0, 0, 0, 0, 0, 0)
        }
    }

    /// Whether two relations are the same within what float storage and rounding explain:
    /// 2 mm and about 0.1°.
    static func agrees(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> Bool {
        let d = a - b
        let offset = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).squareRoot()
        let axis = (d[3] * d[3] + d[4] * d[4] + d[5] * d[5]).squareRoot()
        return offset < 0.002 && axis < 0.002
    }

    /// Objects and sections (surfaces are matched as merge matches them).
    private static func samePlace(_ a: Element, _ b: Element) -> Bool {
        switch (a, b) {
        case (.object(let x), .object(let y)):
            return x.category == y.category && close(x.transform.translation, y.transform.translation)
        case (.section(let x), .section(let y)):
            return x.label == y.label && x.story == y.story
                && PlanPoint(x: Double(x.center.x), z: Double(x.center.z)).distance(to: PlanPoint(x: Double(y.center.x), z: Double(y.center.z))) < sectionTolerance
        default:
            return false
        }
    }

    private static func close(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Bool {
        a.distance(to: b) < tolerance
    }
}

extension Element {
    /// The placement of a surface or object (sections have only a centre).
    var transform: Transform? {
        switch self {
        case .surface(let surface): return surface.transform
        case .object(let object): return object.transform
        case .section: return nil
        }
    }

    var story: Int? {
        switch self {
        case .surface(let surface): return surface.story
        case .object(let object): return object.story
        case .section(let section): return section.story
        }
    }
}

extension CapturedRoom {
    /// Where an element is in plan: its centre (a section's centre).
    func anchorPoint(_ kind: ElementKind, at index: Int) -> PlanPoint {
        switch kind {
        case .section: return PlanPoint(x: Double(sections[index].center.x), z: Double(sections[index].center.z))
        case .object: return PlanPoint(objects[index].transform.translation)
        case .room: return PlanPoint(x: 0, z: 0)
        default: return PlanPoint(surfaces(kind.surfaceArray!)[index].transform.translation)
        }
    }
}
