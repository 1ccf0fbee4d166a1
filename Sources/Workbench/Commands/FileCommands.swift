import StructureModel

extension Shell {
    /// Opens a RoomPlan file into the session and prints its summary (unless `-q`).
    /// Returns false, having reported why, when it could not be opened.
    @discardableResult
    public func openFile(_ path: String) -> Bool {
        do {
            try open(path: path, step: nil)
            return true
        } catch let error as LoadError {
            reportLoadError(error)
        } catch {
            output.writeError("wb: \(path): error: \(error)\n")
        }
        return false
    }

    /// Opens a file or store; with `step` (the command's text) as an undoable step, else
    /// as part of where the session starts.
    func open(path: String, step: String?) throws {
        if FileIO.isDirectory(path) {
            try openStore(path, step: step)
            return
        }
        // A names file that holds no names reads as a structure of no rooms: it is not one.
        if path.hasSuffix(".wb.json"), let bytes = try? FileIO.read(path), (try? Sidecar.decodeVersioned(bytes)) != nil,
           (try? RoomPlanCodec.decode(bytes)).map({ $0.elementIdentifiers.isEmpty }) != false {
            let scan = String(path.dropLast(".wb.json".count)) + ".json"
            throw LoadError(path: path, message: "it is a names file, which goes with \(FileIO.baseName(of: scan)) (open that instead)",
                            location: nil, lineText: nil)
        }
        let result = Result { () throws(LoadError) in
            if let step { return try session.open(path: path, text: step) }
            return try session.open(path: path)
        }
        if case .failure(let error) = result, error.message.hasPrefix("not a RoomPlan room or structure") {
            // JSON of another shape: an HBSpace file carries its world map as worldMapData.
            let space: HyperbasisStore?
            try refuseStoreOpenTwice(path)
            do {
                space = try HyperbasisStore.loadSpaceFile(path)
            } catch {
                throw LoadError(path: path, message: error.message, location: nil, lineText: nil)
            }
            if let space {
                addStore(space, step: step)
                return
            }
        }
        let (file, warnings) = try result.get()
        for diagnostic in file.diagnostics {
            warn("\(file.path): \(diagnostic)")
        }
        for warning in warnings { warn(warning) }
        // The summary is informational: -q silences it in both forms.
        if !options.quiet {
            let summary = FileSummary(file, handles: session.workspace.handles)
            if step == nil && startupSummariesAside {
                if !options.json { output.writeError(summary.text) }
            } else {
                output.write(options.json ? renderJSON(summary.json) : summary.text)
            }
        }
    }

    /// The one file a command without a file argument applies to.
    /// With several open, the error asks for `naming`: the command as it names one.
    func soleFile(naming: String, at word: Argument) throws -> WorkspaceFile {
        switch session.files.count {
        case 0:
            if let store = session.workspace.stores.first {
                throw CommandFailure("no RoomPlan file is open (\(FileIO.baseName(of: store.store.path)) is a Hyperbasis store: "
                                     + "save writes it back where it is, and export space SPACE FILE writes one of its spaces)", at: word)
            }
            throw CommandFailure("nothing is open (open a file first with 'open PATH')", at: word)
        case 1: return session.files[0]
        default:
            throw CommandFailure("\(session.files.count) files are open (\(session.files.map(\.name).joined(separator: ", "))); "
                                 + "name the one to write: \(naming)", at: word)
        }
    }

    func fileArgument(_ argument: Argument) throws -> WorkspaceFile {
        if let file = session.file(named: argument.text) { return file }
        if let file = session.files.first(where: { $0.path == argument.text }) { return file }
        let names = session.files.map(\.name)
        // (A store open is something open: "nothing is open" was said with one.)
        let stores = session.workspace.stores.map { FileIO.baseName(of: $0.store.path) }
        let hint = nearest(argument.text, among: names).map { " (did you mean '\($0)'?)" }
            ?? (names.isEmpty ? (stores.isEmpty ? " (nothing is open)" : " (no RoomPlan file is open; \(stores.joined(separator: ", ")) "
                                                  + (stores.count == 1 ? "is a Hyperbasis store)" : "are Hyperbasis stores)"))
                : " (open: \(names.joined(separator: ", ")))")
        throw CommandFailure("no open file is called '\(argument.text)'\(hint)", at: argument)
    }

