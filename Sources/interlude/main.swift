import Interlude
#if canImport(Glibc)
import Glibc
#endif

exit(CommandRouter.run(Array(CommandLine.arguments.dropFirst())))
