extension SIMD3 where Scalar == Double {
    /// Straight-line distance in world space, metres: how far an element or a section centre
    /// moved, or whether two centres are the same place.
    public func distance(to other: SIMD3<Double>) -> Double {
        let d = self - other
        return (d * d).sum().squareRoot()
    }
}
