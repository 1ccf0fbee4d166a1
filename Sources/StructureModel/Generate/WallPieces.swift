/// A straight line of the plan grid that walls run along: horizontal (z fixed), vertical
/// (x fixed) or at 45°. Points on it are found by one parameter (x, or z for vertical lines).
struct WallLine: Hashable, Comparable {
    /// 0 along x, 1 along z, 2 rising (dz = dx), 3 falling (dz = -dx).
    var kind: Int
    var offset: Int

    static func < (a: WallLine, b: WallLine) -> Bool { (a.kind, a.offset) < (b.kind, b.offset) }

    /// The line through an edge, the edge's parameters, and whether it runs toward higher ones.
    static func of(_ start: GridPoint, _ end: GridPoint) -> (line: WallLine, from: Int, to: Int) {
        let d = end - start
        if d.z == 0 { return (WallLine(kind: 0, offset: start.z), start.x, end.x) }
        if d.x == 0 { return (WallLine(kind: 1, offset: start.x), start.z, end.z) }
        if d.x == d.z { return (WallLine(kind: 2, offset: start.z - start.x), start.x, end.x) }
        precondition(d.x == -d.z, "generated walls are axis-aligned or at 45°")
        return (WallLine(kind: 3, offset: start.z + start.x), start.x, end.x)
    }

    func point(_ parameter: Int) -> GridPoint {
        switch kind {
        case 0: return GridPoint(x: parameter, z: offset)
        case 1: return GridPoint(x: offset, z: parameter)
        case 2: return GridPoint(x: parameter, z: parameter + offset)
        default: return GridPoint(x: parameter, z: offset - parameter)
        }
    }

    /// Metres of wall per unit of parameter.
    var scale: Double { kind >= 2 ? 2.0.squareRoot() / 100 : 0.01 }

    /// The point at a fractional parameter, in metres (x, z).
    func metres(at parameter: Double) -> SIMD2<Double> {
        switch kind {
        case 0: return SIMD2(parameter, Double(offset)) / 100
        case 1: return SIMD2(Double(offset), parameter) / 100
        case 2: return SIMD2(parameter, parameter + Double(offset)) / 100
        default: return SIMD2(parameter, Double(offset) - parameter) / 100
        }
    }
}

/// A stretch of one wall between two rooms, or between a room and outside: what a
/// structure keeps once. `plus` is the room whose edge runs toward higher parameters,
/// `minus` the room on the other side, whose edge runs back.
struct WallPiece {
    var line: WallLine
    var low: Int
    var high: Int
    var plus: Int?
    var minus: Int?
    /// Centimetres, from face to face.
    var thickness: Int

    var isExterior: Bool { plus == nil || minus == nil }
    var length: Double { Double(high - low) * line.scale }
    /// Every room beside it, `plus` first.
    var rooms: [Int] { [plus, minus].compactMap { $0 } }

    /// The ends on the centre line as seen from `room` (its edge's direction), in metres.
    func ends(from room: Int) -> (start: SIMD2<Double>, end: SIMD2<Double>) {
        let a = line.point(low).metres, b = line.point(high).metres
        return room == plus ? (a, b) : (b, a)
    }
}

/// The walls of one room as its own capture sees them: each a straight run of its outline
/// along pieces of one thickness (a hallway's side is one wall however many rooms are
/// across it).
struct WallRun {
    var pieces: [Int]
    var start: GridPoint
    var end: GridPoint
    /// Centimetres.
    var thickness: Int
    var isExterior: Bool

    var direction: SIMD2<Double> {
        let d = (end - start).metres
        return d / (d * d).sum().squareRoot()
    }

    /// Into the room (left of the direction in (x, z)), as `surfaceTransform` puts a wall's local Z.
    var inward: SIMD2<Double> { SIMD2(-direction.y, direction.x) }
}

/// Finds the pieces of a story's walls and each room's runs: every room edge is bucketed
/// by the line it lies on, and each line is swept once, so the work is linear in the
/// number of edges (up to sorting within a line).
struct StoryWalls {
    var pieces: [WallPiece] = []
    /// For each room (story-local), its runs in outline order.
    var runs: [[WallRun]] = []
    /// For each piece, the run holding it in its plus room and in its minus room.
    var runOfPiece: [(plus: Int?, minus: Int?)] = []

