#!/usr/bin/env python3
"""A loopback HTTP server for the podcast tests (TestSupport's FeedServer).

Serves the files under --root as a feed host does: an ETag (a hash of the
bytes) and Last-Modified (the file's time) on every answer, 304 Not Modified
to a conditional request that matches (If-None-Match first, as RFC 9110
says, then If-Modified-Since), byte ranges (206). Paths:

  /NAME                 the file
  /moved/NAME           301 Moved Permanently to /NAME
  /found/NAME           302 Found to /NAME
  /status/CODE          an empty answer with that status
  /stall/NAME           the request is read and nothing is sent until --stall-seconds pass
  /held/NAME            NAME, answered only once --hold-file does not exist (a test holds
                        replies by creating it and releases them by removing it)
  /drop/BYTES/NAME      NAME (ranges too), the connection closed after BYTES bytes of the
                        body: a download cut off mid-body
  /trickle/N/NAME       NAME (ranges too), its body sent N bytes a second, a byte at a
                        time, until it ends or the client leaves

Each request is logged as one line to --log: "METHOD PATH STATUS", so a test
reads which feeds were answered 304. The kernel picks the port, written to
--port-file once listening; the process ends on SIGTERM.
"""
import argparse
import email.utils
import hashlib
import http.server
import os
import signal
import socketserver
import sys
import threading
import time


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "InterludeFeedServer/1"

    def log_message(self, fmt, *args):
        pass

    def record(self, status):
        with self.server.lock:
            self.server.log.write("%s %s %d\n" % (self.command, self.path, status))
            self.server.log.flush()

    def empty(self, status, headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", "0")
        self.end_headers()
        self.record(status)

    def do_HEAD(self):
        self.respond(False)

    def do_GET(self):
        self.respond(True)

    def respond(self, send_body):
        parts = [p for p in self.path.split("?", 1)[0].split("/") if p]
        if parts[:1] == ["status"] and len(parts) == 2 and parts[1].isdigit():
            return self.empty(int(parts[1]))
        if parts[:1] in (["moved"], ["found"]) and len(parts) >= 2:
            return self.empty(301 if parts[0] == "moved" else 302, [("Location", "/" + "/".join(parts[1:]))])
        if parts[:1] == ["stall"]:
            deadline = time.monotonic() + self.server.stall_seconds
            while time.monotonic() < deadline and not self.server.stopping.is_set():
                time.sleep(0.05)
            parts = parts[1:]
        if parts[:1] == ["held"]:
            while os.path.exists(self.server.hold_file or "") and not self.server.stopping.is_set():
                time.sleep(0.02)
            parts = parts[1:]
        trickle = None
        if parts[:1] == ["trickle"] and len(parts) >= 3 and parts[1].isdigit() and int(parts[1]) > 0:
            trickle = int(parts[1])
            parts = parts[2:]
        drop_after = None
        if parts[:1] == ["drop"] and len(parts) >= 3 and parts[1].isdigit():
            drop_after = int(parts[1])
            parts = parts[2:]
        name = "/".join(parts)
        path = os.path.realpath(os.path.join(self.server.root, name))
        if not path.startswith(self.server.root + os.sep) or not os.path.isfile(path):
            return self.empty(404)
        with open(path, "rb") as source:
            body = source.read()
        etag = '"%s"' % hashlib.sha1(body).hexdigest()[:16]
        modified = os.path.getmtime(path)
        last_modified = email.utils.formatdate(modified, usegmt=True)
        validators = [("ETag", etag), ("Last-Modified", last_modified)]
        wanted_tag = self.headers.get("If-None-Match")
        since = self.headers.get("If-Modified-Since")
        if wanted_tag is not None:
            if etag in [t.strip() for t in wanted_tag.split(",")] or wanted_tag.strip() == "*":
                return self.empty(304, validators)
        elif since is not None:
            parsed = email.utils.parsedate_to_datetime(since)
            if parsed is not None and int(modified) <= parsed.timestamp():
                return self.empty(304, validators)
        start, end = 0, len(body) - 1
        status = 200
        wanted = self.headers.get("Range")
        if wanted and wanted.startswith("bytes=") and body:
            first, _, last = wanted[len("bytes="):].partition("-")
            try:
                start = int(first)
                end = int(last) if last else len(body) - 1
            except ValueError:
                start, end = 0, len(body) - 1
            if start >= len(body):
                return self.empty(416, [("Content-Range", "bytes */%d" % len(body))])
            end = min(end, len(body) - 1)
            status = 206
        self.send_response(status)
        for header, value in validators:
            self.send_header(header, value)
        self.send_header("Content-Type", "application/rss+xml" if name.endswith((".xml", ".rss")) else
                         "text/html" if name.endswith(".html") else "application/octet-stream")
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("Content-Length", str(end - start + 1))
        if status == 206:
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, end, len(body)))
        self.end_headers()
        self.record(status)
        if send_body and trickle is not None:
            self.close_connection = True
            try:
                for index in range(start, end + 1):
                    if self.server.stopping.is_set():
                        break
                    self.wfile.write(body[index:index + 1])
                    self.wfile.flush()
                    time.sleep(1.0 / trickle)
            except OSError:
                pass
        elif send_body and drop_after is not None:
            self.wfile.write(body[start:min(end + 1, start + drop_after)])
            self.wfile.flush()
            self.close_connection = True
            self.connection.shutdown(2)
        elif send_body:
            self.wfile.write(body[start:end + 1])


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        self.log.write("connection from %s ended: %s\n" % (client_address[0], sys.exc_info()[1]))
        self.log.flush()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--stall-seconds", type=float, default=5.0)
    parser.add_argument("--hold-file", default=None)
    arguments = parser.parse_args()
    server = Server(("127.0.0.1", 0), Handler)
    server.root = os.path.realpath(arguments.root)
    server.log = open(arguments.log, "a")
    server.lock = threading.Lock()
    server.stall_seconds = arguments.stall_seconds
    server.hold_file = arguments.hold_file
    server.stopping = threading.Event()

    def stop(signum, frame):
        server.stopping.set()
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    temporary = arguments.port_file + ".tmp"
    with open(temporary, "w") as out:
        out.write("%d\n" % server.server_address[1])
    os.rename(temporary, arguments.port_file)
    server.serve_forever(poll_interval=0.2)
    server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
