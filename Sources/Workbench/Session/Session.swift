import StructureModel

/// A file that could not be opened.
public struct LoadError: Error, Sendable, Equatable {
    public var path: String
    public var message: String
    public var location: SourceLocation?
    public var lineText: String?
}

/// One undoable step and the command text that made it.
public struct HistoryEntry: Sendable {
    public var text: String
    public var step: Step
    /// Rooms this step put in place (`align`): while it is done, they count as placed for
    /// automatic alignment of other rooms.
    public var placed: [Identity] = []
}

/// The state of a wb session: what is open (the workspace) and the undo history.
/// A script run with `-f` or `source` is one step.
public struct Session: Sendable {
    public var workspace = Workspace()
    public private(set) var undoStack: [HistoryEntry] = []
    public private(set) var redoStack: [HistoryEntry] = []
    private var groupDepth = 0
    private var groupStart = 0
    private var groupText = ""
    /// How many times the documents changed: each edit, undo and redo counts one. A batch
    /// run reports it per file; it tells a command that changed something from one that
    /// did not.
    public private(set) var revision = 0
    /// How many times a file or store was saved back where it came from.
    public private(set) var saves = 0

    public init() {}

    public var files: [WorkspaceFile] { workspace.files }
    public var hasUnsavedChanges: Bool {
        workspace.files.contains { $0.isModified } || workspace.stores.contains { $0.isModified }
    }

    /// Names of what has unsaved changes, files and stores.
    public var modifiedNames: [String] {
        workspace.files.filter(\.isModified).map(\.name)
            + workspace.stores.filter(\.isModified).map { FileIO.baseName(of: $0.store.path) }
    }

    public func file(named name: String) -> WorkspaceFile? {
        workspace.files.first { $0.name == name }
    }

    // MARK: Opening

    /// Reads, decodes and adds a RoomPlan file, with its sidecar of names when there is one.
    /// Returns the file and any warnings about the sidecar.
    public mutating func open(path: String) throws(LoadError) -> (WorkspaceFile, [String]) {
        let (file, warnings) = try load(path: path)
        workspace.add(file)
        return (file, warnings)
    }

