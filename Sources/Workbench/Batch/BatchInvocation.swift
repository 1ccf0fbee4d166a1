/// `--shard I/N`: of the whole list of paths, the I-th, the (I+N)-th, … (1-based), so that
/// N tasks given the same list and I = 1…N share it out without overlap.
struct Shard: Sendable, Equatable {
    var index: Int
    var count: Int

    init?(_ text: String) {
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

extension Program.Invocation {
    /// Flags that make no sense together are a bad invocation (exit status 2), said before
    /// anything runs.
    func checkCombinations() throws {
        if !each {
            for (flag, given) in [("--jobs", jobs != nil), ("--files-from", filesFrom != nil), ("--shard", shard != nil)] where given {
                throw Program.UsageError(message: "\(flag) works only with --each")
            }
        }
        if each {
            if actions.isEmpty {
                throw Program.UsageError(message: "--each runs commands once per file: give them with -c CMD or -f SCRIPT")
            }
            if interactive { throw Program.UsageError(message: "--each runs unattended; -i does not go with it") }
            if recover { throw Program.UsageError(message: "--recover replays one session's journal; it does not go with --each") }
            if paths.isEmpty && filesFrom == nil {
                throw Program.UsageError(message: "--each needs the paths: PATH ... or --files-from FILE")
            }
            let scriptOnStandardInput = actions.contains { if case .file("-") = $0 { return true } else { return false } }
            if filesFrom == "-" && scriptOnStandardInput {
                throw Program.UsageError(message: "standard input cannot hold both the script (-f -) and the paths (--files-from -)")
            }
        }
        if recover && paths.isEmpty {
            throw Program.UsageError(message: "--recover needs the PATH whose journal to replay")
        }
    }
}