    init(rooms: [[GridPoint]], exteriorThickness: Int, rng: inout SplitMix) {
        struct EdgeRef {
            var room: Int
            var edge: Int
            var low: Int
            var high: Int
            var increasing: Bool
        }
        var buckets: [WallLine: [EdgeRef]] = [:]
        for (room, polygon) in rooms.enumerated() {
            for edge in polygon.indices {
                let (line, from, to) = WallLine.of(polygon[edge], polygon[(edge + 1) % polygon.count])
                buckets[line, default: []].append(
                    EdgeRef(room: room, edge: edge, low: min(from, to), high: max(from, to), increasing: to > from))
            }
        }
        var edgePieces: [[[Int]]] = rooms.map { Array(repeating: [], count: $0.count) }
        // Sorted lines, so that thicknesses are drawn in the same order on every machine.
        for line in buckets.keys.sorted() {
            let edges = buckets[line]!
            let plus = edges.filter(\.increasing).sorted { $0.low < $1.low }
            let minus = edges.filter { !$0.increasing }.sorted { $0.low < $1.low }
            let cuts = Array(Set(edges.flatMap { [$0.low, $0.high] })).sorted()
            var interiorThickness: Int?
            var ip = 0, im = 0
            let first = pieces.count
            for k in cuts.indices.dropLast() {
                let a = cuts[k], b = cuts[k + 1]
                while ip < plus.count && plus[ip].high <= a { ip += 1 }
                while im < minus.count && minus[im].high <= a { im += 1 }
                let p = ip < plus.count && plus[ip].low <= a ? plus[ip] : nil
                let m = im < minus.count && minus[im].low <= a ? minus[im] : nil
                guard p != nil || m != nil else { continue }
                if pieces.count > first, let last = pieces.last, last.high == a,
                   last.plus == p?.room, last.minus == m?.room {
                    pieces[pieces.count - 1].high = b
                    continue
                }
                var thickness = exteriorThickness
                if p != nil && m != nil {
                    if interiorThickness == nil { interiorThickness = rng.int(8...20) }
                    thickness = interiorThickness!
                }
                pieces.append(WallPiece(line: line, low: a, high: b, plus: p?.room, minus: m?.room, thickness: thickness))
                if let p { edgePieces[p.room][p.edge].append(pieces.count - 1) }
                if let m { edgePieces[m.room][m.edge].append(pieces.count - 1) }
            }
        }
        runOfPiece = Array(repeating: (nil, nil), count: pieces.count)
        for (room, polygon) in rooms.enumerated() {
            var roomRuns: [WallRun] = []
            for edge in polygon.indices {
                let start = polygon[edge], end = polygon[(edge + 1) % polygon.count]
                let increasing = WallLine.of(start, end).to > WallLine.of(start, end).from
                let along = increasing ? edgePieces[room][edge] : edgePieces[room][edge].reversed()
                for index in along {
                    let piece = pieces[index]
                    let (a, b) = increasing ? (piece.line.point(piece.low), piece.line.point(piece.high))
                        : (piece.line.point(piece.high), piece.line.point(piece.low))
                    if let last = roomRuns.last, last.end == a, last.thickness == piece.thickness,
                       last.isExterior == piece.isExterior, (last.end - last.start).cross(b - a) == 0 {
                        roomRuns[roomRuns.count - 1].end = b
                        roomRuns[roomRuns.count - 1].pieces.append(index)
                    } else {
                        roomRuns.append(WallRun(pieces: [index], start: a, end: b, thickness: piece.thickness,
                                                isExterior: piece.isExterior))
                    }
                    if piece.plus == room { runOfPiece[index].plus = roomRuns.count - 1 } else {
                        runOfPiece[index].minus = roomRuns.count - 1
                    }
                }
            }
            runs.append(roomRuns)
        }
    }

    /// The run of `room` that holds `piece`.
    func run(of piece: Int, in room: Int) -> Int? {
        pieces[piece].plus == room ? runOfPiece[piece].plus : runOfPiece[piece].minus
    }

    /// The story's outline: the outside pieces chained end to start, straight runs joined.
    /// Generated stories have no courtyards, so this is one loop.
    func outline() -> [GridPoint] {
        var next: [GridPoint: GridPoint] = [:]
        for piece in pieces where piece.isExterior {
            let a = piece.line.point(piece.low), b = piece.line.point(piece.high)
            if piece.plus != nil { next[a] = b } else { next[b] = a }
        }
        guard let start = next.keys.min() else { return [] }
        var loop = [start]
        var current = next[start]!
        while current != start, loop.count <= next.count {
            loop.append(current)
            current = next[current]!
        }
        return GridPolygon.cleaned(loop)
    }

    /// Where each run of a room lies in a capture: `offsets[j]` metres into the room from
    /// the centre line of run j. Ends are where neighbouring runs' lines meet, so a room's
    /// walls close like a real capture's.
    static func copies(of runs: [WallRun], offsets: [Double]) -> [(start: SIMD2<Double>, end: SIMD2<Double>)] {
        func line(_ j: Int) -> (point: SIMD2<Double>, direction: SIMD2<Double>) {
            (runs[j].start.metres + runs[j].inward * offsets[j], runs[j].direction)
        }
        func meet(_ i: Int, _ j: Int, fallback: SIMD2<Double>) -> SIMD2<Double> {
            let (p, d) = line(i), (q, e) = line(j)
            let denominator = d.x * e.y - d.y * e.x
            guard abs(denominator) > 1e-9 else { return fallback }
            let w = q - p
            let t = (w.x * e.y - w.y * e.x) / denominator
            return p + d * t
        }
        let n = runs.count
        return runs.indices.map { j in
            let start = meet((j + n - 1) % n, j, fallback: runs[j].start.metres + runs[j].inward * offsets[j])
            let end = meet(j, (j + 1) % n, fallback: runs[j].end.metres + runs[j].inward * offsets[j])
            return (start, end)
        }
    }
}
