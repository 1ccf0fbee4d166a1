import Foundation

/// Where a room goes when a person says which of its walls (or doors) is which wall (or
/// door) of another room, and how well the two then agree.
public struct Alignment: Sendable, Equatable {
    /// The motion of the moving room: a turn about the vertical axis, then a translation.
    public var motion: RigidMotion
    /// Afterwards: how far apart the two lines are (mean distance of the moving element's
    /// ends from the other's line), metres.
    public var separation: Double
    /// Afterwards: the angle between the two lines, degrees (0 when parallel or anti-parallel).
    public var angle: Double
    /// The two elements' widths, metres (moving first).
    public var widths: (Double, Double)
    /// How much of the shorter one lies along the longer one afterwards, 0 to 1.
    public var overlap: Double

    public static func == (a: Alignment, b: Alignment) -> Bool {
        a.motion == b.motion && a.separation == b.separation && a.angle == b.angle && a.widths == b.widths
            && a.overlap == b.overlap
    }
}

/// Alignment by hand: the moving room turned so that its element faces the other across
/// their common plane (each room on its own side; `flip` puts it on the same side, for a
/// rescan of the same room), moved so that the two planes are `offset` apart (a wall's
/// thickness, when the two scans saw its two faces) and the two middles line up (shifted
/// by `along`), and raised so that the two bottoms (the floors) are level.
public enum ManualAlignment {
    public static func align(_ moving: Surface, in room: CapturedRoom, onto target: Surface, in targetRoom: CapturedRoom,
                             flip: Bool = false, offset: Double = 0, along: Double = 0) throws(EditError) -> Alignment {
        let a = moving.planSegment, b = target.planSegment
        guard a.length > 1e-6, b.length > 1e-6 else {
            let flat = a.length <= 1e-6 ? moving : target
            // A width with a zeroed direction column is a transform that is no rotation, not a narrow wall.
            let why = flat.dimensions.x != 0 ? "with no direction (its transform is no rotation)" : "of no width"
            throw EditError("a \(flat.category.name) \(why) cannot be aligned")
        }
        // A transform out of any scan's range (a wall 3e38 m away) overflows what follows: said
        // as such, not as a room without a floor.
        for (element, segment, whose) in [(moving, a, "its"), (target, b, "the other")] {
            let far = [segment.start, segment.end].map { max(abs($0.x), abs($0.z)) }.max()!
            guard far.isFinite, far <= Self.farthest else {
                throw EditError("the \(element.category.name) of \(whose) room lies \(far.isFinite ? String(format: "%.3g m", far) : "infinitely far") "
                                + "from the origin: its transform is out of any scan's range (check names such elements)")
            }
        }
        guard let inA = room.inwardNormal(of: moving) else {
            throw EditError("cannot tell which side of the \(moving.category.name) its room is on (the room has no floor and no outline)")
        }
        guard let inB = targetRoom.inwardNormal(of: target) else {
            throw EditError("cannot tell which side of the \(target.category.name) the other room is on (it has no floor and no outline)")
        }
        // Each room on its own side of the common plane: the moving room's inward normal
        // becomes the opposite of the other's (the same, with flip).
        let wanted = flip ? inB : inB * -1
        let yaw = turn(from: inA, to: wanted)
        let turned = RigidMotion(yaw: yaw)
        let plane = b.midpoint - inB * offset * (flip ? -1 : 1)
        let goal = plane + b.direction.normalized * along
        let middle = turned.apply(toPoint: SIMD3(a.midpoint.x, 0, a.midpoint.z))
        let rise = bottom(of: target) - bottom(of: moving)
        let motion = RigidMotion(yaw: yaw, translation: SIMD3(goal.x - middle.x, rise, goal.z - middle.z))
        return measure(moving.moved(by: motion), against: target, motion: motion)
    }

    /// How far from the origin an element to align may lie, metres: no scan spans 1,000 km.
    static let farthest = 1e6

    /// How a moved element and its partner agree.
    static func measure(_ moved: Surface, against target: Surface, motion: RigidMotion) -> Alignment {
        let a = moved.planSegment, b = target.planSegment
        let separation = (b.signedDistance(to: a.start).magnitude + b.signedDistance(to: a.end).magnitude) / 2
        let cosine = min(1, abs(a.direction.normalized.dot(b.direction.normalized)))
        let angle = acos(cosine) * 180 / .pi
        let t0 = b.parameter(of: a.start), t1 = b.parameter(of: a.end)
        let covered = max(0, min(1, max(t0, t1)) - max(0, min(t0, t1))) * b.length
        let overlap = covered / max(1e-9, min(a.length, b.length))
        return Alignment(motion: motion, separation: separation, angle: angle, widths: (a.length, b.length), overlap: min(1, overlap))
    }

    /// The yaw that turns direction `a` onto direction `b`, in `RigidMotion`'s sense.
    static func turn(from a: PlanPoint, to b: PlanPoint) -> Double {
        let angle = atan2(a.cross(b), a.dot(b))
        // Whichever sign `rotated(by:)` uses, pick the one that lands on b.
        return a.rotated(by: angle).distance(to: b.normalized * a.length) < a.rotated(by: -angle).distance(to: b.normalized * a.length)
            ? angle : -angle
    }

    /// The world height of a wall's or door's lower edge: the floor it stands on.
    static func bottom(of surface: Surface) -> Double {
        surface.transform.translation.y - Double(surface.dimensions.y) / 2
    }
}
