import Foundation
import StructureModel

/// Turning what a person typed into the thing they mean: a handle (`r2`, `o12`), a full
/// identifier or a unique prefix of at least 4 characters, a room's or section's name, or
/// (for rooms) a section label that only one section has.
extension Shell {
    func resolve(_ word: Argument, allowed: Set<ElementKind>, what: String) throws -> Identity {
        let text = word.text
        let workspace = session.workspace
        var found: Identity?
        if let identity = workspace.handles.identity(for: text) {
            found = identity
        } else if let prefix = text.first, prefix.isLetter, text.dropFirst().allSatisfy(\.isNumber), text.count > 1,
                  let kind = ElementKind.allCases.first(where: { $0.handlePrefix == String(prefix) }) {
            let count = workspace.handles.order[kind]?.count ?? 0
            throw CommandFailure("there is no \(text)" + (count == 0 ? " (nothing open has \(kind.plural))"
                                                          : " (\(kind.plural): \(kind.handlePrefix)1 to \(kind.handlePrefix)\(lastNumber(kind)))"),
                                 at: word)
        } else if let named = try namedIdentity(text, at: word) {
            found = named
        } else if let labelled = try labelledSection(text, at: word) {
            found = labelled
        } else if text.count >= 4, text.allSatisfy({ $0.isHexDigit || $0 == "-" }) {
            var matches = workspace.handles.identities(withIdentifierPrefix: text)
            // A structure keeps a room's element nested in its room and again at its own level,
            // under the one identifier (as Apple writes it): that is one thing, and the room's
            // copy is where it is edited (an edit reaches every copy). A full UUID failed as
            // "the identifier of several elements" on nearly every element of every structure.
            let roomCopies = matches.filter { $0.room != nil }
            if matches.count > 1, roomCopies.count == 1, let copy = roomCopies.first,
               matches.allSatisfy({ $0.file == copy.file && $0.kind == copy.kind && $0.identifier?.uppercased() == copy.identifier?.uppercased() }) {
                matches = [copy]
            }
            if matches.count > 1 {
                // A full identifier in several places: a room file and the structure merged
                // from it, or a scan copied for another room. Say where each one is.
                let whole = matches.allSatisfy { $0.identifier?.uppercased() == text.uppercased() }
                let places = matches.compactMap { identity -> (String, String)? in
                    guard let handle = workspace.handles.handle(for: identity) else { return nil }
                    guard let file = workspace.file(id: identity.file) else { return (handle, handle) }
                    let level = identity.room.flatMap { workspace.handles.handle(for: $0) }.map { ", room \($0)" }
                        ?? (file.isStructure ? ", structure level" : "")
                    return (handle, "\(handle) in \(file.name)\(level)")
                }.sorted { naturalOrder($0.0, $1.0) }.map(\.1)
                let listed = places.prefix(6).joined(separator: "; ") + (places.count > 6 ? "; +\(places.count - 6)" : "")
                throw CommandFailure(whole ? "'\(text)' is the identifier of several elements (\(listed)): use a handle"
                                           : "'\(text)' is the start of several identifiers (\(listed))", at: word)
            }
            found = matches.first
        }
        guard var identity = found else {
            // Only handles of what may stand here: `story --auto 3` offered d3, a door, for a room.
            let fitting = workspace.handles.allHandles.filter { workspace.handles.identity(for: $0).map { allowed.contains($0.kind) } ?? false }
            let candidates = fitting + session.files.flatMap { $0.names.values }
            let hint = nearest(text, among: candidates).map { " (did you mean \($0)?)" } ?? ""
            let example = allowed == [.room] ? "r1" : allowed.count == 1 ? allowed.first.map { "\($0.handlePrefix)1" } ?? "r1" : "r1 or o3"
            // An open file's name, where a room is meant (`merge s` for the structure s): say
            // what it is and its rooms' handles, not that nothing is called so.
            if allowed.contains(.room), let file = session.files.first(where: { $0.name == text }) {
                let rooms = roomHandles(of: file)
                let listed = rooms.isEmpty ? "it holds no rooms" : rooms.count == 1 ? "its room is \(rooms[0])"
                    : "its rooms are " + listedHandles(rooms)
                throw CommandFailure("'\(text)' is an open \(file.isStructure ? "structure" : "file"), not a room: \(what) is a room "
                                     + "(\(listed))", at: word)
            }
            // A space or an anchor where the command takes neither (`move sp1 1 0`, `name a1 X`):
            // it is open, so say what it is rather than that nothing is called so.
            let allowedText = allowed.map(\.rawValue).sorted().map { article($0) + " " + $0 }.joined(separator: " or ")
            if let space = try? spaceEntry(word) {
                throw CommandFailure("\(space.handle) is a space (of the Hyperbasis store \(FileIO.baseName(of: session.workspace.stores[space.store].store.path))); "
                                     + "here \(what) is \(allowedText)", at: word)
            }
            if let anchor = try? anchorEntry(word) {
                throw CommandFailure("\(anchor.handle) is an anchor (of the Hyperbasis store \(FileIO.baseName(of: session.workspace.stores[anchor.store].store.path))); "
                                     + "here \(what) is \(allowedText)", at: word)
            }
            throw CommandFailure("nothing open is called '\(text)'\(hint); \(what) is a handle like \(example), an identifier, or a name",
                                 at: word)
        }
        if !workspace.exists(identity) && !workspace.isDeleted(identity) {
            let handle = workspace.handles.handle(for: identity) ?? text
            throw CommandFailure("\(handle) is no longer open (its file was closed, or its room taken out; undo brings it back)", at: word)
        }
        if identity.kind == .section && !allowed.contains(.section) && allowed.contains(.room) {
            identity = identity.room ?? identity
        }
        guard allowed.contains(identity.kind) else {
            let handle = workspace.handles.handle(for: identity) ?? text
            throw CommandFailure("\(handle) is \(article(identity.kind.rawValue)) \(identity.kind.rawValue); \(what) is "
                                 + allowed.map(\.rawValue).sorted().joined(separator: " or "), at: word)
        }
        return identity
    }

