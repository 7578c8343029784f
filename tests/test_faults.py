"""Faults that must lose nothing (issue 12, item 10), each for real: `rewire build` killed
with SIGKILL at random points while it renders and at every step of the swap, a full disk
(a small tmpfs where this user may mount one, and always a file-size limit set with
RLIMIT_FSIZE), and two builds started at once into one folder. After each fault the
previous site is whole (byte for byte) or the new one is, and the next build succeeds and
leaves nothing behind. A record file changed mid-build is in test_build.py; `rewire
measure` killed mid-stage is in tests/measure/test_run_faults.py.

The kills at the swap are placed with an audit hook (`sys.addaudithook`) in the build's
own process: at the Nth rename, exchange or removal that touches the site, the process
sends itself SIGKILL. Nothing in the builder is replaced or mocked.
"""

from __future__ import annotations

import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent / "fixtures"
OLD_DATE, NEW_DATE = "2026-10-22", "2030-01-01"
TIMEOUT = 120.0

DRIVER = r"""
import os, signal, sys
kill_at, mode, site = int(sys.argv[1]), sys.argv[2], os.fsencode(sys.argv[3])
parent, name = os.path.split(site)
prefix = os.path.join(parent, b"." + name + b".")
seen = 0

def touches(value):
    if hasattr(value, "__fspath__") or isinstance(value, str):
        value = os.fsencode(os.fspath(value))
    return isinstance(value, bytes) and (value == site or value.startswith(prefix))

def hook(event, args):
    global seen
    if event == "ctypes.call_function":
        args = args[1]
    elif event not in ("os.rename", "shutil.rmtree", "os.rmdir"):
        return
    if any(touches(a) for a in args):
        seen += 1
        if seen == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)

from rewire_site import write
write.RENAME_EXCHANGE = mode == "exchange"
sys.addaudithook(hook)
from rewire_site.cli import main
sys.argv = ["rewire", *sys.argv[4:]]
main()
"""


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}  # fmt: skip


def _leftovers(site: Path) -> list[str]:
    return sorted(p.name for p in site.parent.iterdir() if p.name.startswith(f".{site.name}."))


def _build_args(project: Path, site: Path, day: str) -> list[str]:
    return ["build", "--root", str(project), "--out", str(site), "--release-date", day]


def _rewire(*args: str, **options: object) -> subprocess.Popen[str]:
    command = [sys.executable, "-c", "from rewire_site.cli import main; main()", *args]
    return subprocess.Popen(command, text=True, **options)  # type: ignore[call-overload]


def _run(*args: str, **options: object) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-c", "from rewire_site.cli import main; main()", *args]
    return subprocess.run(
        command, capture_output=True, text=True, timeout=TIMEOUT, check=False, **options
    )  # type: ignore[call-overload]


def _built(root: Path) -> Path:
    """`root` with its site built on OLD_DATE, and a reference build on NEW_DATE."""
    for day, out in ((OLD_DATE, root / "site"), (NEW_DATE, root.parent / "reference")):
        done = _run(*_build_args(root, out, day))
        assert done.returncode == 0, done.stderr
    return root


@pytest.fixture(scope="module")
def minimal_built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("minimal") / "project"
    shutil.copytree(FIXTURES / "minimal", root)
    return _built(root)


@pytest.fixture(scope="module")
def big_built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A synthetic catalogue whose render takes a second or more (time to kill it)."""
    from rewire_site.synth import generate_catalogue

    root = tmp_path_factory.mktemp("big") / "project"
    generate_catalogue(root, 120, seed=12)
    return _built(root)


def _copy(built: Path, tmp_path: Path) -> Path:
    """A copy of a project and its site (built on OLD_DATE) to break, and beside it
    the reference build on NEW_DATE."""
    root = tmp_path / "project"
    shutil.copytree(built, root)
    shutil.copytree(built.parent / "reference", tmp_path / "reference")
    return root


@pytest.fixture
def project(minimal_built: Path, tmp_path: Path) -> Path:
    return _copy(minimal_built, tmp_path)


@pytest.fixture
def big(big_built: Path, tmp_path: Path) -> Path:
    return _copy(big_built, tmp_path)


def _new_site(project: Path) -> dict[str, bytes]:
    """The bytes of a clean build of `project` on NEW_DATE."""
    return _files(project.parent / "reference")


def _staging_started(site: Path) -> bool:
    """True once a build's staging folder holds its first page."""
    return any(
        p.is_dir() and any(p.rglob("*.html")) for p in site.parent.glob(f".{site.name}.new-*")
    )


