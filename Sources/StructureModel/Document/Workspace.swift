/// One open file and what wb keeps beside it. Everything here is keyed by identity, not
/// by position: rooms by `RoomID`, elements by `Identity`, so inserting or removing a
/// room or an element never changes what a handle, a name or a link points at.
public struct WorkspaceFile: Sendable {
    /// A unique number within the workspace (files are never renumbered).
    public let id: Int
    /// A short name for prompts: the file name without `.json`, made unique.
    public var name: String
    public var path: String
    public internal(set) var document: RoomPlanDocument
    /// The file on disk when it was opened or last saved, to notice changes by others.
    public var stamp: FileStamp?
    /// The digest of the bytes on disk then, for the sidecar's `previous` (see `Sidecar`).
    public var contentDigest: ContentDigest?
    public var diagnostics: [Diagnostic]
    /// The rooms in document order: one for a room file, the nested rooms of a structure.
    public internal(set) var roomIDs: [RoomID] = []
    var roomPosition: [RoomID: Int] = [:]
    /// The keys of every capture's arrays, parallel to them.
    var keys: [Scope: CaptureKeys] = [:]
    /// Where each room lay when the file was opened (`CapturedRoom.placementMark`): a room
    /// still there lies in the frame its file gave it (see `Workspace.isAsOpened`).
    var openedPlacement: [RoomID: [Float]] = [:]
    /// Section keys are handed out from here, so none is given twice in a file.
    var nextSectionKey = 1
    /// Free-text names of rooms and sections; RoomPlan has no place for them, so they live
    /// in a sidecar file next to the RoomPlan file (see `Sidecar`).
    public internal(set) var names: [Identity: String] = [:]
    /// For each room, the Hyperbasis space (its id) it was scanned in: the same coordinate
    /// frame, so that space's anchors can be placed in the room. Kept in the sidecar too.
    public internal(set) var spaceLinks: [RoomID: String] = [:]
    /// USDZ models attached to objects (`set o3 model chair.usdz`), by the object's
    /// identifier (a room's object and its structure-level twin share one): absolute
    /// paths, kept in the sidecar relative to the file's folder.
    public internal(set) var models: [String: String] = [:]
    /// Whether a sidecar was read or must be written (names once given stay saved).
    public var hasSidecar = false
    /// The names file a save writes (`Sidecar.path(for:)`) as it was when the file was
    /// opened or last saved, nil when there was none: one edited by hand since is not
    /// written over without a word, as the RoomPlan file is not.
    public var sidecarStamp: FileStamp?
    /// Whether `merge` made this structure in this session: its rooms are copies of rooms
    /// still open, so a `merge` naming no rooms leaves them out.
    public internal(set) var madeByMerge = false
    /// The state the file is in; a new number after every change, the old one after undo.
    public internal(set) var state: Int = 0
    public internal(set) var savedState: Int = 0
    /// Elements taken out by `delete`, for `restore`.
    var graveyard: [Identity: Element] = [:]
    /// Each capture's keys as they were when opened, to restore in place (shared with
    /// `keys` until an insert or remove copies one array).
    var originalKeys: [Scope: CaptureKeys] = [:]
    /// For a structure: each room element's structure-level element (provenance).
    public internal(set) var links: [Identity: StructureLink] = [:]
    /// The other way round: the room elements a structure-level element stands for.
    public internal(set) var owners: [Identity: [Identity]] = [:]

    public var isModified: Bool { state != savedState }

    public var isStructure: Bool { document.isStructure }

    /// The rooms as identities, in document order.
    public var rooms: [Identity] { roomIDs.map { Identity.room($0, file: id) } }

    /// The capture a scope names, if this file has it.
    public func capture(_ scope: Scope) -> CapturedRoom? {
        switch scope {
        case .room(let room):
            guard let position = roomPosition[room] else { return nil }
            return document.capture(at: position)
        case .structure:
            return isStructure ? document.capture(at: nil) : nil
        }
    }

    /// Position of a capture in the document: a room's index, or nil for structure level.
    func slot(_ scope: Scope) -> Int?? {
        switch scope {
        case .room(let room): return roomPosition[room].map { .some($0) }
        case .structure: return isStructure ? .some(nil) : nil
        }
    }

    /// Where an element is now in its array, or nil when it is not there (deleted).
    public func position(of identity: Identity) -> Int? {
        keys[identity.scope]?.arrays[identity.kind]?.index(of: identity.key)
    }

