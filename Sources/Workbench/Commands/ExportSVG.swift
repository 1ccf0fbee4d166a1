import StructureModel

extension Shell {
    /// `export svg PATH [ROOM|NAME] [--story N] [--dimensions] [--objects] [--north DEG] [--one-page]`.
    func exportSVG(_ invocation: Invocation) throws {
        throw CommandFailure("export svg is not built yet", at: invocation.positionals[0])
    }
}
