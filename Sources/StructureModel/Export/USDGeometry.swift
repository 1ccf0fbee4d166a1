/// Polygon meshes in an element's own frame (the frame its `transform` places in the
/// world): faces wound counter-clockwise seen from outside, so with USD's default
/// right-handed orientation every face's normal points out of the solid; each face's
/// normal is also written (uniform interpolation).
struct USDMesh {
    var points: [SIMD3<Double>] = []
    var counts: [Int] = []
    var indices: [Int] = []
    var normals: [SIMD3<Double>] = []

    var isEmpty: Bool { counts.isEmpty }

    /// One planar face; `corners` in any order around it, flipped if needed so that its
    /// normal is `normal`.
    mutating func face(_ corners: [SIMD3<Double>], normal: SIMD3<Double>) {
        guard corners.count >= 3 else { return }
        var ordered = corners
        // The winding by the whole polygon (Newell's normal): a clipped face may begin with
        // three corners on one line.
        var winding = SIMD3<Double>(0, 0, 0)
        for i in corners.indices {
            let p = corners[i], q = corners[(i + 1) % corners.count]
            winding += SIMD3((p.y - q.y) * (p.z + q.z), (p.z - q.z) * (p.x + q.x), (p.x - q.x) * (p.y + q.y))
        }
        if (winding * normal).sum() < 0 { ordered.reverse() }
        let start = points.count
        points.append(contentsOf: ordered)
        counts.append(ordered.count)
        indices.append(contentsOf: start..<(start + ordered.count))
        normals.append(normal)
    }

    /// An axis-aligned rectangle in the plane z = `z`, facing +Z or -Z.
    mutating func rectangle(x0: Double, x1: Double, y0: Double, y1: Double, z: Double, facing sign: Double) {
        face([SIMD3(x0, y0, z), SIMD3(x1, y0, z), SIMD3(x1, y1, z), SIMD3(x0, y1, z)], normal: SIMD3(0, 0, sign))
    }

    /// A box centred on the origin of size `size`: six faces, or one face facing +Z (and
    /// seen from both sides) when its depth is 0, as RoomPlan writes doors and windows.
    static func box(_ size: SIMD3<Double>) -> USDMesh {
        var mesh = USDMesh()
        let h = size / 2
        if size.z <= 0 {
            mesh.rectangle(x0: -h.x, x1: h.x, y0: -h.y, y1: h.y, z: 0, facing: 1)
            return mesh
        }
        mesh.rectangle(x0: -h.x, x1: h.x, y0: -h.y, y1: h.y, z: h.z, facing: 1)
        mesh.rectangle(x0: -h.x, x1: h.x, y0: -h.y, y1: h.y, z: -h.z, facing: -1)
        for sx in [-1.0, 1.0] {
            mesh.face([SIMD3(sx * h.x, -h.y, -h.z), SIMD3(sx * h.x, h.y, -h.z), SIMD3(sx * h.x, h.y, h.z), SIMD3(sx * h.x, -h.y, h.z)],
                      normal: SIMD3(sx, 0, 0))
        }
        for sy in [-1.0, 1.0] {
            mesh.face([SIMD3(-h.x, sy * h.y, -h.z), SIMD3(h.x, sy * h.y, -h.z), SIMD3(h.x, sy * h.y, h.z), SIMD3(-h.x, sy * h.y, h.z)],
                      normal: SIMD3(0, sy, 0))
        }
        return mesh
    }

