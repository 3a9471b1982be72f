/* FFmpeg's libraries through dlopen: see interlude_ffmpeg.h for why. */
#define _GNU_SOURCE
#include "interlude_ffmpeg.h"
#include "interlude_shims.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <errno.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef __has_feature
#define __has_feature(feature) 0
#endif

#define STRINGIFY2(x) #x
#define STRINGIFY(x) STRINGIFY2(x)

#define INTERLUDE_LIST "interlude_ffmpeg_functions.h"
#include "interlude_list_define.h"

#define CALL(symbol) INTERLUDE_RESOLVED(symbol)

/* Under the load lock (interlude_library_lock). The load addresses of the
   objects FFmpeg's load brought in. */
static ElfW(Addr) *ffmpeg_objects;
static size_t ffmpeg_object_count;
static int setup_settled;
static ElfW(Addr) library_bases[4];
static int exit_quickly;

/* Not in a sanitizer's build: their checks at exit (LeakSanitizer's among
   them) run in exit handlers that leaving quickly would skip. */
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__) && !__has_feature(address_sanitizer) \
    && !__has_feature(thread_sanitizer)
#define LEAVES_QUICKLY 1
/* See interlude_ffmpeg_exit_quickly. Registered once the libraries are loaded,
   so it runs before every exit handler registered earlier and before the
   dynamic loader's destructors; what it leaves undone is theirs. */
static void leave_quickly(int status, void *unused) {
    (void)unused;
    fflush(NULL);
    _exit(status);
}
#else
#define LEAVES_QUICKLY 0
#endif

/* Loading FFmpeg's libraries one object at a time.

   libavcodec and libavformat bring in about 130 other shared objects (codecs
   for video, TLS, XML, SVG, ...) that audio playback never calls. One dlopen
   maps them all, and before returning it has read through every one of them:
   the symbol and relocation tables, the constructors, the dependency names;
   the kernel maps 64 KB around each page touched. That was about 20 MB of
   clean, file-backed pages resident at once (about 26 MB for the load in all),
   which a process's peak RSS keeps even after they are given back.

   So the tree is loaded leaf first, one object per dlopen, and after each step
   the never-written pages of the objects it went through (the new one's
   dependency tree, whose tables the loader reads to bind it) are given back
   (interlude_release_clean_segments), keeping only the few each later step
   reads again. The peak is then what stays (relocated data, .bss, the heap)
   plus one step's pages. The order comes from the DT_NEEDED entries of the
   files themselves, found in the directories the dynamic loader searches
   (LD_LIBRARY_PATH's, then those of the already-mapped C library). Nothing
   depends on that search being complete: an object it does not find, or cannot
   load on its own (libtheoraenc needs symbols of a library it does not name),
   is loaded by the final dlopen of the four libraries as before. */

enum { STAGED_MAX = 512, EDGES_MAX = 4096, SEARCH_DIRECTORIES_MAX = 16 };

struct staging {
    const char *directories[SEARCH_DIRECTORIES_MAX];
    size_t directory_count;
    char *library_path;     /* LD_LIBRARY_PATH's copy, cut into directories */
    char libc_directory[PATH_MAX];
    char multiarch_usr[PATH_MAX];
    char multiarch_root[PATH_MAX];
    char *names[STAGED_MAX];  /* every soname seen, owned */
    size_t name_count;
    size_t order[STAGED_MAX];  /* indices into names, leaf first */
    size_t order_count;
    unsigned short edge_from[EDGES_MAX], edge_to[EDGES_MAX];  /* DT_NEEDED, by index */
    size_t edge_count;
    ElfW(Addr) bases[STAGED_MAX];  /* load address of each object this loader loaded */
    unsigned char staged[STAGED_MAX], in_tree[STAGED_MAX];
    void *handles[STAGED_MAX];  /* this loader's dlopens, closed if the load fails */
    size_t handle_count;
    ElfW(Addr) *before;       /* load addresses of the objects mapped before staging */
    size_t before_count, before_capacity;
};

