#!/usr/bin/env python3
"""Stands in for logind on a private bus (issue 13's sleep test).

Usage: fake_logind.py ADDRESS
Owns org.freedesktop.login1 on the bus at ADDRESS, prints "ready" once it
does, then for every line "true" or "false" read from standard input sends
org.freedesktop.login1.Manager.PrepareForSleep(b) from
/org/freedesktop/login1, as logind does before and after a sleep, and prints
"sent LINE". Ends at the end of its input.
"""
import sys

from jeepney import DBusAddress, new_signal
from jeepney.bus_messages import message_bus
from jeepney.io.blocking import open_dbus_connection

PRIMARY_OWNER = 1


def main():
    connection = open_dbus_connection(bus=sys.argv[1])
    reply = connection.send_and_get_reply(message_bus.RequestName("org.freedesktop.login1"))
    if reply.body[0] != PRIMARY_OWNER:
        sys.exit(f"could not own org.freedesktop.login1: {reply.body}")
    manager = DBusAddress("/org/freedesktop/login1", interface="org.freedesktop.login1.Manager")
    print("ready", flush=True)
    for line in sys.stdin:
        word = line.strip()
        if word not in ("true", "false"):
            continue
        connection.send(new_signal(manager, "PrepareForSleep", "b", (word == "true",)))
        # A round trip to the bus daemon: the signal has left before we say so.
        connection.send_and_get_reply(message_bus.GetId())
        print(f"sent {word}", flush=True)
    connection.close()


if __name__ == "__main__":
    main()
