import Foundation

/// An edit that cannot be made, in words for the person who asked.
public struct EditError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// The changes an edit makes, not yet applied, and what the person should know about it.
public struct EditPlan: Sendable {
    public var changes: [Change] = []
    /// What else the edit did, for the curious (`-q` hides them).
    public var notes: [String] = []
    /// What the edit leaves wrong in the data that the person did not ask for (an element
    /// whose parent went): said even under `-q`, as a file's problems are.
    public var warnings: [String] = []

    public init(changes: [Change] = [], notes: [String] = [], warnings: [String] = []) {
        self.changes = changes
        self.notes = notes
        self.warnings = warnings
    }
}

/// The edits wb offers, as pure planning over a workspace: each looks at the current
/// values and returns the changes to apply. `Workspace.perform` applies them and keeps
/// their inverses for undo. Edits of a room in a structure also change the
/// structure-level twins of its elements, so the file stays consistent.
extension Workspace {
    public static let storyRange = -50...200
    public static let distanceLimit = 10_000.0

    // MARK: Rooms

    /// Everything in a room moved by one rigid motion: surfaces, objects, section centres.
    /// In a structure, the structure-level elements only this room stands for move with it;
    /// those it shares with other rooms (a common wall, a floor under several rooms) cannot
    /// follow both and are left for `merge` to rebuild: the notes say how many, and `save`
    /// warns while the structure disagrees with its rooms. Costs in proportion to the room.
    public func planMove(room identity: Identity, by motion: RigidMotion) throws(EditError) -> EditPlan {
        guard identity.kind == .room, let file = file(id: identity.file), let room = file.capture(identity.scope) else {
            throw EditError("not a room")
        }
        var plan = EditPlan()
        var linked: [Identity] = []
        func move(_ identity: Identity, _ element: Element) {
            switch element {
            case .surface(let surface): plan.changes.append(.transform(identity, motion.apply(to: surface.transform)))
            case .object(let object): plan.changes.append(.transform(identity, motion.apply(to: object.transform)))
            case .section(let section): plan.changes.append(.center(identity, section.moved(by: motion).center))
            }
        }
        for kind in ElementKind.surfaceKinds + [.object, .section] {
            for (index, key) in file.keys(identity.scope, kind).keys.enumerated() {
                let own = Identity(file: identity.file, scope: identity.scope, kind: kind, key: key)
                move(own, room.element(kind, at: index)!)
                if let link = file.links[own] { linked.append(link.element) }
            }
        }
        let (exclusive, shared) = partition(linked, of: identity, in: file)
        for twin in exclusive {
            if let element = element(twin) { move(twin, element) }
        }
        if !shared.isEmpty {
            plan.notes.append(Self.sharedNote(shared.count, "no longer match\(shared.count == 1 ? "es" : "") where this room now is"))
        }
        for buried in deleted(in: identity, of: file) {
            if let element = file.graveyard[buried] { plan.changes.append(.bury(buried, element.moved(by: motion))) }
        }
        // The record of where the room's frame lies in its scan session moves with the room, so
        // that it still says where the session puts it: a room placed by it and saved would
        // otherwise be moved by it a second time when opened again.
        if let origin = room.referenceOriginTransform {
            plan.changes.append(.transform(identity, motion.apply(to: origin)))
        }
        return plan
    }

    /// Puts a room and everything in it on floor level `story` (and the structure-level
    /// elements only it stands for; shared ones are reported, as for `planMove`).
    public func planStory(room identity: Identity, story: Int) throws(EditError) -> EditPlan {
        guard Self.storyRange.contains(story) else {
            throw EditError("story \(story) is out of range (\(Self.storyRange.lowerBound) to \(Self.storyRange.upperBound))")
        }
        guard identity.kind == .room, let file = file(id: identity.file), let room = file.capture(identity.scope) else {
            throw EditError("not a room")
        }
        var plan = EditPlan()
        if room.story != story { plan.changes.append(.story(identity, story)) }
        var linked: [Identity] = []
        for kind in ElementKind.surfaceKinds + [.object, .section] {
            for (index, key) in file.keys(identity.scope, kind).keys.enumerated() {
                let own = Identity(file: identity.file, scope: identity.scope, kind: kind, key: key)
                if room.element(kind, at: index)!.story != story { plan.changes.append(.story(own, story)) }
                if let link = file.links[own] { linked.append(link.element) }
            }
        }
        let (exclusive, shared) = partition(linked, of: identity, in: file)
        for twin in exclusive where element(twin).map({ $0.story != story }) == true {
            plan.changes.append(.story(twin, story))
        }
        for buried in deleted(in: identity, of: file) {
            if let element = file.graveyard[buried], element.story != story { plan.changes.append(.bury(buried, element.onStory(story))) }
        }
        if !shared.isEmpty {
            plan.notes.append(Self.sharedNote(shared.count, "kept \(shared.count == 1 ? "its" : "their") story"))
        }
        return plan
    }

