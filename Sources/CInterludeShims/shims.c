#define _GNU_SOURCE
#include "interlude_shims.h"
#include <alsa/asoundlib.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static void interlude_ignore_alsa_error(const char *file, int line, const char *function, int err,
                                        const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

void interlude_silence_alsa_errors(void) {
    snd_lib_error_set_handler(interlude_ignore_alsa_error);
}

int interlude_name_this_thread(const char *name) {
    return pthread_setname_np(pthread_self(), name);
}

int interlude_map_blocks_from(size_t bytes) {
    if (bytes > INT_MAX) return -1;
    return mallopt(M_MMAP_THRESHOLD, (int)bytes) == 1 ? 0 : -1;
}

/* See interlude_shims.h. */
enum { KEPT_PAGES_MAX = 64 };

struct kept_pages { uintptr_t page[KEPT_PAGES_MAX]; size_t count; };

static void keep_page(struct kept_pages *kept, uintptr_t address, uintptr_t page_size) {
    uintptr_t page = address & ~(page_size - 1);
    for (size_t i = 0; i < kept->count; i++) {
        if (kept->page[i] == page) return;
    }
    if (kept->count < KEPT_PAGES_MAX) kept->page[kept->count++] = page;
}

static int is_kept(const struct kept_pages *kept, uintptr_t page) {
    for (size_t i = 0; i < kept->count; i++) {
        if (kept->page[i] == page) return 1;
    }
    return 0;
}

/* The loader of glibc (and of most architectures) adds the load address to the
   address entries of a loaded object's dynamic section in place; where the
   section is read-only they stay file addresses. A file address is far below
   any load address of a shared object. */
static uintptr_t dynamic_address(const struct dl_phdr_info *object, ElfW(Addr) value) {
    return value < object->dlpi_addr ? object->dlpi_addr + value : value;
}

long interlude_release_clean_segments(const struct dl_phdr_info *object, int keep_lookup_pages) {
    uintptr_t page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
    const ElfW(Dyn) *dynamic = NULL;
    for (ElfW(Half) i = 0; i < object->dlpi_phnum; i++) {
        if (object->dlpi_phdr[i].p_type == PT_DYNAMIC) {
            dynamic = (const ElfW(Dyn) *)(object->dlpi_addr + object->dlpi_phdr[i].p_vaddr);
        }
    }
    struct kept_pages kept = { .count = 0 };
    uintptr_t strings = 0;
    for (const ElfW(Dyn) *entry = dynamic; entry != NULL && entry->d_tag != DT_NULL; entry++) {
        if (entry->d_tag == DT_TEXTREL || (entry->d_tag == DT_FLAGS && (entry->d_un.d_val & DF_TEXTREL))) return -ENOTSUP;
        if (entry->d_tag == DT_STRTAB) strings = dynamic_address(object, entry->d_un.d_ptr);
    }
    if (keep_lookup_pages) {
        for (const ElfW(Dyn) *entry = dynamic; entry != NULL && entry->d_tag != DT_NULL; entry++) {
            if ((entry->d_tag == DT_NEEDED || entry->d_tag == DT_SONAME) && strings != 0) {
                keep_page(&kept, strings + entry->d_un.d_val, page_size);
            } else if (entry->d_tag == DT_GNU_HASH) {
                /* nbuckets, symoffset, bloom_size (in words), bloom_shift, the bloom filter. */
                uintptr_t table = dynamic_address(object, entry->d_un.d_ptr);
                uintptr_t bloom_end = table + 4 * sizeof(uint32_t) + ((const uint32_t *)table)[2] * sizeof(ElfW(Addr));
                for (uintptr_t page = table & ~(page_size - 1); page < bloom_end; page += page_size) {
                    keep_page(&kept, page, page_size);
                }
            }
        }
    }
    /* The program headers are read from the object's first page, which the
       first segment's release may give back: work on a copy. */
    ElfW(Phdr) segments[32];
    size_t count = object->dlpi_phnum < 32 ? object->dlpi_phnum : 32;
    memcpy(segments, object->dlpi_phdr, count * sizeof segments[0]);
    long released = 0;
    for (size_t i = 0; i < count; i++) {
        const ElfW(Phdr) *segment = &segments[i];
        if (segment->p_type != PT_LOAD || (segment->p_flags & PF_W)) continue;
        /* Whole pages, and the partial ones at the ends unless a writable
           segment shares them (older layouts put data in the page text ends in). */
        uintptr_t start = (object->dlpi_addr + segment->p_vaddr) & ~(page_size - 1);
        uintptr_t end = (object->dlpi_addr + segment->p_vaddr + segment->p_memsz + page_size - 1) & ~(page_size - 1);
        for (size_t j = 0; j < count; j++) {
            const ElfW(Phdr) *other = &segments[j];
            if (other->p_type != PT_LOAD || !(other->p_flags & PF_W)) continue;
            uintptr_t other_start = (object->dlpi_addr + other->p_vaddr) & ~(page_size - 1);
            uintptr_t other_end = (object->dlpi_addr + other->p_vaddr + other->p_memsz + page_size - 1) & ~(page_size - 1);
            if (other_start < start + page_size && other_end > start) start += page_size;
            if (other_start < end && other_end > end - page_size) end -= page_size;
        }
        while (start < end) {
            uintptr_t stop = start;
            while (stop < end && !is_kept(&kept, stop)) stop += page_size;
            if (stop > start && madvise((void *)start, stop - start, MADV_DONTNEED) == 0) {
                released += (long)(stop - start);
            }
            start = stop + page_size;
        }
    }
    return released;
}