    /// The keys of one array of a capture, in array order.
    public func keys(_ scope: Scope, _ kind: ElementKind) -> ArrayKeys {
        keys[scope]?[kind] ?? ArrayKeys()
    }

    /// Every identity in one capture's array, in array order.
    public func identities(_ scope: Scope, _ kind: ElementKind) -> [Identity] {
        keys(scope, kind).keys.map { Identity(file: id, scope: scope, kind: kind, key: $0) }
    }

    /// The scopes of this file: its rooms, then the structure level.
    public var scopes: [Scope] {
        roomIDs.map { Scope.room($0) } + (isStructure ? [.structure] : [])
    }

    /// A new file value for a document: keys for every capture, rooms numbered from
    /// `firstRoom` on. Ranks (for `restore`) are the positions at this moment.
    public static func make(id: Int, name: String, path: String, document: RoomPlanDocument, firstRoom: Int) -> WorkspaceFile {
        var file = WorkspaceFile(id: id, name: name, path: path, document: document, stamp: nil, diagnostics: [])
        for position in 0..<document.roomCount {
            let room = RoomID(firstRoom + position)
            file.roomIDs.append(room)
            file.roomPosition[room] = position
        }
        for scope in file.scopes {
            guard let capture = file.capture(scope) else { continue }
            let keys = CaptureKeys.make(for: capture, nextSection: &file.nextSectionKey)
            file.keys[scope] = keys
            file.originalKeys[scope] = keys
        }
        for room in file.roomIDs {
            if let mark = file.capture(.room(room))?.placementMark { file.openedPlacement[room] = mark }
        }
        return file
    }

    init(id: Int, name: String, path: String, document: RoomPlanDocument, stamp: FileStamp?, diagnostics: [Diagnostic]) {
        self.id = id
        self.name = name
        self.path = path
        self.document = document
        self.stamp = stamp
        self.diagnostics = diagnostics
    }
}

/// A structure-level element that a room element stands for, and how the two sat
/// relative to each other when they were linked. An edit that moves one and not the
/// other changes that relation, which is how wb knows the structure no longer agrees
/// with its rooms.
public struct StructureLink: Sendable, Hashable {
    public var element: Identity
    var relation: SIMD8<Float>
    var sameStory: Bool

    public init(element: Identity, relation: SIMD8<Float>, sameStory: Bool) {
        self.element = element
        self.relation = relation
        self.sameStory = sameStory
    }
}

/// Everything open in a wb session: files, their handles, their names. Edits go through
/// `perform`, which records the inverse of every change (`Change`), so undo costs memory
/// in proportion to what an edit changed, never a copy of the document.
public struct Workspace: Sendable {
    public private(set) var files: [WorkspaceFile] = []
    private var fileIndexByID: [Int: Int] = [:]
    public private(set) var handles = HandleTable()
    /// Hyperbasis stores (and single HBSpace files), with what is on disk for each.
    public private(set) var stores: [StoreEntry] = []
    /// The next file (or store) number and room number; never reused.
    public private(set) var nextFileID = 1
    public private(set) var nextRoomID = 1
    private var nextState = 1
    /// Short names in use and, per base name, the next counter to try.
    private var usedNames: Set<String> = []
    private var nameCounters: [String: Int] = [:]

    public init() {}

    public func storeIndex(id: Int) -> Int? {
        stores.firstIndex { $0.id == id }
    }

    /// A store value for `store`, numbered as the next file; not yet open (see `Change.openStore`).
    public func makeStore(_ store: HyperbasisStore) -> StoreEntry {
        StoreEntry(id: nextFileID, store: store, onDisk: store)
    }

    @discardableResult
    public mutating func addStore(_ store: HyperbasisStore) -> StoreEntry {
        let entry = makeStore(store)
        var change = Change.openStore(entry, at: stores.count)
        apply(&change)
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
        fileIndexByID[id]
    }

    public func file(id: Int) -> WorkspaceFile? {
        fileIndex(id: id).map { files[$0] }
    }

    /// The capture an identity's scope names.
    public func capture(_ identity: Identity) -> CapturedRoom? {
        file(id: identity.file)?.capture(identity.scope)
    }

