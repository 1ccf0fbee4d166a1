import StructureModel

/// One file that is open: where it came from, what it holds now, and what it held when
/// it was opened or last saved (to tell whether there is anything to save).
public struct OpenFile: Sendable {
    /// A short name for prompts and references: the file name without `.json`.
    public var name: String
    public var path: String
    public var document: RoomPlanDocument
    /// The document as it is on disk, to tell unsaved changes.
    public var savedDocument: RoomPlanDocument
    /// The file as it was on disk when opened or last saved, to notice others' changes.
    public var stamp: FileStamp?
    public var diagnostics: [Diagnostic]

    public var isModified: Bool { document != savedDocument }
}

/// What is open in a wb session. Pure data: the shell reads and edits it.
public struct Session: Sendable {
    public private(set) var files: [OpenFile] = []

    public init() {}

    public var hasUnsavedChanges: Bool { files.contains { $0.isModified } }

    /// Reads and decodes a RoomPlan file. Errors carry the file's path and, for JSON,
    /// the line, column and key path.
    public static func load(path: String) throws(LoadError) -> OpenFile {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(path)
        } catch {
            throw LoadError(path: path, message: error.message, location: nil, lineText: nil)
        }
        let document: RoomPlanDocument
        do {
            document = try RoomPlanCodec.decode(bytes)
        } catch {
            throw LoadError(path: path, message: error.message, location: error.location, lineText: error.lineText)
        }
        var name = FileIO.baseName(of: path)
        if name.hasSuffix(".json") { name.removeLast(5) }
        return OpenFile(name: name, path: path, document: document, savedDocument: document,
                        stamp: FileIO.stamp(of: path), diagnostics: RoomPlanDiagnostics.check(document))
    }

    /// Adds a file; its name is made unique (`home`, `home-2`) so references stay clear.
    @discardableResult
    public mutating func add(_ file: OpenFile) -> OpenFile {
        var file = file
        let base = file.name
        var counter = 2
        while files.contains(where: { $0.name == file.name }) {
            file.name = "\(base)-\(counter)"
            counter += 1
        }
        files.append(file)
        return file
    }

    public mutating func remove(named name: String) -> OpenFile? {
        guard let index = files.firstIndex(where: { $0.name == name }) else { return nil }
        return files.remove(at: index)
    }

    public func file(named name: String) -> OpenFile? {
        files.first { $0.name == name }
    }

    public mutating func update(_ file: OpenFile) {
        guard let index = files.firstIndex(where: { $0.path == file.path && $0.name == file.name }) else { return }
        files[index] = file
    }
}

/// A file that could not be opened.
public struct LoadError: Error, Sendable, Equatable {
    public var path: String
    public var message: String
    public var location: SourceLocation?
    public var lineText: String?
}
