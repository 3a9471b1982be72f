/* libcurl through dlopen: see interlude_curl.h for why. */
#include "interlude_curl.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define INTERLUDE_LIST "interlude_curl_functions.h"
#include "interlude_list_define.h"

#define CALL(name) INTERLUDE_RESOLVED(curl_##name)

/* curl_global_init is not thread-safe: it runs once, under the load lock. */
static void initialize(struct interlude_library *library, int loaded) {
    (void)library;
    if (loaded) CALL(global_init)(CURL_GLOBAL_DEFAULT);
}

static const char *const files[] = { "libcurl.so.4" };
static struct interlude_library library = { .files = files, .file_count = 1, INTERLUDE_LIBRARY_LIST, .after = initialize };

int interlude_curl_load(char *message, size_t capacity) { return interlude_library_load(&library, message, capacity); }
struct interlude_library *interlude_curl_library(void) { return &library; }

/* What every response's headers may take in all: far more than a feed's server sends. */
enum { HEADERS_LIMIT = 64 * 1024 };

struct interlude_curl_transfer {
    CURL *easy;
    struct curl_slist *request_headers;
    intptr_t tag;
    unsigned char *body;
    size_t body_length, body_capacity, body_limit;
    int fd;
    char *headers;
    size_t headers_length;
    int over_limit, write_failed, done;
    int result;
    long status;
    atomic_int cancelled;
    _Atomic int64_t received, expected;
    /* The whole transfer's deadline (interlude_curl_transfer_deadline): from
       `started` (CLOCK_MONOTONIC seconds), `seconds` plus one for every
       `bytes_per_second` received; 0 seconds: none. */
    double started, seconds, bytes_per_second;
    int timed_out;
    char error[CURL_ERROR_SIZE];
};

static size_t on_body(char *data, size_t size, size_t count, void *context) {
    struct interlude_curl_transfer *transfer = context;
    size_t length = size * count;
    if (transfer->fd >= 0) {
        size_t written = 0;
        while (written < length) {
            ssize_t wrote = write(transfer->fd, data + written, length - written);
            if (wrote < 0 && errno == EINTR) continue;
            if (wrote <= 0) { transfer->write_failed = errno ? errno : EIO; return 0; }
            written += (size_t)wrote;
        }
        return length;
    }
    if (length > transfer->body_limit - transfer->body_length) { transfer->over_limit = 1; return 0; }
    if (transfer->body_length + length > transfer->body_capacity) {
        size_t capacity = transfer->body_capacity ? transfer->body_capacity : 64 * 1024;
        while (capacity < transfer->body_length + length) capacity *= 2;
        if (capacity > transfer->body_limit) capacity = transfer->body_limit;
        unsigned char *grown = realloc(transfer->body, capacity);
        if (grown == NULL) return 0;
        transfer->body = grown;
        transfer->body_capacity = capacity;
    }
    memcpy(transfer->body + transfer->body_length, data, length);
    transfer->body_length += length;
    return length;
}

static size_t on_header(char *data, size_t size, size_t count, void *context) {
    struct interlude_curl_transfer *transfer = context;
    size_t length = size * count;
    if (transfer->headers_length + length >= HEADERS_LIMIT) return length; /* the rest is dropped, not fatal */
    memcpy(transfer->headers + transfer->headers_length, data, length);
    transfer->headers_length += length;
    transfer->headers[transfer->headers_length] = 0;
    return length;
}

static double monotonic_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

/* libcurl calls this at least once a second while the transfer runs, bytes
   arriving or not: the low-speed limit's 1 byte a second is met by a server
   that trickles, so the deadline is checked here. */
static int on_progress(void *context, curl_off_t total, curl_off_t now, curl_off_t up_total, curl_off_t up_now) {
    (void)up_total; (void)up_now;
    struct interlude_curl_transfer *transfer = context;
    atomic_store(&transfer->received, (int64_t)now);
    atomic_store(&transfer->expected, total > 0 ? (int64_t)total : -1);
    if (transfer->seconds > 0) {
        double allowed = transfer->seconds + (transfer->bytes_per_second > 0 ? (double)now / transfer->bytes_per_second : 0);
        if (monotonic_seconds() - transfer->started > allowed) {
            transfer->timed_out = 1;
            return 1;
        }
    }
    return atomic_load(&transfer->cancelled) ? 1 : 0;
}

