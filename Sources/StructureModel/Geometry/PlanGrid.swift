/// Elements bucketed by where they lie in plan, so that "what is near this?" looks at a few
/// cells instead of at every element: matching walls between rooms and twins between a room
/// and its structure would otherwise compare every pair.
///
/// Each element is kept with its bounds (a point's bounds are the point) and listed in every
/// cell those bounds cover; queries filter candidates by their bounds, so they answer exactly
/// what a scan over all elements would.
public struct PlanGrid<Element> {
    /// Cell edge, metres: about the usual query radius is right.
    public let cellSize: Double
    private var entries: [(element: Element, bounds: PlanBounds)] = []
    /// The cells elements are listed in, laid out densely over the cells they span (a room, a
    /// building) while that is at most `denseCellLimit`: looking a cell up by its key hashed it,
    /// and that was a sixth of `align --all auto`. Past the limit, keyed cells.
    private var dense: [[Int]] = []
    private var denseX = 0..<0
    private var denseZ = 0..<0
    private var keyed: [Cell: [Int]]?
    /// Cells holding at least one element.
    private var occupied = 0
    /// Elements too large (or too far out) to list cell by cell; every query looks at them.
    private var everywhere: [Int] = []

    private struct Cell: Hashable {
        var x: Int
        var z: Int
    }

    /// An element covering more cells than this is checked by every query instead.
    private static var largestCellCount: Int { 4_096 }
    private static var denseCellLimit: Int { 1 << 20 }

    public init(cellSize: Double) {
        precondition(cellSize > 0 && cellSize.isFinite, "a grid needs a positive cell size")
        self.cellSize = cellSize
    }

    public var count: Int { entries.count }

    public mutating func insert(_ element: Element, at point: PlanPoint) {
        insert(element, covering: PlanBounds(min: point, max: point))
    }

    public mutating func insert(_ element: Element, covering bounds: PlanBounds) {
        let index = entries.count
        entries.append((element, bounds))
        guard let range = cellRange(bounds), range.count <= Self.largestCellCount else {
            everywhere.append(index)
            return
        }
        cover(range.x, range.z)
        for x in range.x { for z in range.z { list(x, z, index) } }
    }

    private mutating func list(_ x: Int, _ z: Int, _ index: Int) {
        if keyed != nil {
            if keyed![Cell(x: x, z: z), default: []].isEmpty { occupied += 1 }
            keyed![Cell(x: x, z: z), default: []].append(index)
        } else {
            let at = (x - denseX.lowerBound) * denseZ.count + (z - denseZ.lowerBound)
            if dense[at].isEmpty { occupied += 1 }
            dense[at].append(index)
        }
    }

    /// Makes the dense cells span `x` by `z` as well, twice as far as asked so that a grid
    /// growing element by element is laid out again only a few times; or gives them up for
    /// keyed cells when that would be too many.
    private mutating func cover(_ x: ClosedRange<Int>, _ z: ClosedRange<Int>) {
        guard keyed == nil, !(denseX.contains(x.lowerBound) && denseX.contains(x.upperBound)
                              && denseZ.contains(z.lowerBound) && denseZ.contains(z.upperBound)) else { return }
        func span(_ old: Range<Int>, _ new: ClosedRange<Int>, spare: Int) -> Range<Int>? {
            let low = old.isEmpty ? new.lowerBound : min(old.lowerBound, new.lowerBound)
            let high = old.isEmpty ? new.upperBound : max(old.upperBound - 1, new.upperBound)
            let (width, overflow) = high.subtractingReportingOverflow(low)
            guard !overflow, width < Self.denseCellLimit else { return nil }
            let margin = min(spare, width / 2 + 1)
            return (low - margin)..<(high + margin + 1)
        }
        func fits(_ spare: Int) -> (Range<Int>, Range<Int>)? {
            guard let x = span(denseX, x, spare: spare), let z = span(denseZ, z, spare: spare) else { return nil }
            let (cells, overflow) = x.count.multipliedReportingOverflow(by: z.count)
            return !overflow && cells <= Self.denseCellLimit ? (x, z) : nil
        }
        let old = (x: denseX, z: denseZ, cells: dense)
        // With room to grow by half again each way; where that is too many cells, with less room
        // (a room placed some 300 m from the rest spanned too many cells with the full margin, and
        // keyed cells made `align ROOM auto` twice as slow).
        var spare = Self.denseCellLimit
        var found = fits(spare)
        while found == nil && spare > 0 {
            spare = spare > Self.denseCellLimit / 2 ? Self.denseCellLimit / 4 : spare / 2
            found = fits(spare)
        }
        guard let (newX, newZ) = found else {
            var cells: [Cell: [Int]] = [:]
            for (offset, listed) in old.cells.enumerated() where !listed.isEmpty {
                cells[Cell(x: old.x.lowerBound + offset / old.z.count, z: old.z.lowerBound + offset % old.z.count)] = listed
            }
            keyed = cells
            dense = []
            return
        }
        (denseX, denseZ) = (newX, newZ)
        dense = Array(repeating: [], count: newX.count * newZ.count)
        for (offset, listed) in old.cells.enumerated() where !listed.isEmpty {
            let (x, z) = (old.x.lowerBound + offset / old.z.count, old.z.lowerBound + offset % old.z.count)
            dense[(x - newX.lowerBound) * newZ.count + (z - newZ.lowerBound)] = listed
        }
    }

    /// The elements listed in a cell.
    private func listed(_ x: Int, _ z: Int) -> [Int]? {
        if let keyed { return keyed[Cell(x: x, z: z)] }
        guard denseX.contains(x), denseZ.contains(z) else { return nil }
        return dense[(x - denseX.lowerBound) * denseZ.count + (z - denseZ.lowerBound)]
    }