    /// Whether a room lies where it lay when its file was opened (undone moves count as not
    /// moved): only then is it in the frame its file gave it.
    public func isAsOpened(_ room: Identity) -> Bool {
        guard case .room(let key) = room.scope, let file = file(id: room.file), let mark = file.openedPlacement[key] else { return false }
        return file.capture(room.scope)?.placementMark == mark
    }

    // MARK: Opening and closing

    /// A short name for a path: its file name without `.json`, with `-2`, `-3` after it when
    /// another open file has it. Counters per base name keep this constant time.
    public func shortName(for path: String) -> String {
        let base = Self.baseName(path)
        guard usedNames.contains(base) else { return base }
        var counter = nameCounters[base] ?? 2
        while usedNames.contains("\(base)-\(counter)") { counter += 1 }
        return "\(base)-\(counter)"
    }

    private static func baseName(_ path: String) -> String {
        var base = FileIO.baseName(of: path)
        if base.hasSuffix(".json") { base.removeLast(5) }
        return base
    }

    /// Records a short name as taken, and where to count on from for its base name.
    private mutating func take(name: String, path: String) {
        usedNames.insert(name)
        let base = Self.baseName(path)
        if name.hasPrefix(base + "-"), let number = Int(name.dropFirst(base.count + 1)) {
            nameCounters[base] = max(nameCounters[base] ?? 2, number + 1)
        }
    }

    /// A file value for a document, numbered as the next file with rooms numbered as the
    /// next rooms; links a structure's rooms to its structure-level elements and reads the
    /// names in `sidecar`. Nothing is open until a `Change.openFile` of it is applied.
    public func makeFile(path: String, document: RoomPlanDocument, stamp: FileStamp?,
                         diagnostics: [Diagnostic], sidecar: Sidecar? = nil) -> WorkspaceFile {
        var file = WorkspaceFile.make(id: nextFileID, name: shortName(for: path), path: path, document: document,
                                      firstRoom: nextRoomID)
        file.stamp = stamp
        file.diagnostics = diagnostics
        if document.isStructure {
            let found = StructureTwins.find(file)
            for (own, link) in sidecar?.links(for: file, found: found) ?? found {
                file.links[own] = link
                file.owners[link.element, default: []].append(own)
            }
        }
        if let sidecar {
            file.names = sidecar.names(for: file)
            file.spaceLinks = sidecar.spaceLinks(for: file)
            file.models = sidecar.models(relativeTo: FileIO.parentFolder(of: Sidecar.path(for: path)))
            file.hasSidecar = true
        }
        return file
    }

    /// Opens a decoded file (not as an undoable step: what is opened at the start is where
    /// history begins).
    @discardableResult
    public mutating func add(path: String, document: RoomPlanDocument, stamp: FileStamp?,
                             diagnostics: [Diagnostic], sidecar: Sidecar? = nil) -> WorkspaceFile {
        let file = makeFile(path: path, document: document, stamp: stamp, diagnostics: diagnostics, sidecar: sidecar)
        add(file)
        return file
    }

    /// Opens a file value made by `makeFile` (not as an undoable step).
    public mutating func add(_ file: WorkspaceFile) {
        var change = Change.openFile(file, at: files.count)
        apply(&change)
    }

    public mutating func markSaved(id: Int, stamp: FileStamp?, digest: ContentDigest? = nil, sidecarStamp: FileStamp? = nil) {
        guard let index = fileIndex(id: id) else { return }
        files[index].savedState = files[index].state
        files[index].stamp = stamp
        files[index].sidecarStamp = sidecarStamp
        files[index].contentDigest = digest
        if !files[index].names.isEmpty || !files[index].spaceLinks.isEmpty || !files[index].models.isEmpty {
            files[index].hasSidecar = true
        }
    }

    /// Positions of the files from `start` on (those before did not move). Reads only
    /// each file's id: copying a file value would retain all its storage.
    private mutating func reindexFiles(from start: Int) {
        for index in start..<files.count { fileIndexByID[files[index].id] = index }
    }

    // MARK: Finding elements

    /// Where an element is now in its array, or nil when it is deleted or gone.
    public func position(of identity: Identity) -> Int? {
        file(id: identity.file)?.position(of: identity)
    }

    /// The element itself, or nil when it is not there now.
    public func element(_ identity: Identity) -> Element? {
        guard let file = file(id: identity.file), let index = file.position(of: identity),
              let capture = file.capture(identity.scope) else { return nil }
        return capture.element(identity.kind, at: index)
    }

