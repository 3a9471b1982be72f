#!/usr/bin/env python3
"""Stands in for logind on a private bus (`SystemSleepTests`).

Usage: fake_logind.py ADDRESS
Owns org.freedesktop.login1 on the bus at ADDRESS and prints "ready" once it
does. For every line "true" or "false" on standard input it sends
org.freedesktop.login1.Manager.PrepareForSleep(b) from /org/freedesktop/login1,
as logind does before and after a sleep, and prints "sent LINE".
It answers Manager.Inhibit as logind does, with the write end of a pipe as
the lock, printing "inhibited WHAT MODE"; when every copy of that descriptor
is closed (the lock given back) it prints "released". "sent" and "released"
end with " at SECONDS", the wall clock's time.time() (python-dbusmock's log
clock) when it happened. Ends at the end of its input.
"""
import collections
import os
import select
import sys
import time

from jeepney import DBusAddress, MatchRule, new_error, new_method_return, new_signal
from jeepney.bus_messages import message_bus
from jeepney.io.blocking import open_dbus_connection

PRIMARY_OWNER = 1
MANAGER = "org.freedesktop.login1.Manager"


def main():
    connection = open_dbus_connection(bus=sys.argv[1], enable_fds=True)
    calls = collections.deque()
    handle = connection.filter(MatchRule(type="method_call", interface=MANAGER), queue=calls)
    reply = connection.send_and_get_reply(message_bus.RequestName("org.freedesktop.login1"))
    if reply.body[0] != PRIMARY_OWNER:
        sys.exit(f"could not own org.freedesktop.login1: {reply.body}")
    manager = DBusAddress("/org/freedesktop/login1", interface=MANAGER)
    locks = []  # read ends of the pipes handed out
    pending = b""
    print("ready", flush=True)

    def drain():
        # jeepney may hold several messages read at once: take all without waiting.
        while True:
            try:
                connection.recv_messages(timeout=0)
            except TimeoutError:
                break
        while calls:
            call = calls.popleft()
            member = call.header.fields.get(3)
            if member == "Inhibit":
                read_end, write_end = os.pipe()
                connection.send(new_method_return(call, "h", (write_end,)))
                os.close(write_end)
                locks.append(read_end)
                print(f"inhibited {call.body[0]} {call.body[3]}", flush=True)
            else:
                connection.send(new_error(call, "org.freedesktop.DBus.Error.UnknownMethod"))

    while True:
        drain()
        ready, _, _ = select.select([0, connection.sock] + locks, [], [])
        for lock in [fd for fd in locks if fd in ready]:
            if os.read(lock, 1) == b"":
                locks.remove(lock)
                os.close(lock)
                print(f"released at {time.time():.3f}", flush=True)
        if 0 in ready:
            chunk = os.read(0, 4096)
            if not chunk:
                break
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                word = line.decode().strip()
                if word not in ("true", "false"):
                    continue
                sent = time.time()
                connection.send(new_signal(manager, "PrepareForSleep", "b", (word == "true",)))
                # A round trip to the bus daemon: the signal has left before we say so.
                connection.send_and_get_reply(message_bus.GetId())
                print(f"sent {word} at {sent:.3f}", flush=True)
    handle.close()
    connection.close()


if __name__ == "__main__":
    main()
