/// An `ARAnchor` found inside a world map archive.
public struct ArchivedAnchor: Sendable, Equatable {
    public var className: String
    public var identifier: String?
    public var name: String?
    public var transform: Transform?
}

/// What a world map holds, read without ARKit: the NSKeyedArchiver plist taken apart as
/// data. The bytes themselves are never altered; `trackingData` (ARKit's proprietary SLAM
/// map) stays opaque and is only measured.
public struct WorldMapInfo: Sendable, Equatable {
    public var archiver: String
    public var archiveVersion: Int
    public var rootClass: String
    /// ARWorldMap's own `version`; ARKit reads up to 3.
    public var mapVersion: Int?
    public var anchors: [ArchivedAnchor]
    public var referenceOriginTransform: Transform?
    /// Sizes of the opaque parts, by key (`trackingData`, `surfaceData`).
    public var opaqueSizes: [String: Int]
    /// What ARKit would refuse, as the SDK's `validate()` checks it; empty when valid.
    public var problems: [String]

    public var isValid: Bool { problems.isEmpty }
}

public enum WorldMapArchive {
    public static let newestVersion = 3

    public static func inspect(_ bytes: [UInt8]) throws(BinaryPlist.Failure) -> WorldMapInfo {
        let plist = try BinaryPlist(bytes)
        let top = try plist.dictionary(plist.top)
        let archiver = top["$archiver"].flatMap(plist.string) ?? ""
        var archiveVersion = 0
        if let ref = top["$version"], case .int(let v) = try plist.object(ref) { archiveVersion = Int(clamping: v) }
        guard archiver == "NSKeyedArchiver", let topRef = top["$top"], let objectsRef = top["$objects"],
              case .array(let objects) = try plist.object(objectsRef) else {
            throw BinaryPlist.Failure(message: "a property list, but not an NSKeyedArchiver archive")
        }
        /// The plist object an archive value stands for: UIDs point into `$objects`.
        func resolve(_ ref: Int) throws(BinaryPlist.Failure) -> Int {
            if case .uid(let uid) = try plist.object(ref) {
                guard uid >= 0 && uid < objects.count else { throw BinaryPlist.Failure(message: "a reference to archived object \(uid), which does not exist") }
                return objects[uid]
            }
            return ref
        }
        func className(_ object: [String: Int]) throws(BinaryPlist.Failure) -> String {
            guard let classRef = object["$class"] else { return "" }
            let classDict = try plist.dictionary(try resolve(classRef))
            return classDict["$classname"].flatMap(plist.string) ?? ""
        }
        /// Whether an archived object's class is ARAnchor or a subclass (an app's own anchor
        /// class lists ARAnchor among its `$classes`).
        func isAnchorClass(_ object: [String: Int]) throws(BinaryPlist.Failure) -> Bool {
            guard let classRef = object["$class"] else { return false }
            let classDict = try plist.dictionary(try resolve(classRef))
            if let listRef = classDict["$classes"], case .array(let names) = try plist.object(try resolve(listRef)) {
                for name in names where plist.string(try resolve(name)) == "ARAnchor" { return true }
                return false
            }
            return (classDict["$classname"].flatMap(plist.string) ?? "").hasSuffix("Anchor")
        }
        func matrix(_ ref: Int?) throws(BinaryPlist.Failure) -> Transform? {
            guard let ref, case .data(let range) = try plist.object(try resolve(ref)), range.count == 64 else { return nil }
            var elements = SIMD16<Float>()
            for i in 0..<16 {
                let o = range.lowerBound + i * 4
                let bits = UInt32(bytes[o]) | UInt32(bytes[o + 1]) << 8 | UInt32(bytes[o + 2]) << 16 | UInt32(bytes[o + 3]) << 24
                elements[i] = Float(bitPattern: bits)
            }
            return Transform(elements: elements)
        }
        let topDict = try plist.dictionary(topRef)
        guard let rootRef = topDict["root"] else { throw BinaryPlist.Failure(message: "a keyed archive with no root object") }
        let root = try plist.dictionary(try resolve(rootRef))
        let rootClass = try className(root)
        var info = WorldMapInfo(archiver: archiver, archiveVersion: archiveVersion, rootClass: rootClass, mapVersion: nil,
                                anchors: [], referenceOriginTransform: nil, opaqueSizes: [:], problems: [])
        /// What a value is, for a message: "a string", "12 bytes of data".
        func kind(_ ref: Int) throws(BinaryPlist.Failure) -> String {
            switch try plist.object(try resolve(ref)) {
            case .null: return "null"
            case .bool: return "a boolean"
            case .int: return "an integer"
            case .real: return "a real number"
            case .date: return "a date"
            case .data(let range): return "\(range.count) bytes of data"
            case .string: return "a string"
            case .uid: return "a reference"
            case .array: return "an array"
            case .dict(let entries):
                let object = try plist.dictionary(try resolve(ref))
                let name = try className(object)
                return name.isEmpty ? "a dictionary of \(entries.count) keys" : "an archived \(name)"
            }
        }
        // A key of the wrong type is what ARKit's decoder refuses (or reads as nothing): it was
        // "no version" or nothing at all, and `validate` called such a map sound.
        var typeProblems: [String] = []
        if let ref = root["version"] {
            if case .int(let v) = try plist.object(try resolve(ref)) { info.mapVersion = Int(clamping: v) }
            else { typeProblems.append("its version is \(try kind(ref)), not an integer") }
        }
        for key in ["trackingData", "surfaceData"] {
            guard let ref = root[key] else { continue }
            if case .data(let range) = try plist.object(try resolve(ref)) { info.opaqueSizes[key] = range.count }
            else { typeProblems.append("its \(key) is \(try kind(ref)), not data") }
        }
        func checkedMatrix(_ ref: Int?, _ what: String) throws(BinaryPlist.Failure) -> Transform? {
            guard let ref else { return nil }
            guard let transform = try matrix(ref) else {
                typeProblems.append("\(what) is \(try kind(ref)), not a 4×4 matrix (64 bytes of data)")
                return nil
            }
            let values = (0..<16).map { transform.elements[$0] }
            if !values.allSatisfy(\.isFinite) { typeProblems.append("\(what) holds a number that is not finite") }
            return transform
        }
        info.referenceOriginTransform = try checkedMatrix(root["referenceOriginTransform"], "its referenceOriginTransform")
        if let anchorsRef = root["anchors"] {
            let listed = try plist.object(try resolve(anchorsRef))
            guard case .dict = listed, case let list = try plist.dictionary(try resolve(anchorsRef)),
                  let itemsRef = list["NS.objects"], case .array(let items) = try plist.object(itemsRef) else {
                typeProblems.append("its anchors are \(try kind(anchorsRef)), not an archived array")
                info.problems = typeProblems
                return finish(info, rootClass: rootClass)
            }
            for (index, item) in items.enumerated() {
                guard case .dict = try plist.object(try resolve(item)) else {
                    typeProblems.append("anchor \(index + 1) is \(try kind(item)), not an archived anchor")
                    continue
                }
                let anchor = try plist.dictionary(try resolve(item))
                // ARKit decodes the array's entries as anchors (ARAnchor and its subclasses): an
                // entry of another class, or of none, or the array itself, is not one.
                let anchorClass = try className(anchor)
                guard try isAnchorClass(anchor) else {
                    typeProblems.append("anchor \(index + 1) is " + (anchorClass.isEmpty ? "an object of no class" : "an archived \(anchorClass)")
                                        + ", not an anchor")
                    continue
                }
                if let stamp = anchor["lastUpdateTimestamp"] {
                    switch try plist.object(try resolve(stamp)) {
                    case .real, .int: break
                    default: typeProblems.append("anchor \(index + 1)'s lastUpdateTimestamp is \(try kind(stamp)), not a number")
                    }
                }
                var archived = ArchivedAnchor(className: anchorClass, identifier: nil, name: nil,
                                              transform: try checkedMatrix(anchor["transform"], "anchor \(index + 1)'s transform"))
                if let nameRef = anchor["name"] {
                    archived.name = plist.string(try resolve(nameRef))
                    if archived.name == nil { typeProblems.append("anchor \(index + 1)'s name is \(try kind(nameRef)), not a string") }
                }
                if let idRef = anchor["identifier"] {
                    if case .dict = try plist.object(try resolve(idRef)), case let uuid = try plist.dictionary(try resolve(idRef)),
                       let bytesRef = uuid["NS.uuidbytes"], case .data(let range) = try plist.object(try resolve(bytesRef)), range.count == 16 {
                        archived.identifier = uuidString(Array(bytes[range]))
                    } else {
                        typeProblems.append("anchor \(index + 1)'s identifier is \(try kind(idRef)), not an archived UUID (16 bytes)")
                    }
                }
                info.anchors.append(archived)
            }
        }
        info.problems = typeProblems
        return finish(info, rootClass: rootClass)
    }

    private static func finish(_ info: WorldMapInfo, rootClass: String) -> WorldMapInfo {
        var info = info
        if rootClass != "ARWorldMap" { info.problems.insert("the archive's root is \(rootClass.isEmpty ? "unnamed" : rootClass), not ARWorldMap", at: 0) }
        if let version = info.mapVersion, version > newestVersion {
            info.problems.append("map version \(version) is newer than ARKit reads (\(newestVersion))")
        }
        if info.mapVersion == nil && !info.problems.contains(where: { $0.hasPrefix("its version is") }) {
            info.problems.append("the map has no version")
        }
        if info.opaqueSizes["trackingData"] == nil && !info.problems.contains(where: { $0.hasPrefix("its trackingData is") }) {
            info.problems.append("no trackingData: ARKit reports malformed map data")
        }
        return info
    }
}
