#!/usr/bin/env python3
"""A loopback HTTP or HTTPS server for the stream tests (TestSupport's StreamFileServer).

Serves the files under --root with byte ranges, and the faults a station's
server can show. Paths:

  /NAME                      the file, with Range (206, Content-Range) and HEAD
  /redirect/N/NAME           302 to /redirect/N-1/NAME, and /redirect/0/NAME is /NAME
  /status/CODE               an empty reply with that status (404, 500, ...)
  /headers-then-nothing/NAME 200 with the file's headers, then no byte until the client leaves
  /stall/NAME                the request is read and nothing is ever sent
  /endless-headers/NAME      200, then icy-* header lines without end, as fast as the client reads
  /endless-header-line/NAME  200, then one header line that never ends, as fast as the client reads
  /slow-headers/NAME         200, then an icy-* header line every half second, without end
  /close-early/NAME          200 without a length, the file's first 140 bytes, then the connection closed
  http://ANY-HOST/PATH       as a proxy (http_proxy): PATH served as above

A second listening socket (--stall-port-file) accepts connections and never
reads or writes: a TLS client there waits for a handshake that never comes.

Ports are chosen by the kernel (bind to 0) and written to the port files once
listening, so the test never guesses a free port. TLS handshakes happen in the
connection's thread, so a client that stalls cannot hold up the others. The
process ends on SIGTERM or SIGINT.
"""
import argparse
import http.server
import os
import signal
import socket
import socketserver
import ssl
import sys
import threading
import time


def parse_range(header, size):
    """(start, end) inclusive for a single 'bytes=' range, None when absent, 'bad' when unsatisfiable."""
    if not header or not header.startswith("bytes="):
        return None
    spec = header[len("bytes="):].split(",")[0].strip()
    first, _, last = spec.partition("-")
    try:
        if first == "":
            length = int(last)
            if length <= 0:
                return "bad"
            return (max(0, size - length), size - 1)
        start = int(first)
        end = int(last) if last else size - 1
    except ValueError:
        return "bad"
    if start >= size or end < start:
        return "bad"
    return (start, min(end, size - 1))


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "InterludeTestServer/1"

    def log_message(self, fmt, *args):
        self.server.log.write("%s %s\n" % (self.address_string(), fmt % args))
        self.server.log.flush()

    def do_HEAD(self):
        self.respond(send_body=False)

    def do_GET(self):
        self.respond(send_body=True)

    def respond(self, send_body):
        path = self.path.split("?", 1)[0]
        if path.startswith("http://"):
            # A proxy's request (absolute URI, as http_proxy makes clients send):
            # served from the same folder whatever the host, and logged as proxied.
            self.server.log.write("proxied %s\n" % self.path)
            self.server.log.flush()
            path = "/" + path[len("http://"):].partition("/")[2]
        parts = [p for p in path.split("/") if p]
        if parts[:1] == ["status"] and len(parts) == 2 and parts[1].isdigit():
            self.send_response(int(parts[1]))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if parts[:1] == ["redirect"] and len(parts) >= 3 and parts[1].isdigit():
            hops = int(parts[1])
            rest = "/".join(parts[2:])
            target = "/" + rest if hops == 0 else "/redirect/%d/%s" % (hops - 1, rest)
            self.send_response(302)
            self.send_header("Location", target)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if parts[:1] == ["stall"]:
            self.hold()
            return
        if parts[:1] in (["endless-headers"], ["endless-header-line"], ["slow-headers"]):
            self.endless_headers(one_line=parts[0] == "endless-header-line", pause=0.5 if parts[0] == "slow-headers" else 0)
            return
        if parts[:1] == ["close-early"]:
            name = "/".join(parts[1:])
            file_path = os.path.realpath(os.path.join(self.server.root, name))
            if not file_path.startswith(self.server.root + os.sep) or not os.path.isfile(file_path):
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.close_connection = True
            self.send_response(200)
            self.send_header("Content-Type", content_type(name))
            self.end_headers()
            with open(file_path, "rb") as source:
                self.wfile.write(source.read(140))
            return
        stall_body = parts[:1] == ["headers-then-nothing"]
        if stall_body:
            parts = parts[1:]
        name = "/".join(parts)
        file_path = os.path.realpath(os.path.join(self.server.root, name))
        if not file_path.startswith(self.server.root + os.sep) or not os.path.isfile(file_path):
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        size = os.path.getsize(file_path)
        wanted = parse_range(self.headers.get("Range"), size)
        if wanted == "bad":
            self.send_response(416)
            self.send_header("Content-Range", "bytes */%d" % size)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        start, end = wanted if wanted else (0, size - 1)
        self.send_response(206 if wanted else 200)
        self.send_header("Content-Type", content_type(name))
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("Content-Length", str(end - start + 1))
        if wanted:
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, end, size))
        self.end_headers()
        if stall_body:
            self.wfile.flush()
            self.hold()
            return
        if not send_body:
            return
        with open(file_path, "rb") as source:
            source.seek(start)
            left = end - start + 1
            while left > 0:
                chunk = source.read(min(65536, left))
                if not chunk:
                    break
                self.wfile.write(chunk)
                left -= len(chunk)

    def endless_headers(self, one_line, pause=0):
        """A status line, then headers that never end: many icy-* lines (one each `pause` seconds), or one line without its end."""
        self.log_message('"%s" endless headers', self.requestline)
        self.close_connection = True
        self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: audio/mpeg\r\n")
        if one_line:
            self.wfile.write(b"icy-name: ")
        number = 0
        try:
            while not self.server.stopping.is_set():
                if one_line:
                    chunk = b"a" * 65536
                elif pause:
                    chunk = b"icy-x%d: %s\r\n" % (number, b"v" * 40)
                    number += 1
                    time.sleep(pause)
                else:
                    chunk = b"".join(b"icy-x%d: %s\r\n" % (number + i, b"v" * 40) for i in range(1000))
                    number += 1000
                self.wfile.write(chunk)
        except (OSError, ssl.SSLError):
            return

    def hold(self):
        """Sends nothing more; returns when the client closes its side or the server stops."""
        self.close_connection = True
        self.connection.settimeout(1.0)
        while not self.server.stopping.is_set():
            try:
                if self.connection.recv(4096) == b"":
                    return
            except socket.timeout:
                continue
            except (OSError, ssl.SSLError):
                return


