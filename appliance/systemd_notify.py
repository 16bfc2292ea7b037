"""Tells systemd how the table is doing (sd_notify), without any dependency.

    from appliance import systemd_notify
    systemd_notify.ready("camera and display up")   # once, when the table can play: READY=1
    systemd_notify.watchdog()                       # after each processed frame: WATCHDOG=1
    systemd_notify.status("camera lost, retrying")  # shown by `systemctl status dicetable`
    systemd_notify.stopping()

Messages are datagrams to the AF_UNIX socket named by $NOTIFY_SOCKET (a path, or "@name" for Linux's
abstract namespace). Without $NOTIFY_SOCKET (started by hand, in tests) every call does nothing and
returns False. A failed send never raises: the table must not stop because systemd is not listening.
WATCHDOG=1 is sent at most every `watchdog_gap_s` (a frame loop runs 30 times a second; systemd needs
a ping only well within WatchdogSec).
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable, Mapping

DEFAULT_WATCHDOG_GAP_S = 1.0


def socket_address(value: str) -> str | None:
    """The address to send to: a filesystem path, or "\\0name" for an abstract socket; None if unusable."""
    if value.startswith("@"):
        return "\0" + value[1:]
    if value.startswith("/"):
        return value
    return None  # e.g. vsock: addresses of newer systemd, not used on the Pi


class Notifier:
    def __init__(
        self,
        env: Mapping[str, str] | None = None,
        watchdog_gap_s: float = DEFAULT_WATCHDOG_GAP_S,
        clock: Callable[[], float] = time.monotonic,
    ):
        self._env = env
        self._gap = watchdog_gap_s
        self._clock = clock
        self._last_watchdog: float | None = None
        self._socket: socket.socket | None = None

    @property
    def address(self) -> str | None:
        env = os.environ if self._env is None else self._env
        value = env.get("NOTIFY_SOCKET", "")
        return socket_address(value) if value else None

    def send(self, *fields: str) -> bool:
        """Sends "KEY=value" lines as one datagram. True when it went out."""
        address = self.address
        if address is None:
            return False
        try:
            if self._socket is None:
                self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._socket.sendto("\n".join(fields).encode("utf-8"), address)
            return True
        except OSError:
            self.close()  # a fresh socket next time
            return False

    def ready(self, status: str = "") -> bool:
        return self.send("READY=1", *([f"STATUS={status}"] if status else []))

    def watchdog(self) -> bool:
        now = self._clock()
        if self._last_watchdog is not None and now - self._last_watchdog < self._gap:
            return False
        sent = self.send("WATCHDOG=1")
        if sent:
            self._last_watchdog = now
        return sent

    def status(self, text: str) -> bool:
        return self.send(f"STATUS={text}")

    def stopping(self) -> bool:
        return self.send("STOPPING=1")

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None


_default = Notifier()


def ready(status: str = "") -> bool:
    return _default.ready(status)


def watchdog() -> bool:
    return _default.watchdog()


def status(text: str) -> bool:
    return _default.status(text)


def stopping() -> bool:
    return _default.stopping()
