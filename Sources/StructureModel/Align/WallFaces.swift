import Foundation

/// Where a capture put the walls it shares with other rooms.
public enum WallHabit: Sendable, Equatable {
    /// On the face of the wall it saw.
    case face
    /// On or near the wall's centre line.
    case centreLine
    /// Nothing in the building tells which: the room was left as the search put it.
    case untold
}

/// Where each room sits across its walls, once the joint search has put the rooms together.
///
/// A scan places a wall between two rooms either on the face it saw or near the wall's centre
/// line, and a capture keeps one habit for all its walls (real exports do both). So two rooms'
/// copies of one wall are 0, half a thickness or a whole thickness apart, and a doorway seen
/// from both rooms says only where the two sides meet along the wall, not across it. What does
/// say it is everything else in the building: the gap between two rooms whose places along
/// their shared wall are fixed by other doorways, outside walls of several rooms that must lie
/// on one line (offset only by their habits times the outside wall's thickness), the copies of
/// a hallway's one wall seen from every room along it.
///
/// The model: each room has a habit `u` (0: its walls on the centre lines, ½: on its own
/// faces), each run of facing copies (one wall line) a thickness, all outside walls one
/// thickness. Given the habits, the rooms' shifts and the thicknesses are a linear least
/// squares problem over
/// - facing copies (rooms on both sides): gap = (uᵢ + uⱼ) · t,
/// - copies on one line and one side (a facade along rooms, a hallway's far side):
///   offset = (uⱼ − uᵢ) · t,
/// - doorways seen from both sides: their middles meet along the wall,
/// with weak priors on the thicknesses (interior about 12 cm, outside about 30 cm) and on the
/// shifts. The habits are the assignment with the least misfit: of every assignment up to
/// `everyHabitLimit` rooms (a habit nothing observes stays on the centre line), above that by
/// descent over single flips from two starts (all on centre lines, all on faces), where a
/// habit nothing observes stays at its start and a start leaving rooms where they were wins ties.
enum WallFaces {
    static let interiorThickness = 0.14, interiorSpread = 0.04
    static let exteriorThickness = 0.30, exteriorSpread = 0.08
    /// Above this many rooms the flip search is not run (its cost grows as the cube of the
    /// unknowns for each of about rooms² solves).
    static let roomLimit = 40
    /// Up to this many rooms every assignment of habits is tried; above, single flips from two
    /// starts. (Single flips stopped short: a hallway with two rooms on one side, all three on
    /// centre lines, fitted as well on their faces with a 4 cm wall between the two rooms and a
    /// 14 cm outside wall, 41.5 against the truth's 5.6, and no one flip led from one to the other.)
    static let everyHabitLimit = 10
    /// The largest shift the settling may give a room; beyond it the search's place stays.
    static let largestShift = 0.6
    /// How much worse (in squared standard errors) the other habit must fit for a room's to be told.
    static let toldMargin = 4.0

    struct Copy {
        var room: Int
        var segment: PlanSegment
        var inward: PlanPoint
    }

    enum Kind { case facing, sameSide, along }

    /// A pair of copies off by more than this once fitted is no pair (metres).
    static let outlierLimit = 0.06
    /// How loosely doorways are held along their walls where their sides lie apart as a real
    /// home's do, and the spread of their residuals (fitted so) beyond which they are taken so.
    static let looseAlongSigma = 0.08
    static let preciseAlongSpread = 0.05

    struct Term {
        var kind: Kind
        var i: Int
        var j: Int
        /// The unit direction the measure is taken along (from i's copy towards j's).
        var direction: PlanPoint
        /// The measure with no shift.
        var value: Double
        var weight: Double
        /// The thickness unknown it involves (nil for `along`).
        var thickness: Int?
        /// The turn from i's copy to j's (radians), and how long they meet.
        var angle = 0.0
        var length = 0.0
        /// The heading of i's copy (radians, in a yaw's sense).
        var heading = 0.0

        /// How many thicknesses the measure is, given the rooms' habits.
        func factor(_ u: [Double]) -> Double { kind == .facing ? u[i] + u[j] : u[j] - u[i] }
    }