    /// Reads and decodes a file and its sidecar into a file value, not yet open.
    func load(path: String) throws(LoadError) -> (WorkspaceFile, [String]) {
        // The same file twice (another path to it, a link) would be two documents that one
        // save writes over each other: it is opened once.
        if let stamp = FileIO.stamp(of: path), let open = workspace.files.first(where: { $0.stamp?.isSameFile(as: stamp) == true }) {
            throw LoadError(path: path, message: "is already open as \(open.name) (\(open.path))", location: nil, lineText: nil)
        }
        // The stamp is taken before reading: a change made while wb reads makes the stamp
        // stale, so the next save refuses rather than overwriting that change.
        let stamp = FileIO.stamp(of: path)
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(path)
        } catch {
            throw LoadError(path: path, message: error.message, location: nil, lineText: nil)
        }
        let document: RoomPlanDocument
        do {
            document = try RoomPlanCodec.decode(bytes)
        } catch {
            throw LoadError(path: path, message: error.message, location: error.location, lineText: error.lineText)
        }
        var warnings: [String] = []
        var sidecar: Sidecar?
        var sidecarPath = Sidecar.path(for: path)
        // Taken before reading, as the file's stamp is.
        let sidecarStamp = FileIO.stamp(of: sidecarPath)
        // (A scan opened through a link whose names an older wb wrote beside the link.)
        if FileIO.stamp(of: sidecarPath) == nil, Sidecar.besideName(path) != sidecarPath, FileIO.stamp(of: Sidecar.besideName(path)) != nil {
            sidecarPath = Sidecar.besideName(path)
        }
        let digest = ContentDigest(bytes)
        if FileIO.stamp(of: sidecarPath) != nil {
            do {
                let decoded = try Sidecar.decodeVersioned(try FileIO.read(sidecarPath))
                if let other = Sidecar.otherScan(named: decoded.fileName, at: sidecarPath, than: path) {
                    // Another scan's names (whose names file this is too) are not this one's.
                    warnings.append("\(sidecarPath) holds the names of \(FileIO.baseName(of: other)), whose names file it is too "
                                    + "(NAME.wb.json goes with NAME and NAME.json): they were not read for \(FileIO.baseName(of: path)) "
                                    + "(rename one of the two scans to keep names for both)")
                } else {
                    let (names, fit) = decoded.sidecar.resolved(for: digest)
                    sidecar = names
                    if let version = decoded.version, version > Sidecar.newestVersion {
                        warnings.append("\(sidecarPath) was written by a newer wb (version \(version); this one writes \(Sidecar.newestVersion)): "
                                        + "what this wb knows of it was read; a save keeps a copy of it beside the new one")
                    }
                    switch fit {
                    case .matches, .undated:
                        break
                    case .interruptedSave:
                        warnings.append("\(sidecarPath) is from a save of \(FileIO.baseName(of: path)) that was interrupted before the "
                                        + "file itself was replaced; the names that go with the file as it is were used")
                    case .otherVersion:
                        warnings.append("\(sidecarPath) was written for another version of \(FileIO.baseName(of: path)) (changed since "
                                        + "by another program?); its names were matched to rooms by their walls")
                    }
                }
            } catch let error as RoomPlanDecodeError {
                warnings.append("\(sidecarPath):\(error.location.line):\(error.location.column): \(error.message); "
                                + "its names were not read (a save that writes names keeps a copy of it)")
            } catch let error as FileError {
                warnings.append("\(sidecarPath): \(error.message); its names were not read")
            } catch {
                warnings.append("\(sidecarPath): \(error); its names were not read (a save that writes names keeps a copy of it)")
            }
        }
        var file = workspace.makeFile(path: path, document: document, stamp: stamp,
                                      diagnostics: RoomPlanDiagnostics.check(document), sidecar: sidecar)
        file.contentDigest = digest
        file.sidecarStamp = sidecarStamp
        return (file, warnings)
    }

    /// Opens a file as an undoable step (`undo` closes it again).
    public mutating func open(path: String, text: String) throws(LoadError) -> (WorkspaceFile, [String]) {
        let (file, warnings) = try load(path: path)
        perform(EditPlan(changes: [.openFile(file, at: workspace.files.count)]), text: text)
        return (file, warnings)
    }

    /// Opens a store as an undoable step.
    public mutating func open(store: HyperbasisStore, text: String) -> StoreEntry {
        let entry = workspace.makeStore(store)
        perform(EditPlan(changes: [.openStore(entry, at: workspace.stores.count)]), text: text)
        return entry
    }

    /// Forgets a store, as an undoable step: `undo` opens it again, with its edits.
    public mutating func closeStore(id: Int, text: String) -> StoreEntry? {
        guard let entry = workspace.stores.first(where: { $0.id == id }) else { return nil }
        perform(EditPlan(changes: [.closeStore(id)]), text: text)
        return entry
    }

    /// Forgets a file, as an undoable step: `undo` opens it again, with its edits.
    public mutating func close(id: Int, text: String) -> WorkspaceFile? {
        guard let file = workspace.file(id: id) else { return nil }
        perform(EditPlan(changes: [.closeFile(id)]), text: text)
        return file
    }

    public mutating func markSaved(id: Int, stamp: FileStamp?, digest: ContentDigest? = nil) {
        // The names file as the save left it (written with the file, or not touched).
        let names = workspace.file(id: id).flatMap { FileIO.stamp(of: Sidecar.path(for: $0.path)) }
        workspace.markSaved(id: id, stamp: stamp, digest: digest, sidecarStamp: names)
        saves += 1
    }

    /// Notes a store saved (the workspace has marked it).
    public mutating func countStoreSave() {
        saves += 1
    }

    // MARK: Editing and history

    /// Applies an edit as one undoable step. Inside a script, steps are folded into one
    /// when the script ends (and until then `undo` inside the script takes back its own
    /// last command).
    public mutating func perform(_ plan: EditPlan, text: String, placing placed: [Identity] = []) {
        guard !plan.changes.isEmpty else { return }
        let step = workspace.perform(plan.changes)
        revision += 1
        redoStack.removeAll()
        undoStack.append(HistoryEntry(text: text, step: step, placed: placed))
    }

    /// Rooms `align --all auto` found already in place (they met the placed rooms where they
    /// were): placed ever since, as no step moved them that undo could take back.
    public private(set) var keptInPlace: [Identity] = []

    public mutating func keepInPlace(_ rooms: [Identity]) {
        for room in rooms where !keptInPlace.contains(room) { keptInPlace.append(room) }
    }

    /// The rooms that stay where they are for automatic alignment: the open structures' rooms
    /// (else the first file's), rooms found already in place, and rooms aligned by steps that
    /// are done (not undone).
    public var placedRooms: [Identity] {
        var result: [Identity] = []
        var seen = Set<Identity>()
        func add(_ room: Identity) { if workspace.exists(room), seen.insert(room).inserted { result.append(room) } }
        // The rooms of open structures stay where they are; only when none is open does the
        // first file (a structure open with room files of a second visit kept the first of
        // those in its own scan's frame, 4.5 m off, unsaid).
        // (A merge result's rooms are copies of open room files: it keeps the first one the anchor.
        // So does a structure of no rooms: with one open, align --all said "no room is open".)
        for file in workspace.files where file.isStructure { file.rooms.forEach(add) }
        if !workspace.files.contains(where: { $0.isStructure && !$0.madeByMerge && !$0.rooms.isEmpty }),
           let first = workspace.files.first(where: { !$0.rooms.isEmpty }) {
            first.rooms.forEach(add)
        }
        keptInPlace.forEach(add)
        for entry in undoStack { entry.placed.forEach(add) }
        return result
    }

    /// Starts a script: its edits become one step named `text`. Scripts nest.
    public mutating func beginGroup(text: String) {
        if groupDepth == 0 {
            groupText = text
            groupStart = undoStack.count
        }
        groupDepth += 1
    }

    public mutating func endGroup() {
        guard groupDepth > 0 else { return }
        groupDepth -= 1
        guard groupDepth == 0 else { return }
        let start = min(groupStart, undoStack.count)
        let steps = undoStack[start...]
        guard steps.count > 1 || (steps.count == 1 && steps.first?.text != groupText) else { return }
        let merged = Step.folding(steps.map(\.step))
        let placed = steps.flatMap(\.placed)
        undoStack.removeSubrange(start...)
        if !merged.isEmpty { undoStack.append(HistoryEntry(text: groupText, step: merged, placed: placed)) }
    }

    public mutating func undo() -> HistoryEntry? {
        guard var entry = undoStack.popLast() else { return nil }
        groupStart = min(groupStart, undoStack.count)
        workspace.revert(&entry.step, forward: false)
        revision += 1
        redoStack.append(entry)
        return entry
    }

    public mutating func redo() -> HistoryEntry? {
        guard var entry = redoStack.popLast() else { return nil }
        workspace.revert(&entry.step, forward: true)
        revision += 1
        undoStack.append(entry)
        return entry
    }
}
