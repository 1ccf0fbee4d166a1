import StructureModel

extension Shell {
    /// `export usdz|usda PATH [ROOM|NAME] [--story N] [--parametric] [--wall-thickness D]`.
    func exportUSD(_ invocation: Invocation, packaged: Bool) throws {
        let format = packaged ? "usdz" : "usda"
        let path = invocation.positionals[1]
        try checkExportPath(path, text: !packaged, format: format)
        var options = USDExportOptions(parametric: invocation.flag("--parametric"))
        if let word = invocation.values["--wall-thickness"] {
            let thickness = try length(word, name: "--wall-thickness")
            guard thickness >= 0 && thickness <= 2 else {
                throw CommandFailure("--wall-thickness is between 0 (walls as single faces) and 2 m, not \(word.text)", at: word)
            }
            options.wallThickness = thickness
        }
        let scene = try exportScene(invocation)
        options.models = attachedModels(in: scene, writing: path.text)

        let total = scene.stories.reduce(0) { $0 + $1.elements.count }
        let bar = ProgressBar(shell: self, label: "export \(format)", total: total)
        let result: USDExport.Result
        if packaged {
            do {
                result = try USDExport.usdz(scene, options: options) { bar.update($0) }
            } catch {
                bar.finish()
                throw CommandFailure("cannot write \(path.text): \(error.message)", at: path)
            }
        } else {
            // A model is referenced where it lies, relative to the .usda's folder.
            let folder = FileIO.parentFolder(of: FileIO.absolute(path.text == "-" || path.text == "/dev/stdout" ? "./-" : path.text))
            result = USDExport.usda(scene, options: options, modelPath: { FileIO.relative($0.path, from: folder) }) { bar.update($0) }
        }
        bar.finish()
        for warning in result.warnings { warn(warning) }
        let what = scene.summary(leavingOut: result.omitted) + (options.models.isEmpty ? "" : ", \(options.models.count) model\(options.models.count == 1 ? "" : "s")")
        if self.options.dryRun && !printsToStandardOutput(path) {
            try preflightExport(path)
            inform("would write \(path.text.escapingControls) (\(result.bytes.count) bytes: \(what); --dry-run)")
            return
        }
        if try export(result.bytes, to: path) { return }
        inform("wrote \(path.text.escapingControls) (\(result.bytes.count) bytes: \(what))")
    }

    /// The models attached to the scene's objects, read now; one that cannot be read any
    /// more is a warning, and its object is drawn as its box.
    private func attachedModels(in scene: ExportScene, writing target: String) -> [String: USDModel] {
        var paths: [String: String] = [:]
        for file in session.files { paths.merge(file.models) { first, _ in first } }
        guard !paths.isEmpty else { return [:] }
        // A model that is the file being written (an earlier export set as a chair's model)
        // would pack that export inside the new one, growing with every export.
        let written = target == "-" ? nil : absolutePath(target)
        var read: [String: Result<USDModel, USDZError>] = [:]
        var models: [String: USDModel] = [:]
        for (_, element) in scene.allElements {
            guard let object = element.object, let path = paths[object.identifier] else { continue }
            if let written, absolutePath(path) == written {
                warn("\(element.handle): its model \(path) is the file being written; exported as its box")
                continue
            }
            if read[path] == nil {
                do {
                    let bytes = try FileIO.read(path)
                    read[path] = .success(try USDModel.read(path: path, bytes: bytes))
                } catch let error as USDZError {
                    read[path] = .failure(error)
                } catch {
                    read[path] = .failure(USDZError("\(error)"))
                }
            }
            switch read[path]! {
            case .success(let model): models[object.identifier] = model
            case .failure(let error): warn("\(element.handle): its model \(path) cannot be used (\(error.message)); exported as its box")
            }
        }
        return models
    }

    /// `set OBJECT model PATH`, `set OBJECT model none` or `set OBJECT model --remove`.
    func setModel(_ invocation: Invocation, target: Identity) throws {
        let field = invocation.positionals[1]
        let value = invocation.positional(2)
        var path: String?
        if invocation.flag("--remove") || value?.text == "none" {
            if let value, invocation.flag("--remove") { throw CommandFailure("--remove takes no VALUE", at: value) }
        } else {
            guard let value else { throw CommandFailure("set OBJECT model needs a USDZ file (or none, or --remove)", at: field) }
            let absolute = FileIO.absolute(value.text)
            let bytes: [UInt8]
            do {
                bytes = try FileIO.read(absolute)
            } catch {
                throw CommandFailure("cannot read the model \(value.text): \(error)", at: value)
            }
            do {
                _ = try USDModel.read(path: absolute, bytes: bytes)
            } catch {
                throw CommandFailure("\(value.text) is not a USDZ model: \(error.message)", at: value)
            }
            path = absolute
        }
        let plan = try self.plan({ () throws(EditError) in try session.workspace.planModel(target, path: path) }, at: field)
        try perform(plan, text: invocation.text,
                    done: path.map { "\(handleText(target)) has the model \($0)" } ?? "\(handleText(target)) has no model")
    }
}
