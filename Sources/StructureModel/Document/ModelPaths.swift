import Foundation

/// Paths of attached models: absolute in memory, so a `cd` in a script changes nothing;
/// relative to the RoomPlan file's folder in its sidecar, so a folder moved or copied
/// with its models keeps them.
extension FileIO {
    /// `path` made absolute against the working directory, with `.` and `..` resolved
    /// lexically (symbolic links are left as they are).
    public static func absolute(_ path: String) -> String {
        let joined = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var parts: [Substring] = []
        for part in joined.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                if !parts.isEmpty { parts.removeLast() }
                continue
            }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// `path` relative to `folder` (`../models/chair.usdz`); both are made absolute first.
    public static func relative(_ path: String, from folder: String) -> String {
        let target = absolute(path).split(separator: "/"), base = absolute(folder).split(separator: "/")
        var common = 0
        while common < target.count - 1, common < base.count, target[common] == base[common] { common += 1 }
        let up = Array(repeating: "..", count: base.count - common)
        return (up + target[common...].map(String.init)).joined(separator: "/")
    }
}

extension Sidecar {
    /// Attached models by object identifier, their paths resolved against `folder` (the
    /// RoomPlan file's).
    public func models(relativeTo folder: String) -> [String: String] {
        var result: [String: String] = [:]
        for entry in models {
            result[entry.object] = entry.path.hasPrefix("/") ? entry.path : FileIO.absolute(folder + "/" + entry.path)
        }
        return result
    }
}