static void add_directory(struct staging *staging, const char *directory) {
    if (directory[0] != '/' || staging->directory_count == SEARCH_DIRECTORIES_MAX) return;
    for (size_t i = 0; i < staging->directory_count; i++) {
        if (strcmp(staging->directories[i], directory) == 0) return;
    }
    staging->directories[staging->directory_count++] = directory;
}

/* LD_LIBRARY_PATH's directories; then the directory of the C library this
   process runs with (Debian's /usr/lib/<multiarch>), its /lib twin, and the
   plain ones. */
static void find_directories(struct staging *staging) {
    const char *library_path = getenv("LD_LIBRARY_PATH");
    if (library_path != NULL && (staging->library_path = strdup(library_path)) != NULL) {
        char *saved = NULL;
        for (char *part = strtok_r(staging->library_path, ":;", &saved); part != NULL;
             part = strtok_r(NULL, ":;", &saved)) {
            add_directory(staging, part);
        }
    }
    Dl_info info;
    if (dladdr((void *)&strlen, &info) != 0 && info.dli_fname != NULL
        && strlen(info.dli_fname) < sizeof staging->libc_directory) {
        strcpy(staging->libc_directory, info.dli_fname);
        char *slash = strrchr(staging->libc_directory, '/');
        if (slash != NULL && slash != staging->libc_directory) {
            *slash = '\0';
            add_directory(staging, staging->libc_directory);
            const char *multiarch = strrchr(staging->libc_directory, '/');
            if (multiarch != NULL && strcmp(multiarch, "/lib") != 0) {
                snprintf(staging->multiarch_usr, sizeof staging->multiarch_usr, "/usr/lib%s", multiarch);
                snprintf(staging->multiarch_root, sizeof staging->multiarch_root, "/lib%s", multiarch);
                add_directory(staging, staging->multiarch_usr);
                add_directory(staging, staging->multiarch_root);
            }
        }
    }
    add_directory(staging, "/usr/lib");
    add_directory(staging, "/lib");
}

static int locate(const struct staging *staging, const char *name, char *path, size_t capacity) {
    if (strchr(name, '/') != NULL) return -1;
    for (size_t i = 0; i < staging->directory_count; i++) {
        int length = snprintf(path, capacity, "%s/%s", staging->directories[i], name);
        if (length > 0 && (size_t)length < capacity && access(path, R_OK) == 0) return 0;
    }
    return -1;
}

static int read_exactly(int descriptor, void *buffer, size_t size, off_t offset) {
    return pread(descriptor, buffer, size, offset) == (ssize_t)size ? 0 : -1;
}

static size_t visit(struct staging *staging, const char *name);

/* The DT_NEEDED entries of the ELF file at `path` (object `parent`), each
   visited. A file this reader does not understand (another class, no dynamic
   section) has none. */
static void visit_dependencies(struct staging *staging, size_t parent, const char *path) {
    int descriptor = open(path, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) return;
    ElfW(Ehdr) header;
    ElfW(Phdr) segments[32];
    ElfW(Dyn) dynamic[256];
    if (read_exactly(descriptor, &header, sizeof header, 0) != 0 || memcmp(header.e_ident, ELFMAG, SELFMAG) != 0
        || header.e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32)
        || header.e_phentsize != sizeof segments[0] || header.e_phnum > 32
        || read_exactly(descriptor, segments, header.e_phnum * sizeof segments[0], (off_t)header.e_phoff) != 0) {
        close(descriptor);
        return;
    }
    size_t entries = 0;
    for (size_t i = 0; i < header.e_phnum; i++) {
        if (segments[i].p_type != PT_DYNAMIC) continue;
        entries = segments[i].p_filesz / sizeof dynamic[0];
        if (entries > 256) entries = 256;
        if (read_exactly(descriptor, dynamic, entries * sizeof dynamic[0], (off_t)segments[i].p_offset) != 0) entries = 0;
    }
    /* DT_STRTAB is an address: its file offset through the segment holding it. */
    off_t strings = -1;
    for (size_t i = 0; i < entries && dynamic[i].d_tag != DT_NULL; i++) {
        if (dynamic[i].d_tag != DT_STRTAB) continue;
        for (size_t j = 0; j < header.e_phnum; j++) {
            const ElfW(Phdr) *segment = &segments[j];
            if (segment->p_type == PT_LOAD && dynamic[i].d_un.d_ptr >= segment->p_vaddr
                && dynamic[i].d_un.d_ptr < segment->p_vaddr + segment->p_filesz) {
                strings = (off_t)(dynamic[i].d_un.d_ptr - segment->p_vaddr + segment->p_offset);
            }
        }
    }
    for (size_t i = 0; strings >= 0 && i < entries && dynamic[i].d_tag != DT_NULL; i++) {
        if (dynamic[i].d_tag != DT_NEEDED) continue;
        char name[256];
        ssize_t got = pread(descriptor, name, sizeof name - 1, strings + (off_t)dynamic[i].d_un.d_val);
        if (got <= 0) continue;
        name[got] = '\0';
        if (strlen(name) >= (size_t)got) continue;
        size_t child = visit(staging, name);
        if (child < staging->name_count && staging->edge_count < EDGES_MAX) {
            staging->edge_from[staging->edge_count] = (unsigned short)parent;
            staging->edge_to[staging->edge_count++] = (unsigned short)child;
        }
    }
    close(descriptor);
}

