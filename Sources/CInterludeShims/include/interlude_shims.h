#ifndef INTERLUDE_SHIMS_H
#define INTERLUDE_SHIMS_H

#include <stddef.h>
#include <stdlib.h>

struct dl_phdr_info;

/* The loaders that dlopen a library (CNcursesw, CSQLite, CFLAC, CPulse,
   CSystemd, CFFmpeg) each name a library's functions once, in a list
   (`interlude_*_functions.h`) that interlude_list_declare.h (the wrappers'
   prototypes, in the public header) and interlude_list_define.h (the table,
   the names to resolve, the wrappers, in loader.c) read; and each loads
   through interlude_library_load, under one lock, failing one way. */

enum { INTERLUDE_LIBRARY_FILES_MAX = 4 };

/// A library and its functions, as a loader's list describes them. The
/// fields up to `context` are the loader's; the rest is the load's state,
/// written under the load lock.
struct interlude_library {
    /// Opened in this order (a dependency before what needs it), each by the
    /// name of the headers' major version; every one must open.
    const char *const *files;
    size_t file_count;
    /// Tried when `files[0]` does not open (NULL: none); a failure still names `files[0]`.
    const char *fallback;
    /// The list's names, and for each the index in `files` of the file that
    /// has it (NULL: all in `files[0]`); `table` gets their addresses.
    const char *const *symbols;
    const unsigned char *symbol_files;
    void **table;
    size_t count;
    /// Run with the load lock held: `before` ahead of opening the files,
    /// `after` once the load has succeeded (`loaded` 1) or failed (0, the
    /// files closed and the table cleared). Either may be NULL.
    void (*before)(struct interlude_library *library);
    void (*after)(struct interlude_library *library, int loaded);
    void *context;
    void *handles[INTERLUDE_LIBRARY_FILES_MAX];
    int loaded;
};

/// The one load rule: under one lock (a load runs once however many threads
/// ask at the same time, and a caller returns only after it has ended), opens
/// the files and resolves every symbol of the list. 0, also when loaded
/// before; or -1, nothing kept open, with one line in `message`
/// (NUL-terminated, truncated to `capacity`): "<file>: <why>", the file as
/// the list names it, `why` dlopen's words when the file did not open (they
/// may name a dependency of it), "undefined symbol: <name>" when one is
/// missing. A failed load is tried again by the next call.
int interlude_library_load(struct interlude_library *library, char *message, size_t capacity);

/// Whether `library` has loaded, read under the load lock.
int interlude_library_loaded(struct interlude_library *library);

/// How many of the table's slots hold an address: `count` after a load.
size_t interlude_library_resolved(const struct interlude_library *library);

/// The load lock, for a loader's own state that its `after` writes (FFmpeg's pages).
void interlude_library_lock(void);
void interlude_library_unlock(void);

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

/* glibc's malloc serves a block of `bytes` or more from its own mapping,
   unmapped when freed, for the rest of the run (mallopt's M_MMAP_THRESHOLD,
   which also ends glibc's raising of that threshold, and of the heap's trim
   threshold, each time such a block is freed). 0 on success. */
int interlude_map_blocks_from(size_t bytes);

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

/// What `interlude --version` prints: `git describe` of the tree built by make
/// (version.c's weak "unknown" answers for a plain `swift build`; make writes
/// version-generated.c, which overrides it, only when the description changes).
const char *interlude_version(void);

#endif
