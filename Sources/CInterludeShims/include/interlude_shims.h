#ifndef INTERLUDE_SHIMS_H
#define INTERLUDE_SHIMS_H

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

#endif