    /// Shifts for the placed rooms (`poses`, each from where the room is now), rooms in `fixed`
    /// kept where they are, rooms in `skip` left out. Returns the poses with the shifts applied
    /// (unchanged when nothing could be settled), and the habit found per room (nil: not settled).
    /// `doorwaySigma` holds doorways that tightly along their walls, not as their spread says
    /// (for tests: how the fit does without telling real doorways from precise ones).
    static func settle(_ rooms: [CapturedRoom], poses: [RigidMotion?], fixed: Set<Int>, skip: Set<Int>,
                       sameStory: [[Bool]], doorwaySigma: Double? = nil) -> (poses: [RigidMotion?], habits: [WallHabit?]) {
        let members = poses.indices.filter { poses[$0] != nil && !skip.contains($0) }
        guard members.count >= 2, members.count <= roomLimit, members.contains(where: { !fixed.contains($0) }) else {
            return (poses, [WallHabit?](repeating: nil, count: rooms.count))
        }
        let scenes = members.map { AutoAligner.Scene([rooms[$0]]) }
        /// The rooms' walls and doorways where `poses` put them; with `square` (the home's square
        /// directions), each wall within a couple of degrees of them turned onto them about its
        /// middle: a scan's wall is off in heading by up to half a degree of its own, which along a
        /// long hallway wall is centimetres at the far end, where another room meets it.
        func copies(_ poses: [RigidMotion?], square: Double? = nil) -> (walls: [Copy], doorways: [Copy]) {
            var walls: [Copy] = []
            var doorways: [Copy] = []
            for (q, scene) in zip(members, scenes) {
                let pose = poses[q]!, turn = RigidMotion(yaw: pose.yaw)
                for wall in scene.walls where wall.segment.length >= 0.3 {
                    var segment = AutoAligner.move(wall.segment, pose), inward = AutoAligner.move(wall.inward, turn)
                    if let square {
                        let off = offSquare(heading(segment), from: square)
                        if abs(off) <= squareTolerance {
                            segment = segment.turned(by: -off)
                            inward = PlanPoint(RigidMotion(yaw: -off).rotate(SIMD3(inward.x, 0, inward.z)))
                        }
                    }
                    walls.append(Copy(room: q, segment: segment, inward: inward))
                }
                for door in scene.doorways {
                    doorways.append(Copy(room: q, segment: AutoAligner.move(door.segment, pose), inward: AutoAligner.move(door.inward, turn)))
                }
            }
            return (walls, doorways)
        }
        // First the turns: every pair of copies that meet says how far apart their rooms' headings
        // are (each wall's heading is off by up to half a degree); one least squares over all.
        var turned = poses
        var first = copies(poses)
        var terms = pairTerms(first.walls, doorways: first.doorways, sameStory: sameStory)
        guard terms.contains(where: { $0.kind != .along }) else { return (poses, [WallHabit?](repeating: nil, count: rooms.count)) }
        let (turns, square) = headings(terms, squares: first.walls.map { (room: $0.room, segment: $0.segment) }, members: members, fixed: fixed)
        for (q, turn) in turns where turn != 0 {
            let pose = poses[q]!
            let points = scenes[members.firstIndex(of: q)!].walls.flatMap { [$0.segment.start, $0.segment.end] }.map { AutoAligner.move($0, pose) }
            let pivot = PlanBounds(containing: points)?.centre ?? PlanPoint(x: 0, z: 0)
            let p = SIMD3(pivot.x, 0, pivot.z)
            turned[q] = RigidMotion(translation: p).composed(after: RigidMotion(yaw: turn).composed(after: RigidMotion(translation: -p)))
                .composed(after: pose)
        }
        first = copies(turned, square: square)
        terms = pairTerms(first.walls, doorways: first.doorways, sameStory: sameStory)

        // Unknowns: two shifts per movable room, then one thickness per cluster (the last: outside).
        var column: [Int: Int] = [:]
        for q in members where !fixed.contains(q) { column[q] = column.count * 2 }
        let shiftCount = column.count * 2
        // Interior wall lines are numbered from 0 (each has a facing pair); the outside walls'
        // one thickness comes after them, also when no copies on one line name it (before, the
        // last interior line then took the outside walls' prior).
        let outside = (terms.filter { $0.kind == .facing }.compactMap(\.thickness).max() ?? -1) + 1
        let clusters = outside + 1
        let size = shiftCount + clusters

        func prior(_ t: Int) -> (mean: Double, spread: Double) {
            t == outside ? (exteriorThickness, exteriorSpread) : (interiorThickness, interiorSpread)
        }
        func solve(_ u: [Double], _ terms: [Term]) -> (cost: Double, x: [Double]) {
            var normal = [Double](repeating: 0, count: size * size)
            var right = [Double](repeating: 0, count: size)
            var entries: [(Int, Double)] = []
            func add(_ coefficients: [(Int, Double)], _ target: Double, _ weight: Double) {
                for (a, ca) in coefficients {
                    right[a] += weight * ca * target
                    for (b, cb) in coefficients { normal[a * size + b] += weight * ca * cb }
                }
            }
            for term in terms {
                entries.removeAll(keepingCapacity: true)
                if let c = column[term.j] { entries += [(c, term.direction.x), (c + 1, term.direction.z)] }
                if let c = column[term.i] { entries += [(c, -term.direction.x), (c + 1, -term.direction.z)] }
                if let t = term.thickness, term.factor(u) != 0 { entries.append((shiftCount + t, -term.factor(u))) }
                // residual = value + entries·x → entries·x = −value
                add(entries, -term.value, term.weight)
            }
            for k in 0..<shiftCount { normal[k * size + k] += 1 / (0.5 * 0.5) }
            for t in 0..<clusters {
                let (mean, spread) = prior(t)
                let k = shiftCount + t
                normal[k * size + k] += 1 / (spread * spread)
                right[k] += mean / (spread * spread)
            }
            let x = choleskySolve(normal, right, size)
            var cost = 0.0
            for term in terms {
                let r = residual(term, x, u)
                cost += term.weight * r * r
            }
            for k in 0..<shiftCount { cost += x[k] * x[k] / 0.25 }
            for t in 0..<clusters {
                let (mean, spread) = prior(t)
                cost += (x[shiftCount + t] - mean) * (x[shiftCount + t] - mean) / (spread * spread)
            }
            return (cost, x)
        }
        func residual(_ term: Term, _ x: [Double], _ u: [Double]) -> Double {
            var r = term.value
            if let c = column[term.j] { r += term.direction.x * x[c] + term.direction.z * x[c + 1] }
            if let c = column[term.i] { r -= term.direction.x * x[c] + term.direction.z * x[c + 1] }
            if let t = term.thickness { r -= term.factor(u) * x[shiftCount + t] }
            return r
        }
        func search(_ terms: [Term]) -> (u: [Double], cost: Double, x: [Double]) {
            var best: (u: [Double], cost: Double, x: [Double])?
            if members.count <= everyHabitLimit {
                // Every assignment, fewest faces first (a habit nothing observes stays on the centre line).
                let masks = (0..<(1 << members.count)).sorted { ($0.nonzeroBitCount, $0) < ($1.nonzeroBitCount, $1) }
                for mask in masks {
                    var u = [Double](repeating: 0, count: rooms.count)
                    for (k, q) in members.enumerated() where mask & (1 << k) != 0 { u[q] = 0.5 }
                    let trial = solve(u, terms)
                    if best == nil || trial.cost < best!.cost - 1e-6 { best = (u, trial.cost, trial.x) }
                }
                return best!
            }
            for start in [0.0, 0.5] {
                var u = [Double](repeating: 0, count: rooms.count)
                for q in members { u[q] = start }
                var current = solve(u, terms)
                for _ in 0..<8 {
                    var improved = false
                    for q in members {
                        u[q] = 0.5 - u[q]
                        let trial = solve(u, terms)
                        if trial.cost < current.cost - 1e-6 {
                            current = trial
                            improved = true
                        } else {
                            u[q] = 0.5 - u[q]
                        }
                    }
                    if !improved { break }
                }
                if best == nil || current.cost < best!.cost - 1e-6 { best = (u, current.cost, current.x) }
            }
            return best!
        }
        // How far apart the two sides of a doorway lie along their wall is the scans' own: the
        // generator's within 2.5 cm, but a real home's 4 to 25 cm (Apple's 11 rooms, 13 cm on
        // average). Fitted first as if loose, the doorways' residuals tell which: where their
        // spread is beyond what precise doorways leave, they stay loose (a room's place along a
        // wall then comes from its walls where they say it, not from a doorway 15 cm off); else
        // the fit is made as before, precise.
        let alongTerms = terms.indices.filter { terms[$0].kind == .along }
        var alongLimit = outlierLimit
        if let doorwaySigma {
            for k in alongTerms { terms[k].weight = 2 / (doorwaySigma * doorwaySigma) }
        } else if alongTerms.count >= 3 {
            var loose = terms
            for k in alongTerms { loose[k].weight = 2 / (looseAlongSigma * looseAlongSigma) }
            let trial = search(loose)
            let spread = alongTerms.map { abs(residual(loose[$0], trial.x, trial.u)) }.sorted()[alongTerms.count / 2] * 1.4826
            if spread > preciseAlongSpread {
                terms = loose
                alongLimit = max(outlierLimit, 3 * looseAlongSigma)
            }
        }
        var found = search(terms)
        // Pairs the first fit cannot explain (a wall matched to the wrong neighbour, a facade
        // that steps) are dropped and the habits sought again.
        let kept = terms.filter { abs(residual($0, found.x, found.u)) <= ($0.kind == .along ? alongLimit : outlierLimit) }
        if kept.count < terms.count, kept.contains(where: { $0.kind != .along }) {
            terms = kept
            found = search(terms)
        }
        var settled = poses
        for (q, c) in column {
            let shift = PlanPoint(x: found.x[c], z: found.x[c + 1])
            guard shift.length <= largestShift else { return (poses, [WallHabit?](repeating: nil, count: rooms.count)) }
            settled[q] = RigidMotion(translation: SIMD3(shift.x, 0, shift.z)).composed(after: turned[q]!)
        }
        // A habit is told when the other one fits clearly worse, and when every room's habit
        // turned over together does too: two rooms that meet only across walls and doorways fit
        // both on their faces a thickness apart as well as both on centre lines where they are.
        var habits = [WallHabit?](repeating: nil, count: rooms.count)
        var overturned = found.u
        for q in members { overturned[q] = 0.5 - overturned[q] }
        let symmetric = solve(overturned, terms).cost <= found.cost + toldMargin
        for q in members {
            var other = found.u
            other[q] = 0.5 - other[q]
            let told = !symmetric && solve(other, terms).cost > found.cost + toldMargin
            habits[q] = !told ? .untold : found.u[q] > 0 ? .face : .centreLine
        }
        return (settled, habits)
    }