    static func sharedNote(_ count: Int, _ what: String) -> String {
        "\(count) structure-level element\(count == 1 ? "" : "s") shared with other rooms (a common wall, a floor "
            + "under several rooms) \(what); merge rebuilds them, and save warns until then"
    }

    /// The deleted elements of a room, and the deleted structure-level elements only it stood
    /// for: a move or a story of the room is theirs too, so that `restore` puts them back
    /// where the room now is (a wall deleted before a turn came back where the room had been,
    /// 29 cm from its corner, its structure-level copy with it). In a fixed order.
    private func deleted(in room: Identity, of file: WorkspaceFile) -> [Identity] {
        let own = file.graveyard.keys.filter { $0.scope == room.scope }
        var twins = Set<Identity>()
        for buried in own {
            if let twin = file.links[buried]?.element, file.graveyard[twin] != nil,
               (file.owners[twin] ?? []).allSatisfy({ $0.scope == room.scope }) { twins.insert(twin) }
        }
        return (own + twins).sorted { ($0.scope == .structure ? 1 : 0, $0.kind.rawValue, $0.key) < ($1.scope == .structure ? 1 : 0, $1.kind.rawValue, $1.key) }
    }

    /// Structure-level elements that only this room stands for, and those it shares.
    private func partition(_ linked: [Identity], of room: Identity, in file: WorkspaceFile) -> (exclusive: [Identity], shared: [Identity]) {
        var exclusive: [Identity] = [], shared: [Identity] = []
        var seen: Set<Identity> = []
        for element in linked where seen.insert(element).inserted {
            if (file.owners[element] ?? []).allSatisfy({ $0.scope == room.scope }) {
                exclusive.append(element)
            } else {
                shared.append(element)
            }
        }
        return (exclusive, shared)
    }

    /// A pivot for turning a room: the middle of its walls' extent (its objects' without walls).
    public func centre(of identity: Identity) -> SIMD3<Double>? {
        capture(identity)?.planCentre.map { SIMD3($0.x, 0, $0.z) }
    }

    // MARK: Labels and names

    public func planLabel(section identity: Identity, label: String) throws(EditError) -> EditPlan {
        guard SectionLabel.isKnown(label) else {
            throw EditError("'\(label)' is not a RoomPlan section label (one of: \(SectionLabel.known.joined(separator: ", ")))")
        }
        guard case .section(var section)? = element(identity) else {
            throw EditError("not a section")
        }
        var plan = EditPlan()
        guard section.label != label else { return plan }
        section.label = label
        plan.changes.append(.element(identity, .section(section)))
        var changed: [Identity] = []
        for copy in copies(of: identity) {
            if case .section(var other)? = element(copy), other.label != label {
                other.label = label
                plan.changes.append(.element(copy, .section(other)))
                changed.append(copy)
            }
        }
        plan.notes += roomCopiesNote(identity, changed) { "also relabelled the room section\($0 ? "" : "s") it stands for" }
        return plan
    }

    /// The other copies of one thing in a structure, as they are now: for a room's element,
    /// the structure-level element it stands for; for a structure-level element, the room
    /// elements it stands for. An edit of the thing's judgement (label, category, attributes,
    /// confidence, a door's state, its model, its being there at all) goes to every copy, so
    /// that a re-merge, which rebuilds the structure-level arrays from the rooms, keeps it.
    func copies(of identity: Identity) -> [Identity] {
        if identity.scope == .structure { return owners(of: identity).filter(exists) }
        if let target = link(of: identity)?.element, exists(target) { return [target] }
        return []
    }

