/*
 * measure: run a program and write its CPU time and peak RSS to a file.
 *
 *   measure STATSFILE PROGRAM [ARGS...]
 *
 * STATSFILE gets one line: "<maxrss KiB> <user s> <sys s>". The exit status is the
 * program's (128 + signal when a signal ended it).
 *
 * Why a helper: Linux carries the pre-exec address space's high-water mark into the
 * child's ru_maxrss, so a child spawned straight from the (large) benchmark process
 * reports the benchmark's RSS when its own is smaller. Forked from this small program,
 * the floor is this program's RSS, well under a megabyte of resident pages.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: measure STATSFILE PROGRAM [ARGS...]\n");
        return 2;
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("measure: fork");
        return 2;
    }
    if (pid == 0) {
        execvp(argv[2], argv + 2);
        perror(argv[2]);
        _exit(127);
    }
    int status = 0;
    struct rusage usage;
    while (wait4(pid, &status, 0, &usage) < 0) {
        if (errno == EINTR) continue;
        perror("measure: wait4");
        return 2;
    }
    FILE *stats = fopen(argv[1], "w");
    if (stats == NULL) {
        perror(argv[1]);
        return 2;
    }
    fprintf(stats, "%ld %.6f %.6f\n", usage.ru_maxrss,
            (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec / 1e6,
            (double)usage.ru_stime.tv_sec + (double)usage.ru_stime.tv_usec / 1e6);
    fclose(stats);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}