/* Depth first, dependencies before the object: `order` is an order in which
   each object finds what it needs already loaded. The object's index, or
   STAGED_MAX when there is no room. */
static size_t visit(struct staging *staging, const char *name) {
    for (size_t i = 0; i < staging->name_count; i++) {
        if (strcmp(staging->names[i], name) == 0) return i;
    }
    if (staging->name_count == STAGED_MAX) return STAGED_MAX;
    char *own = strdup(name);
    if (own == NULL) return STAGED_MAX;
    size_t index = staging->name_count++;
    staging->names[index] = own;
    char path[PATH_MAX];
    if (locate(staging, own, path, sizeof path) == 0) visit_dependencies(staging, index, path);
    staging->order[staging->order_count++] = index;
    return index;
}

/* Marks `index` and everything it needs, directly or not. */
static void mark_tree(struct staging *staging, size_t index) {
    if (staging->in_tree[index]) return;
    staging->in_tree[index] = 1;
    for (size_t i = 0; i < staging->edge_count; i++) {
        if (staging->edge_from[i] == index) mark_tree(staging, staging->edge_to[i]);
    }
}

static int release_tree_object(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    const struct staging *staging = data;
    for (size_t i = 0; i < staging->name_count; i++) {
        if (staging->in_tree[i] && staging->staged[i] && staging->bases[i] == info->dlpi_addr) {
            interlude_release_clean_segments(info, 1);
            return 0;
        }
    }
    return 0;
}

/* After the step that loaded `index`: the objects of its tree that this loader
   loaded (the others were mapped before, or come with the final dlopen and
   its release). */
static void release_tree(struct staging *staging, size_t index) {
    memset(staging->in_tree, 0, sizeof staging->in_tree);
    mark_tree(staging, index);
    dl_iterate_phdr(release_tree_object, staging);
}

static int remember_loaded(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct staging *staging = data;
    if (staging->before_count == staging->before_capacity) {
        size_t capacity = staging->before_capacity ? staging->before_capacity * 2 : 64;
        ElfW(Addr) *grown = realloc(staging->before, capacity * sizeof *grown);
        if (grown == NULL) return 1;
        staging->before = grown;
        staging->before_capacity = capacity;
    }
    staging->before[staging->before_count++] = info->dlpi_addr;
    return 0;
}

/* Every object loaded since staging began, into `ffmpeg_objects`: those of
   this loader's steps, and any the final dlopen brought in. */
static int remember_ffmpeg_object(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    const struct staging *staging = data;
    for (size_t i = 0; i < staging->before_count; i++) {
        if (staging->before[i] == info->dlpi_addr) return 0;
    }
    if (ffmpeg_object_count < STAGED_MAX) ffmpeg_objects[ffmpeg_object_count++] = info->dlpi_addr;
    return 0;
}

