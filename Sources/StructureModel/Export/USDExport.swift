/// `export usda` and `export usdz` as pure functions of a scene: the bytes to write and
/// what the person should know (elements left out, models placed without their bounds).
public enum USDExport {
    public struct Result: Sendable {
        public var bytes: [UInt8]
        public var warnings: [String]
        /// The files in the package (the root layer first); one for a .usda.
        public var files: [String]
        /// Elements left out (no area), by kind: the summary counts what was written.
        public var omitted: [ElementKind: Int] = [:]
    }

    /// A text layer. `modelPath` gives the asset path written for each attached model (a
    /// path relative to the .usda's folder).
    public static func usda(_ scene: ExportScene, options: USDExportOptions, modelPath: (USDModel) -> String,
                            progress: ((Int) -> Void)? = nil) -> Result {
        var paths: [String: String] = [:]
        for model in options.models.values { paths[model.path] = modelPath(model) }
        var writer = USDWriter(scene: scene, options: options, modelPaths: paths, progress: progress)
        let bytes = writer.write()
        return Result(bytes: bytes, warnings: writer.warnings, files: [layerName(scene)], omitted: writer.omitted)
    }

    /// A USDZ package: the layer first, then each attached model (whole, as a package
    /// inside the package) under `models/`, so the package references nothing outside.
    public static func usdz(_ scene: ExportScene, options: USDExportOptions,
                            progress: ((Int) -> Void)? = nil) throws(USDZError) -> Result {
        var paths: [String: String] = [:]
        var entries: [USDZPackage.Entry] = []
        var siblings = USDName.Siblings()
        // Only models of objects in the scene are packed, each once, in a fixed order.
        var used: [String: USDModel] = [:]
        for story in scene.stories {
            for element in story.elements {
                if let object = element.object, let model = options.models[object.identifier] { used[model.path] = model }
            }
        }
        for path in used.keys.sorted() {
            let model = used[path]!
            var base = model.name
            if base.lowercased().hasSuffix(".usdz") { base = String(base.dropLast(5)) }
            let name = "models/" + siblings.unique(USDName.identifier(base)) + ".usdz"
            paths[path] = name
            entries.append(USDZPackage.Entry(name: name, data: model.bytes))
        }
        var writer = USDWriter(scene: scene, options: options, modelPaths: paths, progress: progress)
        let layer = writer.write()
        let root = layerName(scene)
        entries.insert(USDZPackage.Entry(name: root, data: layer), at: 0)
        let bytes = try USDZPackage.archive(entries)
        return Result(bytes: bytes, warnings: writer.warnings, files: entries.map(\.name), omitted: writer.omitted)
    }

    /// The root layer's name inside a package: the root prim's name.
    static func layerName(_ scene: ExportScene) -> String {
        USDName.identifier(scene.title.isEmpty ? "Scene" : scene.title) + ".usda"
    }
}