    /// "also …: o3 (in r2)" for an edit of a structure-level element that went to the room
    /// copies too (nothing for a room's own element: its structure-level copy follows it, as ever).
    func roomCopiesNote(_ identity: Identity, _ copies: [Identity], _ lead: (_ one: Bool) -> String) -> [String] {
        guard identity.scope == .structure, !copies.isEmpty else { return [] }
        let listed = copies.prefix(6).map { copy in
            (handles.handle(for: copy) ?? "an element") + (copy.room.flatMap { handles.handle(for: $0) }.map { " (in \($0))" } ?? "")
        }
        return [lead(copies.count == 1) + ": " + listed.joined(separator: ", ") + (copies.count > 6 ? ", …" : "")]
    }

    /// A free-text name for a room or section (nil or "" removes it).
    public func planName(_ identity: Identity, name: String?) throws(EditError) -> EditPlan {
        guard identity.kind == .room || identity.kind == .section, let current = file(id: identity.file), exists(identity) else {
            throw EditError("only rooms and sections have names")
        }
        if identity.scope == .structure {
            throw EditError("a structure-level section is named through its room's section (name that one)")
        }
        if let name, name.count > 200 { throw EditError("a name of \(name.count) characters is too long (200 at most)") }
        var plan = EditPlan()
        let new = name?.isEmpty == true ? nil : name
        if current.names[identity] != new { plan.changes.append(.name(identity, new)) }
        return plan
    }

    // MARK: Models

    /// Attaches a USDZ model (an absolute path, already checked) to an object, or detaches
    /// it (nil). Keyed by the object's identifier, so its structure-level twin (the same
    /// object) shows the same model.
    public func planModel(_ identity: Identity, path: String?) throws(EditError) -> EditPlan {
        guard identity.kind == .object, let file = file(id: identity.file) else { throw EditError("only objects take a model") }
        guard case .object(let object)? = element(identity) else {
            throw EditError(isDeleted(identity) ? "it is deleted (restore it first)" : "no such object")
        }
        var identifiers = [object.identifier]
        var changed: [Identity] = []
        for copy in copies(of: identity) {
            if case .object(let other)? = element(copy) {
                if file.models[other.identifier] != path { changed.append(copy) }
                if !identifiers.contains(other.identifier) { identifiers.append(other.identifier) }
            }
        }
        var plan = EditPlan()
        for identifier in identifiers where file.models[identifier] != path {
            plan.changes.append(.model(file: file.id, object: identifier, path))
        }
        plan.notes += roomCopiesNote(identity, changed) { "the room object\($0 ? "" : "s") it stands for show\($0 ? "s" : "") it too" }
        return plan
    }

    // MARK: Fields

    /// `set REF FIELD VALUE` for objects and surfaces.
    public func planSet(_ identity: Identity, field: String, value: String) throws(EditError) -> EditPlan {
        guard let element = element(identity) else {
            throw EditError(isDeleted(identity) ? "it is deleted (restore it first)" : "no such element")
        }
        var plan = EditPlan()
        let updated: Element
        switch element {
        case .object(var object):
            object = try Self.set(field, value, on: object, notes: &plan.notes)
            updated = .object(object)
        case .surface(var surface):
            surface = try Self.set(field, value, on: surface)
            updated = .surface(surface)
        case .section:
            throw EditError("sections take 'label' and 'name', not set")
        }
        guard updated != element else { return plan }
        plan.changes.append(.element(identity, updated))
        // The structure-level element is the same door or chair, even when other rooms see it
        // too; and a structure-level element's room copies are that door or chair.
        var changed: [Identity] = []
        for copy in copies(of: identity) {
            guard let copyElement = self.element(copy) else { continue }
            var notes: [String] = []
            let copyUpdated: Element?
            // A copy that cannot take the value (another category, so another schema) keeps
            // its own, and the person is told.
            do {
                switch copyElement {
                case .object(let object): copyUpdated = .object(try Self.set(field, value, on: object, notes: &notes))
                case .surface(let surface): copyUpdated = .surface(try Self.set(field, value, on: surface))
                case .section: copyUpdated = nil
                }
            } catch {
                plan.notes.append("\(handles.handle(for: copy) ?? "its copy") kept its own \(field): \(error.message)")
                continue
            }
            if let copyUpdated, copyUpdated != copyElement {
                plan.changes.append(.element(copy, copyUpdated))
                changed.append(copy)
            }
        }
        plan.notes += roomCopiesNote(identity, changed) { "also set on the room element\($0 ? "" : "s") it stands for" }
        return plan
    }

