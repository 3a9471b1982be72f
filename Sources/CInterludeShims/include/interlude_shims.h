#ifndef INTERLUDE_SHIMS_H
#define INTERLUDE_SHIMS_H

/// Stops alsa-lib from printing its own diagnostics on stderr ("ALSA lib
/// pcm.c:...: Unknown PCM ..."): Interlude reports every failure itself, in
/// one line, with snd_strerror's text. A C shim because the handler type is
/// variadic, which Swift cannot implement.
void interlude_silence_alsa_errors(void);

#endif
