extension Surface {
    /// The surface moved rigidly; polygon corners are local and stay as they are.
    public func moved(by motion: RigidMotion) -> Surface {
        var copy = self
        copy.transform = motion.apply(to: transform)
        return copy
    }
}

extension Object {
    public func moved(by motion: RigidMotion) -> Object {
        var copy = self
        copy.transform = motion.apply(to: transform)
        return copy
    }
}

extension Section {
    public func moved(by motion: RigidMotion) -> Section {
        var copy = self
        let c = motion.apply(toPoint: SIMD3<Double>(center))
        copy.center = SIMD3<Float>(c)
        return copy
    }
}

extension Element {
    public func moved(by motion: RigidMotion) -> Element {
        switch self {
        case .surface(let surface): return .surface(surface.moved(by: motion))
        case .object(let object): return .object(object.moved(by: motion))
        case .section(let section): return .section(section.moved(by: motion))
        }
    }
}

extension CapturedRoom {
    /// Every element moved by the same rigid motion: walls, doors, windows, openings,
    /// floors, objects and section centres. `referenceOriginTransform`, where the room's
    /// frame lies in its scan session, is left alone here (a search's scratch copies); an edit
    /// (`planMove`) moves it with the room. `coreModel` is opaque.
    public func moved(by motion: RigidMotion) -> CapturedRoom {
        var copy = self
        copy.walls = walls.map { $0.moved(by: motion) }
        copy.doors = doors.map { $0.moved(by: motion) }
        copy.windows = windows.map { $0.moved(by: motion) }
        copy.openings = openings.map { $0.moved(by: motion) }
        copy.floors = floors.map { $0.moved(by: motion) }
        copy.objects = objects.map { $0.moved(by: motion) }
        copy.sections = sections.map { $0.moved(by: motion) }
        return copy
    }
}