struct interlude_curl_transfer *interlude_curl_transfer_new(const char *url, size_t body_limit, const char *ca_file,
                                                            const char *user_agent, intptr_t tag) {
    struct interlude_curl_transfer *transfer = calloc(1, sizeof *transfer);
    if (transfer == NULL) return NULL;
    transfer->headers = malloc(HEADERS_LIMIT);
    transfer->easy = CALL(easy_init)();
    if (transfer->headers == NULL || transfer->easy == NULL) { interlude_curl_transfer_free(transfer); return NULL; }
    transfer->headers[0] = 0;
    transfer->fd = -1;
    transfer->tag = tag;
    transfer->body_limit = body_limit;
    atomic_init(&transfer->expected, -1);
    CURL *easy = transfer->easy;
    CALL(easy_setopt)(easy, CURLOPT_URL, url);
    CALL(easy_setopt)(easy, CURLOPT_PRIVATE, (void *)transfer);
    CALL(easy_setopt)(easy, CURLOPT_ERRORBUFFER, transfer->error);
    /* No signals: transfers run on a thread of their own, and a name lookup's
       timeout must not raise SIGALRM in the player. */
    CALL(easy_setopt)(easy, CURLOPT_NOSIGNAL, 1L);
    CALL(easy_setopt)(easy, CURLOPT_FOLLOWLOCATION, 1L);
    CALL(easy_setopt)(easy, CURLOPT_MAXREDIRS, 10L);
    CALL(easy_setopt)(easy, CURLOPT_PROTOCOLS_STR, "http,https");
    CALL(easy_setopt)(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    CALL(easy_setopt)(easy, CURLOPT_ACCEPT_ENCODING, "");
    CALL(easy_setopt)(easy, CURLOPT_CONNECTTIMEOUT, 15L);
    CALL(easy_setopt)(easy, CURLOPT_LOW_SPEED_LIMIT, 1L);
    CALL(easy_setopt)(easy, CURLOPT_LOW_SPEED_TIME, 30L);
    CALL(easy_setopt)(easy, CURLOPT_WRITEFUNCTION, on_body);
    CALL(easy_setopt)(easy, CURLOPT_WRITEDATA, (void *)transfer);
    CALL(easy_setopt)(easy, CURLOPT_HEADERFUNCTION, on_header);
    CALL(easy_setopt)(easy, CURLOPT_HEADERDATA, (void *)transfer);
    CALL(easy_setopt)(easy, CURLOPT_NOPROGRESS, 0L);
    CALL(easy_setopt)(easy, CURLOPT_XFERINFOFUNCTION, on_progress);
    CALL(easy_setopt)(easy, CURLOPT_XFERINFODATA, (void *)transfer);
    if (user_agent != NULL) CALL(easy_setopt)(easy, CURLOPT_USERAGENT, user_agent);
    if (ca_file != NULL) CALL(easy_setopt)(easy, CURLOPT_CAINFO, ca_file);
    return transfer;
}

int interlude_curl_transfer_header(struct interlude_curl_transfer *transfer, const char *line) {
    struct curl_slist *list = CALL(slist_append)(transfer->request_headers, line);
    if (list == NULL) return -1;
    transfer->request_headers = list;
    CALL(easy_setopt)(transfer->easy, CURLOPT_HTTPHEADER, list);
    return 0;
}

void interlude_curl_transfer_deadline(struct interlude_curl_transfer *transfer, double seconds, double bytes_per_second) {
    transfer->started = monotonic_seconds();
    transfer->seconds = seconds > 0 ? seconds : 0;
    transfer->bytes_per_second = bytes_per_second > 0 ? bytes_per_second : 0;
}

void interlude_curl_transfer_to_file(struct interlude_curl_transfer *transfer, int fd, int64_t offset) {
    transfer->fd = fd;
    /* A download's bytes are not decompressed on the way: they are the file. */
    CALL(easy_setopt)(transfer->easy, CURLOPT_ACCEPT_ENCODING, NULL);
    if (offset > 0) CALL(easy_setopt)(transfer->easy, CURLOPT_RESUME_FROM_LARGE, (curl_off_t)offset);
}

void interlude_curl_transfer_free(struct interlude_curl_transfer *transfer) {
    if (transfer == NULL) return;
    if (transfer->easy != NULL) CALL(easy_cleanup)(transfer->easy);
    if (transfer->request_headers != NULL) CALL(slist_free_all)(transfer->request_headers);
    free(transfer->body);
    free(transfer->headers);
    free(transfer);
}

int interlude_curl_transfer_result(const struct interlude_curl_transfer *transfer) { return transfer->result; }
const char *interlude_curl_transfer_message(const struct interlude_curl_transfer *transfer) {
    if (transfer->error[0] != 0) return transfer->error;
    return CALL(easy_strerror)((CURLcode)transfer->result);
}
long interlude_curl_transfer_status(const struct interlude_curl_transfer *transfer) { return transfer->status; }
const char *interlude_curl_transfer_final_url(const struct interlude_curl_transfer *transfer) {
    char *url = NULL;
    CALL(easy_getinfo)(transfer->easy, CURLINFO_EFFECTIVE_URL, &url);
    return url;
}
const unsigned char *interlude_curl_transfer_body(const struct interlude_curl_transfer *transfer, size_t *length) {
    *length = transfer->body_length;
    return transfer->body;
}
const char *interlude_curl_transfer_headers(const struct interlude_curl_transfer *transfer, size_t *length) {
    *length = transfer->headers_length;
    return transfer->headers;
}
intptr_t interlude_curl_transfer_tag(const struct interlude_curl_transfer *transfer) { return transfer->tag; }
int interlude_curl_transfer_over_limit(const struct interlude_curl_transfer *transfer) { return transfer->over_limit; }
int interlude_curl_transfer_write_failed(const struct interlude_curl_transfer *transfer) { return transfer->write_failed; }
int interlude_curl_transfer_timed_out(const struct interlude_curl_transfer *transfer) { return transfer->timed_out; }
int64_t interlude_curl_transfer_received(const struct interlude_curl_transfer *transfer) {
    return atomic_load(&((struct interlude_curl_transfer *)transfer)->received);
}
int64_t interlude_curl_transfer_expected(const struct interlude_curl_transfer *transfer) {
    return atomic_load(&((struct interlude_curl_transfer *)transfer)->expected);
}
void interlude_curl_transfer_cancel(struct interlude_curl_transfer *transfer) { atomic_store(&transfer->cancelled, 1); }

CURLM *interlude_curl_multi_new(void) { return CALL(multi_init)(); }
int interlude_curl_multi_add(CURLM *multi, struct interlude_curl_transfer *transfer) {
    return CALL(multi_add_handle)(multi, transfer->easy) == CURLM_OK ? 0 : -1;
}
int interlude_curl_multi_remove(CURLM *multi, struct interlude_curl_transfer *transfer) {
    return CALL(multi_remove_handle)(multi, transfer->easy) == CURLM_OK ? 0 : -1;
}
int interlude_curl_multi_step(CURLM *multi, int milliseconds) {
    int running = 0;
    CALL(multi_perform)(multi, &running);
    if (running > 0) {
        CALL(multi_poll)(multi, NULL, 0, milliseconds, NULL);
        CALL(multi_perform)(multi, &running);
    }
    return running;
}
struct interlude_curl_transfer *interlude_curl_multi_done(CURLM *multi) {
    int left = 0;
    CURLMsg *message;
    while ((message = CALL(multi_info_read)(multi, &left)) != NULL) {
        if (message->msg != CURLMSG_DONE) continue;
        struct interlude_curl_transfer *transfer = NULL;
        CALL(easy_getinfo)(message->easy_handle, CURLINFO_PRIVATE, (char **)&transfer);
        if (transfer == NULL) continue;
        transfer->result = (int)message->data.result;
        CALL(easy_getinfo)(transfer->easy, CURLINFO_RESPONSE_CODE, &transfer->status);
        transfer->done = 1;
        return transfer;
    }
    return NULL;
}
void interlude_curl_multi_wakeup(CURLM *multi) { CALL(multi_wakeup)(multi); }
void interlude_curl_multi_free(CURLM *multi) { if (multi != NULL) CALL(multi_cleanup)(multi); }

const char *interlude_curl_version(void) { return CALL(version)(); }