    /// Facing copies, same-side copies on one line, and doorways seen from both sides, between
    /// rooms of one story; each facing run of copies (one wall line) gets a thickness of its
    /// own, copies nothing faces are outside walls.
    static func pairTerms(_ copies: [Copy], doorways: [Copy], sameStory: [[Bool]]) -> [Term] {
        let parallel = 3.0 * .pi / 180
        var grid = PlanGrid<Int>(cellSize: 1.0)
        for (index, copy) in copies.enumerated() { grid.insert(index, covering: copy.segment.bounds) }
        var parent = Array(copies.indices)
        func root(_ k: Int) -> Int {
            var k = k
            while parent[k] != k { parent[k] = parent[parent[k]]; k = parent[k] }
            return k
        }
        var facing: [(Int, Int, PlanPoint, Double, Double, Double)] = []
        var sameSide: [(Int, Int, PlanPoint, Double, Double, Double)] = []
        var faced = Set<Int>()
        for (a, copy) in copies.enumerated() {
            let line = copy.segment
            for b in grid.elements(intersecting: line.bounds.expanded(by: 1.2)) where b > a {
                let other = copies[b]
                guard other.room != copy.room, sameStory[copy.room][other.room] else { continue }
                let overlap = line.overlap(with: other.segment)
                guard overlap.angle <= parallel else { continue }
                let turn = copy.inward.dot(other.inward)
                var angle = overlap.signedAngle
                if angle > .pi / 2 { angle -= .pi } else if angle < -.pi / 2 { angle += .pi }
                // The measure is taken at the middle of where the two overlap (or of the gap
                // between their ends), across a's line.
                let tA = line.parameter(of: other.segment.start), tB = line.parameter(of: other.segment.end)
                let low = max(0, min(tA, tB)), high = min(1, max(tA, tB))
                let middle = line.point(at: (low + high) / 2)
                let onOther = other.segment.projection(of: middle)
                if turn < -0.95 {
                    // Facing: j's copy beyond i's, across the wall, by 0 to a thickness.
                    let across = copy.inward * -1
                    let gap = (onOther - middle).dot(across)
                    guard overlap.length >= 0.3, gap >= -0.12, gap <= 0.45 else { continue }
                    facing.append((a, b, across, gap, min(overlap.length, 3), angle))
                    faced.insert(a)
                    faced.insert(b)
                    let (ra, rb) = (root(a), root(b))
                    if ra != rb { parent[ra] = rb }
                } else if turn > 0.95 {
                    // One side, one line: a facade along two rooms (their ends apart by about a
                    // wall's thickness), or a wall seen again.
                    let offset = (onOther - middle).dot(copy.inward)
                    let endGap = overlap.length > 0 ? 0 : endDistance(line, other.segment)
                    guard abs(offset) <= 0.3, endGap <= 0.8 else { continue }
                    sameSide.append((a, b, copy.inward, offset, min(max(min(line.length, other.segment.length), 0.5), 3), angle))
                }
            }
        }
        var cluster: [Int: Int] = [:]
        // Numbered in the copies' order: the same unknowns in the same order every run.
        for k in faced.sorted() { let r = root(k); if cluster[r] == nil { cluster[r] = cluster.count } }
        let outside = cluster.count
        var terms: [Term] = []
        // A wall's copy is off across by up to 2 cm, a doorway's middle along by up to 2.5 cm.
        let sigma = 0.02, alongSigma = 0.015
        for (a, b, direction, gap, length, angle) in facing {
            terms.append(Term(kind: .facing, i: copies[a].room, j: copies[b].room, direction: direction, value: gap,
                              weight: length / (sigma * sigma), thickness: cluster[root(a)], angle: angle, length: length,
                              heading: heading(copies[a].segment)))
        }
        for (a, b, direction, offset, length, angle) in sameSide {
            let thickness: Int
            switch (faced.contains(a), faced.contains(b)) {
            case (false, false): thickness = outside
            case (true, true) where root(a) == root(b): thickness = cluster[root(a)]!
            default: continue
            }
            terms.append(Term(kind: .sameSide, i: copies[a].room, j: copies[b].room, direction: direction, value: offset,
                              weight: length / (sigma * sigma), thickness: thickness, angle: angle, length: length,
                              heading: heading(copies[a].segment)))
        }
        // Doorways seen from both sides: their middles meet along the wall.
        for (a, door) in doorways.enumerated() {
            for b in doorways.indices where b > a {
                let other = doorways[b]
                guard other.room != door.room, sameStory[door.room][other.room],
                      door.inward.dot(other.inward) < -0.95,
                      abs(door.segment.length - other.segment.length) <= 0.15,
                      door.segment.midpoint.distance(to: other.segment.midpoint) <= 0.5 else { continue }
                let direction = door.segment.direction.normalized
                let value = (other.segment.midpoint - door.segment.midpoint).dot(direction)
                terms.append(Term(kind: .along, i: door.room, j: other.room, direction: direction, value: value,
                                  weight: 2 / (alongSigma * alongSigma), thickness: nil))
            }
        }
        return terms
    }