    /// A wall of `width` × `height` and `thickness` (centred on its plane, as RoomPlan
    /// centres a wall it gives a depth) with rectangular holes (in its x, y) cut through.
    /// The face is split at every hole's edges into a grid; each cell no hole covers
    /// becomes a quad on either face, and every cell edge between wall and hole (or the
    /// wall's outline) a quad across the thickness: the hole's reveal, the wall's ends.
    /// With thickness 0, one face (facing +Z) of the cells alone.
    /// With `outline` (a sloped or stepped wall's polygon, in its x, y), each cell is cut to
    /// it (to each of its convex pieces), and the wall's ends are the outline's edges.
    static func wall(width: Double, height: Double, thickness: Double, holes: [WallHole], outline: [SIMD2<Double>]? = nil) -> USDMesh {
        let hw = width / 2, hh = height / 2
        let clipper = outline.map { ring in ring.map { PlanPoint(x: $0.x, z: $0.y) }.convexPieces }
        var xs = [-hw, hw], ys = [-hh, hh]
        // (An outline reaching past the size it is given with is drawn whole.)
        for corner in outline ?? [] {
            xs += [min(-hw, corner.x), max(hw, corner.x)]
            ys += [min(-hh, corner.y), max(hh, corner.y)]
        }
        xs = [xs.min()!, xs.max()!]
        ys = [ys.min()!, ys.max()!]
        for hole in holes {
            xs += [hole.x0, hole.x1]
            ys += [hole.y0, hole.y1]
        }
        xs = Self.distinctSorted(xs)
        ys = Self.distinctSorted(ys)
        let columns = xs.count - 1, rows = ys.count - 1
        guard columns > 0, rows > 0 else { return USDMesh() }
        var solid = [Bool](repeating: true, count: columns * rows)
        for j in 0..<rows {
            for i in 0..<columns {
                let cx = (xs[i] + xs[i + 1]) / 2, cy = (ys[j] + ys[j + 1]) / 2
                if holes.contains(where: { cx > $0.x0 && cx < $0.x1 && cy > $0.y0 && cy < $0.y1 }) { solid[j * columns + i] = false }
            }
        }
        func isSolid(_ i: Int, _ j: Int) -> Bool {
            i >= 0 && j >= 0 && i < columns && j < rows && solid[j * columns + i]
        }
        var mesh = USDMesh()
        let hz = thickness / 2
        for j in 0..<rows {
            for i in 0..<columns where solid[j * columns + i] {
                let x0 = xs[i], x1 = xs[i + 1], y0 = ys[j], y1 = ys[j + 1]
                if let clipper {
                    let cell = [PlanPoint(x: x0, z: y0), PlanPoint(x: x1, z: y0), PlanPoint(x: x1, z: y1), PlanPoint(x: x0, z: y1)]
                    let kept = clipper.map { cell.clipped(toConvex: $0) }.filter { $0.count >= 3 && abs($0.signedArea) > 1e-9 }
                    guard !kept.isEmpty else { continue }
                    for piece in kept { mesh.face(piece.map { SIMD3($0.x, $0.z, hz) }, normal: SIMD3(0, 0, 1)) }
                    guard thickness > 0 else { continue }
                    for piece in kept { mesh.face(piece.map { SIMD3($0.x, $0.z, -hz) }, normal: SIMD3(0, 0, -1)) }
                    // The reveals of holes, where they lie in the outline (a window poking above a
                    // sloped wall had its jambs drawn in the air); the wall's ends are the
                    // outline's edges (below).
                    func isHole(_ a: Int, _ b: Int, _ x: Double, _ y: Double) -> Bool {
                        a >= 0 && b >= 0 && a < columns && b < rows && !solid[b * columns + a] && Self.encloses(outline!, SIMD2(x, y))
                    }
                    if isHole(i - 1, j, x0, (y0 + y1) / 2) {
                        mesh.face([SIMD3(x0, y0, -hz), SIMD3(x0, y1, -hz), SIMD3(x0, y1, hz), SIMD3(x0, y0, hz)], normal: SIMD3(-1, 0, 0))
                    }
                    if isHole(i + 1, j, x1, (y0 + y1) / 2) {
                        mesh.face([SIMD3(x1, y0, -hz), SIMD3(x1, y1, -hz), SIMD3(x1, y1, hz), SIMD3(x1, y0, hz)], normal: SIMD3(1, 0, 0))
                    }
                    if isHole(i, j - 1, (x0 + x1) / 2, y0) {
                        mesh.face([SIMD3(x0, y0, -hz), SIMD3(x1, y0, -hz), SIMD3(x1, y0, hz), SIMD3(x0, y0, hz)], normal: SIMD3(0, -1, 0))
                    }
                    if isHole(i, j + 1, (x0 + x1) / 2, y1) {
                        mesh.face([SIMD3(x0, y1, -hz), SIMD3(x1, y1, -hz), SIMD3(x1, y1, hz), SIMD3(x0, y1, hz)], normal: SIMD3(0, 1, 0))
                    }
                    continue
                }
                mesh.rectangle(x0: x0, x1: x1, y0: y0, y1: y1, z: hz, facing: 1)
                guard thickness > 0 else { continue }
                mesh.rectangle(x0: x0, x1: x1, y0: y0, y1: y1, z: -hz, facing: -1)
                if !isSolid(i - 1, j) {
                    mesh.face([SIMD3(x0, y0, -hz), SIMD3(x0, y1, -hz), SIMD3(x0, y1, hz), SIMD3(x0, y0, hz)], normal: SIMD3(-1, 0, 0))
                }
                if !isSolid(i + 1, j) {
                    mesh.face([SIMD3(x1, y0, -hz), SIMD3(x1, y1, -hz), SIMD3(x1, y1, hz), SIMD3(x1, y0, hz)], normal: SIMD3(1, 0, 0))
                }
                if !isSolid(i, j - 1) {
                    mesh.face([SIMD3(x0, y0, -hz), SIMD3(x1, y0, -hz), SIMD3(x1, y0, hz), SIMD3(x0, y0, hz)], normal: SIMD3(0, -1, 0))
                }
                if !isSolid(i, j + 1) {
                    mesh.face([SIMD3(x0, y1, -hz), SIMD3(x1, y1, -hz), SIMD3(x1, y1, hz), SIMD3(x0, y1, hz)], normal: SIMD3(0, 1, 0))
                }
            }
        }
        if let outline, thickness > 0 {
            // The wall's ends, top and bottom: a quad across the thickness along each edge of the
            // outline (turned counter-clockwise, each edge's outward normal is its direction
            // turned clockwise).
            var ring = outline.enumerated().filter { index, p in
                let next = outline[(index + 1) % outline.count]
                return ((p - next) * (p - next)).sum() > 1e-12
            }.map(\.element)
            var area = 0.0
            for i in ring.indices { area += ring[i].x * ring[(i + 1) % ring.count].y - ring[(i + 1) % ring.count].x * ring[i].y }
            if area < 0 { ring.reverse() }
            for i in ring.indices where ring.count >= 3 {
                let a = ring[i], b = ring[(i + 1) % ring.count], d = b - a
                let length = (d * d).sum().squareRoot()
                let outward = SIMD2(d.y / length, -d.x / length)
                // Cut where the edge crosses the grid's lines; a piece whose cell inside is a hole
                // (a door standing on the wall's bottom edge) has no wall to end.
                var cuts = [0.0, 1.0]
                for x in xs where d.x != 0 { cuts.append((x - a.x) / d.x) }
                for y in ys where d.y != 0 { cuts.append((y - a.y) / d.y) }
                let pieces = Self.distinctSorted(cuts.filter { $0 > 0 && $0 < 1 } + [0, 1])
                for k in 0..<(pieces.count - 1) {
                    let p = a + d * pieces[k], q = a + d * pieces[k + 1]
                    let inside = (p + q) / 2 - outward * 1e-6
                    guard let column = xs.firstIndex(where: { $0 > inside.x }), column > 0,
                          let row = ys.firstIndex(where: { $0 > inside.y }), row > 0, isSolid(column - 1, row - 1) else { continue }
                    mesh.face([SIMD3(p.x, p.y, -hz), SIMD3(q.x, q.y, -hz), SIMD3(q.x, q.y, hz), SIMD3(p.x, p.y, hz)],
                              normal: SIMD3(outward.x, outward.y, 0))
                }
            }
        }
        return mesh
    }

