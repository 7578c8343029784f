"""`rewire serve`: build a preview of the site, serve it on 127.0.0.1, rebuild when
records or templates change.

The site served is a preview (`rewire build --preview`: the release id is the date and
a preview marker, and every page says it is a preview of unreleased records), rebuilt
incrementally (`incremental.IncrementalSite`): after a record edit the edited record's
own page is made again at once; the pages whose recorded inputs it changed (the pages that
show it, listings, search index, downloads, exports, the chooser, sitemap, release table)
follow in one background pass once edits stop for
`SETTLE_AFTER_SECONDS` (a new edit interrupts it). Only files whose bytes changed are
rewritten, each atomically; once settled the site is byte-identical to a full
`--preview` build. A template or static file change, or an unexpected error, rebuilds
everything.

The server is the standard library's `http.server` (threaded), serving the site folder
by path on every request, so the atomic swap of a rebuild (write.py) is picked up at the
next request. Changes are watched with `watchfiles` when it is installed, else by polling
modification times. A failed rebuild prints its problems and keeps serving the last good
site (the build never touches the folder it failed to replace).

The site folder follows the builder's rule (write.py): it is replaced only when the
builder made it (it holds `.rewire-site`) or it is empty; otherwise serve says so and
exits before it builds or serves anything. A busy port is one line naming the port and
`--port`, exit 1.

Ctrl-C (SIGINT) or SIGTERM stops it: both are handled explicitly, so a serve started from
a script in the background (where the shell leaves SIGINT ignored) still stops on either.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import typer

from .config import RECORDS_DIR, SITE_DIR, TEMPLATES_DIR, find_root
from .problems import RecordsInvalid
from .write import TargetRefused, check_target

Builder = Callable[[set[str] | None], object]
"""Builds the site into its folder, given the paths that changed (None: build it all);
raises on failure (RecordsInvalid with problems)."""
Log = Callable[[str], None]

POLL_SECONDS = 0.3
SETTLE_SECONDS = 0.15
"""After a change is seen, wait until the files stop changing for this long."""
SETTLE_AFTER_SECONDS = 0.5
"""After an edit's pages are rebuilt, the site-wide files wait this long for another
edit before they are remade (`PreviewBuilder`)."""

Snapshot = dict[str, tuple[int, int]]


def snapshot(folders: Iterable[Path]) -> Snapshot:
    """(mtime in ns, size) of every file under `folders`, by path."""
    state: Snapshot = {}
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*")):
            with contextlib.suppress(FileNotFoundError):
                if path.is_file():
                    stat = path.stat()
                    state[str(path)] = (stat.st_mtime_ns, stat.st_size)
    return state


def poll_changes(
    folders: list[Path], stop: threading.Event, ready: threading.Event | None = None
) -> Iterator[set[str]]:
    """Yield the set of changed paths each time files under `folders` change. `ready`
    is set once the first snapshot is taken: changes after that are seen."""
    before = snapshot(folders)
    if ready is not None:
        ready.set()
    while not stop.wait(POLL_SECONDS):
        now = snapshot(folders)
        if now == before:
            continue
        while not stop.wait(SETTLE_SECONDS):  # let an editor finish writing
            settled = snapshot(folders)
            if settled == now:
                break
            now = settled
        changed = {p for p in before.keys() | now.keys() if before.get(p) != now.get(p)}
        before = now
        yield changed


def watchfiles_changes(
    folders: list[Path], stop: threading.Event, ready: threading.Event | None = None
) -> Iterator[set[str]]:
    """Like `poll_changes`, through watchfiles (inotify and friends). The watcher yields
    an empty set on its first timeout, once it is watching: that sets `ready`."""
    import watchfiles

    existing = [str(f) for f in folders if f.is_dir()]
    for changes in watchfiles.watch(
        *existing,
        stop_event=stop,
        debounce=200,
        step=50,
        rust_timeout=100,
        yield_on_timeout=True,
    ):
        if not changes:
            if ready is not None:
                ready.set()
            continue
        yield {path for _, path in changes}


def have_watchfiles() -> bool:
    try:
        import watchfiles  # noqa: F401
    except ImportError:
        return False
    return True


class _Handler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # quiet: the log is rebuilds
        pass


class PortUnavailable(Exception):
    """The preview cannot listen on the port asked for."""


def listen(port: int, handler: Any) -> ThreadingHTTPServer:
    """An HTTP server on 127.0.0.1:`port`; `PortUnavailable` with a one-line reason
    that names the port and `--port` when it cannot listen there."""
    try:
        return ThreadingHTTPServer(("127.0.0.1", port), handler)
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            why = f"port {port} on 127.0.0.1 is already in use (another rewire serve?)"
        elif error.errno == errno.EACCES:
            why = f"port {port} on 127.0.0.1 needs privileges this user does not have"
        else:
            why = f"cannot listen on 127.0.0.1:{port}: {error.strerror or error}"
        raise PortUnavailable(
            f"{why}; choose another port with --port, e.g. rewire serve --port "
            f"{port + 1 if 0 < port < 65535 else 8000}"
        ) from None


class Preview:
    """A running preview: server thread + watcher thread. `start()`, then `stop()`."""

    def __init__(
        self,
        site_dir: Path,
        watched: list[Path],
        builder: Builder,
        port: int = 8000,
        poll: bool | None = None,
        log: Log = print,
    ) -> None:
        self.site_dir = site_dir
        self.watched = watched
        self.builder = builder
        self.log = log
        self.poll = (not have_watchfiles()) if poll is None else poll
        self.builds = 0
        """Successful builds so far (the first included)."""
        self.failures = 0
        self.rebuilt = threading.Condition()
        self._stop = threading.Event()
        self._watching = threading.Event()
        handler = functools.partial(_Handler, directory=str(site_dir))
        self.server = listen(port, handler)
        self.server.daemon_threads = True
        self._threads: list[threading.Thread] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/"

    def build(self, changed: set[str] | None = None) -> bool:
        """Build once (`changed`: the paths an edit changed; None: everything); on
        failure print the problems and keep the last good site."""
        started = time.perf_counter()
        try:
            self.builder(changed)
        except RecordsInvalid as exc:
            self._failed(str(exc), [str(p) for p in exc.problems])
            return False
        except Exception as exc:  # a template error must not stop the preview
            self._failed(f"{type(exc).__name__}: {exc}", [])
            return False
        with self.rebuilt:
            self.builds += 1
            self.rebuilt.notify_all()
        self.log(f"built in {time.perf_counter() - started:.2f} s; serving {self.url}")
        return True

    def _failed(self, headline: str, lines: list[str]) -> None:
        self.log(f"build failed: {headline}; still serving the last good site")
        for line in lines:
            self.log(f"  {line}")
        with self.rebuilt:
            self.failures += 1
            self.rebuilt.notify_all()

    def _watch(self) -> None:
        changes = poll_changes if self.poll else watchfiles_changes
        for changed in changes(self.watched, self._stop, self._watching):
            names = ", ".join(sorted(Path(p).name for p in changed)[:5])
            self.log(f"changed: {names}; rebuilding")
            self.build(changed)

    def start(self, timeout: float = 30.0) -> None:
        """Watch, then serve, in background threads (the first build is the caller's).
        Returns once the watcher sees changes, so no edit after it is missed."""
        for target in (self._watch, self.server.serve_forever):
            thread = threading.Thread(target=target, daemon=True)
            thread.start()
            self._threads.append(thread)
            if target == self._watch and not self._watching.wait(timeout):
                self.log("warning: the file watcher is not ready yet; early edits may be missed")

    def wait_for(self, builds: int = 0, failures: int = 0, timeout: float = 30.0) -> bool:
        """Wait until at least `builds` successes and `failures` failures happened."""
        with self.rebuilt:
            return self.rebuilt.wait_for(
                lambda: self.builds >= builds and self.failures >= failures, timeout
            )

    def stop(self) -> None:
        self._stop.set()
        close = getattr(self.builder, "close", None)
        if close is not None:
            close()
        self.server.shutdown()
        self.server.server_close()
        for thread in self._threads:
            thread.join(timeout=5)


class PreviewBuilder:
    """The preview build: a full `--preview` build the first time (or `changed=None`),
    then incremental rebuilds of the paths that changed (`incremental.IncrementalSite`),
    whose site-wide files are remade in a background thread once no edit came for
    `settle_after` seconds (`settled` is set then); `log` hears what each rebuild made,
    `last` keeps it."""

    def __init__(
        self,
        root: Path,
        records: Path,
        site_dir: Path,
        log: Log = print,
        release_date: str | None = None,
        settle_after: float = SETTLE_AFTER_SECONDS,
    ) -> None:
        from .incremental import IncrementalSite, Outcome

        self.site = IncrementalSite(root, records, site_dir, release_date=release_date, log=log)
        self.log = log
        self.last: Outcome | None = None
        self.settle_after = settle_after
        self.settled = threading.Event()
        """Set while the site is what a full build makes of the records applied."""
        self._lock = threading.Lock()
        self._edit = threading.Event()
        """Set while an edit waits for the lock: a settle pass in progress stops."""
        self._timer: threading.Timer | None = None

    def __call__(self, changed: set[str] | None = None) -> None:
        self._edit.set()
        with self._lock:
            self._edit.clear()
            self.settled.clear()
            if self._timer is not None:
                self._timer.cancel()
            outcome = self.site.build() if changed is None else self.site.update(changed)
            self.last = outcome
            if self.site.unsettled:
                self._timer = threading.Timer(self.settle_after, self._settle)
                self._timer.daemon = True
                self._timer.start()
            else:
                self.settled.set()
        if outcome.jobs or outcome.full:
            self.log(outcome.line())

    def _settle(self) -> None:
        """The background pass: the site-wide files, unless an edit is waiting (it starts
        another pass when it is done)."""
        with self._lock:
            if self._edit.is_set():
                return
            try:
                outcome = self.site.settle(self._edit.is_set)
            except Exception as error:  # never leave the site half made
                self.log(f"site-wide rebuild failed ({type(error).__name__}: {error}); full build")
                try:
                    outcome = self.site.build(f"after {type(error).__name__}")
                except Exception as again:
                    self.log(f"build failed: {type(again).__name__}: {again}")
                    return
            if outcome.left:
                return
            self.settled.set()
        self.log(
            f"site-wide files remade in {outcome.seconds:.2f} s: {outcome.jobs} job(s), "
            f"{len(outcome.written)} file(s) written, {outcome.removed} removed"
        )

    def wait_settled(self, timeout: float = 30.0) -> bool:
        """Wait until the site-wide files of the last edit are remade."""
        return self.settled.wait(timeout)

    def close(self) -> None:
        """Cancel a settle pass not yet started."""
        if self._timer is not None:
            self._timer.cancel()


def site_builder(
    root: Path,
    records: Path,
    site_dir: Path,
    log: Log = print,
    release_date: str | None = None,
) -> PreviewBuilder:
    """The builder `rewire serve` uses (`PreviewBuilder`)."""
    return PreviewBuilder(root, records, site_dir, log, release_date)


def serve_command(
    port: int = typer.Option(8000, "--port", help="Port on 127.0.0.1."),
    records: Path | None = typer.Option(
        None, "--records", help="Records folder (default: records/ of the project)."
    ),
    root: Path | None = typer.Option(
        None, "--root", help="Project root (default: found from the current folder)."
    ),
    poll: bool = typer.Option(False, "--poll", help="Poll modification times (no watchfiles)."),
) -> None:
    """Build the site, serve it on 127.0.0.1 and rebuild when a record or template changes."""
    project = (root or find_root()).resolve()
    records_dir = (records or project / RECORDS_DIR).resolve()
    site_dir = project / SITE_DIR
    watched = [records_dir, project / TEMPLATES_DIR]
    try:
        check_target(site_dir)  # never serve (or replace) a folder rewire did not build
        preview = Preview(
            site_dir,
            watched,
            site_builder(project, records_dir, site_dir, log=typer.echo),
            port,
            poll or None,
        )
    except (TargetRefused, PortUnavailable) as error:
        typer.echo(f"rewire serve: {error}", err=True)
        raise typer.Exit(1) from None
    if not preview.build() and not site_dir.is_dir():
        typer.echo("no site to serve: fix the problems above and run again", err=True)
        preview.server.server_close()
        raise typer.Exit(1)
    with interrupted_by(STOP_SIGNALS):
        preview.start()
        how = "polling" if preview.poll else "watchfiles"
        typer.echo(f"serving {site_dir} at {preview.url} ({how}); Ctrl-C stops")
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            typer.echo("stopping")
        finally:
            preview.stop()


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def interrupted_by(signals: Iterable[signal.Signals]) -> Iterator[None]:
    """While the block runs, each of `signals` raises KeyboardInterrupt in the main thread
    (the previous handlers are restored after it). Installed explicitly: a process that a
    non-interactive shell starts in the background inherits SIGINT ignored, and Python then
    never raises KeyboardInterrupt."""
    previous = {sig: signal.signal(sig, signal.default_int_handler) for sig in signals}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


__all__ = [
    "STOP_SIGNALS",
    "PortUnavailable",
    "Preview",
    "PreviewBuilder",
    "have_watchfiles",
    "interrupted_by",
    "listen",
    "poll_changes",
    "serve_command",
    "site_builder",
    "snapshot",
    "watchfiles_changes",
]
