import StructureModel

extension Shell {
    /// `export usdz|usda PATH [ROOM|NAME] [--story N] [--parametric]`.
    func exportUSD(_ invocation: Invocation, packaged: Bool) throws {
        throw CommandFailure("export \(packaged ? "usdz" : "usda") is not built yet", at: invocation.positionals[0])
    }
}
