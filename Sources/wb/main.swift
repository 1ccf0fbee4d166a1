#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Workbench

exit(Program.main(Array(CommandLine.arguments.dropFirst())))
