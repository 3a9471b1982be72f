/*
 * ref_play: the lean C player the benchmark compares interlude with.
 *
 *   ref_play FILE.mp3 [ALSA-DEVICE [LATENCY-MS]]      (defaults: default, 100)
 *
 * mpg123_read into a buffer, snd_pcm_writei to the device, nothing else: no
 * threads, no ring. The PCM is (re)configured with snd_pcm_set_params at the
 * stream's format, so a format change mid-file is followed. Errors from the
 * device go through snd_pcm_recover (underruns are counted and reported on
 * stderr at the end).
 */
#include <alsa/asoundlib.h>
#include <mpg123.h>
#include <stdio.h>
#include <stdlib.h>

static int configure(snd_pcm_t *pcm, long rate, int channels, unsigned latencyUs) {
    return snd_pcm_set_params(pcm, SND_PCM_FORMAT_S16, SND_PCM_ACCESS_RW_INTERLEAVED,
                              (unsigned)channels, (unsigned)rate, 1, latencyUs);
}

int main(int argc, char **argv) {
    if (argc < 2 || argc > 4) {
        fprintf(stderr, "usage: ref_play FILE.mp3 [ALSA-DEVICE [LATENCY-MS]]\n");
        return 2;
    }
    const char *device = argc > 2 ? argv[2] : "default";
    unsigned latencyUs = (unsigned)(argc > 3 ? atoi(argv[3]) : 100) * 1000u;

    int err = MPG123_OK;
    mpg123_init();
    mpg123_handle *mh = mpg123_new(NULL, &err);
    if (mh == NULL) {
        fprintf(stderr, "ref_play: %s\n", mpg123_plain_strerror(err));
        return 1;
    }
    mpg123_param(mh, MPG123_FLAGS, MPG123_GAPLESS | MPG123_QUIET, 0.0);
    /* One output encoding: signed 16-bit at whatever rate and channel count the file has. */
    mpg123_format_none(mh);
    const long *rates = NULL;
    size_t rateCount = 0;
    mpg123_rates(&rates, &rateCount);
    for (size_t i = 0; i < rateCount; i++)
        mpg123_format(mh, rates[i], MPG123_MONO | MPG123_STEREO, MPG123_ENC_SIGNED_16);
    if (mpg123_open(mh, argv[1]) != MPG123_OK) {
        fprintf(stderr, "ref_play: %s: %s\n", argv[1], mpg123_strerror(mh));
        return 1;
    }
    long rate = 0;
    int channels = 0, encoding = 0;
    if (mpg123_getformat(mh, &rate, &channels, &encoding) != MPG123_OK) {
        fprintf(stderr, "ref_play: %s: %s\n", argv[1], mpg123_strerror(mh));
        return 1;
    }

    snd_pcm_t *pcm = NULL;
    if ((err = snd_pcm_open(&pcm, device, SND_PCM_STREAM_PLAYBACK, 0)) < 0) {
        fprintf(stderr, "ref_play: cannot open ALSA device %s: %s\n", device, snd_strerror(err));
        return 1;
    }
    if ((err = configure(pcm, rate, channels, latencyUs)) < 0) {
        fprintf(stderr, "ref_play: %s: %s\n", device, snd_strerror(err));
        return 1;
    }

    size_t bufferSize = 16 * 1024;
    short *buffer = malloc(bufferSize);
    long underruns = 0;
    for (;;) {
        size_t done = 0;
        err = mpg123_read(mh, buffer, bufferSize, &done);
        snd_pcm_uframes_t frames = done / (size_t)(2 * channels);
        short *cursor = buffer;
        while (frames > 0) {
            snd_pcm_sframes_t written = snd_pcm_writei(pcm, cursor, frames);
            if (written < 0) {
                if (written == -EPIPE) underruns++;
                if (snd_pcm_recover(pcm, (int)written, 1) < 0) {
                    fprintf(stderr, "ref_play: %s: %s\n", device, snd_strerror((int)written));
                    return 1;
                }
                continue;
            }
            cursor += written * channels;
            frames -= (snd_pcm_uframes_t)written;
        }
        if (err == MPG123_NEW_FORMAT) {
            mpg123_getformat(mh, &rate, &channels, &encoding);
            snd_pcm_drain(pcm);
            if ((err = configure(pcm, rate, channels, latencyUs)) < 0) {
                fprintf(stderr, "ref_play: %s: %s\n", device, snd_strerror(err));
                return 1;
            }
        } else if (err == MPG123_DONE) {
            break;
        } else if (err != MPG123_OK) {
            fprintf(stderr, "ref_play: %s: %s\n", argv[1], mpg123_strerror(mh));
            return 1;
        }
    }
    snd_pcm_drain(pcm);
    snd_pcm_close(pcm);
    free(buffer);
    mpg123_close(mh);
    mpg123_delete(mh);
    if (underruns > 0) fprintf(stderr, "ref_play: %ld underruns\n", underruns);
    return 0;
}