    /// What a save wrote: the RoomPlan file's size, and its stamp and digest as written.
    struct Written {
        var count: Int
        var stamp: FileStamp?
        var digest: ContentDigest
        /// The RoomPlan file was left as it was on disk: its content had not changed.
        var kept = false

        /// "wrote flat.json (1234 bytes)", or what a save that kept the file did.
        func report(_ path: String, sidecar: Bool) -> String {
            guard kept else { return "wrote \(path.escapingControls) (\(count) bytes)" }
            return "kept \(path) as it was (its content is unchanged)"
                + (sidecar ? "; wrote its names to \(Sidecar.path(for: path))" : "")
        }
    }

    /// What `save` and `export structure` say of a file they write as it is: structure-level
    /// elements that no longer agree with their rooms, elements whose parent is not there
    /// (`export structure` wrote such a structure without a word, where `save` warned).
    func warnAboutWriting(_ file: WorkspaceFile) {
        warnIfBehindItsRooms(file)
        let disagreeing = session.workspace.structureDisagreements(file: file.id)
        if !disagreeing.isEmpty {
            let handles = disagreeing.compactMap { session.workspace.handles.handle(for: $0) }
            let listed = handles.prefix(8).joined(separator: ", ") + (handles.count > 8 ? ", …" : "")
            warn("\(file.name): \(disagreeing.count) structure-level element\(disagreeing.count == 1 ? "" : "s") no longer "
                 + "agree\(disagreeing.count == 1 ? "s" : "") with the rooms \(disagreeing.count == 1 ? "it stands" : "they stand") for "
                 + "(\(listed)); merge rebuilds them (merge --rebuild once the file is opened again). Written as it is.")
        }
        let dangling = session.workspace.danglingParents(file: file.id)
        if !dangling.isEmpty {
            let handles = dangling.compactMap { session.workspace.handles.handle(for: $0) }
            let listed = handles.prefix(8).joined(separator: ", ") + (handles.count > 8 ? ", …" : "")
            warn("\(file.name): \(dangling.count) element\(dangling.count == 1 ? "" : "s") point\(dangling.count == 1 ? "s" : "") at a parent "
                 + "that is not there (\(listed)); written as \(dangling.count == 1 ? "it is" : "they are"), "
                 + "the file will open with a warning for each.")
        }
    }

    /// A merge result written (saved, exported) after the files it was merged from were edited
    /// is without those edits: a room moved or named after `merge --into m` was exported in m
    /// where it had been, unsaid. Undone edits are no edits.
    func warnIfBehindItsRooms(_ file: WorkspaceFile) {
        guard let sources = mergedFrom[file.id] else { return }
        let edited = sources.keys.sorted().compactMap { id in session.workspace.file(id: id).flatMap { $0.state != sources[id] ? $0.name : nil } }
        guard !edited.isEmpty else { return }
        warn("\(file.name) was merged before the latest edits of \(edited.joined(separator: ", ")), and is written without them "
             + "(merge again to carry them into a new structure)")
    }

