import Foundation
import StructureModel

/// Hyperbasis stores: spaces (`sp1`) and their anchors (`a1`), opened read-only for now.
extension Shell {
    func openStore(_ path: String) throws {
        let store: HyperbasisStore
        do {
            store = try HyperbasisStore.load(path)
        } catch {
            throw LoadError(path: path, message: error.message, location: nil, lineText: nil)
        }
        addStore(store)
    }

    func addStore(_ store: HyperbasisStore) {
        let path = store.path
        session.stores.append(store)
        for problem in store.problems { warn(problem) }
        if !options.quiet {
            let live = store.anchors.filter { !$0.isDeleted }.count
            let text = "\(FileIO.baseName(of: path))  \(store.isSingleFile ? "HBSpace file" : "Hyperbasis store")  (\(path))\n"
                + "  spaces   \(store.spaces.count)\n"
                + "  anchors  \(store.anchors.count)  \(live) live, \(store.anchors.count - live) deleted\n"
                + "  events   \(store.events.values.reduce(0) { $0 + $1.count })\n"
                + (store.pendingOperations > 0 ? "  pending sync operations  \(store.pendingOperations)\n" : "")
            output.write(options.json ? renderJSON(.object(JSONObject([
                JSONMember("kind", .string("HyperbasisStore")), JSONMember("file", .string(path)),
                JSONMember("spaces", .number(JSONNumber(store.spaces.count))),
                JSONMember("anchors", .number(JSONNumber(store.anchors.count))),
            ]))) : text)
        }
    }

    /// Every open space with its handle: sp1, sp2, ... across stores in order.
    var spaceEntries: [(handle: String, store: Int, space: SpaceRecord)] {
        var result: [(String, Int, SpaceRecord)] = []
        for (storeIndex, store) in session.stores.enumerated() {
            for space in store.spaces { result.append(("sp\(result.count + 1)", storeIndex, space)) }
        }
        return result
    }

    var anchorEntries: [(handle: String, store: Int, anchor: AnchorRecord)] {
        var result: [(String, Int, AnchorRecord)] = []
        for (storeIndex, store) in session.stores.enumerated() {
            for anchor in store.anchors { result.append(("a\(result.count + 1)", storeIndex, anchor)) }
        }
        return result
    }

    func spaceHandle(_ id: String) -> String? {
        spaceEntries.first { $0.space.id == id }?.handle
    }

    func listSpaces() -> String {
        let entries = spaceEntries
        if options.json {
            return renderJSON(.array(entries.map { entry in
                let space = entry.space
                let anchors = session.stores[entry.store].anchors.filter { $0.spaceId == space.id }
                return .object(JSONObject([
                    JSONMember("handle", .string(entry.handle)), JSONMember("kind", .string("space")),
                    JSONMember("identifier", .string(space.id)), JSONMember("name", space.name.map { .string($0) } ?? .null),
                    JSONMember("createdAt", space.createdAt.map { .string($0) } ?? .null),
                    JSONMember("updatedAt", space.updatedAt.map { .string($0) } ?? .null),
                    JSONMember("isCompressed", .bool(space.isCompressed)),
                    JSONMember("worldMapStored", .number(JSONNumber(space.worldMap.storedSize))),
                    JSONMember("worldMapRaw", space.worldMap.rawSize.map { .number(JSONNumber($0)) } ?? .null),
                    JSONMember("liveAnchors", .number(JSONNumber(anchors.filter { !$0.isDeleted }.count))),
                    JSONMember("deletedAnchors", .number(JSONNumber(anchors.filter(\.isDeleted).count))),
                ]))
            }))
        }
        let rows = entries.map { entry -> [String] in
            let space = entry.space
            let anchors = session.stores[entry.store].anchors.filter { $0.spaceId == space.id }
            return [entry.handle, space.name ?? "", space.id, space.createdAt ?? "", space.updatedAt ?? "",
                    "\(space.worldMap.storedSize)", space.worldMap.rawSize.map(String.init) ?? "?",
                    space.isCompressed ? "yes" : "no", "\(anchors.filter { !$0.isDeleted }.count)", "\(anchors.filter(\.isDeleted).count)"]
        }
        return renderTable(["space", "name", "id", "created", "updated", "map bytes", "raw bytes", "compressed", "live", "deleted"],
                           rows, numeric: [5, 6, 8, 9])
    }

