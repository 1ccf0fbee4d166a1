extension Surface {
    /// The centre line in plan: centre ± (width / 2) along local X.
    public var planSegment: PlanSegment {
        let centre = transform.translation
        let half = transform.column(0) * (Double(dimensions.x) / 2)
        return PlanSegment(start: PlanPoint(centre - half), end: PlanPoint(centre + half))
    }

    /// The outline in world coordinates. Floors (and sloped walls) carry `polygonCorners`
    /// in their local plane; a rectangle without corners is built from `dimensions`.
    public var worldPolygon: [SIMD3<Double>] {
        if let corners = polygonCorners, !corners.isEmpty {
            return corners.map { transform.apply(toPoint: SIMD3<Double>($0)) }
        }
        let w = Double(dimensions.x) / 2
        let h = Double(dimensions.y) / 2
        // Walls span local XY (width, height); floors too, their local Z being world up.
        let local: [SIMD3<Double>] = [SIMD3(-w, -h, 0), SIMD3(w, -h, 0), SIMD3(w, h, 0), SIMD3(-w, h, 0)]
        return local.map { transform.apply(toPoint: $0) }
    }

    /// A floor's outline in plan.
    public var planPolygon: [PlanPoint] {
        worldPolygon.map(PlanPoint.init)
    }

    /// Width × height, m²: a wall's area before doors and windows are deducted.
    public var faceArea: Double {
        if let corners = polygonCorners, corners.count >= 3, case .floor = category {
            return polygonArea(planPolygon)
        }
        return Double(dimensions.x) * Double(dimensions.y)
    }
}

/// Sizes of a capture, from its geometry.
public struct RoomMeasurements: Sendable, Equatable {
    /// m², from the floor polygons; for a capture without floors (iOS 16), the convex
    /// hull of its wall ends.
    public var floorArea: Double
    public var floorAreaFromWalls: Bool
    /// Sum of wall width × height, m², before doors and windows are deducted.
    public var grossWallArea: Double
    /// Gross wall area less the doors, windows and openings in the walls, m².
    public var netWallArea: Double
    /// Sum of wall widths, m.
    public var wallLength: Double
    /// The median wall height, m (0 without walls).
    public var height: Double
}

extension CapturedRoom {
    public var measurements: RoomMeasurements {
        var floorArea = floors.reduce(0) { $0 + polygonArea($1.planPolygon) }
        var fromWalls = false
        if floors.isEmpty && !walls.isEmpty {
            let ends = walls.flatMap { [$0.planSegment.start, $0.planSegment.end] }
            floorArea = polygonArea(convexHull(ends))
            fromWalls = true
        }
        let gross = walls.reduce(0) { $0 + $1.faceArea }
        let cutouts = (doors + windows + openings).reduce(0) { $0 + $1.faceArea }
        let heights = walls.map { Double($0.dimensions.y) }.sorted()
        let height: Double
        if heights.isEmpty {
            height = 0
        } else if heights.count % 2 == 1 {
            height = heights[heights.count / 2]
        } else {
            height = (heights[heights.count / 2 - 1] + heights[heights.count / 2]) / 2
        }
        return RoomMeasurements(
            floorArea: floorArea,
            floorAreaFromWalls: fromWalls,
            grossWallArea: gross,
            netWallArea: max(0, gross - cutouts),
            wallLength: walls.reduce(0) { $0 + Double($1.dimensions.x) },
            height: height)
    }
}