@pytest.mark.slow
def test_a_build_killed_while_it_renders_leaves_the_site_and_the_next_build_works(
    big: Path, tmp_path: Path
) -> None:
    site = big / "site"
    before = _files(site)
    seed = int(os.environ.get("REWIRE_FAULT_SEED", random.randrange(1 << 30)))
    chance = random.Random(seed)
    kills = 0
    for _ in range(3):
        process = _rewire(*_build_args(big, site, NEW_DATE), start_new_session=True,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
        deadline = time.monotonic() + TIMEOUT
        while not _staging_started(site) and process.poll() is None:
            assert time.monotonic() < deadline, "the build never started to render"
            time.sleep(0.01)
        time.sleep(chance.uniform(0.0, 0.6))
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)  # the build and its render workers
            kills += 1
        process.wait(timeout=TIMEOUT)
        if process.returncode == -signal.SIGKILL:
            # Killed before its atomic swap: the previous site, untouched; killed after it
            # (while cleaning up): the new site, whole. Never a mixture.
            now = _files(site)
            assert now == before or now == _new_site(big), (
                f"seed {seed}: the killed build left a site that is neither the previous "
                "one nor the new one"
            )
            before = now
        else:  # it finished first: the new site, whole
            assert process.returncode == 0
            before = _files(site)
    assert kills >= 1, f"seed {seed}: every build finished before the kill"
    again = _run(*_build_args(big, site, NEW_DATE))
    assert again.returncode == 0, again.stderr
    assert _files(site) == _new_site(big)
    assert _leftovers(site) == [], f"seed {seed}: a killed build's folders are left behind"


@pytest.mark.parametrize("mode", ["exchange", "two-renames"])
@pytest.mark.parametrize("kill_at", [1, 2, 3, 4])
def test_a_build_killed_at_each_step_of_the_swap_loses_nothing(
    project: Path, tmp_path: Path, mode: str, kill_at: int
) -> None:
    """Steps: the exchange (or rename site -> old, rename staging -> site), the rename of
    the previous site to trash, then its removal. Right after the kill the site folder
    holds the previous site or the new one, whole; only a kill between the two renames
    of the fallback leaves it renamed aside, and the next build puts it back."""
    site = project / "site"
    before = _files(site)
    after = _new_site(project)
    command = [sys.executable, "-c", DRIVER, str(kill_at), mode, str(site),
               *_build_args(project, site, NEW_DATE)]  # fmt: skip
    killed = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    cut_between_renames = mode == "two-renames" and kill_at == 2
    if cut_between_renames:
        assert not site.exists()
        (aside,) = list(site.parent.glob(".site.old-*"))
        assert _files(aside) == before, "the previous site, renamed aside, is whole"
        restore = _run(*_build_args(project, site, OLD_DATE))  # the next build restores it
        assert restore.returncode == 0, restore.stderr
        assert _files(site) == before
    else:
        assert _files(site) in (before, after), "the site is the previous one or the new one"
    again = _run(*_build_args(project, site, NEW_DATE))
    assert again.returncode == 0, again.stderr
    assert _files(site) == after
    assert _leftovers(site) == []


