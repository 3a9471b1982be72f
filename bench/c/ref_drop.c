/*
 * ref_drop: the audio path's own stopping latency, for the preemption benchmark.
 *
 *   ref_drop FILE.mp3 ALSA-DEVICE LATENCY-MS STOP-SECONDS
 *
 * Plays FILE like ref_play until STOP-SECONDS after the first write, then
 * stops the way a lean player does it: snd_pcm_delay gives the frame being
 * heard (written - delay), printed on stdout, and snd_pcm_drop discards the
 * rest. Whatever the capture still holds after that frame is the path's own
 * latency from "stop now" to silence.
 */
#include <alsa/asoundlib.h>
#include <mpg123.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: ref_drop FILE.mp3 ALSA-DEVICE LATENCY-MS STOP-SECONDS\n");
        return 2;
    }
    unsigned latencyUs = (unsigned)atoi(argv[3]) * 1000u;
    double stopAfter = atof(argv[4]);
    int err = MPG123_OK;
    mpg123_handle *mh = mpg123_new(NULL, &err);
    if (mh == NULL) return 1;
    mpg123_param(mh, MPG123_FLAGS, MPG123_GAPLESS | MPG123_QUIET, 0.0);
    mpg123_format_none(mh);
    const long *rates = NULL;
    size_t rateCount = 0;
    mpg123_rates(&rates, &rateCount);
    for (size_t i = 0; i < rateCount; i++)
        mpg123_format(mh, rates[i], MPG123_MONO | MPG123_STEREO, MPG123_ENC_SIGNED_16);
    long rate = 0;
    int channels = 0, encoding = 0;
    if (mpg123_open(mh, argv[1]) != MPG123_OK || mpg123_getformat(mh, &rate, &channels, &encoding) != MPG123_OK) {
        fprintf(stderr, "ref_drop: %s: %s\n", argv[1], mpg123_strerror(mh));
        return 1;
    }
    snd_pcm_t *pcm = NULL;
    if ((err = snd_pcm_open(&pcm, argv[2], SND_PCM_STREAM_PLAYBACK, 0)) < 0 ||
        (err = snd_pcm_set_params(pcm, SND_PCM_FORMAT_S16, SND_PCM_ACCESS_RW_INTERLEAVED, (unsigned)channels,
                                  (unsigned)rate, 1, latencyUs)) < 0) {
        fprintf(stderr, "ref_drop: %s: %s\n", argv[2], snd_strerror(err));
        return 1;
    }
    /* Small writes, so the stop is checked often. */
    short buffer[1024 * 2];
    long written = 0;
    double start = -1;
    for (;;) {
        size_t done = 0;
        int status = mpg123_read(mh, buffer, sizeof buffer, &done);
        snd_pcm_sframes_t frames = (snd_pcm_sframes_t)(done / (sizeof(short) * (size_t)channels));
        if (frames > 0) {
            snd_pcm_sframes_t result = snd_pcm_writei(pcm, buffer, (snd_pcm_uframes_t)frames);
            if (result < 0) result = snd_pcm_recover(pcm, (int)result, 1);
            if (result > 0) written += result;
            if (start < 0) start = now();
        }
        if (status != MPG123_OK) break;
        if (start >= 0 && now() - start >= stopAfter) {
            snd_pcm_sframes_t delay = 0;
            snd_pcm_delay(pcm, &delay);
            printf("%ld\n", written - (long)delay);
            snd_pcm_drop(pcm);
            break;
        }
    }
    snd_pcm_close(pcm);
    mpg123_delete(mh);
    return 0;
}
