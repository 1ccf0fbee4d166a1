/// Rooms scanned in a Hyperbasis space share its coordinate frame, so its anchors can be
/// placed in them: which room an anchor stands in, and which anchors move with a room.
extension Workspace {
    /// The room's outline in plan: its floors, or the hull of its walls' ends without floors.
    public func outline(of room: Identity) -> [[PlanPoint]] {
        capture(room)?.planOutlines ?? []
    }

    /// The rooms linked to a space (by its id).
    public func rooms(inSpace id: String) -> [Identity] {
        var result: [Identity] = []
        for file in files {
            for (room, space) in file.spaceLinks where space.uppercased() == id.uppercased() && file.roomPosition[room] != nil {
                result.append(Identity.room(room, file: file.id))
            }
        }
        return result.sorted { ($0.file, $0.scope.roomID!) < ($1.file, $1.scope.roomID!) }
    }

    /// The linked room whose outline contains the anchor's position, if any.
    public func room(containing anchor: AnchorRecord) -> Identity? {
        guard let t = anchor.transform else { return nil }
        let point = PlanPoint(t.translation)
        return rooms(inSpace: anchor.spaceId).first { room in outline(of: room).contains { $0.encloses(point) } }
    }

    /// Changes that carry along, by the same motion, the live anchors standing in a room;
    /// refused when one of them is in several files (see `AnchorRecord.duplicates`).
    public func anchorChanges(for room: Identity, motion: RigidMotion) throws(EditError) -> [Change] {
        guard let id = room.scope.roomID, let space = file(id: room.file)?.spaceLinks[id] else { return [] }
        var changes: [Change] = []
        for entry in stores {
            for (index, anchor) in entry.store.anchors.enumerated()
            where anchor.spaceId.uppercased() == space.uppercased() && !anchor.isDeleted && self.room(containing: anchor) == room {
                guard let t = anchor.transform else { continue }
                try anchor.checkEditable()
                changes.append(.anchor(store: entry.id, index: index, anchor.with(transform: motion.apply(to: t))))
            }
        }
        return changes
    }

    public func planLink(room: Identity, space: String?) -> EditPlan {
        guard let id = room.scope.roomID else { return EditPlan() }
        if file(id: room.file)?.spaceLinks[id] == space { return EditPlan() }
        return EditPlan(changes: [.spaceLink(room, space)])
    }
}