    /// Values are read without regard to case, as where-expressions read them
    /// (`set w1 confidence HIGH` as `find walls where confidence = HIGH`); what is
    /// written is RoomPlan's own spelling.
    static func confidence(_ value: String) throws(EditError) -> Confidence {
        guard let confidence = Confidence(name: value.lowercased()) else {
            throw EditError("confidence is high, medium or low, not '\(value)'")
        }
        return confidence
    }

    static func set(_ field: String, _ value: String, on object: Object, notes: inout [String]) throws(EditError) -> Object {
        var object = object
        switch field {
        case "category":
            guard let category = ObjectCategory.known.first(where: { $0.name.lowercased() == value.lowercased() }) else {
                throw EditError("'\(value)' is not an object category (one of: \(ObjectCategory.known.map(\.name).joined(separator: ", ")))")
            }
            guard category != object.category else { return object }
            object.category = category
            // Attributes belong to a category: keep the ones the new category has, drop the
            // rest, and give the new category's missing ones RoomPlan's "unidentified". An
            // attribute without that case (ChairArmType, ChairBackType: existing or missing;
            // StorageType: cabinet or shelf) is left out rather than given a value nobody saw:
            // RoomPlan writes an object without some of its category's attributes too (a real
            // table with {}), and `set REF NAME VALUE` gives it one.
            if var attributes = object.attributes {
                let schema = category.attributeSchema
                var dropped: [String] = []
                attributes.members.removeAll { member in
                    let keep = schema.contains { $0.name == member.key }
                    if !keep { dropped.append(member.key) }
                    return !keep
                }
                var added: [String] = []
                var leftOut: [(name: String, values: [String])] = []
                for (name, values) in schema where attributes[name] == nil {
                    guard values.contains("unidentified") else {
                        leftOut.append((name, values))
                        continue
                    }
                    attributes[name] = .string("unidentified")
                    added.append("\(name)=unidentified")
                }
                object.attributes = attributes
                if !dropped.isEmpty { notes.append("dropped attributes a \(category.name) does not have: \(dropped.joined(separator: ", "))") }
                if !added.isEmpty { notes.append("set \(added.joined(separator: ", ")) (change with set REF NAME VALUE)") }
                if !leftOut.isEmpty {
                    let which = leftOut.map { "\($0.name) (\($0.values.joined(separator: " or ")))" }.joined(separator: ", ")
                    notes.append("left out \(which): RoomPlan has no 'unidentified' for \(leftOut.count == 1 ? "it" : "them"), and wb does not "
                                 + "guess (set REF NAME VALUE gives \(leftOut.count == 1 ? "it" : "them") one)")
                }
            }
        case "confidence":
            object.confidence = try confidence(value)
        default:
            let schema = object.category.attributeSchema
            guard let attribute = schema.first(where: { $0.name == field }) else {
                let fields = ["category", "confidence"] + schema.map(\.name)
                let all = ObjectCategory.known.flatMap { $0.attributeSchema.map(\.name) }
                if all.contains(field) {
                    throw EditError("a \(object.category.name) has no \(field) (its fields: \(fields.joined(separator: ", ")))")
                }
                throw EditError("unknown field '\(field)' for an object (its fields: \(fields.joined(separator: ", ")))")
            }
            guard let spelled = attribute.values.first(where: { $0.lowercased() == value.lowercased() }) else {
                throw EditError("\(field) is one of \(attribute.values.joined(separator: ", ")), not '\(value)'")
            }
            var attributes = object.attributes ?? JSONObject()
            attributes[field] = .string(spelled)
            object.attributes = attributes
        }
        return object
    }

    static func set(_ field: String, _ value: String, on surface: Surface) throws(EditError) -> Surface {
        var surface = surface
        switch field {
        case "confidence":
            surface.confidence = try confidence(value)
        case "open":
            guard surface.category.doorIsOpen != nil else { throw EditError("only doors open ('open' is a door's field)") }
            guard let flag = ["true": true, "false": false, "yes": true, "no": false, "open": true, "closed": false][value.lowercased()],
                  let opened = surface.category.settingDoorOpen(flag) else {
                throw EditError("open is true or false, not '\(value)'")
            }
            surface.category = opened
        default:
            let fields = ["confidence"] + (surface.category.doorIsOpen != nil ? ["open"] : [])
            throw EditError("unknown field '\(field)' for a \(surface.category.name) (its fields: \(fields.joined(separator: ", ")))")
        }
        return surface
    }

    // MARK: Delete and restore