def _mount_tmpfs(folder: Path, kib: int, remount: bool = False) -> bool:
    options = f"size={kib}k" + (",remount" if remount else "")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)],
                          capture_output=True, check=False)  # fmt: skip
    return done.returncode == 0


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A real small file system: a tmpfs mounted here (root only), unmounted after."""
    folder = tmp_path / "disk"
    folder.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None or not _mount_tmpfs(folder, 64):
        pytest.skip("cannot mount a tmpfs here (needs root); the RLIMIT_FSIZE test still runs")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def _used_kib(folder: Path) -> int:
    stats = os.statvfs(folder)
    return (stats.f_blocks - stats.f_bfree) * stats.f_frsize // 1024


def test_a_full_disk_fails_the_build_and_keeps_the_site(
    project: Path, tmp_path: Path, small_disk: Path
) -> None:
    assert _mount_tmpfs(small_disk, 64 * 1024, remount=True)
    site = small_disk / "site"
    first = _run(*_build_args(project, site, OLD_DATE))
    assert first.returncode == 0, first.stderr
    old = _files(site)
    need = _used_kib(small_disk)
    assert _mount_tmpfs(small_disk, need * 3 // 2, remount=True)  # the site fits, not twice
    full = _run(*_build_args(project, site, NEW_DATE))
    assert full.returncode == 1
    assert "Traceback" not in full.stderr
    assert "No space left on device while writing the new site" in full.stderr, full.stderr
    assert "the site was not changed" in full.stderr
    assert _files(site) == old
    assert _leftovers(site) == []
    assert _mount_tmpfs(small_disk, need * 4, remount=True)  # space freed
    again = _run(*_build_args(project, site, NEW_DATE))
    assert again.returncode == 0, again.stderr
    assert _files(site) == _new_site(project)
    assert _leftovers(site) == []


def test_a_file_size_limit_fails_the_build_and_keeps_the_site(
    project: Path, tmp_path: Path
) -> None:
    """RLIMIT_FSIZE: the kernel refuses to grow a file past the limit (EFBIG), as a full
    disk refuses any write; works without root."""
    site = project / "site"
    before = _files(site)
    limit = max(len(data) for data in before.values()) // 2

    def limited() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of a signal
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    full = _run(*_build_args(project, site, NEW_DATE), preexec_fn=limited)
    assert full.returncode == 1, full.stdout
    assert "Traceback" not in full.stderr
    assert "File too large while writing the new site" in full.stderr, full.stderr
    assert _files(site) == before
    assert _leftovers(site) == []
    again = _run(*_build_args(project, site, NEW_DATE))
    assert again.returncode == 0, again.stderr
    assert _leftovers(site) == []


@pytest.mark.slow
def test_a_second_build_into_the_same_folder_waits_for_the_first(big: Path, tmp_path: Path) -> None:
    """The first build is frozen (SIGSTOP) mid-render: the second must wait and say so,
    not swap a site in under it; once the first goes on, both finish, the second last."""
    site = big / "site"
    before = _files(site)
    first = _rewire(*_build_args(big, site, NEW_DATE), start_new_session=True,
                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)  # fmt: skip
    deadline = time.monotonic() + TIMEOUT
    while not _staging_started(site):
        assert first.poll() is None and time.monotonic() < deadline, "first build ended early"
        time.sleep(0.005)
    os.killpg(first.pid, signal.SIGSTOP)
    log = tmp_path / "second.err"
    try:
        with log.open("w") as err:
            second = _rewire(*_build_args(big, site, OLD_DATE), stdout=subprocess.DEVNULL,
                             stderr=err)  # fmt: skip
            deadline = time.monotonic() + TIMEOUT
            while "waiting" not in log.read_text() and second.poll() is None:
                assert time.monotonic() < deadline
                time.sleep(0.05)
            time.sleep(1.0)
            assert second.poll() is None, "the second build finished under the first one"
            assert f"another build is writing into {big}" in log.read_text()
            assert _files(site) == before
    finally:
        os.killpg(first.pid, signal.SIGCONT)
    assert first.wait(timeout=TIMEOUT) == 0
    assert second.wait(timeout=TIMEOUT) == 0, log.read_text()
    assert _files(site) == before  # the second build (OLD_DATE) swapped in last
    assert _leftovers(site) == []


def test_two_builds_started_at_once_both_finish_and_the_site_is_whole(
    project: Path, tmp_path: Path
) -> None:
    site = project / "site"
    shutil.rmtree(site)
    expected = _new_site(project)
    args = _build_args(project, site, NEW_DATE)
    pipes = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    builds = [_rewire(*args, **pipes) for _ in range(2)]
    outputs = [b.communicate(timeout=TIMEOUT) for b in builds]
    assert [b.returncode for b in builds] == [0, 0], outputs
    assert _files(site) == expected
    assert _leftovers(site) == []


CLAIMS_DRIVER = r"""
import os, signal, sys

def hook(event, args):
    if event == "open" and isinstance(args[0], (str, bytes)):
        name = os.fsdecode(args[0])
        if "rewire-claims-" in name and name.endswith(".log"):
            os.kill(os.getpid(), signal.SIGKILL)  # the first claim log: mid-render

sys.addaudithook(hook)
from rewire_site.cli import main
sys.argv = ["rewire", *sys.argv[1:]]
main()
"""


def test_a_killed_builds_claims_folder_is_removed_by_the_next_build(
    project: Path, tmp_path: Path
) -> None:
    """Issue 28: a build killed while it renders left `$TMPDIR/rewire-claims-*` for
    ever. The next build removes it (its process is gone), and nothing else: not a
    claims folder of a live process, not a folder of another name."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    alive = temporary / f"rewire-claims-{os.getpid()}-live"  # this test's process: alive
    alive.mkdir()
    (alive / "1.log").write_text("", encoding="utf-8")
    other = temporary / "rewire-claims-notapid"
    other.mkdir()
    environment = {**os.environ, "TMPDIR": str(temporary)}
    args = [*_build_args(project, project / "site", NEW_DATE), "--workers", "1"]
    killed = subprocess.run(
        [sys.executable, "-c", CLAIMS_DRIVER, *args],
        env=environment, capture_output=True, text=True, timeout=TIMEOUT, check=False,
    )  # fmt: skip
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    left = sorted(p.name for p in temporary.glob("rewire-claims-*"))
    assert len(left) == 3, left  # the killed build's, beside the two kept ones
    again = _run(*_build_args(project, project / "site", NEW_DATE), env=environment)
    assert again.returncode == 0, again.stderr
    assert sorted(p.name for p in temporary.iterdir()) == sorted([alive.name, other.name])
    assert _files(project / "site") == _new_site(project)
