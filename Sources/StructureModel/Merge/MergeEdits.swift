/// `merge` as an edit: a new structure document from rooms (room files, a structure's rooms,
/// or both), or, for all the rooms of one structure, its structure-level arrays rebuilt in
/// place (a re-merge after edits). One undoable step either way; provenance becomes the
/// structure links, so `show` says what each structure-level element stands for.
extension Workspace {
    public enum StoryRule: Sendable {
        /// Stories from floor heights (`storiesByHeight`).
        case byHeight(tolerance: Double)
        /// The rooms' own stories.
        case keep
    }

    /// The rooms `merge` takes: those named, or, named none, every open room but the copies a
    /// merge made this session holds (`merge; merge` merged each room twice); a merge result
    /// alone is merged again.
    public func roomsToMerge(_ requested: [Identity]) -> [Identity] {
        guard requested.isEmpty else { return requested }
        let sources = files.filter { !$0.madeByMerge }
        return (sources.isEmpty ? files : sources).flatMap(\.rooms)
    }

    /// The rooms to merge: `rooms`, or every open room when empty.
    public func planMerge(rooms requested: [Identity], into name: String, folder: String, stories: StoryRule = .byHeight(tolerance: 1),
                          options: MergeOptions = MergeOptions()) throws(EditError) -> (EditPlan, MergeReport) {
        let rooms = roomsToMerge(requested)
        guard !rooms.isEmpty else { throw EditError("nothing to merge: open room files (or a structure) first") }
        var seen = Set<Identity>()
        for room in rooms where !seen.insert(room).inserted {
            throw EditError("\(handles.handle(for: room) ?? "a room") is named twice")
        }
        var plan = EditPlan()
        // Stories first: the merge sees the rooms as they will be.
        var captures = rooms.map { capture($0)! }
        if case .byHeight(let tolerance) = stories {
            let assignment = storiesByHeight(of: rooms, tolerance: tolerance)
            let position = Dictionary(rooms.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            var changed: [(room: Identity, from: Int, to: Int)] = []
            for level in assignment.levels {
                for room in level.rooms {
                    let index = position[room]!
                    if let own = captures[index].effectiveStory, own != level.story { changed.append((room, own, level.story)) }
                    captures[index] = captures[index].onStory(level.story)
                }
            }
            // A story a person set (`story r1 -1`) is not undone unsaid.
            if !changed.isEmpty {
                let listed = changed.prefix(8).map { "\(handles.handle(for: $0.room) ?? "a room") from \($0.from) to \($0.to)" }
                plan.notes.append("stories by floor height: " + listed.joined(separator: ", ") + (changed.count > 8 ? ", …" : "")
                                  + " (merge --stories keep keeps the rooms' own)")
            }
            for room in assignment.unknown {
                plan.notes.append("\(handles.handle(for: room) ?? "a room") has no floor or walls to measure: its story was kept")
            }
            for entry in assignment.splitLevel {
                plan.notes.append("\(handles.handle(for: entry.room) ?? "a room") is split-level: put by its middle floor; check it")
            }
            for level in assignment.levels where level.isSpread(tolerance: tolerance) {
                plan.notes.append("story \(level.story)'s floors lie from \(formatted(level.low, digits: 2)) to "
                                  + "\(formatted(level.high, digits: 2)) m: a step or a split level? check its rooms")
            }
            if assignment.levels.count > 1 {
                plan.notes.append("\(assignment.levels.count) stories by floor height: "
                                  + assignment.levels.map { "\($0.story) at \(formatted($0.height, digits: 2)) m" }.joined(separator: ", "))
            }
        }
        // A re-merge in place keeps the identifiers the structure has where a copy has one.
        let remerging = file(id: rooms[0].file).flatMap { file in
            file.isStructure && Set(rooms) == Set(file.rooms) && rooms.allSatisfy({ $0.file == file.id }) ? file : nil
        }
        var options = options
        if let remerging, let own = remerging.capture(.structure) {
            options.keepIdentifiers = RoomPlanDocument.room(own).elementIdentifiers
        }
        let result = StructureMerger.merge(captures, options: options)
        for group in result.report.scannedTwice {
            let names = group.map { handles.handle(for: rooms[$0]) ?? "a room" }
            plan.notes.append("\(names.dropLast().joined(separator: ", ")) and \(names.last!) lie on one another over most of their floors: "
                              + "one room scanned \(group.count == 2 ? "twice" : "\(group.count) times"); their copies were made one")
        }
        if result.report.renamed > 0 {
            let pairs = result.report.sharedIdentifiers.map { pair in
                "\(handles.handle(for: rooms[pair.rooms[0]]) ?? "a room") and \(handles.handle(for: rooms[pair.rooms[1]]) ?? "a room") "
                    + "share \(pair.count) element identifier\(pair.count == 1 ? "" : "s")"
            }
            plan.notes.append(pairs.joined(separator: ", ") + " (one scan's file copied for another room?): "
                              + "\(result.report.renamed) structure-level element\(result.report.renamed == 1 ? " was" : "s were") "
                              + "given an identifier of \(result.report.renamed == 1 ? "its" : "their") own")
        }
        plan.notes += result.report.findings
        if rooms.count == 1 { plan.notes.append("a structure of one room") }

        if let file = remerging {
            plan.changes += try remergeChanges(file, rooms: rooms, captures: captures, result: result, stories: stories, notes: &plan.notes)
        } else {
            plan.changes.append(.openFile(mergedFile(rooms: rooms, result: result, name: name, folder: folder), at: files.count))
            // A structure whose rooms go into a new one may hold elements no room stands for:
            // they stay in it (it is not changed), but the new structure has nothing to make them from.
            for id in Set(rooms.map(\.file)).sorted() {
                guard let source = file(id: id), source.isStructure else { continue }
                let count = (ElementKind.surfaceKinds + [.object]).reduce(0) { total, kind in
                    total + source.identities(.structure, kind).filter { (source.owners[$0] ?? []).isEmpty }.count
                }
                if count > 0 {
                    plan.notes.append("\(source.name) has \(count) structure-level element\(count == 1 ? "" : "s") no room element stands for: "
                                      + "\(count == 1 ? "it stays" : "they stay") there, and the new structure does not have \(count == 1 ? "it" : "them")")
                }
            }
        }
        return (plan, result.report)
    }

    /// A re-merge in place: the rooms' stories (if they change) and every structure-level
    /// array replaced, links rebuilt from provenance.
    private func remergeChanges(_ file: WorkspaceFile, rooms: [Identity], captures: [CapturedRoom], result: MergeResult,
                                stories: StoryRule, notes: inout [String]) throws(EditError) -> [Change] {
        var changes: [Change] = []
        if case .byHeight = stories {
            for (room, capture) in zip(rooms, captures) where capture.effectiveStory != self.capture(room)?.effectiveStory {
                changes += try planStory(room: room, story: capture.effectiveStory ?? 0).changes
            }
        }
        let merged = result.structure.merged
        let before = file.capture(.structure)
        var next = file.nextSectionKey
        var sectionKeys: [String] = []
        var carriedHandles: [String] = []
        var carriedCounts: [(ElementKind, Int)] = []
        for kind in [ElementKind.wall, .door, .window, .opening, .floor, .object, .section] {
            // What the structure's own element had beyond what wb models stays with the element
            // that keeps its identifier (a re-merge dropped it), and so does its judgement
            // (category, attributes, confidence, a door's state): an edit of it went to its room
            // copies too, but rooms that see one wall from both sides may disagree.
            var earlier: [String: Element] = [:]
            if kind != .section, let before {
                for index in 0..<before.count(of: kind) {
                    let element = before.element(kind, at: index)!
                    if let id = element.identifier, earlier[id] == nil { earlier[id] = element }
                }
            }
            // A structure-level element no room element stands for (a person's addition,
            // another tool's, or a structure whose rooms are empty) is not the merge's to drop:
            // it is kept, after what the merge built, under its own key.
            var carried: [(key: String, element: Element)] = []
            if let before {
                for (index, key) in file.keys(.structure, kind).keys.enumerated() where index < before.count(of: kind) {
                    let identity = Identity(file: file.id, scope: .structure, kind: kind, key: key)
                    if (file.owners[identity] ?? []).isEmpty {
                        carried.append((key, before.element(kind, at: index)!))
                        if let handle = handles.handle(for: identity) { carriedHandles.append(handle) }
                    }
                }
            }
            if !carried.isEmpty { carriedCounts.append((kind, carried.count)) }
            let elements = (0..<merged.count(of: kind)).map { index in
                let element = merged.element(kind, at: index)!
                return element.identifier.flatMap { earlier[$0] }.map { element.keepingExtras(of: $0).keepingJudgement(of: $0) } ?? element
            } + carried.map(\.element)
            let carriedKeys = Set(carried.map(\.key))
            var keys: [String]
            if kind == .section {
                var reusable = file.keys(.structure, .section).keys.filter { !carriedKeys.contains($0) }.makeIterator()
                keys = (0..<merged.count(of: kind)).map { _ in reusable.next() ?? { next += 1; return "S\(next - 1)" }() }
            } else {
                keys = ArrayKeys(identifiers: (0..<merged.count(of: kind)).lazy.map { merged.identifier(of: kind, at: $0) },
                                 count: merged.count(of: kind)).keys
            }
            var taken = Set(keys)
            for entry in carried {
                var key = entry.key
                if taken.contains(key) {
                    let base = entry.element.identifier ?? key
                    var copy = 1
                    repeat { copy += 1; key = "\(base)~\(copy)" } while taken.contains(key) || file.keys(.structure, kind).index(of: key) != nil
                }
                taken.insert(key)
                keys.append(key)
            }
            if kind == .section { sectionKeys = keys }
            // An array the merge rebuilds as it was is not changed (a merge that changed nothing
            // left the file unsaved).
            let current = before.map { capture in (0..<capture.count(of: kind)).map { capture.element(kind, at: $0)! } }
            if current == elements && file.keys(.structure, kind).keys == keys { continue }
            changes.append(.replaceArray(file: file.id, .structure, kind, elements, keys: keys))
        }
        if !carriedCounts.isEmpty {
            let counted = carriedCounts.map { "\($0.1) \($0.1 == 1 ? $0.0.rawValue : $0.0.plural)" }
            let listed = carriedHandles.prefix(8).joined(separator: ", ") + (carriedHandles.count > 8 ? ", …" : "")
            let one = carriedHandles.count == 1
            // Sections cannot be deleted: the hint is for the rest.
            let deletable = carriedCounts.contains { $0.0 != .section }
            notes.append("kept " + counted.joined(separator: ", ") + " that no room element stands for (\(listed)), as \(one ? "it was" : "they were")"
                         + ": the merge has nothing to rebuild \(one ? "it" : "them") from"
                         + (deletable ? " (delete \(one ? "it" : "a wall, door, window, opening, floor or object") to drop it)" : ""))
        }
        // Links: each room element to the structure-level element it became.
        let positions = Self.positions(in: merged)
        for (index, room) in rooms.enumerated() {
            for kind in ElementKind.surfaceKinds + [.object] {
                let roomKeys = file.keys(room.scope, kind).keys
                for (position, key) in roomKeys.enumerated() {
                    let own = Identity(file: file.id, scope: room.scope, kind: kind, key: key)
                    var link: StructureLink?
                    if let target = result.provenance[index][kind]?[captures[index].identifier(of: kind, at: position)],
                       let at = positions[kind]?[target] {
                        link = StructureTwins.link(own: captures[index].element(kind, at: position)!, target: merged.element(kind, at: at)!,
                                                   identity: Identity(file: file.id, scope: .structure, kind: kind, key: target))
                    }
                    if file.links[own] != link { changes.append(.link(own, link)) }
                }
            }
        }
        // Sections: the structure's are the rooms' in order.
        var offset = 0
        for (index, room) in rooms.enumerated() {
            for (position, key) in file.keys(room.scope, .section).keys.enumerated() {
                let own = Identity(file: file.id, scope: room.scope, kind: .section, key: key)
                var link: StructureLink?
                let at = offset + position
                if at < merged.sections.count, at < sectionKeys.count, position < captures[index].sections.count {
                    link = StructureTwins.link(own: captures[index].element(.section, at: position)!, target: merged.element(.section, at: at)!,
                                               identity: Identity(file: file.id, scope: .structure, kind: .section, key: sectionKeys[at]))
                }
                if file.links[own] != link { changes.append(.link(own, link)) }
            }
            offset += captures[index].sections.count
        }
        return changes
    }

    /// Where each structure-level identifier is, per kind.
    private static func positions(in merged: CapturedRoom) -> [ElementKind: [String: Int]] {
        var positions: [ElementKind: [String: Int]] = [:]
        for kind in ElementKind.surfaceKinds + [.object] {
            for index in 0..<merged.count(of: kind) where positions[kind]?[merged.identifier(of: kind, at: index)] == nil {
                positions[kind, default: [:]][merged.identifier(of: kind, at: index)] = index
            }
        }
        return positions
    }

    /// A new, unsaved document for a merge result, its links from provenance and its rooms'
    /// names carried over from the rooms it was made of.
    private func mergedFile(rooms: [Identity], result: MergeResult, name: String, folder: String) -> WorkspaceFile {
        // The path follows the name it is given: `--into kitchen` beside an open kitchen.json
        // is kitchen-2, saved as kitchen-2.json (it pointed at kitchen.json, and `save --force`
        // then replaced the open room's own file).
        let short = shortName(for: name)
        var file = WorkspaceFile.make(id: nextFileID, name: short, path: folder + "/" + short + ".json",
                                      document: .structure(result.structure), firstRoom: nextRoomID)
        // Unsaved from the start: its state is not the saved one.
        file.state = -1
        file.madeByMerge = true
        let merged = result.structure.merged
        let positions = Self.positions(in: merged)
        var sectionOffset = 0
        for (index, room) in file.rooms.enumerated() {
            guard let capture = file.capture(room.scope) else { continue }
            for kind in ElementKind.surfaceKinds + [.object] {
                for (position, key) in file.keys(room.scope, kind).keys.enumerated() {
                    guard let target = result.provenance[index][kind]?[capture.identifier(of: kind, at: position)],
                          let at = positions[kind]?[target] else { continue }
                    let own = Identity(file: file.id, scope: room.scope, kind: kind, key: key)
                    let link = StructureTwins.link(own: capture.element(kind, at: position)!, target: merged.element(kind, at: at)!,
                                                   identity: Identity(file: file.id, scope: .structure, kind: kind,
                                                                      key: file.keys(.structure, kind).keys[at]))
                    file.links[own] = link
                    file.owners[link.element, default: []].append(own)
                }
            }
            // Sections: the structure's are the rooms' in order (`merge` keeps them all), so
            // each room's section is the one at its place there.
            let structureSections = file.keys(.structure, .section).keys
            for (position, key) in file.keys(room.scope, .section).keys.enumerated() where sectionOffset + position < structureSections.count {
                let own = Identity(file: file.id, scope: room.scope, kind: .section, key: key)
                let link = StructureTwins.link(own: capture.element(.section, at: position)!, target: merged.element(.section, at: sectionOffset + position)!,
                                               identity: Identity(file: file.id, scope: .structure, kind: .section,
                                                                  key: structureSections[sectionOffset + position]))
                file.links[own] = link
                file.owners[link.element, default: []].append(own)
            }
            sectionOffset += capture.sections.count
            // Names of the room and its sections follow it into the structure.
            let source = rooms[index]
            if let sourceFile = self.file(id: source.file) {
                if let roomName = sourceFile.names[source] { file.names[room] = roomName }
                let from = sourceFile.identities(source.scope, .section), to = file.identities(room.scope, .section)
                for (a, b) in zip(from, to) { if let sectionName = sourceFile.names[a] { file.names[b] = sectionName } }
                if let space = sourceFile.spaceLinks[source.scope.roomID!] { file.spaceLinks[room.scope.roomID!] = space }
            }
        }
        return file
    }
}

extension CapturedRoom {
    /// The room with everything in it on `story` (keys a file did not have stay absent).
    func onStory(_ story: Int) -> CapturedRoom {
        var copy = self
        if copy.story != nil { copy.story = story }
        for index in copy.sections.indices where copy.sections[index].story != nil { copy.sections[index].story = story }
        for index in copy.objects.indices where copy.objects[index].story != nil { copy.objects[index].story = story }
        for key in [ArrayKey.walls, .doors, .windows, .openings, .floors] {
            copy.withSurfaces(key) { surfaces in
                for index in surfaces.indices where surfaces[index].story != nil { surfaces[index].story = story }
            }
        }
        return copy
    }
}

extension Element {
    /// This element with `other`'s category, attributes and confidence (a door's open state),
    /// where both are the same kind of thing, and its thickness where this one has none: its
    /// place and size stay this one's.
    func keepingJudgement(of other: Element) -> Element {
        switch (self, other) {
        case (.surface(var surface), .surface(let old)):
            if surface.category.name == old.category.name { surface.category = old.category }
            surface.confidence = old.confidence ?? surface.confidence
            // A wall's thickness, which a room's copy seldom has (a re-merge set every
            // structure-level wall of a generated home to depth 0).
            if surface.dimensions.z == 0, old.dimensions.z > 0 { surface.dimensions.z = old.dimensions.z }
            return .surface(surface)
        case (.object(var object), .object(let old)):
            object.category = old.category
            object.attributes = old.attributes ?? object.attributes
            object.confidence = old.confidence ?? object.confidence
            return .object(object)
        default:
            return self
        }
    }

    /// This element with the members `other` kept beyond what wb models and this one lacks
    /// (where both have a key, this one's value stays).
    func keepingExtras(of other: Element) -> Element {
        func merged(_ own: JSONObject, _ theirs: JSONObject) -> JSONObject {
            var result = own
            for member in theirs.members where own[member.key] == nil { result.members.append(member) }
            return result
        }
        switch (self, other) {
        case (.surface(var surface), .surface(let old)):
            surface.extra = merged(surface.extra, old.extra)
            return .surface(surface)
        case (.object(var object), .object(let old)):
            object.extra = merged(object.extra, old.extra)
            return .object(object)
        default:
            return self
        }
    }
}
