/// A point of a generated floor plan in whole centimetres (plan X and Z, before the
/// building is turned). Layouts live on this grid so that the two rooms' edges along one
/// wall match exactly and a story's rooms tile its footprint with no gap or overlap.
struct GridPoint: Hashable, Comparable {
    var x: Int
    var z: Int

    static func < (a: GridPoint, b: GridPoint) -> Bool { (a.x, a.z) < (b.x, b.z) }
    static func + (a: GridPoint, b: GridPoint) -> GridPoint { GridPoint(x: a.x + b.x, z: a.z + b.z) }
    static func - (a: GridPoint, b: GridPoint) -> GridPoint { GridPoint(x: a.x - b.x, z: a.z - b.z) }
    static func * (a: GridPoint, k: Int) -> GridPoint { GridPoint(x: a.x * k, z: a.z * k) }

    /// In metres, as (x, z).
    var metres: SIMD2<Double> { SIMD2(Double(x) / 100, Double(z) / 100) }

    /// The unit step along an axis-aligned direction (each component -1, 0 or 1).
    var sign: GridPoint { GridPoint(x: x.signum(), z: z.signum()) }

    func cross(_ other: GridPoint) -> Int { x * other.z - z * other.x }
    func dot(_ other: GridPoint) -> Int { x * other.x + z * other.z }
}

/// An axis-aligned rectangle on the grid (x0 < x1, z0 < z1).
struct GridRect: Hashable {
    var x0, z0, x1, z1: Int

    var width: Int { x1 - x0 }
    var depth: Int { z1 - z0 }
    var area: Int { max(0, width) * max(0, depth) }

    /// Corners in the order every generated polygon keeps: positive signed area in (x, z),
    /// so the room lies to the left of each edge, where `surfaceTransform` puts a wall's
    /// local Z.
    var corners: [GridPoint] {
        [GridPoint(x: x0, z: z0), GridPoint(x: x1, z: z0), GridPoint(x: x1, z: z1), GridPoint(x: x0, z: z1)]
    }

    /// The largest rectangle of `self` that misses `hole`, keeping to one side of it: what
    /// is left to furnish once a notch has gone to a neighbour.
    func largestPart(avoiding hole: GridRect) -> GridRect {
        guard hole.x0 < x1, hole.x1 > x0, hole.z0 < z1, hole.z1 > z0 else { return self }
        let parts = [GridRect(x0: x0, z0: z0, x1: hole.x0, z1: z1), GridRect(x0: hole.x1, z0: z0, x1: x1, z1: z1),
                     GridRect(x0: x0, z0: z0, x1: x1, z1: hole.z0), GridRect(x0: x0, z0: hole.z1, x1: x1, z1: z1)]
        return parts.max { $0.area < $1.area }!
    }
}

/// Simple polygons on the grid, edges axis-aligned or at 45°, kept with positive signed
/// area and without repeated or collinear corners (each corner of a room is a wall's end).
enum GridPolygon {
    static func doubledArea(_ points: [GridPoint]) -> Int {
        var twice = 0
        for i in points.indices {
            twice += points[i].cross(points[(i + 1) % points.count])
        }
        return twice
    }

    /// Without repeated corners and corners in the middle of a straight run (or at the tip
    /// of a spike, where an edge doubles back on itself).
    static func cleaned(_ points: [GridPoint]) -> [GridPoint] {
        var result = points
        var changed = true
        while changed && result.count >= 3 {
            changed = false
            var i = 0
            while i < result.count && result.count >= 3 {
                let n = result.count
                let previous = result[(i + n - 1) % n], current = result[i], next = result[(i + 1) % n]
                if (current - previous).cross(next - current) == 0 {
                    result.remove(at: i)
                    changed = true
                } else {
                    i += 1
                }
            }
        }
        return result
    }

    /// Replaces the stretch from `p` to `q` of the edge that holds both (in that order)
    /// with a path through `via`: a notch, an alcove, a bay.
    static func insertingDetour(_ points: [GridPoint], from p: GridPoint, to q: GridPoint,
                                via: [GridPoint]) -> [GridPoint]? {
        for i in points.indices {
            let start = points[i], end = points[(i + 1) % points.count]
            let edge = end - start
            guard edge.cross(p - start) == 0, edge.cross(q - start) == 0 else { continue }
            let a = edge.dot(p - start), b = edge.dot(q - start), full = edge.dot(edge)
            guard 0 <= a, a < b, b <= full else { continue }
            var result = points
            result.insert(contentsOf: [p] + via + [q], at: i + 1)
            return cleaned(result)
        }
        return nil
    }

    /// The corner at `corner` replaced by a 45° wall whose legs are `leg` long.
    static func cuttingCorner(_ points: [GridPoint], at corner: GridPoint, leg: Int) -> [GridPoint]? {
        guard let i = points.firstIndex(of: corner) else { return nil }
        let n = points.count
        let towardPrevious = (points[(i + n - 1) % n] - corner).sign
        let towardNext = (points[(i + 1) % n] - corner).sign
        var result = points
        result.replaceSubrange(i...i, with: [corner + towardPrevious * leg, corner + towardNext * leg])
        return cleaned(result)
    }

    /// Lengths of the two edges that meet at `corner`, in centimetres along the grid.
    static func edgeSpans(_ points: [GridPoint], at corner: GridPoint) -> (Int, Int)? {
        guard let i = points.firstIndex(of: corner) else { return nil }
        let n = points.count
        let a = points[(i + n - 1) % n] - corner, b = points[(i + 1) % n] - corner
        return (max(abs(a.x), abs(a.z)), max(abs(b.x), abs(b.z)))
    }
}
