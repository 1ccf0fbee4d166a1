/// Short names for everything open, stable for the whole session: `r2` for a room, `s1`
/// a section, `w4` a wall, `d1` a door, `n3` a window, `p1` an opening, `f1` a floor,
/// `o12` an object. Numbers count across all open files and are never reused, so a handle
/// in a script means the same thing from its first line to its last.
public struct HandleTable: Sendable {
    private var byHandle: [String: Identity] = [:]
    private var byIdentity: [Identity: String] = [:]
    private var counters: [ElementKind: Int] = [:]
    /// Every identity in the order its handle was given, per kind, for listings.
    public private(set) var order: [ElementKind: [Identity]] = [:]

    public init() {}

    mutating func assign(_ file: WorkspaceFile) {
        for scope in file.document.roomScopes {
            guard let room = file.document.room(scope) else { continue }
            give(Identity(file: file.id, scope: scope, kind: .room, key: ""))
            for index in room.sections.indices {
                give(Identity(file: file.id, scope: scope, kind: .section, key: "#\(index)"))
            }
            for kind in ElementKind.surfaceKinds + [.object] {
                var seen: [String: Int] = [:]
                for index in 0..<room.count(of: kind) {
                    guard let id = room.element(kind, at: index)?.identifier else { continue }
                    // A duplicated identifier (a warning at open) gets one handle: the first.
                    guard seen[id] == nil else { continue }
                    seen[id] = index
                    give(Identity(file: file.id, scope: scope, kind: kind, key: id))
                }
            }
        }
    }

    private mutating func give(_ identity: Identity) {
        let number = (counters[identity.kind] ?? 0) + 1
        counters[identity.kind] = number
        let handle = identity.kind.handlePrefix + String(number)
        byHandle[handle] = identity
        byIdentity[identity] = handle
        order[identity.kind, default: []].append(identity)
    }

    mutating func forget(file: Int) {
        for (handle, identity) in byHandle where identity.file == file {
            byHandle[handle] = nil
            byIdentity[identity] = nil
        }
        for kind in order.keys { order[kind]?.removeAll { $0.file == file } }
    }

    public func identity(for handle: String) -> Identity? { byHandle[handle] }
    public func handle(for identity: Identity) -> String? { byIdentity[identity] }

    public var allHandles: [String] { Array(byHandle.keys) }

    /// Identities whose identifier starts with `prefix` (case-insensitive), for UUID references.
    public func identities(withIdentifierPrefix prefix: String) -> [Identity] {
        let upper = prefix.uppercased()
        return byIdentity.keys.filter { $0.kind != .room && $0.kind != .section && $0.key.uppercased().hasPrefix(upper) }
    }
}

/// Links the rooms of a `CapturedStructure` to the structure-level arrays Apple's merge
/// built from them, so an edit of a room keeps both in step. A structure-level element
/// is a room element's twin when it has the same identifier or, failing that, the same
/// place (within 5 cm) and kind. One that matches several rooms (a shared wall, a floor
/// spanning rooms) is left alone by edits of a single room, and reported.
enum StructureTwins {
    static let tolerance = 0.05

    static func find(_ structure: CapturedStructure, file: Int) -> (twins: [Identity: Identity], shared: [Scope: Int]) {
        var candidates: [Identity: [Identity]] = [:]
        let merged = structure.merged
        for (roomIndex, room) in structure.rooms.enumerated() {
            let scope = Scope.room(roomIndex)
            for kind in ElementKind.surfaceKinds + [.object] {
                for index in 0..<room.count(of: kind) {
                    guard let element = room.element(kind, at: index), let id = element.identifier else { continue }
                    let own = Identity(file: file, scope: scope, kind: kind, key: id)
                    if let match = merged.index(of: kind, identifier: id) {
                        candidates[mergedIdentity(merged, kind, match, file), default: []].append(own)
                        continue
                    }
                    for other in 0..<merged.count(of: kind) where samePlace(element, merged.element(kind, at: other)!) {
                        candidates[mergedIdentity(merged, kind, other, file), default: []].append(own)
                    }
                }
            }
            for (index, section) in room.sections.enumerated() {
                for (other, candidate) in merged.sections.enumerated()
                where candidate.label == section.label && distance(candidate.center, section.center) < tolerance {
                    candidates[Identity(file: file, scope: .merged, kind: .section, key: "#\(other)"), default: []]
                        .append(Identity(file: file, scope: scope, kind: .section, key: "#\(index)"))
                }
            }
        }
        var twins: [Identity: Identity] = [:]
        var shared: [Scope: Int] = [:]
        for (mergedElement, owners) in candidates {
            let rooms = Set(owners.map(\.scope))
            if rooms.count == 1, owners.count == 1 {
                twins[owners[0]] = mergedElement
            } else {
                for scope in rooms { shared[scope, default: 0] += 1 }
            }
        }
        return (twins, shared)
    }

    private static func mergedIdentity(_ merged: CapturedRoom, _ kind: ElementKind, _ index: Int, _ file: Int) -> Identity {
        Identity(file: file, scope: .merged, kind: kind, key: merged.element(kind, at: index)!.identifier!)
    }

    private static func distance(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Double {
        let d = SIMD3<Double>(a) - SIMD3<Double>(b)
        return (d * d).sum().squareRoot()
    }

    private static func samePlace(_ a: Element, _ b: Element) -> Bool {
        switch (a, b) {
        case (.object(let x), .object(let y)):
            return x.category == y.category && close(x.transform.translation, y.transform.translation)
        case (.surface(let x), .surface(let y)):
            if case .wall = x.category {
                let s = x.planSegment, t = y.planSegment
                let same = s.start.distance(to: t.start) < tolerance && s.end.distance(to: t.end) < tolerance
                let reversed = s.start.distance(to: t.end) < tolerance && s.end.distance(to: t.start) < tolerance
                return (same || reversed) && abs(x.transform.translation.y - y.transform.translation.y) < tolerance
            }
            return close(x.transform.translation, y.transform.translation)
                && abs(Double(x.dimensions.x) - Double(y.dimensions.x)) < tolerance
        default:
            return false
        }
    }

    private static func close(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Bool {
        ((a - b) * (a - b)).sum().squareRoot() < tolerance
    }
}