def content_type(name):
    for suffix, kind in ((".mp3", "audio/mpeg"), (".aac", "audio/aac"), (".ogg", "audio/ogg"),
                         (".opus", "audio/ogg"), (".m3u8", "application/vnd.apple.mpegurl"),
                         (".ts", "video/mp2t"), (".m4a", "audio/mp4"), (".pls", "audio/x-scpls")):
        if name.endswith(suffix):
            return kind
    return "application/octet-stream"


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, root, tls, log):
        self.root = os.path.realpath(root)
        self.tls = tls
        self.log = log
        self.stopping = threading.Event()
        super().__init__(("127.0.0.1", 0), Handler)

    def handle_error(self, request, client_address):
        # A client that hangs up mid-reply (ffmpeg after its -t, a timeout test) is
        # part of the tests, not a failure: one line in the log instead of a traceback.
        self.log.write("connection from %s ended: %s\n" % (client_address[0], sys.exc_info()[1]))
        self.log.flush()

    def finish_request(self, request, client_address):
        if self.tls is not None:
            try:
                request.settimeout(10)
                request = self.tls.wrap_socket(request, server_side=True)
                request.settimeout(None)
            except (OSError, ssl.SSLError) as error:
                self.log.write("tls handshake from %s failed: %s\n" % (client_address[0], error))
                self.log.flush()
                return
        super().finish_request(request, client_address)


def silent_listener(port_file, stopping):
    """Accepts and holds every connection, reading and writing nothing."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    write_port(port_file, listener.getsockname()[1])
    held = []
    listener.settimeout(0.5)
    while not stopping.is_set():
        try:
            connection, _ = listener.accept()
            held.append(connection)
        except socket.timeout:
            continue


def write_port(path, port):
    temporary = path + ".tmp"
    with open(temporary, "w") as out:
        out.write("%d\n" % port)
    os.rename(temporary, path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--cert")
    parser.add_argument("--key")
    parser.add_argument("--stall-port-file")
    parser.add_argument("--log", default="/dev/stderr")
    arguments = parser.parse_args()

    tls = None
    if arguments.cert:
        tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        tls.load_cert_chain(arguments.cert, arguments.key)
    log = open(arguments.log, "a")
    server = Server(arguments.root, tls, log)

    def stop(signum, frame):
        server.stopping.set()
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    if arguments.stall_port_file:
        threading.Thread(target=silent_listener, args=(arguments.stall_port_file, server.stopping), daemon=True).start()
    write_port(arguments.port_file, server.server_address[1])
    server.serve_forever(poll_interval=0.2)
    server.server_close()
    log.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
