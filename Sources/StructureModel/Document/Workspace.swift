/// Who an element is, independent of where it sits now: its file, capture, kind and
/// identifier (sections, which have none, by their position when the file was opened).
public struct Identity: Sendable, Hashable {
    public var file: Int
    public var scope: Scope
    public var kind: ElementKind
    public var key: String

    public init(file: Int, scope: Scope, kind: ElementKind, key: String) {
        self.file = file
        self.scope = scope
        self.kind = kind
        self.key = key
    }
}

/// What a free-text name is attached to.
public enum NameKey: Sendable, Hashable {
    case room(Scope)
    case section(Scope, Int)
}

/// An element taken out by `delete`, with where it was, so `restore` can put it back.
struct Buried: Sendable {
    var element: Element
}

/// One open file and what wb keeps beside it.
public struct WorkspaceFile: Sendable {
    /// A unique number within the workspace (files are never renumbered).
    public let id: Int
    /// A short name for prompts: the file name without `.json`, made unique.
    public var name: String
    public var path: String
    public var document: RoomPlanDocument
    /// The file on disk when it was opened or last saved, to notice changes by others.
    public var stamp: FileStamp?
    public var diagnostics: [Diagnostic]
    /// Free-text names of rooms and sections; RoomPlan has no place for them, so they live
    /// in a sidecar file next to the RoomPlan file (see `Sidecar`).
    public var names: [NameKey: String] = [:]
    /// For each room, the Hyperbasis space (its id) it was scanned in: the same coordinate
    /// frame, so that space's anchors can be placed in the room. Kept in the sidecar too.
    public var spaceLinks: [Scope: String] = [:]
    /// Whether a sidecar was read or must be written (names once given stay saved).
    public var hasSidecar = false
    /// The state the file is in; a new number after every change, the old one after undo.
    public internal(set) var state: Int = 0
    public internal(set) var savedState: Int = 0
    var graveyard: [Identity: Buried] = [:]
    /// Each array's identifiers in their order when opened, to restore in place.
    var originalRank: [Scope: [ElementKind: [String: Int]]] = [:]
    /// For a structure: a room element's structure-level twin, when only that room has it.
    public internal(set) var twins: [Identity: Identity] = [:]
    /// Structure-level elements that match more than one room (a shared wall, the floor).
    public internal(set) var sharedTwins: [Scope: Int] = [:]

    public var isModified: Bool { state != savedState }
}

/// Everything open in a wb session: files, their handles, their names. Edits go through
/// `apply`, which records the inverse of every change (`Change`), so undo costs memory in
/// proportion to what an edit changed, never a copy of the document.
public struct Workspace: Sendable {
    public private(set) var files: [WorkspaceFile] = []
    public private(set) var handles = HandleTable()
    /// Hyperbasis stores (and single HBSpace files), with what is on disk for each.
    public private(set) var stores: [StoreEntry] = []
    private var nextFileID = 1
    private var nextState = 1

    public init() {}

    public func storeIndex(id: Int) -> Int? {
        stores.firstIndex { $0.id == id }
    }

    @discardableResult
    public mutating func addStore(_ store: HyperbasisStore) -> StoreEntry {
        let entry = StoreEntry(id: nextFileID, store: store, onDisk: store)
        nextFileID += 1
        stores.append(entry)
        return entry
    }

    /// After a save: what is in memory is what is on disk.
    public mutating func markStoreSaved(id: Int, as saved: HyperbasisStore) {
        guard let index = storeIndex(id: id) else { return }
        stores[index].store = saved
        stores[index].onDisk = saved
        stores[index].savedState = stores[index].state
    }

    private func state(of id: Int) -> Int? {
        if let f = fileIndex(id: id) { return files[f].state }
        if let s = storeIndex(id: id) { return stores[s].state }
        return nil
    }

    private mutating func setState(of id: Int, _ state: Int) {
        if let f = fileIndex(id: id) { files[f].state = state }
        if let s = storeIndex(id: id) { stores[s].state = state }
    }

    public func fileIndex(id: Int) -> Int? {
        files.firstIndex { $0.id == id }
    }

    public func file(id: Int) -> WorkspaceFile? {
        fileIndex(id: id).map { files[$0] }
    }

    // MARK: Opening and closing

