#ifndef INTERLUDE_SHIMS_H
#define INTERLUDE_SHIMS_H

#include <stddef.h>
#include <stdlib.h>

struct dl_phdr_info;

/* For the loaders that dlopen a library and resolve its functions (CNcursesw,
   CSQLite, CFLAC, CSystemd, CFFmpeg): the parts each would otherwise repeat. */

/// One function or variable to resolve: its name and where its address goes.
struct interlude_symbol { const char *name; void **slot; };

/// Resolves `count` symbols from `library` (a dlopen handle) into their slots.
/// 0, or -1 at the first one missing, with dlerror's message (or the symbol's
/// name) in `message`; the slots resolved before it are left set, so the
/// caller clears its table and closes the library.
int interlude_resolve_symbols(void *library, const struct interlude_symbol *symbols, size_t count,
                              char *message, size_t capacity);

/// Copies `text` ("unknown error" when NULL) into `message`, truncated to
/// `capacity` and NUL-terminated; nothing when `capacity` is 0.
void interlude_copy_message(char *message, size_t capacity, const char *text);

/// A wrapper called before its library loaded is a bug, not a user's error: it traps.
static inline void *interlude_need(void *pointer) {
    if (pointer == NULL) abort();
    return pointer;
}

/// Stops alsa-lib from printing its own diagnostics on stderr ("ALSA lib
/// pcm.c:...: Unknown PCM ..."): Interlude reports every failure itself, in
/// one line, with snd_strerror's text. A C shim because the handler type is
/// variadic, which Swift cannot implement.
void interlude_silence_alsa_errors(void);

/// Names the calling thread (at most 15 bytes; longer is refused): seen in
/// `top -H`, and how the allocation-counting test finds the audio writer.
/// A shim because pthread_setname_np is a GNU extension the Glibc module leaves
/// out. For the calling thread glibc makes one prctl(PR_SET_NAME): no lock, no allocation.
int interlude_name_this_thread(const char *name);

/// Gives back the resident pages of a loaded shared object's segments that are
/// never written (code, read-only data, symbol and relocation tables), for the
/// loaders that dlopen a library (CSystemd, CFFmpeg): the kernel maps a file
/// 64 KB around each page touched, and loading a library (relocating it, running
/// its constructors) touches pages all over it that the program may never use
/// again. Such a page was never written, so dropping it from this process loses
/// nothing: what is used later is read back from the page cache. Only the
/// pages of PT_LOAD segments without PF_W (not one a writable segment shares),
/// and nothing of an object with text relocations (the loader wrote those
/// segments); the segment the loader relocates (PF_W, made read-only after as
/// RELRO) is private and left alone.
///
/// `keep_lookup_pages`: leave resident the pages the dynamic loader reads in
/// every object of a dependency tree each time it loads something whose tree
/// holds this one (its DT_NEEDED and DT_SONAME strings, its GNU hash bloom
/// filter), so a loader that dlopens a tree one object at a time and releases
/// after each step does not fault them, 64 KB at a time, back in at every step.
///
/// `object` is what dl_iterate_phdr passes its callback. Bytes released, or
/// -ENOTSUP (text relocations).
long interlude_release_clean_segments(const struct dl_phdr_info *object, int keep_lookup_pages);

#endif
