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