    /// The turn of each movable room that best makes the copies that meet parallel, by least
    /// squares over their angles (weighted by how long they meet) with a weak pull to no turn.
    ///
    /// Homes are mostly square: where most of the walls (`squares`, every room's, not only the
    /// ones that meet) lie within a couple of degrees of one pair of square directions, each
    /// such wall also says how its room is turned against those directions (found with them).
    /// A room that meets its neighbour along one short wall is then turned by all its walls,
    /// not by that wall's half-degree error, and the error no longer adds up room after room
    /// along a chain (each degree is 9 cm at 5 m). Walls off square (a bay, a cut corner, a
    /// wing at another angle) say nothing.
    /// Also returns the square directions (one of them, in radians) when the home has them.
    /// Turns of up to 4° (what the matcher takes for parallel) are made; beyond, the room is
    /// left as it is. (At 2°, rooms a noisier scan's doorway pair had turned by 3° stayed
    /// turned: at twice a phone's noise they were 2.1 % of the rooms, now 0.6 %.)
    static func headings(_ terms: [Term], squares: [(room: Int, segment: PlanSegment)], members: [Int],
                         fixed: Set<Int>) -> (turns: [Int: Double], square: Double?) {
        var column: [Int: Int] = [:]
        for q in members where !fixed.contains(q) { column[q] = column.count }
        let n = column.count
        guard n > 0 else { return ([:], nil) }
        let wall = 0.5 * .pi / 180, prior = 3.0 * .pi / 180
        // The square directions, from the fixed rooms' walls (all rooms' when none is fixed): the
        // length-weighted mean of four times each heading.
        let anchored = squares.filter { fixed.contains($0.room) }
        func meanSquare(_ walls: [(room: Int, segment: PlanSegment)]) -> Double {
            var sine = 0.0, cosine = 0.0
            for (_, segment) in walls {
                sine += segment.length * sin(4 * heading(segment))
                cosine += segment.length * cos(4 * heading(segment))
            }
            return atan2(sine, cosine) / 4
        }
        // Again from the walls near the first guess only: a bay's or a cut corner's walls pull
        // the mean of all off the square ones.
        let base = anchored.isEmpty ? squares : anchored
        let guess = meanSquare(base)
        let near = base.filter { abs(offSquare(heading($0.segment), from: guess)) <= 3 * squareTolerance }
        let axis = near.isEmpty ? guess : meanSquare(near)
        let onSquare = squares.filter { abs(offSquare(heading($0.segment), from: axis)) <= squareTolerance }
        let total = squares.reduce(0) { $0 + $1.segment.length }, squareLength = onSquare.reduce(0) { $0 + $1.segment.length }
        let useSquare = total > 0 && squareLength >= 0.6 * total
        let size = n + (useSquare ? 1 : 0)
        var normal = [Double](repeating: 0, count: size * size)
        var right = [Double](repeating: 0, count: size)
        for k in 0..<n { normal[k * size + k] = 1 / (prior * prior) }
        func add(_ entries: [(Int, Double)], _ value: Double, _ weight: Double) {
            // residual = value + entries·x
            for (a, ca) in entries {
                right[a] -= weight * ca * value
                for (b, cb) in entries { normal[a * size + b] += weight * ca * cb }
            }
        }
        for term in terms where term.kind != .along {
            // Two square walls that meet say nothing their own square terms below do not (and
            // would count each one's heading error twice).
            if useSquare && abs(offSquare(term.heading, from: axis)) <= squareTolerance
                && abs(offSquare(term.heading + term.angle, from: axis)) <= squareTolerance { continue }
            // residual = angle + θj − θi
            let entries = [column[term.j].map { ($0, 1.0) }, column[term.i].map { ($0, -1.0) }].compactMap { $0 }
            add(entries, term.angle, term.length / (wall * wall))
        }
        if useSquare {
            for (room, segment) in onSquare {
                // residual = off square + θroom − the directions' own correction
                let entries = [column[room].map { ($0, 1.0) }, (n, -1.0)].compactMap { $0 }
                add(entries, offSquare(heading(segment), from: axis), min(segment.length, 3) / (wall * wall))
            }
            normal[n * size + n] += 1 / (prior * prior)
        }
        let x = choleskySolve(normal, right, size)
        var turns: [Int: Double] = [:]
        for (q, k) in column where abs(x[k]) <= 4 * .pi / 180 { turns[q] = x[k] }
        return (turns, useSquare ? axis + x[n] : nil)
    }

