#ifndef INTERLUDE_CURL_H
#define INTERLUDE_CURL_H

#include <stddef.h>
#include <stdint.h>
#include <curl/curl.h>
#include "interlude_shims.h"

/* libcurl (the OpenSSL build, libcurl4) is loaded with dlopen when the first
   feed is fetched, not linked: playback maps none of it. It brings what the
   podcasts need and FFmpeg's avio lacks: conditional requests with every
   response header, the redirect chain, transfers in parallel in one thread
   (the multi interface), ranged downloads into a file with progress. It
   reads the system's CA store and honours http_proxy, https_proxy and
   no_proxy.

   curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot
   call: a transfer is made and read here, in C (`struct interlude_curl_transfer`),
   and Swift sees functions with fixed parameters. Only
   Sources/Interlude/Podcasts/HTTPFetcher.swift calls these; one multi handle
   and its transfers belong to one thread. */

/* Loads libcurl.so.4 and runs curl_global_init once:
   interlude_library_load's rule (0, or -1 with "<file>: <why>"). */
int interlude_curl_load(char *message, size_t capacity);
struct interlude_library *interlude_curl_library(void);

/* One GET: what is sent and what came back. */
struct interlude_curl_transfer;

/* A GET of `url`, redirects followed (10 at most, http and https only), gzip
   accepted, `body_limit` bytes of body at most (more ends the transfer with
   `over_limit` set), a connection within 15 s and no 30 s without a byte,
   $SSL_CERT_FILE's CAs when `ca_file` is not NULL. `tag` is the caller's,
   handed back by interlude_curl_multi_done. NULL when libcurl has no memory. */
struct interlude_curl_transfer *interlude_curl_transfer_new(const char *url, size_t body_limit, const char *ca_file,
                                                            const char *user_agent, intptr_t tag);
/* A request header line ("If-None-Match: \"abc\""); 0, or -1 without memory. */
int interlude_curl_transfer_header(struct interlude_curl_transfer *transfer, const char *line);
/* The whole transfer must end within `seconds` from now (redirects, the
   wait for the first byte and the body included), plus one second for every
   `bytes_per_second` bytes of body received when that is positive (a
   download's deadline grows with what arrives); past it the transfer ends
   with CURLE_ABORTED_BY_CALLBACK and `timed_out` set. Beside the low-speed
   limit, which a server that trickles a byte a second never trips. Checked
   about once a second. */
void interlude_curl_transfer_deadline(struct interlude_curl_transfer *transfer, double seconds, double bytes_per_second);
/* The body goes to `fd` instead of memory, asking for the bytes from `offset`
   on (a resumed download: 206 means they came, 200 the whole file again). */
void interlude_curl_transfer_to_file(struct interlude_curl_transfer *transfer, int fd, int64_t offset);
void interlude_curl_transfer_free(struct interlude_curl_transfer *transfer);

/* After it is done: curl's result (CURLE_OK, or the error with its message in
   `message`), the last response's status, the URL it ended at, the body held,
   every response's header block as received (the redirects' first), the body
   bytes received so far and expected (-1: unknown), read at any time. */
int interlude_curl_transfer_result(const struct interlude_curl_transfer *transfer);
const char *interlude_curl_transfer_message(const struct interlude_curl_transfer *transfer);
long interlude_curl_transfer_status(const struct interlude_curl_transfer *transfer);
const char *interlude_curl_transfer_final_url(const struct interlude_curl_transfer *transfer);
const unsigned char *interlude_curl_transfer_body(const struct interlude_curl_transfer *transfer, size_t *length);
const char *interlude_curl_transfer_headers(const struct interlude_curl_transfer *transfer, size_t *length);
intptr_t interlude_curl_transfer_tag(const struct interlude_curl_transfer *transfer);
int interlude_curl_transfer_over_limit(const struct interlude_curl_transfer *transfer);
int interlude_curl_transfer_write_failed(const struct interlude_curl_transfer *transfer);
int interlude_curl_transfer_timed_out(const struct interlude_curl_transfer *transfer);
int64_t interlude_curl_transfer_received(const struct interlude_curl_transfer *transfer);
int64_t interlude_curl_transfer_expected(const struct interlude_curl_transfer *transfer);
/* Asks a running transfer to stop (any thread): it ends with CURLE_ABORTED_BY_CALLBACK. */
void interlude_curl_transfer_cancel(struct interlude_curl_transfer *transfer);

/* The multi interface, for transfers in parallel on one thread. */
CURLM *interlude_curl_multi_new(void);
int interlude_curl_multi_add(CURLM *multi, struct interlude_curl_transfer *transfer);
int interlude_curl_multi_remove(CURLM *multi, struct interlude_curl_transfer *transfer);
/* Runs what can run, then waits at most `milliseconds` for more; the count still running. */
int interlude_curl_multi_step(CURLM *multi, int milliseconds);
/* A finished transfer, or NULL when none is waiting. */
struct interlude_curl_transfer *interlude_curl_multi_done(CURLM *multi);
/* Ends the wait of interlude_curl_multi_step from another thread. */
void interlude_curl_multi_wakeup(CURLM *multi);
void interlude_curl_multi_free(CURLM *multi);

/* libcurl's version ("8.1.2") and its TLS library's ("OpenSSL/3.0.11"). */
const char *interlude_curl_version(void);

#define INTERLUDE_LIST "interlude_curl_functions.h"
#include "interlude_list_declare.h"
#undef INTERLUDE_LIST

#endif
