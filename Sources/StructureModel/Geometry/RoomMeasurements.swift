/// Sizes of a capture, from its geometry.
public struct RoomMeasurements: Sendable, Equatable {
    /// m², from the floor polygons; for a capture without floors (iOS 16), the area its
    /// walls enclose (`planOutlines`: their loop, or the hull of their ends).
    public var floorArea: Double
    public var floorAreaFromWalls: Bool
    /// Sum of wall width × height, m², before doors and windows are deducted.
    public var grossWallArea: Double
    /// Gross wall area less the doors, windows and openings in the walls, m².
    public var netWallArea: Double
    /// Sum of wall widths, m.
    public var wallLength: Double
    /// The length of the room's outline (`planOutlines`), m: its perimeter. The walls' total
    /// where it has none; short of it where walls were scanned only in part (a real room's
    /// pillar walls summed 11.23 m along a 25.27 m floor).
    public var perimeter: Double
    /// The median wall height, m (0 without walls).
    public var height: Double
}

extension CapturedRoom {
    public var measurements: RoomMeasurements {
        var floorArea = floors.reduce(0) { $0 + polygonArea($1.planPolygon) }
        var fromWalls = false
        if (floors.isEmpty || abs(floorArea) < CapturedRoom.leastFloorArea) && !walls.isEmpty {
            floorArea = planOutlines.reduce(0) { $0 + polygonArea($1) }
            fromWalls = true
        }
        let gross = walls.reduce(0) { $0 + $1.faceArea }
        let outlines = planOutlines
        let wallTotal = walls.reduce(0) { $0 + abs(Double($1.dimensions.x)) }
        let perimeter = outlines.isEmpty ? wallTotal : outlines.reduce(0.0) { sum, outline in
            sum + outline.indices.reduce(0.0) { $0 + outline[$1].distance(to: outline[($1 + 1) % outline.count]) }
        }
        let cutouts = (doors + windows + openings).reduce(0) { $0 + $1.faceArea }
        return RoomMeasurements(
            floorArea: floorArea,
            floorAreaFromWalls: fromWalls,
            grossWallArea: gross,
            netWallArea: max(0, gross - cutouts),
            wallLength: wallTotal,
            perimeter: perimeter,
            height: median(walls.map { abs(Double($0.dimensions.y)) }) ?? 0)
    }
}

/// The middle value (the mean of the middle two for an even count); nil for none. Heights
/// are medians because one wall of a scan may run on into a taller neighbour.
func median(_ values: [Double]) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
