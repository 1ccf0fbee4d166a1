import Foundation

/// A room's extent in plan, and which side of each of its walls is inside: what a plan needs
/// to fill rooms, place labels and draw doors swinging into the room.
extension CapturedRoom {
    /// A floor enclosing less than this (m²) outlines nothing (`check` flags it too).
    public static let leastFloorArea = 0.01

    /// Both ends of every wall.
    var wallEnds: [PlanPoint] {
        walls.flatMap { [$0.planSegment.start, $0.planSegment.end] }
    }

    /// The room's outline in plan: its floor polygons; for a capture without floors (iOS 16
    /// has none) its walls chained into a loop, or where they do not close into one the hull
    /// of their ends. Empty when none gives an area.
    public var planOutlines: [[PlanPoint]] {
        // A floor whose corners enclose no area (collinear, one point repeated: `check` says so)
        // outlines nothing: the walls' loop does, as for a room without a floor.
        let floors = floors.map(\.planPolygon).filter { $0.count >= 3 && abs(polygonArea($0)) >= Self.leastFloorArea }
        if !floors.isEmpty { return floors }
        if let loop = wallLoop { return [loop] }
        let hull = convexHull(wallEnds)
        return hull.count >= 3 ? [hull] : []
    }

    /// The walls chained end to end into one simple loop: from the first wall, each next wall
    /// the one whose nearer end is nearest the last one's far end (at most `loopGap` away),
    /// the loop closing on the first. Two walls that meet at an angle meet where their lines
    /// cross (a scan's walls stop a little short of a corner or run a little past it, and two
    /// that run past would cross); two on about one line (a wall scanned in two parts) meet
    /// halfway between their ends. It follows an L's walls into its inner corner, which the
    /// hull of the walls' ends cuts across: that hull took a floorless L-shaped room to
    /// overlap its neighbours by square metres where it truly met them, and sided walls at the
    /// inner corner wrongly. Nil when the walls leave a wider gap, cross, or are more than
    /// `loopWallLimit` (the check is quadratic).
    var wallLoop: [PlanPoint]? {
        var segments = walls.map(\.planSegment).filter { $0.length > 0.05 }
        guard segments.count >= 3, segments.count <= Self.loopWallLimit else { return nil }
        var chain = [segments.removeFirst()]
        while !segments.isEmpty {
            let end = chain[chain.count - 1].end
            var best: (index: Int, reversed: Bool, distance: Double)?
            for (index, segment) in segments.enumerated() {
                for (reversed, near) in [(false, segment.start), (true, segment.end)] {
                    let distance = near.distance(to: end)
                    if distance < (best?.distance ?? .infinity) { best = (index, reversed, distance) }
                }
            }
            guard let best, best.distance <= Self.loopGap else { return nil }
            let segment = segments.remove(at: best.index)
            chain.append(best.reversed ? PlanSegment(start: segment.end, end: segment.start) : segment)
        }
        guard chain[chain.count - 1].end.distance(to: chain[0].start) <= Self.loopGap else { return nil }
        var loop: [PlanPoint] = []
        for (k, a) in chain.enumerated() {
            let b = chain[(k + 1) % chain.count]
            let u = a.direction.normalized, v = b.direction.normalized
            let sine = u.cross(v)
            if abs(sine) > sin(20 * Double.pi / 180) {
                // Where the two lines cross: a.end + u·s = b.start + v·r.
                let s = (b.start - a.end).cross(v) / sine
                let corner = a.end + u * s
                if corner.distance(to: a.end) <= Self.loopGap && corner.distance(to: b.start) <= Self.loopGap {
                    loop.append(corner)
                    continue
                }
            } else if a.end.distance(to: b.start) <= 0.3 {
                loop.append((a.end + b.start) * 0.5)
                continue
            }
            loop += [a.end, b.start]
        }
        guard loop.count >= 3, polygonArea(loop) > 0.5, loop.isSimplePolygon else { return nil }
        return loop
    }

    /// The widest gap between one wall's end and the next's that still closes a loop: a wall
    /// scanned only in part leaves a third of its length open, one not scanned at all its
    /// whole length (the loop then closes across it, where the room ends).
    static var loopGap: Double { 4.0 }
    static var loopWallLimit: Int { 64 }

    /// The middle of the walls' extent (of the objects' centres without walls): the pivot a
    /// room turns about, and where a room without sections is labelled.
    public var planCentre: PlanPoint? {
        let ends = wallEnds
        let points = ends.isEmpty ? objects.map { PlanPoint($0.transform.translation) } : ends
        return PlanBounds(containing: points)?.centre
    }

    /// A point inside the room: the centroid of its largest outline when that lies inside it
    /// (an L- or U-shaped room's may not), else the centroid of the largest of its triangles.
    /// An outline of more than `triangulationLimit` corners takes the middle of the widest span
    /// of a line across it instead: ear clipping grows as the cube of the corners where no ear is
    /// found (a crafted floor of 10,000 self-crossing corners held `plan` 58 s; a merged floor of
    /// a thousand rooms has a few thousand).
    public var interiorPoint: PlanPoint? {
        guard let outline = planOutlines.max(by: { polygonArea($0) < polygonArea($1) }) else { return nil }
        if let centroid = outline.centroid, outline.encloses(centroid) { return centroid }
        if outline.count > Self.triangulationLimit { return outline.pointInsideAcross() }
        return outline.triangulated().max { polygonArea($0) < polygonArea($1) }?.centroid
    }
    static var triangulationLimit: Int { 256 }

    /// Which side of `surface`'s plan segment the room lies on: +1 on the side its `normal`
    /// points to, -1 on the other; nil when it cannot tell (no outline, or a zero-width surface).
    ///
    /// Decided next to the surface, by probing a little way out on both sides of its middle,
    /// because in a concave room a point inside (such as `interiorPoint`) can lie beyond the
    /// line of a wall at an inner corner. Where both probes or neither fall inside (a wall
    /// inside the room, or a hull that covers both sides), the side of `interiorPoint` decides.
    public func insideSide(of surface: Surface) -> Int? {
        let segment = surface.planSegment
        guard segment.length > 0 else { return nil }
        let outlines = planOutlines
        let probe = segment.normal * Self.insideProbeDistance
        let positive = outlines.contains { $0.encloses(segment.midpoint + probe) }
        let negative = outlines.contains { $0.encloses(segment.midpoint - probe) }
        if positive != negative { return positive ? 1 : -1 }
        guard let inside = interiorPoint else { return nil }
        let side = segment.side(of: inside)
        return side == 0 ? nil : side
    }

    /// The unit normal of `surface`'s plan segment that points into the room.
    public func inwardNormal(of surface: Surface) -> PlanPoint? {
        insideSide(of: surface).map { surface.planSegment.normal * Double($0) }
    }

    /// Far enough to clear the few centimetres by which a floor's edge and a wall's centre
    /// line disagree; near enough to stay inside the narrowest room.
    private static var insideProbeDistance: Double { 0.2 }
}

extension Surface {
    /// The unit normal of the plan segment on the side of `inside`, a point known to be in the
    /// room (a floor's centroid, say); nil when the point lies on the segment's line.
    public func inwardNormal(toward inside: PlanPoint) -> PlanPoint? {
        let segment = planSegment
        let side = segment.side(of: inside)
        return side == 0 ? nil : segment.normal * Double(side)
    }
}