    /// Adds a decoded file: gives every room and element a handle, links a structure's
    /// rooms to their structure-level twins, reads names from the sidecar.
    @discardableResult
    public mutating func add(path: String, document: RoomPlanDocument, stamp: FileStamp?,
                             diagnostics: [Diagnostic], sidecar: Sidecar? = nil) -> WorkspaceFile {
        var base = FileIO.baseName(of: path)
        if base.hasSuffix(".json") { base.removeLast(5) }
        var name = base
        var counter = 2
        while files.contains(where: { $0.name == name }) {
            name = "\(base)-\(counter)"
            counter += 1
        }
        var file = WorkspaceFile(id: nextFileID, name: name, path: path, document: document, stamp: stamp,
                                 diagnostics: diagnostics)
        nextFileID += 1
        for scope in document.roomScopes + (document.isStructure ? [.merged] : []) {
            guard let room = document.room(scope) else { continue }
            var ranks: [ElementKind: [String: Int]] = [:]
            for kind in ElementKind.surfaceKinds + [.object] {
                var rank: [String: Int] = [:]
                for index in 0..<room.count(of: kind) {
                    if let id = room.element(kind, at: index)?.identifier, rank[id] == nil { rank[id] = index }
                }
                ranks[kind] = rank
            }
            file.originalRank[scope] = ranks
        }
        if case .structure(let structure) = document {
            let links = StructureTwins.find(structure, file: file.id)
            file.twins = links.twins
            file.sharedTwins = links.shared
        }
        handles.assign(file)
        if let sidecar {
            file.names = sidecar.names(for: document)
            file.spaceLinks = sidecar.spaceLinks(for: document)
            file.hasSidecar = true
        }
        files.append(file)
        return file
    }

    public mutating func closeStore(id: Int) -> StoreEntry? {
        guard let index = storeIndex(id: id) else { return nil }
        // Rooms attached to the store's spaces stay attached by space id; they find the
        // anchors again if the store is reopened.
        return stores.remove(at: index)
    }

    public mutating func close(id: Int) -> WorkspaceFile? {
        guard let index = fileIndex(id: id) else { return nil }
        handles.forget(file: id)
        return files.remove(at: index)
    }

    public mutating func markSaved(id: Int, stamp: FileStamp?) {
        guard let index = fileIndex(id: id) else { return }
        files[index].savedState = files[index].state
        files[index].stamp = stamp
        if !files[index].names.isEmpty || !files[index].spaceLinks.isEmpty { files[index].hasSidecar = true }
    }

    // MARK: Finding elements

    /// Where an element is now, or nil when it is deleted.
    public func path(of identity: Identity) -> ElementPath? {
        guard let fileIndex = fileIndex(id: identity.file),
              let room = files[fileIndex].document.room(identity.scope) else { return nil }
        switch identity.kind {
        case .room:
            return ElementPath(file: identity.file, scope: identity.scope, kind: .room, index: 0)
        case .section:
            guard let index = Int(identity.key.dropFirst()), index < room.sections.count else { return nil }
            return ElementPath(file: identity.file, scope: identity.scope, kind: .section, index: index)
        default:
            guard let index = room.index(of: identity.kind, identifier: identity.key) else { return nil }
            return ElementPath(file: identity.file, scope: identity.scope, kind: identity.kind, index: index)
        }
    }

    public func element(at path: ElementPath) -> Element? {
        file(id: path.file)?.document.room(path.scope)?.element(path.kind, at: path.index)
    }

    public func isDeleted(_ identity: Identity) -> Bool {
        file(id: identity.file)?.graveyard[identity] != nil
    }

    /// The structure-level twin of a room element, when only its room has one.
    public func twin(of identity: Identity) -> Identity? {
        file(id: identity.file)?.twins[identity]
    }

    // MARK: Changing

    /// Applies a change and turns it into its own inverse (every change is a swap, so
    /// applying it again undoes it). Returns the file it touched.
    mutating func apply(_ change: inout Change) {
        if let s = storeIndex(id: change.file) {
            switch change {
            case .space(let store, let index, var record):
                swap(&stores[s].store.spaces[index], &record)
                change = .space(store: store, index: index, record)
            case .anchor(let store, let index, var record):
                swap(&stores[s].store.anchors[index], &record)
                change = .anchor(store: store, index: index, record)
            default:
                break
            }
            return
        }
        guard let f = fileIndex(id: change.file) else { return }
        switch change {
        case .element(let path, var element):
            files[f].document.withRoom(path.scope) { room in
                let old = room.element(path.kind, at: path.index)!
                room.replace(path.kind, at: path.index, with: element)
                element = old
            }
            change = .element(path, element)
        case .transform(let path, var transform):
            files[f].document.withRoom(path.scope) { room in
                switch path.kind {
                case .object:
                    swap(&room.objects[path.index].transform, &transform)
                default:
                    room.withSurfaces(path.kind.surfaceArray!) { swap(&$0[path.index].transform, &transform) }
                }
            }
            change = .transform(path, transform)
        case .center(let path, var center):
            files[f].document.withRoom(path.scope) { swap(&$0.sections[path.index].center, &center) }
            change = .center(path, center)
        case .story(let path, var story):
            files[f].document.withRoom(path.scope) { room in
                switch path.kind {
                case .room: swap(&room.story, &story)
                case .section: swap(&room.sections[path.index].story, &story)
                case .object: swap(&room.objects[path.index].story, &story)
                default: room.withSurfaces(path.kind.surfaceArray!) { swap(&$0[path.index].story, &story) }
                }
            }
            change = .story(path, story)
        case .remove(let path, let identity):
            let element = files[f].document.withRoom(path.scope) { $0.remove(path.kind, at: path.index) }
            files[f].graveyard[identity] = Buried(element: element)
            change = .insert(path, identity)
        case .insert(let path, let identity):
            guard let buried = files[f].graveyard.removeValue(forKey: identity) else { return }
            files[f].document.withRoom(path.scope) { $0.insert(path.kind, buried.element, at: path.index) }
            change = .remove(path, identity)
        case .name(let file, let key, var name):
            swap(&files[f].names[key], &name)
            change = .name(file: file, key, name)
        case .spaceLink(let file, let scope, var space):
            swap(&files[f].spaceLinks[scope], &space)
            change = .spaceLink(file: file, scope, space)
        case .space, .anchor:
            break
        }
    }

