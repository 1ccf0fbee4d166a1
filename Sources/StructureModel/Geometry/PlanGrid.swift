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
    private var cells: [Cell: [Int]] = [:]
    /// Elements too large (or too far out) to list cell by cell; every query looks at them.
    private var everywhere: [Int] = []

    private struct Cell: Hashable {
        var x: Int
        var z: Int
    }

    /// An element covering more cells than this is checked by every query instead.
    private static var largestCellCount: Int { 4_096 }

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
        for x in range.x { for z in range.z { cells[Cell(x: x, z: z), default: []].append(index) } }
    }

    /// The elements whose bounds come within `radius` of `point` (for points: the points at
    /// most `radius` away), in the order they were inserted.
    public func elements(within radius: Double, of point: PlanPoint) -> [Element] {
        matches(in: PlanBounds(min: point, max: point).expanded(by: radius)) { $0.distance(to: point) <= radius }
    }

    /// The elements whose bounds share a point with `bounds`, in the order they were inserted.
    public func elements(intersecting bounds: PlanBounds) -> [Element] {
        matches(in: bounds) { $0.intersects(bounds) }
    }

    private func matches(in region: PlanBounds, where accept: (PlanBounds) -> Bool) -> [Element] {
        var candidates = Set(everywhere)
        if let range = cellRange(region), range.count <= cells.count {
            for x in range.x {
                for z in range.z {
                    if let listed = cells[Cell(x: x, z: z)] { candidates.formUnion(listed) }
                }
            }
        } else {
            // A region wider than the occupied cells: scanning everything is cheaper.
            candidates = Set(entries.indices)
        }
        return candidates.sorted().filter { accept(entries[$0].bounds) }.map { entries[$0].element }
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