void interlude_copy_message(char *message, size_t capacity, const char *text) {
    if (capacity == 0) return;
    strncpy(message, text ? text : "unknown error", capacity - 1);
    message[capacity - 1] = '\0';
}

/* One lock for every loader's load: dlopen holds glibc's own loader lock
   (one for the process) for most of a load anyway, so loads of different
   libraries gain little from running at once. A load's hooks load nothing
   else (the lock is not recursive). */
static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;

void interlude_library_lock(void) { pthread_mutex_lock(&load_lock); }
void interlude_library_unlock(void) { pthread_mutex_unlock(&load_lock); }

/* "<file>: <dlerror's words>", without the file twice when dlerror starts with it. */
static void open_failure(char *message, size_t capacity, const char *file, const char *error) {
    size_t length = strlen(file);
    if (error == NULL) error = "cannot open shared object file";
    if (strncmp(error, file, length) == 0 && error[length] == ':') interlude_copy_message(message, capacity, error);
    else if (capacity > 0) snprintf(message, capacity, "%s: %s", file, error);
}

static int load_locked(struct interlude_library *library, char *message, size_t capacity) {
    if (library->before != NULL) library->before(library);
    size_t opened = 0;
    const char *names[INTERLUDE_LIBRARY_FILES_MAX];
    if (library->file_count == 0 || library->file_count > INTERLUDE_LIBRARY_FILES_MAX) {
        interlude_copy_message(message, capacity, "no library to load");
        goto fail;
    }
    for (; opened < library->file_count; opened++) {
        const char *name = library->files[opened];
        void *handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
        if (handle == NULL) {
            open_failure(message, capacity, name, dlerror());
            if (opened == 0 && library->fallback != NULL) {
                name = library->fallback;
                handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
            }
            if (handle == NULL) goto fail;
        }
        library->handles[opened] = handle;
        names[opened] = name;
    }
    for (size_t i = 0; i < library->count; i++) {
        size_t file = library->symbol_files != NULL ? library->symbol_files[i] : 0;
        if (file >= opened) {
            /* A list's mistake; dlsym on a NULL handle would search the whole process. */
            if (capacity > 0) snprintf(message, capacity, "%s: in no file of the list", library->symbols[i]);
            goto fail;
        }
        library->table[i] = dlsym(library->handles[file], library->symbols[i]);
        if (library->table[i] == NULL) {
            if (capacity > 0) snprintf(message, capacity, "%s: undefined symbol: %s", names[file], library->symbols[i]);
            goto fail;
        }
    }
    library->loaded = 1;
    if (library->after != NULL) library->after(library, 1);
    return 0;
fail:
    memset(library->table, 0, library->count * sizeof *library->table);
    while (opened > 0) {
        opened--;
        dlclose(library->handles[opened]);
        library->handles[opened] = NULL;
    }
    if (library->after != NULL) library->after(library, 0);
    return -1;
}

int interlude_library_load(struct interlude_library *library, char *message, size_t capacity) {
    pthread_mutex_lock(&load_lock);
    int result = library->loaded ? 0 : load_locked(library, message, capacity);
    pthread_mutex_unlock(&load_lock);
    return result;
}

int interlude_library_loaded(struct interlude_library *library) {
    pthread_mutex_lock(&load_lock);
    int loaded = library->loaded;
    pthread_mutex_unlock(&load_lock);
    return loaded;
}

size_t interlude_library_resolved(const struct interlude_library *library) {
    size_t resolved = 0;
    for (size_t i = 0; i < library->count; i++) resolved += library->table[i] != NULL;
    return resolved;
}