    /// Whether a room, or an element, is in the workspace now.
    public func exists(_ identity: Identity) -> Bool {
        guard let file = file(id: identity.file) else { return false }
        if identity.kind == .room { return file.capture(identity.scope) != nil }
        return file.position(of: identity) != nil
    }

    public func isDeleted(_ identity: Identity) -> Bool {
        file(id: identity.file)?.graveyard[identity] != nil
    }

    /// The structure-level element a room element stands for.
    public func link(of identity: Identity) -> StructureLink? {
        file(id: identity.file)?.links[identity]
    }

    /// The room elements a structure-level element stands for.
    public func owners(of identity: Identity) -> [Identity] {
        file(id: identity.file)?.owners[identity] ?? []
    }

    /// The structure-level element of a room element when no other room shares it.
    public func twin(of identity: Identity) -> Identity? {
        guard let link = link(of: identity) else { return nil }
        return owners(of: link.element).allSatisfy({ $0.scope == identity.scope }) ? link.element : nil
    }

    // MARK: Changing

    /// Applies a change and turns it into its own inverse (applying the result undoes it).
    mutating func apply(_ change: inout Change) {
        switch change {
        case .openFile(let file, let at):
            let position = min(at, files.count)
            files.insert(file, at: position)
            reindexFiles(from: position)
            take(name: file.name, path: file.path)
            nextFileID = max(nextFileID, file.id + 1)
            nextRoomID = max(nextRoomID, (file.roomIDs.map(\.value).max() ?? 0) + 1)
            handles.assign(file)
            change = .closeFile(file.id)
            return
        case .closeFile(let id):
            guard let index = fileIndex(id: id) else { return }
            let file = files.remove(at: index)
            fileIndexByID[id] = nil
            reindexFiles(from: index)
            usedNames.remove(file.name)
            change = .openFile(file, at: index)
            return
        case .openStore(let entry, let at):
            stores.insert(entry, at: min(at, stores.count))
            nextFileID = max(nextFileID, entry.id + 1)
            handles.assign(entry)
            change = .closeStore(entry.id)
            return
        case .closeStore(let id):
            guard let index = storeIndex(id: id) else { return }
            change = .openStore(stores.remove(at: index), at: index)
            return
        case .space(let store, let index, var record):
            guard let s = storeIndex(id: store) else { return }
            swap(&stores[s].store.spaces[index], &record)
            change = .space(store: store, index: index, record)
            return
        case .anchor(let store, let index, var record):
            guard let s = storeIndex(id: store) else { return }
            swap(&stores[s].store.anchors[index], &record)
            change = .anchor(store: store, index: index, record)
            return
        default:
            break
        }
        guard let f = fileIndex(id: change.file) else { return }
        switch change {
        case .element(let identity, var element):
            guard let (slot, index) = locate(identity, in: f) else { return }
            files[f].document.withCapture(at: slot) { room in
                let old = room.element(identity.kind, at: index)!
                room.replace(identity.kind, at: index, with: element)
                element = old
            }
            change = .element(identity, element)
        case .transform(let identity, var transform) where identity.kind == .room:
            // A room's own: where its frame lies in its scan session (`referenceOriginTransform`).
            guard let slot = files[f].slot(identity.scope) else { return }
            files[f].document.withCapture(at: slot) { room in
                guard let old = room.referenceOriginTransform else { return }
                room.referenceOriginTransform = transform
                transform = old
            }
            change = .transform(identity, transform)
        case .transform(let identity, var transform):
            guard let (slot, index) = locate(identity, in: f) else { return }
            files[f].document.withCapture(at: slot) { room in
                switch identity.kind {
                case .object: swap(&room.objects[index].transform, &transform)
                default: room.withSurfaces(identity.kind.surfaceArray!) { swap(&$0[index].transform, &transform) }
                }
            }
            change = .transform(identity, transform)
        case .center(let identity, var center):
            guard let (slot, index) = locate(identity, in: f) else { return }
            files[f].document.withCapture(at: slot) { swap(&$0.sections[index].center, &center) }
            change = .center(identity, center)
        case .story(let identity, var story):
            if identity.kind == .room {
                guard let slot = files[f].slot(identity.scope) else { return }
                files[f].document.withCapture(at: slot) { swap(&$0.story, &story) }
            } else {
                guard let (slot, index) = locate(identity, in: f) else { return }
                files[f].document.withCapture(at: slot) { room in
                    switch identity.kind {
                    case .section: swap(&room.sections[index].story, &story)
                    case .object: swap(&room.objects[index].story, &story)
                    default: room.withSurfaces(identity.kind.surfaceArray!) { swap(&$0[index].story, &story) }
                    }
                }
            }
            change = .story(identity, story)
        case .insert(let identity, let element, let at):
            guard let slot = files[f].slot(identity.scope) else { return }
            files[f].document.withCapture(at: slot) { $0.insert(identity.kind, element, at: at) }
            files[f].keys[identity.scope, default: CaptureKeys()][identity.kind].insert(identity.key, at: at)
            handles.give(identity)
            change = .remove(identity)
        case .remove(let identity):
            guard let (slot, index) = locate(identity, in: f) else { return }
            let element = files[f].document.withCapture(at: slot) { $0.remove(identity.kind, at: index) }
            files[f].keys[identity.scope]?[identity.kind].remove(at: index)
            change = .insert(identity, element, at: index)
        case .bury(let identity, var element):
            swap(&files[f].graveyard[identity], &element)
            change = .bury(identity, element)
        case .replaceArray(let file, let scope, let kind, var elements, var keys):
            guard let slot = files[f].slot(scope) else { return }
            files[f].document.withCapture(at: slot) { $0.swapArray(kind, &elements) }
            var current = ArrayKeys(keys)
            swap(&files[f].keys[scope, default: CaptureKeys()].arrays[kind, default: ArrayKeys()], &current)
            keys = current.keys
            for key in files[f].keys[scope]![kind].keys {
                handles.give(Identity(file: file, scope: scope, kind: kind, key: key))
                // wb's section keys are "S" and a number: never hand one out twice.
                if kind == .section, let number = Int(key.dropFirst()) { files[f].nextSectionKey = max(files[f].nextSectionKey, number + 1) }
            }
            change = .replaceArray(file: file, scope, kind, elements, keys: keys)
        case .insertRoom(let file, let record, let at):
            let position = min(at, files[f].roomIDs.count)
            files[f].document.withRooms { $0.insert(record.room, at: position) }
            files[f].roomIDs.insert(record.id, at: position)
            for index in position..<files[f].roomIDs.count { files[f].roomPosition[files[f].roomIDs[index]] = index }
            files[f].keys[.room(record.id)] = record.keys
            nextRoomID = max(nextRoomID, record.id.value + 1)
            handles.assign(files[f], scope: .room(record.id))
            change = .removeRoom(file: file, record.id)
        case .removeRoom(let file, let room):
            guard let position = files[f].roomPosition[room],
                  let removed = files[f].document.withRooms({ $0.remove(at: position) }) else { return }
            files[f].roomIDs.remove(at: position)
            files[f].roomPosition[room] = nil
            for index in position..<files[f].roomIDs.count { files[f].roomPosition[files[f].roomIDs[index]] = index }
            let keys = files[f].keys.removeValue(forKey: .room(room)) ?? CaptureKeys()
            change = .insertRoom(file: file, RoomRecord(id: room, room: removed, keys: keys), at: position)
        case .name(let identity, var name):
            swap(&files[f].names[identity], &name)
            change = .name(identity, name)
        case .spaceLink(let room, var space):
            guard let id = room.scope.roomID else { return }
            swap(&files[f].spaceLinks[id], &space)
            change = .spaceLink(room, space)
        case .model(let file, let object, var path):
            swap(&files[f].models[object], &path)
            change = .model(file: file, object: object, path)
        case .link(let identity, var link):
            if let old = files[f].links[identity] {
                files[f].owners[old.element]?.removeAll { $0 == identity }
                if files[f].owners[old.element]?.isEmpty == true { files[f].owners[old.element] = nil }
            }
            if let new = link { files[f].owners[new.element, default: []].append(identity) }
            swap(&files[f].links[identity], &link)
            change = .link(identity, link)
        case .openFile, .closeFile, .openStore, .closeStore, .space, .anchor:
            break
        }
    }