    /// The handles of `file`'s rooms, in document order.
    func roomHandles(of file: WorkspaceFile) -> [String] {
        file.rooms.compactMap { session.workspace.handles.handle(for: $0) }
    }

    /// Handles as a person reads them: all of up to six, else the first and last.
    func listedHandles(_ handles: [String]) -> String {
        handles.count > 6 ? "\(handles[0]) to \(handles[handles.count - 1])" : handles.joined(separator: ", ")
    }

    private func lastNumber(_ kind: ElementKind) -> Int {
        session.workspace.handles.order[kind]?.compactMap { session.workspace.handles.handle(for: $0) }
            .compactMap { Int($0.dropFirst()) }.max() ?? 0
    }

    private func article(_ word: String) -> String {
        ["a", "e", "i", "o", "u"].contains(word.first.map(String.init) ?? "") ? "an" : "a"
    }

    /// The one open thing named `text`: as typed, else with case ignored (as text in a `where`
    /// is compared). Two named so are an error that lists them.
    private func namedIdentity(_ text: String, at word: Argument) throws -> Identity? {
        for exact in [true, false] {
            var matches: [Identity] = []
            for file in session.files {
                for (identity, name) in file.names where session.workspace.exists(identity)
                    && (exact ? name == text : name.lowercased() == text.lowercased()) {
                    matches.append(identity)
                }
            }
            if matches.count > 1 {
                let handles = matches.compactMap { session.workspace.handles.handle(for: $0) }.sorted(by: naturalOrder)
                let name = session.files.lazy.compactMap { $0.names[matches[0]] }.first ?? text
                throw CommandFailure("\(matches.count) things are named \(name) (\(handles.joined(separator: ", "))); name one by its handle",
                                     at: word)
            }
            if let match = matches.first { return match }
        }
        return nil
    }

    /// A section label that exactly one open section has.
    private func labelledSection(_ text: String, at word: Argument) throws -> Identity? {
        guard SectionLabel.isKnown(text) else { return nil }
        var matches: [Identity] = []
        for file in session.files {
            for room in file.rooms {
                let sections = file.identities(room.scope, .section)
                for (index, section) in (file.capture(room.scope)?.sections ?? []).enumerated() where section.label == text {
                    matches.append(sections[index])
                }
            }
        }
        if matches.count > 1 {
            let handles = matches.compactMap { session.workspace.handles.handle(for: $0) }
            throw CommandFailure("\(matches.count) sections are labelled \(text) (\(handles.joined(separator: ", "))); name one by its handle",
                                 at: word)
        }
        return matches.first
    }

    // MARK: Numbers

    /// A length in metres; `80cm`, `2.5m`, `3ft`, `10in`, `900mm` are converted.
    func length(_ word: Argument, name: String) throws -> Double {
        let units: [(String, Double)] = [("mm", 0.001), ("cm", 0.01), ("m", 1), ("ft", 0.3048), ("in", 0.0254)]
        var text = word.text.lowercased()
        var scale = 1.0
        for (suffix, factor) in units where text.hasSuffix(suffix) {
            let number = text.dropLast(suffix.count)
            if Double(number) != nil {
                text = String(number)
                scale = factor
                break
            }
        }
        // A number with a unit wb does not know (`10km`) was "must be a number": say which it knows.
        if scale == 1, let last = text.last, last.isLetter, text.contains(where: \.isNumber), !text.hasSuffix("nan"), !text.hasSuffix("inf") {
            throw CommandFailure("\(name) takes a length: a number of metres, or with mm, cm, m, ft or in (not '\(word.text)')", at: word)
        }
        return try finite(text, word: word, name: name, scale: scale, limit: Workspace.distanceLimit, unit: "m")
    }

    func degrees(_ word: Argument, name: String) throws -> Double {
        var text = word.text.lowercased()
        if text.hasSuffix("deg") { text.removeLast(3) } else if text.hasSuffix("°") { text.removeLast() }
        return try finite(text, word: word, name: name, scale: 1, limit: 36_000, unit: "°")
    }

    private func finite(_ text: String, word: Argument, name: String, scale: Double, limit: Double, unit: String) throws -> Double {
        // Swift's Double(_:) also reads "nan", "inf" and hex; a person means a decimal number.
        let decimal = text.allSatisfy { $0.isNumber || "+-.eE".contains($0) } && text.contains(where: \.isNumber)
        guard decimal, let value = Double(text), value.isFinite else {
            throw CommandFailure("\(name) must be a number, not '\(word.text)'", at: word)
        }
        let result = value * scale
        guard abs(result) <= limit else {
            throw CommandFailure("\(name) \(word.text) is out of range (at most \(Int(limit)) \(unit))", at: word)
        }
        return result
    }

    func wholeNumber(_ word: Argument, name: String, range: ClosedRange<Int>) throws -> Int {
        guard let value = Int(word.text) else {
            throw CommandFailure("\(name) must be a whole number, not '\(word.text)'", at: word)
        }
        guard range.contains(value) else {
            throw CommandFailure("\(name) \(value) is out of range (\(range.lowerBound) to \(range.upperBound))", at: word)
        }
        return value
    }
}
