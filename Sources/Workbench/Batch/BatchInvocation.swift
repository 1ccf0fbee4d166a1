/// `--shard I/N`: of the whole list of paths, the I-th, the (I+N)-th, … (1-based), so that
/// N tasks given the same list and I = 1…N share it out without overlap.
public struct Shard: Sendable, Equatable {
    public var index: Int
    public var count: Int

    /// nil unless `text` is `I/N` with 1 ≤ I ≤ N.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, index >= 1, index <= count
        else { return nil }
        self.index = index
        self.count = count
    }

    /// Whether the path at `position` (1-based, in the whole list) is this shard's.
    func keeps(_ position: Int) -> Bool {
        position >= index && (position - index) % count == 0
    }
}

extension ProgramOptions {
    /// Why flags that make no sense together are a bad invocation (exit status 2), said
    /// before anything runs; nil when they go together.
    var combinationProblem: String? {
        if !each {
            for (flag, given) in [("--jobs", jobs != nil), ("--files-from", filesFrom != nil), ("--shard", shard != nil)] where given {
                return "\(flag) works only with --each"
            }
        }
        if each {
            if actions.isEmpty { return "--each runs commands once per file: give them with -c CMD or -f SCRIPT" }
            if interactive { return "--each runs unattended; -i does not go with it" }
            if recover { return "--recover replays one session's journal; it does not go with --each" }
            if paths.isEmpty && filesFrom == nil { return "--each needs the paths: PATH ... or --files-from FILE" }
            let scriptOnStandardInput = actions.contains { if case .file("-") = $0 { return true } else { return false } }
            if filesFrom == "-" && scriptOnStandardInput {
                return "standard input cannot hold both the script (-f -) and the paths (--files-from -)"
            }
        }
        if recover && paths.isEmpty { return "--recover needs the PATH whose journal to replay" }
        return nil
    }
}
