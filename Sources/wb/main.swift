#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
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
// Swift hands the arguments over as text, each byte that is not UTF-8 replaced: a file named
// in another encoding would be looked for under a name it does not have ("no such file").
for index in 1..<Int(CommandLine.argc) {
    guard let raw = CommandLine.unsafeArgv[index], String(validatingCString: raw) == nil else { continue }
    let shown = CommandLine.arguments[index].unicodeScalars.map { $0 == "\u{FFFD}" || $0.value < 0x20 || $0.value == 0x7F ? "?" : String($0) }.joined()
    let message = "wb: argument \(index) (\(shown)) is not UTF-8: wb takes file names and commands as UTF-8 "
        + "(rename the file, for example with convmv)\n"
    FileHandle.standardError.write(Data(message.utf8))
    exit(2)
}
exit(Program.main(Array(CommandLine.arguments.dropFirst()), faults: faults))