    /// Applies a list of changes as one edit and returns their inverses, in the order to
    /// apply them to undo it. Also moves each touched file to a new state.
    public mutating func perform(_ changes: [Change]) -> Step {
        var inverses = changes
        var touched: [Int: (before: Int, after: Int)] = [:]
        for index in inverses.indices {
            let file = inverses[index].file
            if touched[file] == nil, let state = state(of: file) {
                touched[file] = (state, nextState)
                nextState += 1
            }
            apply(&inverses[index])
        }
        for (file, states) in touched {
            setState(of: file, states.after)
        }
        return Step(changes: inverses.reversed(), states: touched.map { StepState(file: $0.key, before: $0.value.before, after: $0.value.after) })
    }

    /// Undoes (or, applied to what undo returned, redoes) a step in place.
    public mutating func revert(_ step: inout Step, forward: Bool) {
        for index in step.changes.indices {
            apply(&step.changes[index])
        }
        step.changes.reverse()
        for state in step.states {
            setState(of: state.file, forward ? state.after : state.before)
        }
    }

    /// Where a deleted element goes back: after every present element that came before it
    /// when the file was opened.
    public func restorePath(of identity: Identity) -> ElementPath? {
        guard let f = fileIndex(id: identity.file), files[f].graveyard[identity] != nil,
              let room = files[f].document.room(identity.scope),
              let ranks = files[f].originalRank[identity.scope]?[identity.kind] else { return nil }
        let own = ranks[identity.key] ?? Int.max
        var index = 0
        for position in 0..<room.count(of: identity.kind) {
            if let id = room.element(identity.kind, at: position)?.identifier, (ranks[id] ?? Int.max) < own {
                index = position + 1
            }
        }
        return ElementPath(file: identity.file, scope: identity.scope, kind: identity.kind, index: index)
    }

    /// The graveyard's copy of a deleted element.
    public func buried(_ identity: Identity) -> Element? {
        file(id: identity.file)?.graveyard[identity]?.element
    }
}

/// An open Hyperbasis store: as edited, and as last read from or written to disk (saving
/// compares the two to know which files to write and which events to append).
public struct StoreEntry: Sendable {
    public let id: Int
    public internal(set) var store: HyperbasisStore
    public internal(set) var onDisk: HyperbasisStore
    public internal(set) var state = 0
    public internal(set) var savedState = 0

    public var isModified: Bool { state != savedState }
}

extension RoomPlanDocument {
    public var isStructure: Bool {
        if case .structure = self { return true }
        return false
    }
}

/// One primitive change. Each case holds the value to swap in; applying a change swaps
/// it with the value in the document, so the applied change is its own inverse.
public enum Change: Sendable {
    // Boxed: a whole surface or object is several times larger than the transform most
    // changes carry, and an enum is as large as its largest case.
    indirect case element(ElementPath, Element)
    case transform(ElementPath, Transform)
    case center(ElementPath, SIMD3<Float>)
    /// A room's story (kind `.room`) or an element's.
    case story(ElementPath, Int?)
    indirect case remove(ElementPath, Identity)
    indirect case insert(ElementPath, Identity)
    case name(file: Int, NameKey, String?)
    /// A Hyperbasis space's record (its JSON) in an open store.
    indirect case space(store: Int, index: Int, SpaceRecord)
    indirect case anchor(store: Int, index: Int, AnchorRecord)
    /// Which space a room was scanned in.
    case spaceLink(file: Int, Scope, String?)

    /// The open file or store it changes.
    public var file: Int {
        switch self {
        case .element(let path, _), .transform(let path, _), .center(let path, _), .story(let path, _),
             .remove(let path, _), .insert(let path, _):
            return path.file
        case .name(let file, _, _), .space(let file, _, _), .anchor(let file, _, _), .spaceLink(let file, _, _):
            return file
        }
    }
}

public struct StepState: Sendable {
    public var file: Int
    public var before: Int
    public var after: Int
}

/// One undoable step: the inverse changes, and the states of the files it touched.
public struct Step: Sendable {
    public var changes: [Change]
    public var states: [StepState]

    public init(changes: [Change], states: [StepState]) {
        self.changes = changes
        self.states = states
    }

    public var isEmpty: Bool { changes.isEmpty }
}
