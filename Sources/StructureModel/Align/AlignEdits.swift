/// Alignment as an edit of the workspace: one undoable move of the room and everything in
/// it (its structure-level elements too, as `planMove` does).
extension Workspace {
    /// `align ROOM using ELEMENT to TARGET`: ELEMENT is a wall of ROOM and TARGET a wall of
    /// another room, or both are doors or openings (a doorway may be a door in one scan and
    /// an opening in another).
    public func planAlign(room: Identity, using element: Identity, to target: Identity,
                          flip: Bool = false, offset: Double = 0, along: Double = 0) throws(EditError) -> (EditPlan, Alignment) {
        guard room.kind == .room, let captured = capture(room) else { throw EditError("not a room") }
        let doorways: Set<ElementKind> = [.door, .opening]
        guard element.kind == target.kind || (doorways.contains(element.kind) && doorways.contains(target.kind)),
              element.kind == .wall || doorways.contains(element.kind) else {
            throw EditError("align pairs a wall with a wall, or a door or opening with a door or opening "
                            + "(not \(element.kind.rawValue) with \(target.kind.rawValue))")
        }
        guard element.file == room.file, element.scope == room.scope else {
            throw EditError("the first \(element.kind.rawValue) must be one of the room's own (it is what moves)")
        }
        guard target.scope != room.scope || target.file != room.file else {
            throw EditError("both are in the same room: a room cannot be aligned onto itself")
        }
        // A structure-level element that stands for one of this room's own is the room itself,
        // as the structure holds it: aligned onto it, the room was turned about onto the far side
        // of its own wall ("moved 15.956 m and turned -180.0°: the room now agrees with the structure").
        if target.scope == .structure, target.file == room.file,
           let own = file(id: target.file)?.owners[target]?.first(where: { $0.scope == room.scope }) {
            let named = handles.handle(for: target) ?? "the target", ownNamed = handles.handle(for: own) ?? "an element"
            throw EditError("\(named) stands for \(ownNamed), the room's own: a room cannot be aligned onto itself "
                            + "(align it to another room's \(target.kind.rawValue), or to one of the structure's that no element of it stands for)")
        }
        guard case .surface(let moving)? = self.element(element), case .surface(let fixed)? = self.element(target),
              let targetRoom = capture(target) else {
            throw EditError("one of them is deleted (restore it first)")
        }
        let alignment = try ManualAlignment.align(moving, in: captured, onto: fixed, in: targetRoom, flip: flip, offset: offset, along: along)
        var plan = try planMove(room: room, by: alignment.motion)
        if target.scope == .structure {
            plan.notes.append("the target is a structure-level element: the room now agrees with the structure there")
        }
        return (plan, alignment)
    }
}