    /// Takes an element out (into the graveyard, for `restore`). A room element's
    /// structure-level element goes with it when no other room stands for it.
    public func planDelete(_ identity: Identity) throws(EditError) -> EditPlan {
        guard identity.kind != .room, identity.kind != .section else {
            throw EditError("\(identity.kind.plural) cannot be deleted (walls, doors, windows, openings, floors and objects can)")
        }
        guard let element = element(identity) else {
            throw EditError(isDeleted(identity) ? "it is already deleted" : "no such element")
        }
        var plan = EditPlan(changes: [.remove(identity), .bury(identity, element)])
        // A structure-level element is the room elements it stands for, as the structure
        // sees them: they go with it (a re-merge would otherwise bring it back), and
        // `restore` puts them all back.
        var gone = [identity]
        if identity.scope == .structure {
            let copies = owners(of: identity).filter(exists)
            for copy in copies {
                if let copyElement = self.element(copy) { plan.changes += [.remove(copy), .bury(copy, copyElement)] }
            }
            gone += copies
            plan.notes += roomCopiesNote(identity, copies) { "the room element\($0 ? "" : "s") it stands for went with it (restore brings \($0 ? "it" : "them") back too)" }
        }
        if let link = link(of: identity) {
            let others = owners(of: link.element).filter { $0 != identity && exists($0) }
            if others.isEmpty, let twin = self.element(link.element) {
                plan.changes += [.remove(link.element), .bury(link.element, twin)]
                gone.append(link.element)
            } else if !others.isEmpty {
                plan.notes.append(Self.sharedNote(1, "stays, as another room still has it"))
            }
        }
        // Doors and windows on a deleted wall (a chair at a deleted table) would point at
        // nothing: a saved file with them opens with a warning for each. Not deleted with it
        // (nobody asked), but said whatever -q says, with their handles.
        if let warning = orphansWarning(deleting: identity, gone: gone) { plan.warnings.append(warning) }
        return plan
    }

    /// What a delete of `gone` leaves pointing at nothing: the elements (of any capture of
    /// the file: the rooms' and the structure's own copies) whose parent is among them and
    /// that have no other parent of that identifier where RoomPlan looks for one (their own
    /// room; for a structure-level element, the structure or any of its rooms). nil when
    /// none. In proportion to the captures the gone elements are in.
    func orphansWarning(deleting identity: Identity, gone: [Identity]) -> String? {
        guard let file = file(id: identity.file) else { return nil }
        let goneSet = Set(gone)
        var groups: [(parent: Identity, children: [Identity])] = []
        var counted: Set<Identity> = []
        for parent in gone {
            guard let identifier = parent.identifier else { continue }
            let children = self.children(of: parent).filter { child in
                !goneSet.contains(child) && !counted.contains(child) && !file.holds(identifier, for: child.scope, except: goneSet)
            }
            guard !children.isEmpty else { continue }
            counted.formUnion(children)
            groups.append((parent, children))
        }
        guard !groups.isEmpty else { return nil }
        let total = counted.count
        let limit = 12
        var listed = 0
        var parts: [String] = []
        for group in groups where listed < limit {
            let shown = group.children.prefix(limit - listed).map { handles.handle(for: $0) ?? $0.key }
            listed += shown.count
            let whose = group.parent == identity ? "" : group.parent.scope == .structure ? ", the structure-level \(group.parent.kind.rawValue) that went with it"
                : ", a room's \(group.parent.kind.rawValue) that went with it"
            parts.append(shown.joined(separator: ", ") + " (on \(handles.handle(for: group.parent) ?? group.parent.key)\(whose))")
        }
        let more = total > listed ? ", and \(total - listed) more" : ""
        return "\(total) element\(total == 1 ? "" : "s") now point\(total == 1 ? "s" : "") at a parent that is gone: "
            + parts.joined(separator: "; ") + more + " (delete \(total == 1 ? "it" : "them") too, or undo)"
    }