    /// Writes `file`'s document to `path`, and its names to the sidecar next to it, as one
    /// save (`FileIO.commit`): both temporary files are written and flushed first, so a
    /// sidecar that cannot be written (a folder in its place, a full disk) leaves the
    /// RoomPlan file untouched; then, under the folder's lock, `checkUnchanged` runs and the
    /// sidecar is renamed into place before the RoomPlan file. The sidecar carries the
    /// digest of the file it goes with and the names of the file it replaces, so a crash
    /// between the two renames is found, and undone, when the file is next opened.
    /// Honours `--dry-run` (then nothing is written and the stamp is nil).
    func write(_ file: WorkspaceFile, to path: String, at word: Argument, checkUnchanged: Bool = false) throws -> Written {
        warnAboutWriting(file)
        let size = file.stamp?.size ?? 0
        let bytes: [UInt8]
        do {
            bytes = try RoomPlanCodec.encodeChecked(file.document, capacityHint: max(1 << 16, size + size / 8))
        } catch {
            throw CommandFailure("cannot save \(path): \(file.name) cannot be written so that it reads back the same "
                                 + "(\(error)); nothing was written", at: word)
        }
        var digest = ContentDigest(bytes)
        // Saved with its content unchanged (a name, a space link or a model changed, which go
        // in the sidecar), back where it was read or to another path: the bytes it was read
        // from, in whatever layout its writer gave them, rather than respelled in Apple's (an
        // app's compact file saved elsewhere unedited came out pretty-printed, 5 % larger).
        var kept: [UInt8]?
        var copied: [UInt8]?
        if let read = file.contentDigest, read != digest, let stamp = file.stamp,
           FileIO.stamp(of: file.path) == stamp, let disk = try? FileIO.read(file.path), ContentDigest(disk) == read,
           let decoded = try? RoomPlanCodec.decode(disk), decoded == file.document {
            if FileIO.sameFile(path, file.path) { kept = disk } else { copied = disk }
            digest = read
        }
        let sidecarPath = Sidecar.path(for: path)
        var sidecar = Sidecar(file: file, folder: FileIO.parentFolder(of: Sidecar.path(for: path)))
        let writesSidecar = writesSidecar(file, to: path, sidecar: sidecar)
        if options.dryRun {
            // What the real save would refuse, refused here too (a script checked dry then failed).
            try claimWrites([path] + (writesSidecar ? [sidecarPath] : []), at: word)
            do {
                try FileIO.preflight(path)
                if writesSidecar { try FileIO.preflight(sidecarPath) }
            } catch {
                throw CommandFailure("cannot save \(path): \(error.path == path ? "" : "\(error.path): ")\(error.message)", at: word)
            }
            warnHardLinks(hardLinks([path] + (writesSidecar ? [sidecarPath] : [])), wouldBe: true)
            inform("would write \(path.escapingControls) (\(bytes.count) bytes; --dry-run)")
            if writesSidecar { inform("would write \(sidecarPath.escapingControls) (\(file.names.count) names; --dry-run)") }
            return Written(count: bytes.count, stamp: nil, digest: digest)
        }
        var writes: [FileWrite] = []
        var keptAside: String?
        if writesSidecar {
            // A names file this wb cannot read (a hand edit gone wrong) or that a newer wb wrote
            // (keys this one does not know) is not lost to the new one: a copy is kept beside it.
            if let (aside, old) = sidecarToKeep(sidecarPath) {
                writes.append(FileWrite(path: aside, bytes: old))
                keptAside = aside
            }
            sidecar.contents = digest
            sidecar.previous = namesOnDisk(for: path, known: path == file.path ? file.contentDigest : nil)
            writes.append(FileWrite(path: sidecarPath, bytes: sidecar.encoded(fileName: FileIO.baseName(of: path))))
        }
        if let kept, writes.isEmpty {
            return Written(count: kept.count, stamp: file.stamp, digest: digest, kept: true)
        }
        if kept == nil { writes.append(FileWrite(path: path, bytes: copied ?? bytes)) }
        try claimWrites(writes.map(\.path), at: word)
        let linked = hardLinks(writes.map(\.path))
        let stamps: [FileStamp?]
        do {
            stamps = try FileIO.commit(writes, faults: options.faults, flushes: !options.defersFlush) { () throws(FileError) in
                if checkUnchanged, let problem = self.changeOnDisk(file) { throw FileError(path: file.path, message: problem) }
            }
            filesWritten += writes.count
        } catch {
            // The names file goes beside the scan: a folder missing or refused for both is the
            // scan's problem, said without the names file's path.
            let beside = FileIO.parentFolder(of: error.path) == FileIO.parentFolder(of: path) && error.message.hasPrefix("the folder ")
            let which = error.path == path || error.path == file.path || beside ? "" : "\(error.path): "
            throw CommandFailure("cannot save \(path): \(which)\(error.message)", at: word)
        }
        warnHardLinks(linked)
        if let keptAside { warn("\(sidecarPath) was one this wb cannot read in full: a copy of it was kept as \(keptAside)") }
        if let kept { return Written(count: kept.count, stamp: file.stamp, digest: digest, kept: true) }
        return Written(count: (copied ?? bytes).count, stamp: stamps.last ?? nil, digest: digest)
    }

