/// Something suspicious in a file that still opened: the file is kept as it is, and the
/// person is told where to look.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable {
        case warning, error
    }

    public var severity: Severity
    /// Where in the file, like `doors[2].parentIdentifier`.
    public var keyPath: String
    public var message: String

    public init(_ severity: Severity, _ keyPath: String, _ message: String) {
        self.severity = severity
        self.keyPath = keyPath
        self.message = message
    }

    public var description: String { "\(keyPath): \(message)" }
}

/// Checks that do not stop a file from opening: dangling parents, duplicate identifiers,
/// transforms that are not rigid motions.
public enum RoomPlanDiagnostics {
    public static func check(_ document: RoomPlanDocument) -> [Diagnostic] {
        switch document {
        case .room(let room):
            return check(room, prefix: "", extraIdentifiers: [])
        case .structure(let structure):
            var found: [Diagnostic] = []
            var everyRoomIdentifier = Set<String>()
            for (index, room) in structure.rooms.enumerated() {
                // A whole structure nested as a room opened silently as one huge room (an
                // adversarial pass): its own rooms are kept as they are, and said.
                if room.extra.members.contains(where: { $0.key == "rooms" }) {
                    found.append(Diagnostic(.warning, "rooms[\(index)].rooms",
                                            "a room holding rooms of its own (a structure inside a structure?): opened as one room, its nested rooms kept as they are"))
                }
                found += check(room, prefix: "rooms[\(index)].", extraIdentifiers: [])
                everyRoomIdentifier.formUnion(identifiers(of: room).map(\.identifier))
            }
            // Structure-level elements may point at elements that only the rooms hold.
            found += check(structure.merged, prefix: "", extraIdentifiers: everyRoomIdentifier)
            return found
        }
    }

    private static func identifiers(of room: CapturedRoom) -> [(identifier: String, path: String)] {
        var result: [(String, String)] = []
        for (key, surfaces) in room.surfaceGroups {
            for (index, surface) in surfaces.enumerated() {
                result.append((surface.identifier, "\(key.rawValue)[\(index)]"))
            }
        }
        for (index, object) in room.objects.enumerated() {
            result.append((object.identifier, "objects[\(index)]"))
        }
        return result
    }

    private static func check(_ room: CapturedRoom, prefix: String, extraIdentifiers: Set<String>) -> [Diagnostic] {
        var found: [Diagnostic] = []
        var firstPath: [String: String] = [:]
        for (identifier, path) in identifiers(of: room) {
            if let first = firstPath[identifier] {
                found.append(Diagnostic(.warning, prefix + path + ".identifier",
                                        "duplicate identifier \(identifier), also at \(prefix)\(first)"))
            } else {
                firstPath[identifier] = path
            }
        }
        func checkParent(_ parent: String?, _ path: String) {
            guard let parent, firstPath[identifier: parent] == nil, !extraIdentifiers.contains(identifier: parent) else { return }
            found.append(Diagnostic(.warning, prefix + path + ".parentIdentifier",
                                    "parent \(parent) is not an element of this \(prefix.isEmpty ? "file" : "room")"))
        }
        func checkTransform(_ transform: Transform, _ path: String) {
            let error = transform.rigidityError
            guard error >= 1e-3 else { return }
            found.append(Diagnostic(.warning, prefix + path,
                                    "not a rigid transform (off by \(readable(error, digits: 4))); geometry from it may be wrong"))
        }
        // A size below zero (no scan writes one) is measured by its magnitude; said, as a
        // non-rigid transform is, so that nobody trusts a wall of -3 m without a word.
        func checkDimensions(_ dimensions: SIMD3<Float>, _ path: String) {
            let names = ["width", "height", "depth"]
            let negative = (0..<3).filter { dimensions[$0] < 0 }
            guard !negative.isEmpty else { return }
            let listed = negative.map { "\(names[$0]) \(formatted(Double(dimensions[$0]), digits: 3)) m" }.joined(separator: ", ")
            found.append(Diagnostic(.warning, prefix + path + ".dimensions", "a negative \(listed): measured by its size"))
        }
        for (key, surfaces) in room.surfaceGroups {
            for (index, surface) in surfaces.enumerated() {
                let path = "\(key.rawValue)[\(index)]"
                // A window in the walls array opened silently and counted as a wall (an
                // adversarial pass). (A category RoomPlan may add is not judged.)
                let array: String?
                switch surface.category {
                case .wall: array = "walls"
                case .door: array = "doors"
                case .window: array = "windows"
                case .opening: array = "openings"
                case .floor: array = "floors"
                case .other: array = nil
                }
                if let array, array != key.rawValue {
                    found.append(Diagnostic(.warning, prefix + path + ".category",
                                            "\(surface.category.name), in the \(key.rawValue) array (it belongs in \(array)): taken for one of \(key.rawValue)"))
                }
                checkParent(surface.parentIdentifier, path)
                checkTransform(surface.transform, path + ".transform")
                checkDimensions(surface.dimensions, path)
            }
        }
        for (index, object) in room.objects.enumerated() {
            checkParent(object.parentIdentifier, "objects[\(index)]")
            checkTransform(object.transform, "objects[\(index)].transform")
            checkDimensions(object.dimensions, "objects[\(index)]")
        }
        if let origin = room.referenceOriginTransform {
            checkTransform(origin, "referenceOriginTransform")
        }
        if room.privateAsFound["referenceOriginTransform"] != nil {
            found.append(Diagnostic(.warning, prefix + "referenceOriginTransform",
                                    "not 16 numbers: kept as it is, and not used to put the room in its scan session"))
        }
        if room.privateAsFound["coreModel"] != nil {
            found.append(Diagnostic(.warning, prefix + "coreModel", "not a string: kept as it is (wb never reads it)"))
        }
        return found
    }
}