    public func planRestore(_ identity: Identity) throws(EditError) -> EditPlan {
        guard let position = restorePosition(of: identity), let element = buried(identity) else {
            throw EditError(exists(identity) ? "it is not deleted" : "no such element")
        }
        var plan = EditPlan(changes: [.bury(identity, nil), .insert(identity, element, at: position)])
        if let twin = link(of: identity)?.element, let twinPosition = restorePosition(of: twin), let twinElement = buried(twin) {
            plan.changes += [.bury(twin, nil), .insert(twin, twinElement, at: twinPosition)]
            plan.notes.append("the structure-level element it stands for, \(handles.handle(for: twin) ?? "its copy"), came back with it")
        }
        // The room elements that went with a structure-level element. Each position is worked
        // out before any of them is put back, so within one array they go back from the last
        // place to the first (putting one back then never shifts a place still to be used).
        if identity.scope == .structure {
            var back: [(identity: Identity, element: Element, at: Int, rank: Int)] = []
            for copy in owners(of: identity) {
                if let at = restorePosition(of: copy), let copyElement = buried(copy) {
                    let rank = file(id: copy.file)?.originalKeys[copy.scope]?[copy.kind].index(of: copy.key) ?? Int.max
                    back.append((copy, copyElement, at, rank))
                }
            }
            back.sort { ($0.at, $0.rank) > ($1.at, $1.rank) }
            for entry in back { plan.changes += [.bury(entry.identity, nil), .insert(entry.identity, entry.element, at: entry.at)] }
            plan.notes += roomCopiesNote(identity, back.map(\.identity).reversed()) { "the room element\($0 ? "" : "s") it stands for came back with it" }
        }
        // A door put back while its wall is still deleted (a chair while its table is) points at
        // nothing, as after the wall's delete: said the same way, whatever -q says.
        if let warning = parentsGoneWarning(restoring: plan.changes) { plan.warnings.append(warning) }
        return plan
    }

    /// What elements `changes` put back point at a parent that is not there (deleted, or never
    /// in the file), named with the parent's handle where it is deleted. nil when none.
    func parentsGoneWarning(restoring changes: [Change]) -> String? {
        var lines: [String] = []
        for change in changes {
            guard case let .insert(child, element, _) = change, let file = file(id: child.file) else { continue }
            let parent: String?
            switch element {
            case .surface(let surface): parent = surface.parentIdentifier
            case .object(let object): parent = object.parentIdentifier
            case .section: parent = nil
            }
            guard let parent, !file.holds(parent, for: child.scope, except: []) else { continue }
            // Deleted: in the graveyard, of the child's own capture (or, for a structure-level
            // element, any of the file's).
            let deleted = file.graveyard.first { entry in
                entry.value.identifier == parent && (entry.key.scope == child.scope || child.scope == .structure)
            }?.key
            let name = deleted.flatMap { handles.handle(for: $0) }.map { "\($0), which is deleted (restore \($0) too)" }
                ?? "\(parent), which is not in the file"
            lines.append("\(handles.handle(for: child) ?? child.key) points at \(name)")
        }
        return lines.isEmpty ? nil : lines.joined(separator: "; ")
    }

    // MARK: Consistency

    /// The structure-level elements of a file that no longer agree with the rooms they
    /// stand for: moved or turned (or put on another story) without them, or left behind
    /// when every room element they stood for was deleted, or deleted while rooms still
    /// have them. Empty for a room file and for a structure as Apple wrote it. Linear.
    public func structureDisagreements(file id: Int) -> [Identity] {
        // State 0 is the file as opened (or undone back to it): it agrees with itself.
        guard let file = file(id: id), file.isStructure, file.state != 0 else { return [] }
        var result: Set<Identity> = []
        for (own, link) in file.links {
            let target = link.element
            guard let targetElement = element(target) else {
                if exists(own) && file.graveyard[target] != nil { result.insert(target) }
                continue
            }
            guard let ownElement = element(own) else {
                if !(file.owners[target] ?? []).contains(where: exists) { result.insert(target) }
                continue
            }
            let now = StructureTwins.relation(ownElement, targetElement)
            if !StructureTwins.agrees(now, link.relation) || (ownElement.story == targetElement.story) != link.sameStory {
                result.insert(target)
            }
        }
        func number(_ identity: Identity) -> Int { handles.handle(for: identity).flatMap { Int($0.dropFirst()) } ?? 0 }
        return result.sorted { ($0.kind.rawValue, number($0)) < ($1.kind.rawValue, number($1)) }
    }