    /// The sidecar at `path` when this wb cannot read all of it (malformed, or a newer
    /// version's), with the free name its copy is kept under: `NAME.wb.json.unreadable` or
    /// `NAME.wb.json.vN`, then `-2`, `-3`, … (a copy already kept with the same bytes is
    /// that name again, so saving twice does not pile them up).
    func sidecarToKeep(_ path: String) -> (String, [UInt8])? {
        guard FileIO.isRegularFile(path), let bytes = try? FileIO.read(path) else { return nil }
        let suffix: String
        do {
            guard let version = try Sidecar.decodeVersioned(bytes).version, version > Sidecar.newestVersion else { return nil }
            suffix = "v\(version)"
        } catch {
            suffix = "unreadable"
        }
        for number in 1...1000 {
            let aside = path + "." + suffix + (number == 1 ? "" : "-\(number)")
            guard FileIO.stamp(of: aside) != nil else { return (aside, bytes) }
            if let existing = try? FileIO.read(aside), existing == bytes { return nil }
        }
        return nil
    }

    /// Whether a save of `file` to `path` writes a sidecar beside it.
    func writesSidecar(_ file: WorkspaceFile, to path: String, sidecar: Sidecar? = nil) -> Bool {
        let sidecar = sidecar ?? Sidecar(file: file, folder: FileIO.parentFolder(of: Sidecar.path(for: path)))
        // A names file already beside the target (another scan's, saved over) is replaced, not
        // left to name this file's rooms.
        return !file.names.isEmpty || !file.spaceLinks.isEmpty || !file.models.isEmpty || sidecar.hasLinks
            || (file.hasSidecar && path == file.path) || (path != file.path && FileIO.isRegularFile(Sidecar.path(for: path)))
    }

    /// The names that go with the RoomPlan file at `path` as it is on disk now, with its
    /// digest: what a crash between a save's two renames must leave readable.
    func namesOnDisk(for path: String, known: ContentDigest?) -> Sidecar? {
        guard let digest = known ?? (FileIO.isRegularFile(path) ? (try? FileIO.read(path)).map(ContentDigest.init) : nil) else {
            return nil
        }
        var names = Sidecar()
        if let bytes = try? FileIO.read(Sidecar.path(for: path)), let onDisk = try? Sidecar.decode(bytes) {
            names = onDisk.resolved(for: digest).0
        }
        names.contents = digest
        return names
    }

    /// Why `file` must not be written back: someone else changed (or replaced, or
    /// removed) it since wb read it; or, for a document wb made, a file is already there.
    func changeOnDisk(_ file: WorkspaceFile) -> String? {
        let now = FileIO.stamp(of: file.path)
        // A document wb made (a merge result) has never been on disk: it never replaces a file.
        if file.stamp == nil {
            // Unless this session's `export structure` wrote it there, and no one changed it since.
            if let now, let exported = exportedUnsaved[file.path], exported.file == file.id, exported.stamp == now { return nil }
            return now == nil ? nil : "exists and is not \(file.name) (save --force to replace it, or export structure PATH)"
        }
        guard now == file.stamp else {
            return (now == nil ? "was removed" : "changed on disk") + " since it was opened (save --force to overwrite it anyway)"
        }
        // Its names file, which the save replaces too: edited by hand (or removed) since, its
        // contents went to `previous` without a word.
        let names = Sidecar.path(for: file.path)
        guard writesSidecar(file, to: file.path), FileIO.stamp(of: names) != file.sidecarStamp else { return nil }
        return "has its names in \(names), which " + (FileIO.stamp(of: names) == nil ? "was removed" : file.sidecarStamp == nil ? "appeared" : "changed on disk")
            + " since it was opened (edited by hand?): save --force to overwrite it anyway"
    }

