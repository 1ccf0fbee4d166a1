/// Everything wb's command line asked for, as plain values: what `ProgramArguments` (the
/// declaration that parses it) produces and what `Program.main` runs. Nothing here knows
/// how the flags were spelled.
public struct ProgramOptions: Sendable, Equatable {
    /// One `-c CMD` or `-f SCRIPT`, in the order they were given.
    public enum Action: Sendable, Equatable {
        case command(String)
        case file(String)
    }

    /// `--color`: whether escape codes colour what goes to a terminal.
    public enum ColorChoice: String, Sendable, Equatable, CaseIterable {
        case never, auto, always
    }

    public var paths: [String] = []
    public var actions: [Action] = []
    public var interactive = false
    public var keepGoing = false
    public var echo = false
    public var quiet = false
    public var json = false
    public var dryRun = false
    /// `-D NAME=VALUE`, the last one of a name winning.
    public var variables: [String: String] = [:]
    public var color = ColorChoice.auto
    /// `--no-pager`.
    public var noPager = false
    // Batch runs and the crash journal (COMMANDS.md); declared and checked here, run by
    // the batch code.
    public var each = false
    public var jobs: Int?
    public var filesFrom: String?
    public var shard: Shard?
    public var recover = false

    public init() {}

    /// The shell's own options.
    var shellOptions: ShellOptions {
        var options = ShellOptions()
        options.json = json
        options.dryRun = dryRun
        options.quiet = quiet
        options.echo = echo
        options.keepGoing = keepGoing
        return options
    }
}
