#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StructureModel
import Workbench

// A file-size limit (ulimit -f) would otherwise kill wb mid-save with no word and leave its
// temporary file behind; ignored, the write fails with EFBIG and the save reports it.
signal(SIGXFSZ, SIG_IGN)

// The end-to-end tests kill wb between writing a save's temporary files and renaming them,
// or between its two renames, as a crash would; only this executable reads that request,
// never the libraries.
let crash: @Sendable () throws(FileError) -> Void = { _exit(70) }
let faults = WriteFaults(beforeRename: getenv("WB_TEST_CRASH_BEFORE_RENAME") == nil ? nil : crash,
                         betweenRenames: getenv("WB_TEST_CRASH_BETWEEN_RENAMES") == nil ? nil : crash)
exit(Program.main(Array(CommandLine.arguments.dropFirst()), faults: faults))