    /// Refuses to replace a file (or the names file that goes with it) its owner made
    /// read-only, as an editor does: the atomic rename needs only a writable folder, so a scan
    /// someone write-protected was replaced without a word. `--force` replaces it (keeping
    /// its mode).
    func checkNotWriteProtected(_ file: WorkspaceFile, to path: String, force: Bool, at word: Argument) throws {
        guard !force else { return }
        var targets = [path]
        if writesSidecar(file, to: path) { targets.append(Sidecar.path(for: path)) }
        for target in targets {
            if let mode = FileIO.writeProtection(of: target) {
                // Where this user may not write the folder either (another user's file in
                // another user's folder), --force cannot help: it was suggested, and failed.
                do {
                    try FileIO.preflight(target)
                } catch {
                    throw CommandFailure("cannot save \(target): \(error.message) (the file is mode \(String(mode, radix: 8)), "
                                         + "and not yours to write); nothing was written", at: word)
                }
                throw CommandFailure("\(target) is write-protected (mode \(String(mode, radix: 8))): "
                                     + "save --force replaces it anyway; nothing was written", at: word)
            }
        }
    }

    /// The other scan whose names the names file at `sidecarPath` holds, when it holds them
    /// for another scan than `path` (see `Sidecar.otherScan`); nil when it holds none or `path`'s.
    func otherScanOfNamesFile(_ sidecarPath: String, than path: String) -> String? {
        guard let bytes = try? FileIO.read(sidecarPath), let names = try? Sidecar.decodeVersioned(bytes) else { return nil }
        return Sidecar.otherScan(named: names.fileName, at: sidecarPath, than: path)
    }

    /// Refuses to write `file`'s names over another scan's: a scan named without `.json`
    /// (`a`) has the names file of the one named with it (`a.wb.json` goes with both `a` and
    /// `a.json`), and a save of either wrote over the other's names. `--force` replaces them.
    func checkNamesFileIsItsOwn(_ file: WorkspaceFile, to path: String, force: Bool, at word: Argument) throws {
        guard !force, writesSidecar(file, to: path) else { return }
        let sidecarPath = Sidecar.path(for: path)
        guard let other = otherScanOfNamesFile(sidecarPath, than: path) else { return }
        throw CommandFailure("\(sidecarPath) holds the names of \(FileIO.baseName(of: other)), whose names file it is too "
                             + "(NAME.wb.json goes with NAME and NAME.json): \(FileIO.baseName(of: path))'s names would replace them "
                             + "(rename one of the two scans, or save --force to replace them); nothing was written", at: word)
    }

    /// Refuses to overwrite a file someone else changed since wb read it. `save` checks
    /// again under the folder's lock, just before the rename (see `write`).
    func checkUnchangedOnDisk(_ file: WorkspaceFile, force: Bool, at word: Argument) throws {
        guard !force, let problem = changeOnDisk(file) else { return }
        throw CommandFailure("\(file.path) \(problem)", at: word)
    }

