#!/usr/bin/env python3
"""MusicBrainz and the Cover Art Archive as a house with internet meets them
for an album MusicBrainz knows and has no picture of: an HTTPS proxy on
loopback (https_proxy) that answers a release search (/ws/2/release/) with
one release, and everything else (the picture's list) 404 Not Found.

For the Snapcast tests: snapserver's stock control script meta_mpd.py (0.26)
looks each new album's art up there and dies on anything else: with no
route (a network error it does not catch) and for an album MusicBrainz does
not know (its handler of that error fails on the release id it never got).
The tunnel's TLS is terminated here with --cert/--key, a certificate for
both hosts, signed by a CA the client trusts (SSL_CERT_FILE).

The port is chosen by the kernel and written to --port-file once listening.
Each request is logged to --log. Ends on SIGTERM or SIGINT.
"""
import argparse
import signal
import socket
import ssl
import sys
import threading

RELEASE_LIST = ('<?xml version="1.0" encoding="UTF-8"?>'
                '<metadata xmlns="http://musicbrainz.org/ns/mmd-2.0#">'
                '<release-list count="1" offset="0"><release id="00000000-0000-4000-8000-000000000048">'
                '<title>Rooms</title></release></release-list></metadata>')


def answer(stream, log, host):
    request = b""
    while b"\r\n\r\n" not in request and len(request) < 65536:
        chunk = stream.recv(4096)
        if not chunk:
            return
        request += chunk
    line = request.split(b"\r\n", 1)[0].decode("latin-1")
    log.write(f"{host} {line}\n")
    log.flush()
    words = line.split()
    if host.startswith("musicbrainz.org") and len(words) > 1 and words[1].startswith("/ws/2/release/?"):
        body = RELEASE_LIST.encode()
        stream.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/xml; charset=utf-8\r\n"
                       + f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body)
    else:
        stream.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")


def serve(client, context, log):
    try:
        head = b""
        while b"\r\n\r\n" not in head and len(head) < 65536:
            chunk = client.recv(4096)
            if not chunk:
                return
            head += chunk
        first = head.split(b"\r\n", 1)[0].decode("latin-1").split()
        if len(first) >= 2 and first[0] == "CONNECT":
            client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
            with context.wrap_socket(client, server_side=True) as tunnel:
                answer(tunnel, log, first[1])
        else:
            log.write(f"plain {' '.join(first)}\n")
            log.flush()
            client.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    except (OSError, ssl.SSLError) as error:
        log.write(f"error {error}\n")
        log.flush()
    finally:
        client.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--log", required=True)
    arguments = parser.parse_args()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(arguments.cert, arguments.key)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    log = open(arguments.log, "a")
    with open(arguments.port_file + ".tmp", "w") as port:
        port.write(str(listener.getsockname()[1]))
    import os
    os.rename(arguments.port_file + ".tmp", arguments.port_file)
    while True:
        client, _ = listener.accept()
        threading.Thread(target=serve, args=(client, context, log), daemon=True).start()


if __name__ == "__main__":
    main()
