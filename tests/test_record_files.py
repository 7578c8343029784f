"""Files under records/ (issue 28): only regular files inside the project are read. A
link out of the project, a device, a named pipe, a loop of links, an unreadable folder,
a link to a folder and a record saved as `.yml` are each an error naming the path and
quoting nothing of what it points to; nothing hangs, nothing is read whole. Each case is
made for real in a temporary project (a copy of the minimal fixture) and run through the
installed `rewire` script where a hang or a traceback is the risk."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import tempfile
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest
from entry_point import rewire_script

from rewire_site.load import MAX_FILE_BYTES, load_file, read_bounded
from rewire_site.validate import find_files, validate_paths

FIXTURE = Path(__file__).parent / "fixtures" / "minimal"
SECRET = "TOKEN=ghp_s3cr3t0123456789abcdefghijklmnopqrstuvwxyz"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(FIXTURE / "records", root / "records")
    shutil.copytree(FIXTURE / "artifacts", root / "artifacts")
    (root / "pyproject.toml").write_text("", encoding="utf-8")
    return root


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A file outside the project that a link must not leak."""
    path = tmp_path / "outside" / "token.yaml"
    path.parent.mkdir()
    path.write_text(f"{SECRET}\n", encoding="utf-8")
    return path


def validate(root: Path, *args: str, timeout: float = 60) -> tuple[int, str]:
    done = subprocess.run(
        [rewire_script(), "validate", "--no-cache", *args],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    return done.returncode, done.stdout + done.stderr


def error_lines(output: str, name: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith(f"records/{name}:1: ")]


def test_a_link_out_of_the_project_is_an_error_that_quotes_nothing(
    project: Path, secret: Path
) -> None:
    (project / "records" / "leak.yaml").symlink_to(secret)
    (project / "records" / "passwd.yaml").symlink_to("/etc/passwd")
    code, output = validate(project)
    assert code == 1, output
    assert "Traceback" not in output
    for name in ("leak.yaml", "passwd.yaml"):
        [line] = error_lines(output, name)
        assert "symbolic link to a file outside the project" in line
    assert "s3cr3t" not in output and "ghp_" not in output
    assert "root:" not in output and "/etc/passwd" not in output and str(secret) not in output


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_link_to_a_device_is_refused_unread(project: Path, device: str) -> None:
    (project / "records" / "device.yaml").symlink_to(device)
    code, output = validate(project, timeout=30)
    assert code == 1, output
    [line] = error_lines(output, "device.yaml")
    assert "outside the project" in line


def test_a_device_file_inside_the_project_is_refused_unread(project: Path) -> None:
    path = project / "records" / "zero.yaml"
    try:
        os.mknod(path, stat.S_IFCHR | 0o644, os.makedev(1, 5))  # what /dev/zero is
    except (PermissionError, AttributeError) as error:
        pytest.skip(f"cannot make a device file here ({error}): needs CAP_MKNOD")
    code, output = validate(project, timeout=30)
    assert code == 1, output
    [line] = error_lines(output, "zero.yaml")
    assert line.endswith("a device: a record is a regular file")
    problem = read_bounded(path)  # the reader refuses it by itself too (by fstat)
    assert not isinstance(problem, bytes)
    assert problem.message == "a device: a record is a regular file"


def test_a_named_pipe_is_refused_without_waiting(project: Path) -> None:
    path = project / "records" / "fifo.yaml"
    os.mkfifo(path)
    code, output = validate(project, timeout=30)
    assert code == 1, output
    [line] = error_lines(output, "fifo.yaml")
    assert line.endswith("a named pipe: a record is a regular file")
    problem = read_bounded(path)  # opened without blocking, refused by its type
    assert not isinstance(problem, bytes) and "named pipe" in problem.message


def test_loops_of_links_and_broken_links_are_errors_not_tracebacks(project: Path) -> None:
    records = project / "records"
    (records / "self.yaml").symlink_to("self.yaml")
    (records / "a.yaml").symlink_to("b.yaml")
    (records / "b.yaml").symlink_to("a.yaml")
    (records / "gone.yaml").symlink_to("nothing-here.yaml")
    code, output = validate(project)
    assert code == 1, output
    assert "Traceback" not in output
    for name in ("self.yaml", "a.yaml", "b.yaml", "gone.yaml"):
        [line] = error_lines(output, name)
        assert "leads nowhere (broken, or a loop of links)" in line


def test_a_link_to_a_folder_is_an_error_not_skipped(project: Path, tmp_path: Path) -> None:
    (project / "records" / "more").symlink_to(tmp_path / "outside", target_is_directory=True)
    (tmp_path / "outside").mkdir()
    (project / "records" / "loop").symlink_to(project / "records", target_is_directory=True)
    code, output = validate(project)
    assert code == 1, output
    for name in ("more", "loop"):
        [line] = error_lines(output, name)
        assert "symbolic link to a folder" in line


def test_a_link_to_a_record_inside_the_project_is_read(project: Path) -> None:
    kept = project / "kept"
    kept.mkdir()
    (project / "records" / "fx-source.yaml").rename(kept / "fx-source.yaml")
    (project / "records" / "fx-source.yaml").symlink_to(kept / "fx-source.yaml")
    report = validate_paths([project / "records"], project, cache=False)
    assert report.errors == []
    assert "fx-source" in report.records


@pytest.mark.parametrize("name", ["fx-extra.yml", "fx-extra.YAML", "fx-extra.Yml"])
def test_a_record_saved_as_yml_is_an_error_not_ignored(project: Path, name: str) -> None:
    text = (project / "records" / "fx-source.yaml").read_text(encoding="utf-8")
    (project / "records" / name).write_text(text.replace("fx-source", "fx-extra"), "utf-8")
    report = validate_paths([project / "records"], project, cache=False)
    [problem] = report.errors
    assert (problem.path.name, problem.line, problem.field) == (name, 1, "")
    assert problem.message.endswith("is not read; rename it to fx-extra.yaml")


def test_records_that_is_a_link_out_of_the_project_is_one_error(
    project: Path, secret: Path
) -> None:
    shutil.rmtree(project / "records")
    (project / "records").symlink_to(secret.parent, target_is_directory=True)
    files, problems = find_files([project / "records"], project)
    assert files == []
    [problem] = problems
    assert problem.path == project / "records"
    assert "outside the project" in problem.message
    code, output = validate(project)
    assert code == 1 and "s3cr3t" not in output


def test_a_folder_named_outside_the_project_is_read_as_named(project: Path) -> None:
    """`rewire validate --root A B` reads the files under B (the bad-records corpus is
    validated this way): B is the boundary of its own links."""
    files, problems = find_files([FIXTURE / "records"], project)
    assert problems == [] and len(files) == 10


def test_size_is_checked_before_reading(tmp_path: Path) -> None:
    """A sparse 1 GiB file: refused by its size from `fstat`; nothing of it is read."""
    path = tmp_path / "huge.yaml"
    with path.open("wb") as handle:
        handle.truncate(1024 * 1024 * 1024)
    tracemalloc.start()
    try:
        loaded = load_file(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert loaded.data is None
    assert f"at most {MAX_FILE_BYTES // 1024 // 1024} MiB" in loaded.problems[0].message
    assert peak < 1024 * 1024


@pytest.fixture
def shared_project() -> Iterator[Path]:
    """A project in a folder other users may enter (pytest's own are private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="rewire-test-"))
    try:
        folder.chmod(0o755)
        shutil.copytree(FIXTURE / "records", folder / "records")
        for path in [folder / "records", *(folder / "records").iterdir()]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        yield folder
    finally:
        for path in folder.rglob("*"):
            if path.is_dir() and not path.is_symlink():
                path.chmod(0o755)
        shutil.rmtree(folder)


def _as_nobody(root: Path) -> list[str]:
    """Problems of `validate_paths` over root/records, run in a child process as the
    user `nobody` (a root process reads any folder whatever its permission bits, so an
    unreadable folder exists only for another user)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            os.close(read)
            try:
                os.setgid(65534)
                os.setuid(65534)
            except OSError as error:
                os.write(write, f"SKIP {error}".encode())
                os._exit(0)
            report = validate_paths([root / "records"], root, cache=False, jobs=1)
            os.write(write, "\n".join(str(p) for p in report.errors).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        output = pipe.read().decode()
    os.waitpid(pid, 0)
    if output.startswith("SKIP "):
        pytest.skip(f"cannot become the user nobody to make a folder unreadable: {output[5:]}")
    return output.splitlines()


def test_an_unreadable_folder_and_file_are_errors_not_skipped(shared_project: Path) -> None:
    records = shared_project / "records"
    hidden = records / "hidden"
    hidden.mkdir()
    (records / "fx-dataset.yaml").rename(hidden / "fx-dataset.yaml")
    hidden.chmod(0o000)
    (records / "fx-source.yaml").chmod(0o000)
    if os.geteuid() == 0:
        if not hasattr(os, "fork"):
            pytest.skip("running as root without fork: no user for whom a folder is unreadable")
        errors = _as_nobody(shared_project)
    else:
        errors = [str(p) for p in validate_paths([records], shared_project, cache=False).errors]
    assert f"{hidden}:1: (record): cannot read the folder: Permission denied" in errors
    assert f"{records / 'fx-source.yaml'}:1: (record): cannot read: Permission denied" in errors
