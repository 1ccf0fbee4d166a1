import StructureModel

/// Putting rooms where they belong: `align ROOM using WALL to WALL`, `align ROOM using DOOR
/// to DOOR`, and stories by floor height (`story --auto`).
extension Shell {
    static func alignCommands() -> [CommandSpec] {
        [
            CommandSpec(
                "align",
                arguments: [ArgumentSpec("ROOM", .reference([.room])), ArgumentSpec("using A to B", .text, .variadic)],
                options: [OptionSpec("--flip", help: "put the room on the same side as the other (a rescan of the same room)"),
                          OptionSpec("--offset", value: .number, valueName: "D",
                                     help: "keep the two planes D apart (a wall's thickness, when the scans saw its two faces)"),
                          OptionSpec("--along", value: .number, valueName: "D",
                                     help: "shift the room D along the other's wall or door from centred"),
                          OptionSpec("--all", help: "align ... --all auto: every room (not built yet)")],
                summary: "put a room where it belongs: one of its walls (doors) onto another room's",
                details: """
                    align ROOM using WALL to WALL: turns and moves ROOM (and everything in it) so that its WALL and
                    the other room's WALL are one wall seen from both sides: the same plane, each room on its own
                    side, centred along each other, floors level. align ROOM using DOOR to DOOR does the same
                    through a door or opening seen from both rooms (a door may be an opening in the other scan).
                    Only ROOM moves; one undo takes it back. wb says how far it moved and how well the two agree.
                    --offset D keeps the planes D apart (the wall's thickness, when one scan saw each face);
                    --along D slides the room along the wall; --flip puts it on the same side (a rescan).
                    """,
                edits: true
            ) { invocation in
                try invocation.shell.align(invocation)
            },
        ]
    }

    func align(_ invocation: Invocation) throws {
        let roomWord = invocation.positionals[0]
        let words = Array(invocation.positionals.dropFirst())
        if invocation.flag("--all") || words.first?.text == "auto" || words.first?.text == "next" {
            throw CommandFailure("automatic alignment is not built yet: align ROOM using WALL to WALL (or DOOR to DOOR)",
                                 at: words.first ?? roomWord)
        }
        guard words.count == 4, words[0].text == "using", words[2].text == "to" else {
            throw CommandFailure("usage: align ROOM using WALL to WALL, or align ROOM using DOOR to DOOR", at: words.first ?? roomWord)
        }
        let room = try resolve(roomWord, allowed: [.room], what: "ROOM")
        let element = try resolve(words[1], allowed: [.wall, .door, .opening], what: "the first element (of ROOM)")
        let target = try resolve(words[3], allowed: [.wall, .door, .opening], what: "the second element (of another room)")
        let offset = try invocation.values["--offset"].map { try length($0, name: "--offset") } ?? 0
        let along = try invocation.values["--along"].map { try length($0, name: "--along") } ?? 0
        let workspace = session.workspace
        let flip = invocation.flag("--flip")
        let result: (EditPlan, Alignment)
        do {
            result = try workspace.planAlign(room: room, using: element, to: target, flip: flip, offset: offset, along: along)
        } catch {
            throw CommandFailure(error.message, at: words[1])
        }
        let (plan, alignment) = result
        let motion = alignment.motion
        let distance = (motion.translation * motion.translation).sum().squareRoot()
        let turned = motion.yaw * 180 / .pi
        let (a, b): (Double, Double) = alignment.widths
        let moved = "\(handleText(room)) moved \(formatted(distance, digits: 3)) m and turned \(formatted(turned, digits: 1))°"
        let pair = "(\(handleText(element)) onto \(handleText(target)))"
        let agreement = "now \(formatted(alignment.separation, digits: 3)) m apart, \(formatted(alignment.angle, digits: 1))° between them, "
            + "\(formatted(a, digits: 2)) and \(formatted(b, digits: 2)) m wide, overlapping \(Int((alignment.overlap * 100).rounded()))%"
        let done = moved + " " + pair + ": " + agreement
        try perform(plan, text: invocation.text, done: done)
        let difference: Double = abs(a - b)
        if difference > 0.05 && element.kind != .wall {
            inform("note: the two are \(formatted(difference * 100, digits: 0)) cm different in width: are they the same doorway?")
        }
    }
}
