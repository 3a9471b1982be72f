import AudioDecoding
import Interlude
#if canImport(Glibc)
import Glibc
#endif

Decoders.unmapLargeBlocksWhenFreed()
Decoders.exitQuicklyOnceFFmpegIsLoaded()
exit(CommandRouter.run(Array(CommandLine.arguments.dropFirst())))