/* After the first set-up every object FFmpeg brought in; then only FFmpeg's
   own four, which are all a later set-up touches. And the program itself
   (the first object listed, named ""), until the first set-up is done: the
   player's own start-up (options, configuration, the output's set-up) ran
   code it never runs again, about 4 MB of its text kept resident 64 KB
   around each page it touched, beside FFmpeg's tree. Its symbol look-up
   pages are kept: every later dlsym reads them. */
static int release_ffmpeg_object(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    int *first = data;
    if (first != NULL && *first) {
        *first = 0;
        if (!setup_settled && info->dlpi_name != NULL && info->dlpi_name[0] == '\0') interlude_release_clean_segments(info, 1);
        return 0;
    }
    if (setup_settled) {
        for (size_t i = 0; i < 4; i++) {
            if (library_bases[i] == info->dlpi_addr) interlude_release_clean_segments(info, 0);
        }
        return 0;
    }
    for (size_t i = 0; i < ffmpeg_object_count; i++) {
        if (ffmpeg_objects[i] == info->dlpi_addr) {
            interlude_release_clean_segments(info, 0);
            return 0;
        }
    }
    return 0;
}

/* Loads the dependency trees of `names` one object at a time (see above). The
   handles taken stay open once the load has succeeded, like the libraries
   themselves: nothing of FFmpeg is ever unloaded. */