    func listAnchors() -> String {
        let entries = anchorEntries
        func version(_ entry: (handle: String, store: Int, anchor: AnchorRecord)) -> Int? {
            session.stores[entry.store].events[entry.anchor.spaceId]?.filter { $0.anchorId == entry.anchor.id }.map(\.version).max()
        }
        if options.json {
            return renderJSON(.array(entries.map { entry in
                let a = entry.anchor
                let position: JSONValue = a.transform.map { t in
                    .array([t[12], t[13], t[14]].map { .number(JSONNumber(text: floatText($0))) })
                } ?? .null
                return .object(JSONObject([
                    JSONMember("handle", .string(entry.handle)), JSONMember("kind", .string("anchor")),
                    JSONMember("identifier", .string(a.id)), JSONMember("space", .string(spaceHandle(a.spaceId) ?? a.spaceId)),
                    JSONMember("position", position), JSONMember("metadata", .object(a.metadata)),
                    JSONMember("deleted", .bool(a.isDeleted)), JSONMember("version", version(entry).map { .number(JSONNumber($0)) } ?? .null),
                ]))
            }))
        }
        let rows = entries.map { entry -> [String] in
            let a = entry.anchor
            let position = a.transform.map { "\(formatted(Double($0[12]), digits: 2)), \(formatted(Double($0[13]), digits: 2)), \(formatted(Double($0[14]), digits: 2))" } ?? "?"
            let metadata = a.metadata.members.map { member -> String in
                switch member.value {
                case .string(let text): return "\(member.key)=\(text)"
                case .number(let n): return "\(member.key)=\(n.text)"
                case .bool(let b): return "\(member.key)=\(b)"
                default: return "\(member.key)=…"
                }
            }.joined(separator: " ")
            return [entry.handle, spaceHandle(a.spaceId) ?? a.spaceId, position, a.isDeleted ? "deleted" : "live",
                    version(entry).map(String.init) ?? "", metadata]
        }
        return renderTable(["anchor", "space", "position x, y, z", "state", "version", "metadata"], rows, numeric: [4])
    }