    /// Walls within this of the home's square directions are taken to be square.
    static let squareTolerance = 2.0 * .pi / 180

    /// A segment's heading, radians, in the sense a room's yaw turns it.
    static func heading(_ segment: PlanSegment) -> Double {
        let d = segment.direction
        return atan2(PlanPoint(x: 1, z: 0).cross(d), PlanPoint(x: 1, z: 0).dot(d))
    }

    /// How far a heading is from the nearest of the square directions `axis` + k·90°.
    static func offSquare(_ angle: Double, from axis: Double) -> Double {
        var d = (angle - axis).truncatingRemainder(dividingBy: .pi / 2)
        if d > .pi / 4 { d -= .pi / 2 } else if d < -.pi / 4 { d += .pi / 2 }
        return d
    }

    /// The distance between the nearer ends of two segments on about one line.
    static func endDistance(_ a: PlanSegment, _ b: PlanSegment) -> Double {
        min(a.start.distance(to: b.start), a.start.distance(to: b.end), a.end.distance(to: b.start), a.end.distance(to: b.end))
    }

    /// Solves the symmetric positive definite system `m x = b` (row-major, n × n).
    static func choleskySolve(_ m: [Double], _ b: [Double], _ n: Int) -> [Double] {
        var l = [Double](repeating: 0, count: n * n)
        for i in 0..<n {
            for j in 0...i {
                var sum = m[i * n + j]
                for k in 0..<j { sum -= l[i * n + k] * l[j * n + k] }
                if i == j {
                    l[i * n + i] = sqrt(max(sum, 1e-12))
                } else {
                    l[i * n + j] = sum / l[j * n + j]
                }
            }
        }
        var y = [Double](repeating: 0, count: n)
        for i in 0..<n {
            var sum = b[i]
            for k in 0..<i { sum -= l[i * n + k] * y[k] }
            y[i] = sum / l[i * n + i]
        }
        var x = [Double](repeating: 0, count: n)
        for i in stride(from: n - 1, through: 0, by: -1) {
            var sum = y[i]
            for k in (i + 1)..<n { sum -= l[k * n + i] * x[k] }
            x[i] = sum / l[i * n + i]
        }
        return x
    }
}
