#ifndef INTERLUDE_SHIMS_H
#define INTERLUDE_SHIMS_H

struct dl_phdr_info;

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