static void load_staged(struct staging *staging, const char *const *names, size_t count) {
    find_directories(staging);
    if (dl_iterate_phdr(remember_loaded, staging) != 0) return;
    for (size_t i = 0; i < count; i++) visit(staging, names[i]);
    for (size_t i = 0; i < staging->order_count; i++) {
        size_t index = staging->order[i];
        const char *name = staging->names[index];
        void *present = dlopen(name, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
        if (present != NULL) {
            dlclose(present);
            continue;
        }
        char path[PATH_MAX];
        if (locate(staging, name, path, sizeof path) != 0) continue;
        /* By its path, then once by its name: the dynamic loader, looking for a
           name among the loaded objects, reads the soname (from the object's
           string table) of every object not yet known by it, at every lookup;
           once matched, the soname is remembered and never read again. */
        void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (handle == NULL) {
            dlerror();
            continue;
        }
        staging->handles[staging->handle_count++] = handle;
        present = dlopen(name, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
        if (present != NULL) dlclose(present);
        struct link_map *map = NULL;
        if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map != NULL) {
            staging->bases[index] = map->l_addr;
            staging->staged[index] = 1;
        }
        release_tree(staging, index);
    }
}

static void staging_free(struct staging *staging, int close_handles) {
    while (close_handles && staging->handle_count > 0) dlclose(staging->handles[--staging->handle_count]);
    for (size_t i = 0; i < staging->name_count; i++) free(staging->names[i]);
    free(staging->library_path);
    free(staging->before);
    free(staging);
}

/* The sonames of the headers this file was compiled with: a library of
   another major version has other structure layouts. Dependencies first,
   so each library finds what it needs already mapped; the list's
   INTERLUDE_FROM indices are these. */
static const char *const files[] = {
    "libavutil.so." STRINGIFY(LIBAVUTIL_VERSION_MAJOR),
    "libswresample.so." STRINGIFY(LIBSWRESAMPLE_VERSION_MAJOR),
    "libavcodec.so." STRINGIFY(LIBAVCODEC_VERSION_MAJOR),
    "libavformat.so." STRINGIFY(LIBAVFORMAT_VERSION_MAJOR),
};

/* Between the load's two steps, under the load lock. */
static struct staging *staging;

static void stage(struct interlude_library *library) {
    staging = calloc(1, sizeof *staging);
    if (staging != NULL) load_staged(staging, library->files, library->file_count);
}

static void settle(struct interlude_library *library, int loaded) {
    if (!loaded) {
        if (staging != NULL) staging_free(staging, 1);
        staging = NULL;
        return;
    }
    /* We report problems ourselves, one line naming the file; FFmpeg's own
       log would otherwise write to the player's terminal. */
    CALL(av_log_set_level)(AV_LOG_QUIET);
    /* What the last steps and the symbol look-ups touched, the pages kept for
       later steps included. */
    if (staging != NULL && (ffmpeg_objects = calloc(STAGED_MAX, sizeof *ffmpeg_objects)) != NULL) {
        dl_iterate_phdr(remember_ffmpeg_object, staging);
        for (size_t i = 0; i < 4; i++) {
            struct link_map *map = NULL;
            if (dlinfo(library->handles[i], RTLD_DI_LINKMAP, &map) == 0 && map != NULL) library_bases[i] = map->l_addr;
        }
        int first = 1;
        dl_iterate_phdr(release_ffmpeg_object, &first);
    }
    if (staging != NULL) staging_free(staging, 0);
    staging = NULL;
#if LEAVES_QUICKLY
    if (exit_quickly) on_exit(leave_quickly, NULL);
#endif
}

static struct interlude_library library = {
    .files = files, .file_count = 4, INTERLUDE_LIBRARY_LIST, .before = stage, .after = settle,
};

int interlude_ffmpeg_load(char *message, size_t capacity) { return interlude_library_load(&library, message, capacity); }
int interlude_ffmpeg_loaded(void) { return interlude_library_loaded(&library); }
struct interlude_library *interlude_ffmpeg_library(void) { return &library; }

void interlude_ffmpeg_exit_quickly(void) {
    interlude_library_lock();
    exit_quickly = 1;
    interlude_library_unlock();
}

void interlude_ffmpeg_release_setup_pages(int done) {
    interlude_library_lock();
    /* After the first set-up, once at the end: what a set-up touches is then
       mostly what the next step reads again, and each pass costs a fresh
       open (acceptance 5's open plus first seek) the faults that read it back. */
    if (library.loaded && ffmpeg_objects != NULL && (done || !setup_settled)) {
        int first = 1;
        dl_iterate_phdr(release_ffmpeg_object, &first);
        if (done) setup_settled = 1;
    }
    interlude_library_unlock();
}

/* The AVIOContext's callbacks: the descriptor travels as the opaque pointer. */
static int descriptor_read(void *opaque, uint8_t *buffer, int size) {
    ssize_t count;
    do count = read((int)(intptr_t)opaque, buffer, (size_t)size); while (count < 0 && errno == EINTR);
    if (count < 0) return AVERROR(errno);
    return count == 0 ? AVERROR_EOF : (int)count;
}

static int64_t descriptor_seek(void *opaque, int64_t offset, int whence) {
    int fd = (int)(intptr_t)opaque;
    if (whence & AVSEEK_SIZE) {
        struct stat info;
        return fstat(fd, &info) == 0 ? (int64_t)info.st_size : AVERROR(errno);
    }
    off_t position = lseek(fd, (off_t)offset, whence & ~AVSEEK_FORCE);
    return position < 0 ? AVERROR(errno) : (int64_t)position;
}

/* The I/O buffer: libavformat's own for a file is 32 KB. */
enum { descriptor_buffer_size = 32768 };

static void free_descriptor_io(AVIOContext **io) {
    if (*io == NULL) return;
    close((int)(intptr_t)(*io)->opaque);
    CALL(av_freep)(&(*io)->buffer);
    CALL(avio_context_free)(io);
}

int interlude_avformat_open_input(AVFormatContext **context, int fd, const char *demuxer) {
    const AVInputFormat *format = NULL;
    if (demuxer != NULL && (format = CALL(av_find_input_format)(demuxer)) == NULL) {
        close(fd);
        return AVERROR_DEMUXER_NOT_FOUND;
    }
    unsigned char *buffer = CALL(av_malloc)(descriptor_buffer_size);
    AVIOContext *io = buffer == NULL ? NULL
        : CALL(avio_alloc_context)(buffer, descriptor_buffer_size, 0, (void *)(intptr_t)fd, descriptor_read, NULL,
                                   descriptor_seek);
    AVFormatContext *opened = io == NULL ? NULL : CALL(avformat_alloc_context)();
    if (opened == NULL) {
        if (io != NULL) free_descriptor_io(&io);
        else {
            close(fd);
            CALL(av_freep)(&buffer);
        }
        return AVERROR(ENOMEM);
    }
    opened->pb = io;
    opened->flags |= AVFMT_FLAG_CUSTOM_IO;
    /* On failure avformat_open_input frees the context, not an I/O context of the caller's. */
    int status = CALL(avformat_open_input)(&opened, "", format, NULL);
    if (status < 0) {
        free_descriptor_io(&io);
        return status;
    }
    *context = opened;
    return status;
}

void interlude_avformat_close_input(AVFormatContext **context) {
    if (*context == NULL) return;
    AVIOContext *io = (*context)->pb;
    CALL(avformat_close_input)(context);
    free_descriptor_io(&io);
}

SwrContext *interlude_swr_create(const AVChannelLayout *out_layout, int out_rate,
                                 const AVChannelLayout *in_layout, enum AVSampleFormat in_format, int in_rate,
                                 int *error) {
    SwrContext *context = NULL;
    /* libswresample 4 declares the layouts without const (5 adds it); it only reads them. */
    int status = CALL(swr_alloc_set_opts2)(&context, (AVChannelLayout *)out_layout, AV_SAMPLE_FMT_S16, out_rate,
                                           (AVChannelLayout *)in_layout, in_format, in_rate, 0, NULL);
    /* Mono and stereo meet as libmpg123 meets them, so a queue keeps one level
       whichever library decodes a file: mono is copied to both sides (not at
       -3 dB, libswresample's default), stereo is mixed down as (L + R) / 2. */
    if (status >= 0 && in_layout->nb_channels == 1 && out_layout->nb_channels == 2) {
        static const double copy[2] = { 1.0, 1.0 };
        status = CALL(swr_set_matrix)(context, copy, 1);
    } else if (status >= 0 && in_layout->nb_channels == 2 && out_layout->nb_channels == 1) {
        static const double mix[2] = { 0.5, 0.5 };
        status = CALL(swr_set_matrix)(context, mix, 2);
    }
    if (status >= 0) status = CALL(swr_init)(context);
    if (status < 0) {
        if (context != NULL) CALL(swr_free)(&context);
        *error = status;
        return NULL;
    }
    return context;
}
int interlude_swr_convert(SwrContext *context, uint8_t *output, int out_count, const uint8_t **input, int in_count) {
    uint8_t *planes[1] = { output };
    return CALL(swr_convert)(context, planes, out_count, input, in_count);
}

/* A stream's reader thread: FFmpeg gives the reason a TLS handshake or a
   name look-up failed only in its log (the call itself returns EIO), so the
   first error line logged on the thread since it began noting is kept for
   the player's one line. Thread-local: each reader notes its own. */
static _Thread_local char noted_error[256];
static _Thread_local int noting_errors;
/* FFmpeg's http reopens a connection its server closed (the `reconnect`
   options) inside a read, unseen but for this warning: counted, so that a
   server that closes every connection at once is not reopened for ever
   (5.1 does so once per read, thousands of times a second). */
static _Thread_local long reconnections;

static void note_error(void *context, int level, const char *format, va_list arguments) {
    (void)context;
    if (noting_errors && level == AV_LOG_WARNING && format != NULL && strncmp(format, "Will reconnect at", 17) == 0)
        reconnections++;
    if (!noting_errors || level > AV_LOG_ERROR || noted_error[0] != 0) return;
    vsnprintf(noted_error, sizeof noted_error, format, arguments);
    size_t length = strlen(noted_error);
    while (length > 0 && (noted_error[length - 1] == '\n' || noted_error[length - 1] == ' ')) noted_error[--length] = 0;
}

static void install_error_note(void) { CALL(av_log_set_callback)(note_error); }

void interlude_ffmpeg_note_errors(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, install_error_note);
    noted_error[0] = 0;
    noting_errors = 1;
    reconnections = 0;
}

long interlude_ffmpeg_reconnections(void) { return reconnections; }

size_t interlude_ffmpeg_noted_error(char *buffer, size_t capacity) {
    if (capacity == 0) return 0;
    snprintf(buffer, capacity, "%s", noted_error);
    noted_error[0] = 0;
    return strlen(buffer);
}