    /// `show sp1`: the space and what its world map holds; `show a1`: an anchor and its history.
    func showSpaceOrAnchor(_ word: Argument) throws -> Bool {
        if let entry = spaceEntries.first(where: { $0.handle == word.text || $0.space.id.uppercased() == word.text.uppercased() }) {
            let space = entry.space
            var lines: [(String, String)] = [("handle", entry.handle), ("kind", "space"), ("identifier", space.id),
                                             ("name", space.name ?? "(none)"), ("created", space.createdAt ?? "?"),
                                             ("updated", space.updatedAt ?? "?"), ("compressed", space.isCompressed ? "yes (raw DEFLATE)" : "no"),
                                             ("map bytes", "\(space.worldMap.storedSize) stored, \(space.worldMap.rawSize.map(String.init) ?? "?") raw")]
            if let info = space.worldMap.info {
                lines.append(("archive", "\(info.archiver) \(info.archiveVersion), root \(info.rootClass)"))
                lines.append(("map version", info.mapVersion.map(String.init) ?? "none"))
                for (key, size) in info.opaqueSizes.sorted(by: { $0.key < $1.key }) { lines.append((key, "\(size) bytes (opaque)")) }
                if let origin = info.referenceOriginTransform {
                    lines.append(("reference origin", "x \(formatted(origin.translation.x, digits: 3)), y \(formatted(origin.translation.y, digits: 3)), z \(formatted(origin.translation.z, digits: 3)), heading \(formatted(origin.yaw * 180 / .pi, digits: 1))°"))
                }
                for anchor in info.anchors {
                    let at = anchor.transform.map { " at \(formatted($0.translation.x, digits: 2)), \(formatted($0.translation.y, digits: 2)), \(formatted($0.translation.z, digits: 2))" } ?? ""
                    lines.append(("ARAnchor", "\(anchor.identifier ?? "?")\(anchor.name.map { " \"\($0)\"" } ?? "")\(at)"))
                }
            }
            lines.append(("valid", space.worldMap.problem == nil ? "yes" : "no: \(space.worldMap.problem!)"))
            if options.json {
                output.write(renderJSON(.object(JSONObject(lines.map { JSONMember($0.0, .string($0.1)) }))))
            } else {
                let width = lines.map(\.0.count).max() ?? 0
                output.write(lines.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 }.joined(separator: "\n") + "\n")
            }
            return true
        }
        if let entry = anchorEntries.first(where: { $0.handle == word.text || $0.anchor.id.uppercased() == word.text.uppercased() }) {
            let a = entry.anchor
            var lines: [(String, String)] = [("handle", entry.handle), ("kind", "anchor"), ("identifier", a.id),
                                             ("space", spaceHandle(a.spaceId) ?? a.spaceId), ("state", a.isDeleted ? "deleted \(a.deletedAt!)" : "live"),
                                             ("created", a.createdAt ?? "?"), ("updated", a.updatedAt ?? "?")]
            if let t = a.transform {
                lines.append(("position", "x \(formatted(t.translation.x, digits: 3)), y \(formatted(t.translation.y, digits: 3)), z \(formatted(t.translation.z, digits: 3)) m"))
            }
            for member in a.metadata.sortedMembers { lines.append(("metadata." + member.key, renderJSON(member.value).trimmingCharacters(in: .whitespacesAndNewlines))) }
            for event in session.stores[entry.store].events[a.spaceId] ?? [] where event.anchorId == a.id {
                lines.append(("event v\(event.version)", "\(event.type) at \(event.timestamp)"))
            }
            let width = lines.map(\.0.count).max() ?? 0
            output.write(lines.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 }.joined(separator: "\n") + "\n")
            return true
        }
        return false
    }

    static func spaceCommands() -> [CommandSpec] {
        [
            CommandSpec(
                "validate",
                arguments: [ArgumentSpec("SPACE", .text)],
                summary: "check a space's world map as the SDK's validate() would",
                details: "The map must inflate (when isCompressed), be a keyed archive with an ARWorldMap root, of a version ARKit reads (3 or older), with trackingData."
            ) { invocation in
                let shell = invocation.shell
                let word = invocation.positionals[0]
                guard let entry = shell.spaceEntries.first(where: { $0.handle == word.text || $0.space.id.uppercased() == word.text.uppercased() }) else {
                    let handles = shell.spaceEntries.map(\.handle)
                    throw CommandFailure("there is no space '\(word.text)'" + (handles.isEmpty ? " (no Hyperbasis store is open)" : " (spaces: \(handles.joined(separator: ", ")))"), at: word)
                }
                // Read the map again from disk: validate answers for the file as it is now.
                let store = shell.session.stores[entry.store]
                let state = store.isSingleFile
                    ? (HyperbasisStore.loadSpaceFile(store.path)?.spaces.first?.worldMap
                        ?? WorldMapState(storedSize: 0, rawSize: nil, info: nil, problem: "the file is no longer an HBSpace file"))
                    : HyperbasisStore.readWorldMap(store.path + "/worldmaps/" + entry.space.id.uppercased() + ".bin",
                                                   compressed: entry.space.isCompressed)
                if let problem = state.problem {
                    throw CommandFailure("\(entry.handle) is not valid: \(problem)", at: word)
                }
                shell.output.write("\(entry.handle): valid (ARWorldMap version \(state.info?.mapVersion ?? 0), \(state.info?.anchors.count ?? 0) ARAnchor\(state.info?.anchors.count == 1 ? "" : "s"), \(state.rawSize ?? 0) bytes)\n")
            },
        ]
    }
}
