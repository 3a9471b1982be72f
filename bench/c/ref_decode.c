/*
 * ref_decode: the lean C reference for `interlude bench decode FILE`.
 *
 * libmpg123 with its default reader, gapless on, native output format, and an
 * mpg123_read loop into a buffer that goes nowhere. Prints one line, in the same
 * shape as interlude's:
 *   <float> seconds of audio per CPU second (<audio> s audio, <cpu> s CPU)
 * CPU time is the process's own (user + system), including opening the file.
 */
#include <mpg123.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double cpu_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: ref_decode FILE.mp3\n");
        return 2;
    }
    double start = cpu_seconds();
    int err = MPG123_OK;
    if (mpg123_init() != MPG123_OK) {
        fprintf(stderr, "ref_decode: mpg123_init failed\n");
        return 1;
    }
    mpg123_handle *mh = mpg123_new(NULL, &err);
    if (mh == NULL) {
        fprintf(stderr, "ref_decode: %s\n", mpg123_plain_strerror(err));
        return 1;
    }
    mpg123_param(mh, MPG123_FLAGS, MPG123_GAPLESS | MPG123_QUIET, 0.0);
    if (mpg123_open(mh, argv[1]) != MPG123_OK) {
        fprintf(stderr, "ref_decode: %s: %s\n", argv[1], mpg123_strerror(mh));
        return 1;
    }
    long rate = 0;
    int channels = 0, encoding = 0;
    if (mpg123_getformat(mh, &rate, &channels, &encoding) != MPG123_OK) {
        fprintf(stderr, "ref_decode: %s: %s\n", argv[1], mpg123_strerror(mh));
        return 1;
    }
    size_t bufferSize = 64 * 1024;
    unsigned char *buffer = malloc(bufferSize);
    double audioSeconds = 0;
    int frameBytes = channels * mpg123_encsize(encoding);
    for (;;) {
        size_t done = 0;
        err = mpg123_read(mh, buffer, bufferSize, &done);
        audioSeconds += (double)(done / (size_t)frameBytes) / (double)rate;
        if (err == MPG123_NEW_FORMAT) {
            mpg123_getformat(mh, &rate, &channels, &encoding);
            frameBytes = channels * mpg123_encsize(encoding);
        } else if (err == MPG123_DONE) {
            break;
        } else if (err != MPG123_OK) {
            fprintf(stderr, "ref_decode: %s: %s\n", argv[1], mpg123_strerror(mh));
            return 1;
        }
    }
    double cpu = cpu_seconds() - start;
    free(buffer);
    mpg123_close(mh);
    mpg123_delete(mh);
    printf("%.1f seconds of audio per CPU second (%.2f s audio, %.3f s CPU)\n",
           audioSeconds / cpu, audioSeconds, cpu);
    return 0;
}
