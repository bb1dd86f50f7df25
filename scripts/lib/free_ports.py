#!/usr/bin/env python3
"""Free TCP ports for test brokers and workers: below the ephemeral range, reserved for a while.

A port found by binding port 0 comes from the kernel's ephemeral range (ip_local_port_range),
which every outgoing connection on the machine draws from too. Between that pick and the bind of
the process that was to listen on it (a JVM takes seconds to get there on a loaded machine), any
client's connect() can take the port, and the broker or worker dies with "Address already in
use". The ports here come from below the ephemeral range, where connect() never goes, are
checked free by binding them, and are reserved for RESERVE_SECONDS by a file in
/tmp/connectd-ports (created O_EXCL), so that tests started side by side do not pick the same one.

Usage as a program: free_ports.py N   (prints N ports, one per line)
As a module:         free_ports.free_ports(n) -> [int], free_ports.free_port() -> int
"""

import errno
import os
import random
import socket
import sys
import time

RESERVATIONS = "/tmp/connectd-ports"
RESERVE_SECONDS = 600
LOWEST = 20000


def _ephemeral_start():
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def _bindable(port):
    """Nothing listens on or holds PORT on any local address (no SO_REUSEADDR: a port still in
    TIME_WAIT is skipped too)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind(("0.0.0.0", port))
            return True
        except OSError:
            return False


def _reserve(port):
    """True if this call now holds PORT's reservation (a stale one is taken over)."""
    path = os.path.join(RESERVATIONS, str(port))
    for _ in range(2):
        try:
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666))
            return True
        except OSError as e:
            if e.errno != errno.EEXIST:
                raise
        try:
            if time.time() - os.stat(path).st_mtime < RESERVE_SECONDS:
                return False
            os.unlink(path)
        except FileNotFoundError:
            pass
    return False


def free_ports(n):
    os.makedirs(RESERVATIONS, mode=0o1777, exist_ok=True)
    highest = max(LOWEST + 1000, _ephemeral_start()) - 1
    rng = random.SystemRandom()
    ports = []
    for _ in range(100 * n):
        if len(ports) == n:
            return ports
        port = rng.randint(LOWEST, highest)
        if port not in ports and _bindable(port) and _reserve(port):
            ports.append(port)
    raise RuntimeError(f"no {n} free ports in {LOWEST}-{highest}")


def free_port():
    return free_ports(1)[0]


if __name__ == "__main__":
    if len(sys.argv) != 2 or not sys.argv[1].isdigit():
        sys.exit("usage: free_ports.py N")
    print("\n".join(map(str, free_ports(int(sys.argv[1])))))