    /// The elements of an edited file whose parent is not where RoomPlan looks for it (their
    /// own room; for a structure-level element, the structure or any of its rooms), as a
    /// reopen would warn about them: a delete left them so, or the file came so. Empty for a
    /// file as opened (its warnings were said then). Linear in the file.
    public func danglingParents(file id: Int) -> [Identity] {
        guard let file = file(id: id), file.state != 0 else { return [] }
        func identifiers(_ scope: Scope) -> Set<String> {
            var result = Set<String>()
            for kind in ElementKind.surfaceKinds + [.object] {
                for key in file.keys(scope, kind).keys { result.insert(Identity(file: id, scope: scope, kind: kind, key: key).identifier ?? key) }
            }
            return result
        }
        var everyRoom = Set<String>()
        var result: [Identity] = []
        for scope in file.scopes {
            guard let capture = file.capture(scope) else { continue }
            var known = identifiers(scope)
            if scope == .structure { known.formUnion(everyRoom) } else if file.isStructure { everyRoom.formUnion(known) }
            for kind in ElementKind.surfaceKinds + [.object] {
                let keys = file.keys(scope, kind).keys
                for index in keys.indices {
                    guard let parent = capture.parentIdentifier(of: kind, at: index), !known.contains(identifier: parent) else { continue }
                    result.append(Identity(file: id, scope: scope, kind: kind, key: keys[index]))
                }
            }
        }
        return result
    }
}

extension EditPlan {
    /// What these changes would put in a file that RoomPlan's JSON cannot hold: a number
    /// that is infinite, not a number, or beyond `Float`'s range (which `Float` arithmetic
    /// turns into infinity), as a rotation of coordinates near 3e38 gives. nil when every
    /// number is a finite `Float`. Checked before an edit is applied, so a refused edit
    /// changes nothing and nothing later (a save, a plan) meets such a number.
    public var unrepresentableNumber: String? {
        for change in changes {
            switch change {
            case .transform(_, let transform):
                if !Self.isFinite(transform) { return "a transform" }
            case .center(_, let center):
                if !Self.isFinite(center) { return "a section centre" }
            case .element(_, let element), .insert(_, let element, _):
                if let what = Self.unrepresentable(in: element) { return what }
            case .replaceArray(_, _, _, let elements, _):
                for element in elements { if let what = Self.unrepresentable(in: element) { return what } }
            case .insertRoom(_, let record, _):
                if let what = Self.unrepresentable(in: record.room) { return what }
            default:
                continue
            }
        }
        return nil
    }

    private static func isFinite(_ transform: Transform) -> Bool {
        (0..<16).allSatisfy { transform.elements[$0].isFinite }
    }

    private static func isFinite(_ vector: SIMD3<Float>) -> Bool {
        vector.x.isFinite && vector.y.isFinite && vector.z.isFinite
    }

    private static func unrepresentable(in element: Element) -> String? {
        switch element {
        case .surface(let surface):
            if !isFinite(surface.transform) { return "a transform" }
            if !isFinite(surface.dimensions) { return "dimensions" }
            if let corners = surface.polygonCorners, !corners.allSatisfy(isFinite) { return "polygon corners" }
        case .object(let object):
            if !isFinite(object.transform) { return "a transform" }
            if !isFinite(object.dimensions) { return "dimensions" }
        case .section(let section):
            if !isFinite(section.center) { return "a section centre" }
        }
        return nil
    }

    private static func unrepresentable(in room: CapturedRoom) -> String? {
        for kind in ElementKind.surfaceKinds + [.object, .section] {
            var index = 0
            while let element = room.element(kind, at: index) {
                if let what = unrepresentable(in: element) { return what }
                index += 1
            }
        }
        return nil
    }
}

extension WorkspaceFile {
    /// Whether an element of `identifier` (not one of `except`) is where RoomPlan looks for
    /// the parent of an element of `scope`: its own room; for a structure-level element, the
    /// structure or any of its rooms (Apple's merged files point at elements only rooms hold).
    func holds(_ identifier: String, for scope: Scope, except: Set<Identity>) -> Bool {
        let scopes = scope == .structure ? self.scopes : [scope]
        for place in scopes {
            for kind in ElementKind.surfaceKinds + [.object] {
                if let found = keys(place, kind).index(ofIdentifier: identifier),
                   !except.contains(Identity(file: id, scope: place, kind: kind, key: found.key)) {
                    return true
                }
            }
        }
        return false
    }
}

extension Element {
    /// On floor level `story`, as `story ROOM N` puts what is in the room.
    fileprivate func onStory(_ story: Int) -> Element {
        switch self {
        case .surface(var surface):
            surface.story = story
            return .surface(surface)
        case .object(var object):
            object.story = story
            return .object(object)
        case .section(var section):
            section.story = story
            return .section(section)
        }
    }
}
