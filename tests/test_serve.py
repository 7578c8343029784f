"""`rewire serve` for real on loopback: build, fetch a page, change a record, see the
rebuild, break a record and keep serving the last good site, stop. Bounded timeouts."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from rewire_site.serve import Preview, have_watchfiles, poll_changes, site_builder, snapshot

GOLDEN = Path(__file__).resolve().parent / "fixtures" / "golden"
PROTOCOL_PAGE = "protocols/golden-protocol/index.html"
TIMEOUT = 60.0


def fetch(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.status, response.read().decode("utf-8")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the golden catalogue: records/ and the artifacts they hash."""
    root = tmp_path / "project"
    shutil.copytree(GOLDEN / "records", root / "records")
    shutil.copytree(GOLDEN / "artifacts", root / "artifacts")
    return root


def retitle(root: Path, title: str) -> None:
    path = root / "records" / "golden-protocol.yaml"
    lines = path.read_text(encoding="utf-8").splitlines()
    lines = [f"title: {title}" if line.startswith("title:") else line for line in lines]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_poll_changes_sees_edits(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("one", encoding="utf-8")
    stop, ready = threading.Event(), threading.Event()
    seen: list[set[str]] = []

    def watch() -> None:
        for changed in poll_changes([tmp_path], stop, ready):
            seen.append(changed)
            stop.set()

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    assert ready.wait(10)
    (tmp_path / "a.yaml").write_text("two, longer", encoding="utf-8")
    thread.join(timeout=10)
    stop.set()
    assert seen == [{str(tmp_path / "a.yaml")}]
    assert snapshot([tmp_path / "absent"]) == {}


@pytest.mark.slow
@pytest.mark.parametrize(
    "poll",
    [
        True,
        pytest.param(
            False,
            marks=pytest.mark.skipif(not have_watchfiles(), reason="watchfiles not installed"),
        ),
    ],
    ids=["polling", "watchfiles"],
)
def test_preview_rebuilds_and_keeps_last_good_site(project: Path, poll: bool) -> None:
    log: list[str] = []
    site = project / "site"
    builder = site_builder(project, project / "records", site)
    preview = Preview(site, [project / "records"], builder, port=0, poll=poll, log=log.append)
    assert preview.build(), log
    preview.start()
    try:
        status, home = fetch(preview.url + "index.html")
        assert status == 200 and "<h1" in home
        status, page = fetch(preview.url + PROTOCOL_PAGE)  # the home page lists no protocol
        assert status == 200 and "Training peak GPU memory" in page

        retitle(project, "Renamed fixture protocol for the serve test")
        assert preview.wait_for(builds=2, timeout=TIMEOUT), log
        status, page = fetch(preview.url + PROTOCOL_PAGE)
        assert status == 200 and "Renamed fixture protocol for the serve test" in page

        (project / "records" / "golden-dataset.yaml").write_text(
            "id: golden-dataset\nkind: dataset\nsynthetic: maybe-not\n", encoding="utf-8"
        )
        assert preview.wait_for(builds=2, failures=1, timeout=TIMEOUT), log
        assert any("build failed" in line for line in log), log
        assert any("golden-dataset.yaml" in line for line in log), log
        status, page = fetch(preview.url + PROTOCOL_PAGE)
        assert status == 200 and "Renamed fixture protocol for the serve test" in page
    finally:
        preview.stop()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _ignore_sigint() -> None:
    """As a non-interactive shell starts a background command: SIGINT ignored."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@pytest.fixture
def served(project: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """`rewire serve` started as a script's background command is: SIGINT ignored (it must
    stop on Ctrl-C all the same)."""
    port = _free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "rewire_site.cli",
            "serve",
            "--port",
            str(port),
            "--root",
            str(project),
            "--poll",
        ],
        cwd=project,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        preexec_fn=_ignore_sigint,
    )
    try:
        yield process, f"http://127.0.0.1:{port}/"
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)


@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_rewire_serve_command(
    served: tuple[subprocess.Popen[str], str], project: Path, stop: signal.Signals
) -> None:
    """The command as an editor runs it: answers on loopback, rebuilds, stops on Ctrl-C
    (even though it started with SIGINT ignored) or SIGTERM."""
    process, url = served
    deadline = time.monotonic() + TIMEOUT
    while True:
        try:
            status, _ = fetch(url + "index.html")
            break
        except OSError:
            assert process.poll() is None, process.stdout.read() if process.stdout else ""
            assert time.monotonic() < deadline, "rewire serve did not answer in time"
            time.sleep(0.2)
    assert status == 200
    retitle(project, "Retitled through rewire serve")
    while "Retitled through rewire serve" not in fetch(url + PROTOCOL_PAGE)[1]:
        assert time.monotonic() < deadline, "no rebuild after the record changed"
        time.sleep(0.2)
    process.send_signal(stop)
    output, _ = process.communicate(timeout=15)
    assert process.returncode == 0, output
    assert "serving" in output and "rebuilding" in output and "stopping" in output


def _serve(project: Path, port: int) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "rewire_site.cli", "serve", "--port", str(port),
               "--root", str(project), "--poll"]  # fmt: skip
    return subprocess.run(
        command, cwd=project, capture_output=True, text=True, timeout=TIMEOUT, check=False
    )


def test_a_busy_port_is_one_clear_line_and_exit_1(project: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = int(taken.getsockname()[1])
        done = _serve(project, port)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert lines == [
        f"rewire serve: port {port} on 127.0.0.1 is already in use (another rewire serve?); "
        f"choose another port with --port, e.g. rewire serve --port {port + 1}"
    ]
    assert not (project / "site").exists(), "nothing is built when nothing can be served"


def test_serve_never_replaces_or_serves_a_folder_it_did_not_build(project: Path) -> None:
    site = project / "site"
    site.mkdir()
    (site / "notes.txt").write_text("mine")
    done = _serve(project, _free_port())
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert f"rewire serve: {site}: not replaced" in done.stderr
    assert "notes.txt" in done.stderr
    assert [p.name for p in site.iterdir()] == ["notes.txt"]
