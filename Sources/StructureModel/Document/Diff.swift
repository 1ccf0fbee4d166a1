import Foundation

/// One difference between two versions of a document, described for a person.
public struct DiffEntry: Sendable, Equatable {
    public var scope: Scope
    public var kind: ElementKind
    /// The element's key (its identifier; wb's key for a section), or "" for the room itself.
    public var key: String
    public var description: String
}

/// What changed between the file on disk and the document in memory, element by element
/// (see `compare`).
public enum DocumentDiff {
    /// Rooms are compared by position (the file on disk has no other identity for them),
    /// elements by identifier, sections by position.
    public static func compare(_ old: RoomPlanDocument, _ file: WorkspaceFile) -> [DiffEntry] {
        var entries: [DiffEntry] = []
        let new = file.document
        var places: [(Scope, Int?)] = file.roomIDs.enumerated().map { (.room($0.element), $0.offset) }
        if new.isStructure { places.append((.structure, nil)) }
        for (scope, position) in places {
            guard let after = new.capture(at: position) else { continue }
            guard let before = old.capture(at: position) else {
                entries.append(DiffEntry(scope: scope, kind: .room, key: "", description: "not in the file on disk"))
                continue
            }
            if before.story != after.story {
                entries.append(DiffEntry(scope: scope, kind: .room, key: "",
                                         description: "story \(text(before.story)) → \(text(after.story))"))
            }
            for kind in ElementKind.surfaceKinds + [.object] {
                entries += compareArray(scope, kind, before, after)
            }
            let sectionKeys = file.keys(scope, .section).keys
            for index in 0..<max(before.sections.count, after.sections.count) {
                let a = before.sections[safe: index], b = after.sections[safe: index]
                guard a != b else { continue }
                var parts: [String] = []
                if let a, let b {
                    if a.label != b.label { parts.append("label \(a.label) → \(b.label)") }
                    if a.story != b.story { parts.append("story \(text(a.story)) → \(text(b.story))") }
                    if a.center != b.center {
                        let moved = SIMD3<Double>(b.center).distance(to: SIMD3<Double>(a.center))
                        parts.append("centre moved \(formatted(moved, digits: 3)) m")
                    }
                } else {
                    parts.append(a == nil ? "added" : "removed")
                }
                entries.append(DiffEntry(scope: scope, kind: .section, key: sectionKeys[safe: index] ?? "#\(index)",
                                         description: parts.joined(separator: ", ")))
            }
        }
        if case .structure(let structure) = old, structure.rooms.count > file.roomIDs.count {
            for position in file.roomIDs.count..<structure.rooms.count {
                entries.append(DiffEntry(scope: .structure, kind: .room, key: "#\(position + 1)",
                                         description: "room \(position + 1) of the file on disk is no longer in the structure"))
            }
        }
        return entries
    }

    private static func text(_ value: Int?) -> String {
        guard let value else { return "none" }
        return String(value)
    }

    private static func compareArray(_ scope: Scope, _ kind: ElementKind, _ before: CapturedRoom, _ after: CapturedRoom) -> [DiffEntry] {
        var entries: [DiffEntry] = []
        var old: [String: Element] = [:]
        for index in 0..<before.count(of: kind) {
            if let element = before.element(kind, at: index), let id = element.identifier, old[id] == nil { old[id] = element }
        }
        var seen = Set<String>()
        for index in 0..<after.count(of: kind) {
            guard let element = after.element(kind, at: index), let id = element.identifier, !seen.contains(id) else { continue }
            seen.insert(id)
            guard let previous = old[id] else {
                entries.append(DiffEntry(scope: scope, kind: kind, key: id, description: "added"))
                continue
            }
            guard previous != element else { continue }
            entries.append(DiffEntry(scope: scope, kind: kind, key: id, description: describe(previous, element)))
        }
        for index in 0..<before.count(of: kind) {
            if let id = before.element(kind, at: index)?.identifier, !seen.contains(id) {
                seen.insert(id)
                entries.append(DiffEntry(scope: scope, kind: kind, key: id, description: "deleted"))
            }
        }
        return entries
    }

    private static func describe(_ a: Element, _ b: Element) -> String {
        var parts: [String] = []
        func movement(_ x: Transform, _ y: Transform) {
            guard x != y else { return }
            let turned = normalizedAngle(y.yaw - x.yaw) * 180 / .pi
            var text = "moved \(formatted(y.translation.distance(to: x.translation), digits: 3)) m"
            if abs(turned) >= 0.05 { text += ", turned \(formatted(turned, digits: 1))°" }
            parts.append(text)
        }
        switch (a, b) {
        case (.object(let x), .object(let y)):
            if x.category != y.category { parts.append("category \(x.category.name) → \(y.category.name)") }
            if x.confidence != y.confidence { parts.append("confidence \(x.confidence?.name ?? "none") → \(y.confidence?.name ?? "none")") }
            if x.attributes != y.attributes {
                let keys = Set((x.attributes?.keys ?? []) + (y.attributes?.keys ?? [])).sorted()
                for key in keys where x.attributes?[key] != y.attributes?[key] {
                    parts.append("\(key) \(x.attribute(key) ?? "none") → \(y.attribute(key) ?? "none")")
                }
            }
            if x.story != y.story { parts.append("story \(text(x.story)) → \(text(y.story))") }
            movement(x.transform, y.transform)
            if x.dimensions != y.dimensions { parts.append("resized") }
            if x.parentIdentifier != y.parentIdentifier { parts.append("parent changed") }
        case (.surface(let x), .surface(let y)):
            if x.category != y.category {
                if let wasOpen = x.category.doorIsOpen, let isOpen = y.category.doorIsOpen {
                    parts.append(isOpen ? "opened (was \(wasOpen ? "open" : "closed"))" : "closed")
                } else {
                    parts.append("category \(x.category.name) → \(y.category.name)")
                }
            }
            if x.confidence != y.confidence { parts.append("confidence \(x.confidence?.name ?? "none") → \(y.confidence?.name ?? "none")") }
            if x.story != y.story { parts.append("story \(text(x.story)) → \(text(y.story))") }
            movement(x.transform, y.transform)
            if x.dimensions != y.dimensions { parts.append("resized") }
            if x.parentIdentifier != y.parentIdentifier { parts.append("parent changed") }
        default:
            parts.append("changed")
        }
        return parts.isEmpty ? "changed" : parts.joined(separator: ", ")
    }
}
