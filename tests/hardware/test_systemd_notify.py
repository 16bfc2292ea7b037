"""sd_notify against a real AF_UNIX datagram socket standing in for systemd's."""

import socket
import uuid

import pytest

from appliance import systemd_notify
from appliance.systemd_notify import Notifier


@pytest.fixture
def fake_systemd(tmp_path):
    """A datagram socket bound in tmp_path, as systemd binds $NOTIFY_SOCKET; yields (address, receive)."""
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))

    def receive(timeout=1.0):
        sock.settimeout(timeout)
        return sock.recv(4096).decode()

    yield str(path), receive
    sock.close()


def nothing_waiting(receive):
    with pytest.raises(socket.timeout):
        receive(timeout=0.05)  # a local datagram would be there at once


def test_ready_and_status_reach_the_socket(fake_systemd):
    address, receive = fake_systemd
    notifier = Notifier(env={"NOTIFY_SOCKET": address})
    assert notifier.ready("camera and display up")
    assert receive() == "READY=1\nSTATUS=camera and display up"
    assert notifier.status("camera lost, retrying")
    assert receive() == "STATUS=camera lost, retrying"
    assert notifier.stopping()
    assert receive() == "STOPPING=1"


def test_watchdog_pings_at_most_once_per_gap(fake_systemd):
    address, receive = fake_systemd
    now = [100.0]
    notifier = Notifier(env={"NOTIFY_SOCKET": address}, watchdog_gap_s=1.0, clock=lambda: now[0])
    assert notifier.watchdog()
    assert receive() == "WATCHDOG=1"
    now[0] += 0.5  # the next frames within the second
    assert not notifier.watchdog()
    nothing_waiting(receive)
    now[0] += 0.6
    assert notifier.watchdog()
    assert receive() == "WATCHDOG=1"


def test_abstract_namespace_socket():
    name = f"dicetable-test-{uuid.uuid4().hex}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(1.0)
    try:
        assert Notifier(env={"NOTIFY_SOCKET": "@" + name}).watchdog()
        assert sock.recv(100) == b"WATCHDOG=1"
    finally:
        sock.close()


def test_without_notify_socket_nothing_happens(monkeypatch):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert systemd_notify.ready() is False
    assert systemd_notify.watchdog() is False
    assert Notifier(env={}).status("x") is False


def test_module_functions_follow_the_environment(fake_systemd, monkeypatch):
    address, receive = fake_systemd
    monkeypatch.setenv("NOTIFY_SOCKET", address)
    monkeypatch.setattr(systemd_notify, "_default", Notifier())  # a fresh watchdog clock for this test
    assert systemd_notify.ready()
    assert receive() == "READY=1"
    assert systemd_notify.watchdog()
    assert receive() == "WATCHDOG=1"


def test_a_vanished_socket_is_not_an_exception(tmp_path):
    notifier = Notifier(env={"NOTIFY_SOCKET": str(tmp_path / "gone")})
    assert notifier.ready() is False
    assert Notifier(env={"NOTIFY_SOCKET": "vsock:2:1234"}).ready() is False
