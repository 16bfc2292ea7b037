"""The kiosk unit: systemd's own checker, and the promises the unit makes (notify, watchdog, user, restarts)."""

import configparser
import shutil
import subprocess
from pathlib import Path

import pytest

UNIT = Path(__file__).resolve().parents[2] / "systemd" / "dicetable.service"
EXEC = "/opt/dicetable/venv/bin/dicetable"


def read_unit(text: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None, delimiters=("=",))
    parser.optionxform = str
    parser.read_string(text)
    return parser


def verify(tmp_path, text: str) -> subprocess.CompletedProcess:
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed here (apt-get install systemd provides it)")
    # The appliance is not installed in /opt here: point ExecStart at a program that exists, so verify
    # checks everything else. systemd-analyze reports unknown keys and bad values on stderr but exits 0.
    copy = tmp_path / "dicetable.service"
    copy.write_text(text.replace(EXEC, shutil.which("true")))
    return subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, timeout=60)


def test_systemd_analyze_verify_finds_nothing(tmp_path):
    result = verify(tmp_path, UNIT.read_text())
    assert result.returncode == 0 and result.stdout.strip() == "" and result.stderr.strip() == "", result.stderr


def test_the_checker_would_notice_a_mistake(tmp_path):
    result = verify(tmp_path, UNIT.read_text().replace("WatchdogSec=", "WatchdogSecs="))
    assert "WatchdogSecs" in result.stderr


def test_kiosk_promises():
    unit = read_unit(UNIT.read_text())
    service = unit["Service"]
    assert service["Type"] == "notify" and service["NotifyAccess"] == "main"
    assert int(service["WatchdogSec"]) >= 15  # more than the camera's longest reconnect back-off (10 s)
    assert service["Restart"] == "on-failure"
    assert int(unit["Unit"]["StartLimitBurst"]) >= 3 and int(unit["Unit"]["StartLimitIntervalSec"]) > 0
    assert service["User"] == "dicetable"
    assert set(service["SupplementaryGroups"].split()) == {"video", "render", "input", "gpio"}
    assert service["ExecStart"].split()[:2] == [EXEC, "run"]
    assert service["StandardOutput"] == "journal" and service["StandardError"] == "journal"
    assert service["TTYPath"] == "/dev/tty1" and "getty@tty1.service" in unit["Unit"]["Conflicts"]
    assert unit["Install"]["WantedBy"] == "multi-user.target"  # the console, not the desktop
    assert "DISPLAY" not in UNIT.read_text()  # KMSDRM: no desktop session is used
