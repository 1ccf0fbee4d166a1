import StructureModel

extension Shell {
    /// `export ifc PATH [ROOM|NAME] [--story N]`.
    func exportIFC(_ invocation: Invocation) throws {
        throw CommandFailure("export ifc is not built yet", at: invocation.positionals[0])
    }
}