    static func fileCommands() -> [CommandSpec] {
        [
            CommandSpec(
                "open",
                arguments: [ArgumentSpec("PATH", .path, .variadicAtLeastOne)],
                summary: "open RoomPlan rooms and structures",
                details: """
                    Reads each PATH, a RoomPlan CapturedRoom or CapturedStructure JSON file (the kind is
                    found from the content, not the name), and prints a summary of it. Suspicious but
                    readable content (a parent that points nowhere, a duplicated identifier, a transform
                    that is not a rigid motion) is reported as a warning; the file still opens, so it
                    can be fixed. Opening is a step in the history: undo closes the file again.
                    """
            ) { invocation in
                // One step however many files (two were two steps under one text, and one undo
                // closed only the last: an adversarial pass).
                invocation.shell.session.beginGroup(text: invocation.text)
                defer { invocation.shell.session.endGroup() }
                for path in invocation.positionals {
                    do {
                        try invocation.shell.open(path: path.text, step: invocation.text)
                    } catch let error as LoadError {
                        var message = "cannot open \(error.path)"
                        if let location = error.location {
                            message += " (\(location.line):\(location.column)"
                                + (location.keyPath.isEmpty ? "" : ", at \(location.keyPath)") + ")"
                        }
                        throw CommandFailure(message + ": " + error.message, at: path)
                    }
                }
            },
            CommandSpec(
                "close",
                arguments: [ArgumentSpec("NAME", .openFile)],
                options: [OptionSpec("--force", help: "close even with unsaved changes")],
                summary: "forget an open file",
                details: """
                    Refuses when the file has unsaved changes, unless --force. Closing is a step in the
                    history: undo opens the file again, with its edits, names and handles.
                    """
            ) { invocation in
                let shell = invocation.shell
                let word = invocation.positionals[0]
                if let entry = shell.session.workspace.stores.first(where: {
                    FileIO.baseName(of: $0.store.path) == word.text || $0.store.path == word.text
                }) {
                    if entry.isModified && !invocation.flag("--force") {
                        throw CommandFailure("\(word.text) has unsaved changes (save it, or close --force)", at: word)
                    }
                    _ = shell.session.closeStore(id: entry.id, text: invocation.text)
                    shell.inform("closed \(word.text.escapingControls) (undo opens it again)")
                    return
                }
                let file = try shell.fileArgument(word)
                if file.isModified && !invocation.flag("--force") {
                    throw CommandFailure("\(file.name) has unsaved changes (save it, or close --force)", at: word)
                }
                _ = shell.session.close(id: file.id, text: invocation.text)
                shell.inform("closed \(file.name.escapingControls) (undo opens it again)")
            },
            CommandSpec(
                "save",
                arguments: [ArgumentSpec("PATH", .path, .optional), ArgumentSpec("NAME", .openFile, .optional)],
                options: [OptionSpec("--force", help: "write even if the file changed on disk since it was opened, or is write-protected, "
                                     + "or PATH holds something that is not an earlier copy of it")],
                summary: "write changed files back, or a copy to PATH",
                details: """
                    Without PATH, writes every open file that has changes back where it came from. With
                    PATH, writes the one open file to PATH (in RoomPlan's own JSON form); with several open, the
                    form save PATH NAME writes the open file NAME there. A file already at PATH is replaced only when
                    it is an earlier copy (a RoomPlan file with an element of this one), anything else (another scan,
                    a names file, another program's file) only with --force. Writes are atomic:
                    a temporary file in the same folder is flushed and renamed over the target, so the old
                    file stays whole until the new one is complete; the file's permissions are kept. A file
                    with other hard links is split from them (they keep the old contents): a warning says so.
                    Refuses to replace a write-protected file (or its names file, or a store's record or event log), unless --force.
                    Refuses to overwrite a file that changed on disk since it was opened, unless --force
                    (and a names file edited, removed or made by another hand since then, which the save replaces);
                    that check and the rename are made under a lock on the folder, so of two processes
                    saving one file at once, the second is refused and keeps its edits. The sidecar of
                    names (NAME.wb.json) is written with the file as one save: if either cannot be
                    written, neither is replaced. A scan named without .json (a) has the names file of the one
                    named with it (a.wb.json goes with both a and a.json): names are read only by the scan they
                    were written for, and a save that would replace the other scan's names is refused, unless
                    --force. Temporary files left by a killed save of the same
                    file are removed. With --dry-run nothing is written; save says what it would have written.
                    In a batch (wb --each), save refuses once a command of the file's script has failed (with -k),
                    so that each file is fixed whole or not at all. In the interactive shell, a save after which
                    nothing is unsaved starts the crash journal afresh.
                    """,
                writesFiles: true
            ) { invocation in
                let shell = invocation.shell
                let force = invocation.flag("--force")
                if let target = invocation.positional(0) {
                    let file = try invocation.positional(1).map { try shell.fileArgument($0) }
                        ?? shell.soleFile(naming: "save PATH NAME", at: target)
                    // `./d.json` or `/abs/d.json` for d.json is d.json itself: saved as it is, with
                    // its changed-on-disk check (another program's edit was overwritten without a word).
                    let samePlace = FileIO.sameFile(target.text, file.path)
                    // A scan written under a names file's name would be taken for one.
                    guard !target.text.hasSuffix(".wb.json") else {
                        throw CommandFailure("\(target.text) is a names file's name (NAME.wb.json goes with NAME.json): give another PATH",
                                             at: target)
                    }
                    // A copy never lands on another open file (or its names file), as an export never does.
                    if !samePlace {
                        try shell.checkNotOpen(target, by: "a copy", except: file.id)
                        try shell.checkReplaceable(target, writing: file.document, force: force, by: "save")
                    }
                    if samePlace { try shell.checkUnchangedOnDisk(file, force: force, at: target) }
                    try shell.checkNotWriteProtected(file, to: target.text, force: force, at: target)
                    try shell.checkNamesFileIsItsOwn(file, to: target.text, force: force, at: target)
                    let written = try shell.write(file, to: target.text, at: target, checkUnchanged: samePlace && !force)
                    if !shell.options.dryRun {
                        if samePlace { shell.session.markSaved(id: file.id, stamp: written.stamp, digest: written.digest) }
                        shell.inform(written.report(target.text, sidecar: shell.writesSidecar(file, to: target.text)))
                    }
                    return
                }
                let changed = shell.session.files.filter(\.isModified)
                if changed.isEmpty && !shell.session.workspace.stores.contains(where: \.isModified) {
                    shell.inform("nothing to save: no open file has changes")
                    return
                }
                try shell.saveStores(force: force, at: invocation.name)
                var namesFiles: [String: WorkspaceFile] = [:]
                for file in changed {
                    try shell.checkUnchangedOnDisk(file, force: force, at: invocation.name)
                    try shell.checkNotWriteProtected(file, to: file.path, force: force, at: invocation.name)
                    try shell.checkNamesFileIsItsOwn(file, to: file.path, force: force, at: invocation.name)
                    // Two files of one names file (a.json and a): the second's names replaced the first's.
                    guard !force, shell.writesSidecar(file, to: file.path) else { continue }
                    let names = Sidecar.path(for: file.path)
                    if let first = namesFiles.first(where: { FileIO.sameFile($0.key, names) })?.value {
                        throw CommandFailure("\(first.path) and \(file.path) share one names file, \(names) (NAME.wb.json goes with NAME "
                                             + "and NAME.json): one's names would replace the other's (rename one of them, or "
                                             + "save --force to keep the last one's); nothing was written", at: invocation.name)
                    }
                    namesFiles[names] = file
                }
                for file in changed {
                    let written = try shell.write(file, to: file.path, at: invocation.name, checkUnchanged: !force)
                    if !shell.options.dryRun {
                        shell.session.markSaved(id: file.id, stamp: written.stamp, digest: written.digest)
                        shell.inform(written.report(file.path, sidecar: shell.writesSidecar(file, to: file.path)))
                    }
                }
            },
            CommandSpec(
                "summary",
                arguments: [ArgumentSpec("NAME", .openFile, .optional)],
                summary: "what an open file holds: rooms, sections, counts, floor area",
                details: """
                    The summary wb prints when it opens a file (or a Hyperbasis store: its spaces, anchors
                    and events); with --json, one object per file.
                    """
            ) { invocation in
                let shell = invocation.shell
                // A store is summed up as `open` sums it up (summary printed nothing for one, and
                // `summary STORE` said nothing was open).
                var files = shell.session.files
                var stores = shell.session.workspace.stores.map(\.store)
                if let word = invocation.positional(0) {
                    if let store = stores.first(where: { FileIO.baseName(of: $0.path) == word.text || $0.path == word.text }) {
                        (files, stores) = ([], [store])
                    } else {
                        (files, stores) = ([try shell.fileArgument(word)], [])
                    }
                }
                let handles = shell.session.workspace.handles
                if shell.options.json {
                    shell.output.write(renderJSON(.array(files.map { FileSummary($0, handles: handles).json } + stores.map(Shell.storeSummaryJSON))))
                } else {
                    for file in files { shell.output.write(FileSummary(file, handles: handles).text) }
                    for store in stores { shell.output.write(Shell.storeSummaryText(store)) }
                }
            },
        ]
    }
}