    /// The elements whose bounds come within `radius` of `point` (for points: the points at
    /// most `radius` away), in the order they were inserted.
    public func elements(within radius: Double, of point: PlanPoint) -> [Element] {
        var found: [Element] = []
        visit(PlanBounds(min: point, max: point).expanded(by: radius), where: { $0.distance(to: point) <= radius }) { found.append($0); return true }
        return found
    }

    /// The elements whose bounds share a point with `bounds`, in the order they were inserted.
    public func elements(intersecting bounds: PlanBounds) -> [Element] {
        var found: [Element] = []
        visit(bounds, where: { $0.intersects(bounds) }) { found.append($0); return true }
        return found
    }

    /// `body` with each element whose bounds share a point with `bounds`, in the order they were
    /// inserted, until it returns false: what `elements(intersecting:)` lists, without the list
    /// (scoring a room's place asks this for each of its walls and doorways).
    public func visit(intersecting bounds: PlanBounds, _ body: (Element) -> Bool) {
        visit(bounds, where: { $0.intersects(bounds) }, body)
    }

    /// The same for `elements(within:of:)`.
    public func visit(within radius: Double, of point: PlanPoint, _ body: (Element) -> Bool) {
        visit(PlanBounds(min: point, max: point).expanded(by: radius), where: { $0.distance(to: point) <= radius }, body)
    }

    /// `body` with each element whose bounds share a point with `bounds`, in no set order and
    /// perhaps more than once (one listed in several cells), until it returns false: for
    /// questions whose answer neither order nor repeats change (does any wall touch this end?).
    /// The ordered visits gather and sort every candidate first, so on thousands of walls
    /// stacked in one place each question cost as much as sorting the stack, and `check` grew
    /// with the square of the walls however soon the answer was known.
    public func visitUnordered(intersecting bounds: PlanBounds, _ body: (Element) -> Bool) {
        guard let range = cellRange(bounds).flatMap(searched), range.count <= occupied else {
            for entry in entries where entry.bounds.intersects(bounds) {
                if !body(entry.element) { return }
            }
            return
        }
        for index in everywhere where entries[index].bounds.intersects(bounds) {
            if !body(entries[index].element) { return }
        }
        for x in range.x where range.count > 0 {
            for z in range.z {
                for index in listed(x, z) ?? [] where entries[index].bounds.intersects(bounds) {
                    if !body(entries[index].element) { return }
                }
            }
        }
    }

    private func visit(_ region: PlanBounds, where accept: (PlanBounds) -> Bool, _ body: (Element) -> Bool) {
        guard let range = cellRange(region).flatMap(searched), range.count <= occupied else {
            // A region wider than the occupied cells: scanning everything is cheaper.
            for entry in entries where accept(entry.bounds) {
                if !body(entry.element) { return }
            }
            return
        }
        // Candidates gathered in a buffer on the stack, sorted and taken once each (a Set hashed
        // every index, and that was most of a query).
        var total = everywhere.count
        for x in range.x where range.count > 0 {
            for z in range.z { total += listed(x, z)?.count ?? 0 }
        }
        withUnsafeTemporaryAllocation(of: Int.self, capacity: total) { buffer in
            var count = 0
            for index in everywhere { buffer[count] = index; count += 1 }
            for x in range.x where range.count > 0 {
                for z in range.z {
                    for index in listed(x, z) ?? [] { buffer[count] = index; count += 1 }
                }
            }
            var candidates = UnsafeMutableBufferPointer(rebasing: buffer[0..<count])
            candidates.sort()
            var previous = -1
            for index in candidates where index != previous {
                previous = index
                if accept(entries[index].bounds), !body(entries[index].element) { return }
            }
        }
    }

    /// The cells of `range` that can hold anything: with dense cells, those within their span
    /// (none, a count of 0, when it misses the span).
    private func searched(_ range: (x: ClosedRange<Int>, z: ClosedRange<Int>, count: Int)) -> (x: ClosedRange<Int>, z: ClosedRange<Int>, count: Int)? {
        guard keyed == nil else { return range }
        guard !denseX.isEmpty, range.x.overlaps(denseX), range.z.overlaps(denseZ) else { return (0...0, 0...0, 0) }
        let x = range.x.clamped(to: denseX.lowerBound...(denseX.upperBound - 1))
        let z = range.z.clamped(to: denseZ.lowerBound...(denseZ.upperBound - 1))
        return (x, z, x.count * z.count)
    }

    /// The cells a region covers; nil when a coordinate is not finite.
    private func cellRange(_ bounds: PlanBounds) -> (x: ClosedRange<Int>, z: ClosedRange<Int>, count: Int)? {
        guard let x0 = cell(bounds.min.x), let x1 = cell(bounds.max.x),
              let z0 = cell(bounds.min.z), let z1 = cell(bounds.max.z), x0 <= x1, z0 <= z1 else { return nil }
        let (width, depth) = (x1 - x0 + 1, z1 - z0 + 1)
        let (count, overflow) = width.multipliedReportingOverflow(by: depth)
        return (x0...x1, z0...z1, overflow ? .max : count)
    }

    private func cell(_ coordinate: Double) -> Int? {
        let scaled = (coordinate / cellSize).rounded(.down)
        // Far beyond any building; kept in range so the conversion cannot trap.
        guard scaled.isFinite, abs(scaled) < 1e15 else { return nil }
        return Int(scaled)
    }
}

extension PlanGrid: Sendable where Element: Sendable {}
