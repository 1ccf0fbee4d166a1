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
        if let ref = root["version"], case .int(let v) = try plist.object(try resolve(ref)) { info.mapVersion = Int(clamping: v) }
        for key in ["trackingData", "surfaceData"] {
            if let ref = root[key], case .data(let range) = try plist.object(try resolve(ref)) { info.opaqueSizes[key] = range.count }
        }
        info.referenceOriginTransform = try matrix(root["referenceOriginTransform"])
        if let anchorsRef = root["anchors"] {
            let list = try plist.dictionary(try resolve(anchorsRef))
            if let itemsRef = list["NS.objects"], case .array(let items) = try plist.object(itemsRef) {
                for item in items {
                    let anchor = try plist.dictionary(try resolve(item))
                    var archived = ArchivedAnchor(className: try className(anchor), identifier: nil, name: nil,
                                                  transform: try matrix(anchor["transform"]))
                    if let nameRef = anchor["name"] { archived.name = plist.string(try resolve(nameRef)) }
                    if let idRef = anchor["identifier"] {
                        let uuid = try plist.dictionary(try resolve(idRef))
                        if let bytesRef = uuid["NS.uuidbytes"], case .data(let range) = try plist.object(try resolve(bytesRef)), range.count == 16 {
                            archived.identifier = uuidString(Array(bytes[range]))
                        }
                    }
                    info.anchors.append(archived)
                }
            }
        }
        if rootClass != "ARWorldMap" { info.problems.append("the archive's root is \(rootClass.isEmpty ? "unnamed" : rootClass), not ARWorldMap") }
        if let version = info.mapVersion, version > newestVersion {
            info.problems.append("map version \(version) is newer than ARKit reads (\(newestVersion))")
        }
        if info.mapVersion == nil { info.problems.append("the map has no version") }
        if info.opaqueSizes["trackingData"] == nil { info.problems.append("no trackingData: ARKit reports malformed map data") }
        return info
    }
}
