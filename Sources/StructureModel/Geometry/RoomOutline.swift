/// A room's extent in plan, and which side of each of its walls is inside: what a plan needs
/// to fill rooms, place labels and draw doors swinging into the room.
extension CapturedRoom {
    /// Both ends of every wall.
    var wallEnds: [PlanPoint] {
        walls.flatMap { [$0.planSegment.start, $0.planSegment.end] }
    }

    /// The room's outline in plan: its floor polygons, or the hull of its walls' ends for a
    /// capture without floors (iOS 16 has none). Empty when neither gives an area.
    public var planOutlines: [[PlanPoint]] {
        let floors = floors.map(\.planPolygon).filter { $0.count >= 3 }
        if !floors.isEmpty { return floors }
        let hull = convexHull(wallEnds)
        return hull.count >= 3 ? [hull] : []
    }

    /// The middle of the walls' extent (of the objects' centres without walls): the pivot a
    /// room turns about, and where a room without sections is labelled.
    public var planCentre: PlanPoint? {
        let ends = wallEnds
        let points = ends.isEmpty ? objects.map { PlanPoint($0.transform.translation) } : ends
        return PlanBounds(containing: points)?.centre
    }

    /// A point inside the room: the centroid of its largest outline when that lies inside it
    /// (an L- or U-shaped room's may not), else the centroid of the largest of its triangles.
    public var interiorPoint: PlanPoint? {
        guard let outline = planOutlines.max(by: { polygonArea($0) < polygonArea($1) }) else { return nil }
        if let centroid = outline.centroid, outline.encloses(centroid) { return centroid }
        return outline.triangulated().max { polygonArea($0) < polygonArea($1) }?.centroid
    }

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
