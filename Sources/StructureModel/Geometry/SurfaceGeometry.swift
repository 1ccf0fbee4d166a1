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

    /// Width × height, m²: a wall's area before doors and windows are deducted. A wall with
    /// `polygonCorners` (a gable, a wall under a sloping ceiling, a step) is its polygon in its
    /// own plane: a real one of 14.10 m² by its box is 9.18 m².
    public var faceArea: Double {
        if let corners = polygonCorners, corners.count >= 3 {
            if case .floor = category { return polygonArea(planPolygon) }
            var twice = 0.0
            for i in corners.indices {
                let a = corners[i], b = corners[(i + 1) % corners.count]
                twice += Double(a.x) * Double(b.y) - Double(b.x) * Double(a.y)
            }
            if abs(twice) > 1e-9, twice.isFinite { return abs(twice) / 2 }
        }
        return abs(Double(dimensions.x) * Double(dimensions.y))
    }
}
