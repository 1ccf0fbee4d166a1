#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StructureModel
import Workbench

// The end-to-end tests kill wb between writing a save's temporary file and renaming it,
// as a crash would; only this executable reads that request, never the libraries.
let faults = getenv("WB_TEST_CRASH_BEFORE_RENAME") == nil ? WriteFaults() : WriteFaults(beforeRename: { _exit(70) })
exit(Program.main(Array(CommandLine.arguments.dropFirst()), faults: faults))
