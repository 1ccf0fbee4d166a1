/// Where a room sits vertically: which story and at what height its floor lies. Every place
/// that sorts rooms into stories or stacks them asks here, so they cannot disagree.
extension CapturedRoom {
    /// The room's story: its own `story`, else its first section's, else its first wall's.
    /// iOS 17 writes a story on the room and on each element; iOS 16 writes none (nil).
    public var effectiveStory: Int? {
        story ?? sections.first?.story ?? walls.first?.story
    }

    /// The world y, metres, of the floor: the median of the floors' heights; without floors
    /// (iOS 16) the median bottom of the walls (centre y less half the height, which RoomPlan
    /// makes equal to the floor's y). nil for a room with neither.
    public var floorHeight: Double? {
        if !floors.isEmpty {
            return median(floors.map { $0.transform.translation.y })
        }
        return median(walls.map { $0.transform.translation.y - Double($0.dimensions.y) / 2 })
    }

    /// Where the room lies, as one element's transform (its first wall's, else floor's, else
    /// object's, else door's or window's): a move or turn of the room changes it, an undo
    /// puts it back. nil for a room with none of these.
    var placementMark: [Float]? {
        let first = walls.first?.transform ?? floors.first?.transform ?? objects.first?.transform
            ?? doors.first?.transform ?? windows.first?.transform ?? openings.first?.transform
        return first.map { transform in (0..<16).map { transform.elements[$0] } }
    }
}