    /// Whether `point` lies inside `ring` (or on it, within a micrometre).
    static func encloses(_ ring: [SIMD2<Double>], _ point: SIMD2<Double>) -> Bool {
        var inside = false
        for i in ring.indices {
            let a = ring[i], b = ring[(i + 1) % ring.count]
            let d = b - a, length = (d * d).sum()
            if length > 0 {
                let t = max(0, min(1, ((point - a) * d).sum() / length))
                let gap = point - (a + d * t)
                if (gap * gap).sum() < 1e-12 { return true }
            }
            if (a.y > point.y) != (b.y > point.y), point.x < a.x + (point.y - a.y) * (b.x - a.x) / (b.y - a.y) { inside.toggle() }
        }
        return inside
    }

    /// Whether a ring's edges cross one another (a bow tie): such an outline has no inside to cut
    /// cells to.
    static func crossesItself(_ ring: [SIMD2<Double>]) -> Bool {
        func side(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ c: SIMD2<Double>) -> Double {
            (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
        }
        let n = ring.count
        for i in 0..<n {
            let a = ring[i], b = ring[(i + 1) % n]
            for j in (i + 2)..<max(i + 2, n) where !(i == 0 && j == n - 1) {
                let c = ring[j], d = ring[(j + 1) % n]
                if side(a, b, c) * side(a, b, d) < 0 && side(c, d, a) * side(c, d, b) < 0 { return true }
            }
        }
        return false
    }

    /// Values closer than a micrometre are one grid line (no sliver cells).
    private static func distinctSorted(_ values: [Double]) -> [Double] {
        var result: [Double] = []
        for v in values.sorted() where result.last.map({ v - $0 > 1e-6 }) ?? true { result.append(v) }
        return result
    }

    /// A floor polygon (in its plane's x, y) as triangles facing `up` (its local +Z or -Z,
    /// whichever is world up), so concave rooms render as they are in every viewer.
    static func polygon(_ corners: [SIMD3<Double>], facing up: Double) -> USDMesh {
        var mesh = USDMesh()
        var ring = corners
        // Repeated corners (a closed ring, or noise) are dropped.
        ring = ring.enumerated().filter { index, p in
            let next = ring[(index + 1) % ring.count]
            return ((p - next) * (p - next)).sum() > 1e-12
        }.map(\.element)
        guard ring.count >= 3 else { return mesh }
        let normal = SIMD3<Double>(0, 0, up)
        for triangle in earClip(ring.map { SIMD2($0.x, $0.y) }) {
            mesh.face(triangle.map { ring[$0] }, normal: normal)
        }
        return mesh
    }

    /// Ear clipping of a simple polygon (either winding): index triples. A polygon that
    /// is not simple still yields triangles covering it, by a fan over what is left.
    static func earClip(_ polygon: [SIMD2<Double>]) -> [[Int]] {
        var area = 0.0
        for i in polygon.indices {
            let a = polygon[i], b = polygon[(i + 1) % polygon.count]
            area += a.x * b.y - b.x * a.y
        }
        var remaining = Array(polygon.indices)
        if area < 0 { remaining.reverse() }
        func cross2(_ o: SIMD2<Double>, _ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
            (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
        }
        var triangles: [[Int]] = []
        while remaining.count > 3 {
            var clipped = false
            for k in remaining.indices {
                let ip = remaining[(k + remaining.count - 1) % remaining.count], ic = remaining[k], inx = remaining[(k + 1) % remaining.count]
                let p = polygon[ip], c = polygon[ic], n = polygon[inx]
                guard cross2(p, c, n) > 1e-12 else { continue }
                let inside = remaining.contains { j in
                    guard j != ip && j != ic && j != inx else { return false }
                    let q = polygon[j]
                    return cross2(p, c, q) >= 0 && cross2(c, n, q) >= 0 && cross2(n, p, q) >= 0
                }
                if inside { continue }
                triangles.append([ip, ic, inx])
                remaining.remove(at: k)
                clipped = true
                break
            }
            if !clipped { break }
        }
        if remaining.count >= 3 {
            for k in 1..<(remaining.count - 1) { triangles.append([remaining[0], remaining[k], remaining[k + 1]]) }
        }
        return triangles
    }

    /// The smallest box holding every point: USD's `extent`.
    var extent: (SIMD3<Double>, SIMD3<Double>) {
        guard var low = points.first else { return (.zero, .zero) }
        var high = low
        for p in points {
            low = pointwiseMin(low, p)
            high = pointwiseMax(high, p)
        }
        return (low, high)
    }
}

/// A hole in a wall, in the wall's own x (along it) and y (up), metres.
struct WallHole: Equatable {
    var x0: Double, x1: Double, y0: Double, y1: Double
}
