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
    public var notes: [String] = []

    public init(changes: [Change] = [], notes: [String] = []) {
        self.changes = changes
        self.notes = notes
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
    public func planMove(room identity: Identity, by motion: RigidMotion) throws(EditError) -> EditPlan {
        guard identity.kind == .room, let file = file(id: identity.file), let room = file.document.room(identity.scope) else {
            throw EditError("not a room")
        }
        var plan = EditPlan()
        func moveAll(_ room: CapturedRoom, _ scope: Scope, only: Set<String>?) {
            for kind in ElementKind.surfaceKinds + [.object] {
                for index in 0..<room.count(of: kind) {
                    guard let element = room.element(kind, at: index), let id = element.identifier else { continue }
                    if let only, !only.contains("\(kind.rawValue)/\(id)") { continue }
                    let path = ElementPath(file: identity.file, scope: scope, kind: kind, index: index)
                    let old: Transform
                    switch element {
                    case .surface(let surface): old = surface.transform
                    case .object(let object): old = object.transform
                    case .section: continue
                    }
                    plan.changes.append(.transform(path, motion.apply(to: old)))
                }
            }
            for (index, section) in room.sections.enumerated() {
                if let only, !only.contains("section/#\(index)") { continue }
                let moved = section.moved(by: motion).center
                plan.changes.append(.center(ElementPath(file: identity.file, scope: scope, kind: .section, index: index), moved))
            }
        }
        moveAll(room, identity.scope, only: nil)
        if case .structure(let structure) = file.document {
            let twins = twinKeys(of: identity.scope, in: file)
            moveAll(structure.merged, .merged, only: twins)
            if let shared = file.sharedTwins[identity.scope], shared > 0 {
                plan.notes.append("\(shared) structure-level element\(shared == 1 ? "" : "s") shared with other rooms "
                                  + "(a common wall, a floor spanning rooms) stayed in place")
            }
        }
        return plan
    }

    /// Puts a room and everything in it on floor level `story`.
    public func planStory(room identity: Identity, story: Int) throws(EditError) -> EditPlan {
        guard Self.storyRange.contains(story) else {
            throw EditError("story \(story) is out of range (\(Self.storyRange.lowerBound) to \(Self.storyRange.upperBound))")
        }
        guard identity.kind == .room, let file = file(id: identity.file), let room = file.document.room(identity.scope) else {
            throw EditError("not a room")
        }
        var plan = EditPlan()
        func restory(_ room: CapturedRoom, _ scope: Scope, only: Set<String>?, includeRoom: Bool) {
            if includeRoom && room.story != story {
                plan.changes.append(.story(ElementPath(file: identity.file, scope: scope, kind: .room, index: 0), story))
            }
            for kind in ElementKind.surfaceKinds + [.object, .section] {
                for index in 0..<room.count(of: kind) {
                    guard let element = room.element(kind, at: index) else { continue }
                    let key: String
                    let current: Int?
                    switch element {
                    case .surface(let s): key = "\(kind.rawValue)/\(s.identifier)"; current = s.story
                    case .object(let o): key = "\(kind.rawValue)/\(o.identifier)"; current = o.story
                    case .section(let s): key = "section/#\(index)"; current = s.story
                    }
                    if let only, !only.contains(key) { continue }
                    if current != story {
                        plan.changes.append(.story(ElementPath(file: identity.file, scope: scope, kind: kind, index: index), story))
                    }
                }
            }
        }
        restory(room, identity.scope, only: nil, includeRoom: true)
        if case .structure(let structure) = file.document {
            restory(structure.merged, .merged, only: twinKeys(of: identity.scope, in: file), includeRoom: false)
            if let shared = file.sharedTwins[identity.scope], shared > 0 {
                plan.notes.append("\(shared) structure-level element\(shared == 1 ? "" : "s") shared with other rooms kept their story")
            }
        }
        return plan
    }

    /// The structure-level twins of one room's elements, as "kind/key".
    private func twinKeys(of scope: Scope, in file: WorkspaceFile) -> Set<String> {
        var keys = Set<String>()
        for (own, twin) in file.twins where own.scope == scope {
            keys.insert("\(twin.kind.rawValue)/\(twin.key)")
        }
        return keys
    }

    /// A pivot for turning a room: the middle of its walls' extent (its objects' without walls).
    public func centre(of identity: Identity) -> SIMD3<Double>? {
        guard let room = file(id: identity.file)?.document.room(identity.scope) else { return nil }
        var points = room.walls.flatMap { [$0.planSegment.start, $0.planSegment.end] }
        if points.isEmpty { points = room.objects.map { PlanPoint(x: $0.transform.translation.x, z: $0.transform.translation.z) } }
        guard !points.isEmpty else { return nil }
        let xs = points.map(\.x), zs = points.map(\.z)
        return SIMD3((xs.min()! + xs.max()!) / 2, 0, (zs.min()! + zs.max()!) / 2)
    }

    // MARK: Labels and names

    public func planLabel(section identity: Identity, label: String) throws(EditError) -> EditPlan {
        guard SectionLabel.isKnown(label) else {
            throw EditError("'\(label)' is not a RoomPlan section label (one of: \(SectionLabel.known.joined(separator: ", ")))")
        }
        guard let path = path(of: identity), case .section(var section)? = element(at: path) else {
            throw EditError("not a section")
        }
        var plan = EditPlan()
        guard section.label != label else { return plan }
        section.label = label
        plan.changes.append(.element(path, .section(section)))
        if let twin = twin(of: identity), let twinPath = self.path(of: twin), case .section(var merged)? = element(at: twinPath) {
            merged.label = label
            plan.changes.append(.element(twinPath, .section(merged)))
        }
        return plan
    }

    public func planName(_ key: NameKey, file: Int, name: String?) throws(EditError) -> EditPlan {
        guard let current = self.file(id: file) else { throw EditError("no such file") }
        if let name, name.count > 200 { throw EditError("a name of \(name.count) characters is too long (200 at most)") }
        var plan = EditPlan()
        let new = name?.isEmpty == true ? nil : name
        if current.names[key] != new { plan.changes.append(.name(file: file, key, new)) }
        return plan
    }

    // MARK: Fields

    /// `set REF FIELD VALUE` for objects and surfaces.
    public func planSet(_ identity: Identity, field: String, value: String) throws(EditError) -> EditPlan {
        guard let path = path(of: identity), let element = element(at: path) else {
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
        plan.changes.append(.element(path, updated))
        if let twin = twin(of: identity), let twinPath = self.path(of: twin), let twinElement = self.element(at: twinPath) {
            var notes: [String] = []
            switch twinElement {
            case .object(let object): plan.changes.append(.element(twinPath, .object(try Self.set(field, value, on: object, notes: &notes))))
            case .surface(let surface): plan.changes.append(.element(twinPath, .surface(try Self.set(field, value, on: surface))))
            case .section: break
            }
        }
        return plan
    }

    static func confidence(_ value: String) throws(EditError) -> Confidence {
        guard let confidence = Confidence(name: value) else {
            throw EditError("confidence is high, medium or low, not '\(value)'")
        }
        return confidence
    }

    static func set(_ field: String, _ value: String, on object: Object, notes: inout [String]) throws(EditError) -> Object {
        var object = object
        switch field {
        case "category":
            guard let category = ObjectCategory(name: value) else {
                throw EditError("'\(value)' is not an object category (one of: \(ObjectCategory.known.map(\.name).joined(separator: ", ")))")
            }
            guard category != object.category else { return object }
            object.category = category
            // Attributes belong to a category: keep the ones the new category has, drop the
            // rest, and give the new category's missing ones RoomPlan's "unidentified".
            if var attributes = object.attributes {
                let schema = category.attributeSchema
                var dropped: [String] = []
                attributes.members.removeAll { member in
                    let keep = schema.contains { $0.name == member.key }
                    if !keep { dropped.append(member.key) }
                    return !keep
                }
                var added: [String] = []
                for (name, values) in schema where attributes[name] == nil {
                    let fallback = values.contains("unidentified") ? "unidentified" : values[0]
                    attributes[name] = .string(fallback)
                    added.append("\(name)=\(fallback)")
                }
                object.attributes = attributes
                if !dropped.isEmpty { notes.append("dropped attributes a \(category.name) does not have: \(dropped.joined(separator: ", "))") }
                if !added.isEmpty { notes.append("set \(added.joined(separator: ", ")) (change with set REF NAME VALUE)") }
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
            guard attribute.values.contains(value) else {
                throw EditError("\(field) is one of \(attribute.values.joined(separator: ", ")), not '\(value)'")
            }
            var attributes = object.attributes ?? JSONObject()
            attributes[field] = .string(value)
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
            guard case .door = surface.category else { throw EditError("only doors open ('open' is a door's field)") }
            guard let flag = ["true": true, "false": false, "yes": true, "no": false, "open": true, "closed": false][value] else {
                throw EditError("open is true or false, not '\(value)'")
            }
            surface.category = .door(isOpen: flag)
        default:
            let fields = ["confidence"] + ({ if case .door = surface.category { return ["open"] } else { return [] } }())
            throw EditError("unknown field '\(field)' for a \(surface.category.name) (its fields: \(fields.joined(separator: ", ")))")
        }
        return surface
    }

    // MARK: Delete and restore

    public func planDelete(_ identity: Identity) throws(EditError) -> EditPlan {
        guard identity.kind != .room, identity.kind != .section else {
            throw EditError("\(identity.kind.plural) cannot be deleted (walls, doors, windows, openings, floors and objects can)")
        }
        guard let path = path(of: identity) else {
            throw EditError(isDeleted(identity) ? "it is already deleted" : "no such element")
        }
        var plan = EditPlan()
        plan.changes.append(.remove(path, identity))
        if let twin = twin(of: identity), let twinPath = self.path(of: twin) {
            plan.changes.append(.remove(twinPath, twin))
        }
        // Doors and windows in a deleted wall would point at nothing.
        if let room = file(id: identity.file)?.document.room(identity.scope) {
            let children = (room.doors + room.windows + room.openings).filter { $0.parentIdentifier == identity.key }.count
                + room.objects.filter { $0.parentIdentifier == identity.key }.count
            if children > 0 {
                plan.notes.append("\(children) element\(children == 1 ? "" : "s") in the room name\(children == 1 ? "s" : "") it as parent")
            }
        }
        return plan
    }

    public func planRestore(_ identity: Identity) throws(EditError) -> EditPlan {
        guard let path = restorePath(of: identity) else {
            throw EditError(path(of: identity) != nil ? "it is not deleted" : "no such element")
        }
        var plan = EditPlan()
        plan.changes.append(.insert(path, identity))
        if let twin = twin(of: identity), let twinPath = restorePath(of: twin) {
            plan.changes.append(.insert(twinPath, twin))
        }
        return plan
    }
}
