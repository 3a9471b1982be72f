// libFuzzer's driver entry, declared here because the toolchain ships no
// header for it. SwiftPM names an executable's entry point `<Module>_main`
// and links `main` to it, so a fuzzer target cannot take libFuzzer's own
// `main`; it calls this instead. Only referenced in fuzzing builds, where
// -sanitize=fuzzer links the library that defines it.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv,
                        int (*callback)(const uint8_t *data, size_t size));