    /// The capture position and array index of an element that is there now.
    private func locate(_ identity: Identity, in f: Int) -> (Int?, Int)? {
        guard let slot = files[f].slot(identity.scope), let index = files[f].position(of: identity) else { return nil }
        return (slot, index)
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
    public func restorePosition(of identity: Identity) -> Int? {
        guard let file = file(id: identity.file), file.graveyard[identity] != nil,
              let keys = file.keys[identity.scope]?[identity.kind] else { return nil }
        let ranks = file.originalKeys[identity.scope]?[identity.kind] ?? ArrayKeys()
        let own = ranks.index(of: identity.key) ?? Int.max
        var index = 0
        for (position, key) in keys.keys.enumerated() where (ranks.index(of: key) ?? Int.max) < own {
            index = position + 1
        }
        return index
    }

    /// The graveyard's copy of a deleted element.
    public func buried(_ identity: Identity) -> Element? {
        file(id: identity.file)?.graveyard[identity]
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

/// A nested room of a structure taken out or put in, with the keys of its elements, so
/// that putting it back gives every element the identity (and handle) it had.
public struct RoomRecord: Sendable {
    public var id: RoomID
    public var room: CapturedRoom
    public var keys: CaptureKeys

    public init(id: RoomID, room: CapturedRoom, keys: CaptureKeys) {
        self.id = id
        self.room = room
        self.keys = keys
    }
}

/// One primitive change. Each case holds what to put in; applying a change puts it in and
/// turns the change into its inverse, so an applied step undoes itself when applied again.
public enum Change: Sendable {
    // Boxed: a whole surface or object is several times larger than the transform most
    // changes carry, and an enum is as large as its largest case.
    indirect case element(Identity, Element)
    case transform(Identity, Transform)
    case center(Identity, SIMD3<Float>)
    /// A room's story (kind `.room`) or an element's.
    case story(Identity, Int?)
    /// A new (or returning) element at a position in its array.
    indirect case insert(Identity, Element, at: Int)
    case remove(Identity)
    /// What `restore` can bring back: an element deleted from its array, or nil.
    indirect case bury(Identity, Element?)
    /// A whole array of a capture, with its keys (a merge rebuilds structure-level arrays).
    indirect case replaceArray(file: Int, Scope, ElementKind, [Element], keys: [String])
    /// A nested room added to, or taken out of, a structure.
    indirect case insertRoom(file: Int, RoomRecord, at: Int)
    case removeRoom(file: Int, RoomID)
    /// A document opened or created (a merge result), or closed.
    indirect case openFile(WorkspaceFile, at: Int)
    case closeFile(Int)
    indirect case openStore(StoreEntry, at: Int)
    case closeStore(Int)
    /// The free-text name of a room or section.
    indirect case name(Identity, String?)
    /// Which space a room was scanned in.
    indirect case spaceLink(Identity, String?)
    /// The model attached to an object (by its identifier), or nil.
    indirect case model(file: Int, object: String, String?)
    /// Which structure-level element a room element stands for.
    indirect case link(Identity, StructureLink?)
    /// A Hyperbasis space's record (its JSON) in an open store.
    indirect case space(store: Int, index: Int, SpaceRecord)
    indirect case anchor(store: Int, index: Int, AnchorRecord)

    /// The open file or store it changes.
    public var file: Int {
        switch self {
        case .element(let identity, _), .transform(let identity, _), .center(let identity, _), .story(let identity, _),
             .insert(let identity, _, _), .remove(let identity), .bury(let identity, _), .name(let identity, _),
             .spaceLink(let identity, _), .link(let identity, _):
            return identity.file
        case .replaceArray(let file, _, _, _, _), .insertRoom(let file, _, _), .removeRoom(let file, _),
             .space(let file, _, _), .anchor(let file, _, _), .closeFile(let file), .closeStore(let file),
             .model(let file, _, _):
            return file
        case .openFile(let file, _):
            return file.id
        case .openStore(let entry, _):
            return entry.id
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

    /// Steps done one after another, as one step: undo runs the last one's inverses first.
    /// Linear in the number of changes, however many steps there are.
    public static func folding(_ steps: some BidirectionalCollection<Step>) -> Step {
        var changes: [Change] = []
        changes.reserveCapacity(steps.reduce(0) { $0 + $1.changes.count })
        for step in steps.reversed() { changes.append(contentsOf: step.changes) }
        var states: [StepState] = []
        var position: [Int: Int] = [:]
        for step in steps {
            for state in step.states {
                if let index = position[state.file] {
                    states[index].after = state.after
                } else {
                    position[state.file] = states.count
                    states.append(state)
                }
            }
        }
        return Step(changes: changes, states: states)
    }
}
