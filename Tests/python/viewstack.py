"""The live UI for browser tests: every service on the demo scene behind a private proxy, uibus-view
on a free port, a bus listener, and Chromium (Debian's, through Playwright) on the page.

Nothing is downloaded: Playwright drives /usr/bin/chromium through `executable_path`.
"""

import contextlib
import json
import os
import queue
import re
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request

import msgpack
import pytest
import zmq

import busproc

SCENE = busproc.REPO / "deploy" / "scenes" / "demo.json"


def chromium_path():
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        pytest.skip("Chromium is not installed (Debian package `chromium`; deploy/uibus test installs it)")
    return path


@contextlib.contextmanager
def chromium():
    """Debian's Chromium launched through Playwright (skips the test without either), closed afterwards."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox"])
        yield launched
        launched.close()


class Listener:
    """A SUB socket on the bus, read on a thread: every (topic, schema, payload) seen, kept in order."""

    def __init__(self, endpoint, prefixes):
        self.context = zmq.Context()
        self.sub = self.context.socket(zmq.SUB)
        for prefix in prefixes:
            self.sub.setsockopt(zmq.SUBSCRIBE, prefix.encode())
        self.sub.connect(endpoint)
        self.messages = []
        self.lock = threading.RLock()  # re-entered by a wait_for predicate that reads seen()
        self.arrived = threading.Condition(self.lock)  # notified on every message kept
        self.stopping = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self.stopping:
            if not self.sub.poll(100):
                continue
            topic, header, payload = self.sub.recv_multipart()
            header = msgpack.unpackb(header, raw=False)
            try:
                body = msgpack.unpackb(payload, raw=False)
            except ValueError:
                body = None
            with self.arrived:
                self.messages.append((topic.decode(), header["schema"], body, header))
                self.arrived.notify_all()

    def seen(self, prefix):
        with self.lock:
            return [(t, s, b) for t, s, b, _ in self.messages if t.startswith(prefix)]

    def seen_with_headers(self, prefix):
        """Like seen(), each with its envelope (publisher, seq, mono and wall times) last."""
        with self.lock:
            return [m for m in self.messages if m[0].startswith(prefix)]

    def wait_for(self, prefix, predicate, timeout_s=20.0, what="", after=0):
        """The first payload on `prefix` (from its `after`-th on) for which `predicate` holds,
        waiting up to `timeout_s`."""
        deadline = time.monotonic() + timeout_s
        checked = 0  # messages of any topic already looked at
        with self.arrived:
            while True:
                matching = [m for m in self.messages[checked:] if m[0].startswith(prefix)]
                checked = len(self.messages)
                for _, _, body, _ in matching:
                    if after > 0:
                        after -= 1
                    elif body is not None and predicate(body):
                        return body
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                self.arrived.wait(remaining)
        last = [b for _, _, b in self.seen(prefix)][-3:]
        raise AssertionError(f"no message on {prefix} {what} within {timeout_s} s; last: {last}")

    def close(self):
        self.stopping = True
        self.thread.join()
        self.sub.close(linger=0)
        self.context.term()


class Stack:
    """proxy, memo-store, gesture-recognizer, component-host, render-worker and uibus-view.

    The listener watches the tiles the pages get (`render/tiles/`); `whole_frames` adds
    `render/image/`, which makes the render worker encode every frame whole as well, and
    `render_args` go to the render worker (`--image-encoding png` for exact pixels)."""

    def __init__(self, render_args=(), whole_frames=False, page=None):
        self.render_args = list(render_args)
        # uibus-view's --page (the page's files), when not the repository's deploy/view
        self.page = page
        self.whole_frames = whole_frames

    def __enter__(self):
        self.proxy = busproc.Proxy().__enter__()
        self.dir = tempfile.mkdtemp(prefix="uibus-view-")
        self.db = os.path.join(self.dir, "memo.sqlite")
        self.token_file = os.path.join(self.dir, "var", "view-token")
        self.procs = []
        prefixes = ["ui/", "touch/", "gesture/", "render/tiles/", "sys/"] + ["render/image/"] * self.whole_frames
        self.listener = Listener(self.proxy.subscribe, prefixes)
        try:
            bus = ["--bus", self.proxy.bus]
            scene = ["--scene", str(SCENE)]
            self.start("memo-store", *bus, "--db", self.db)
            self.start("gesture-recognizer", *bus, *scene)
            self.start("component-host", *bus, *scene)
            self.start("render-worker", *bus, *scene, "--fps", "60", *self.render_args)
            view = self.start(
                "uibus-view", *bus, *scene, "--listen", "127.0.0.1:0", "--token-file", self.token_file,
                *(["--page", str(self.page)] if self.page else []), ready=False
            )
            line = view.stdout.readline()
            match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            assert match, f"uibus-view did not say where it listens: {line!r}"
            self.port = int(match.group(1))
            self.wait_ready(view)
            with open(self.token_file) as f:
                self.token = f.read().strip()
            assert os.stat(self.token_file).st_mode & 0o777 == 0o600
            self.url = f"http://127.0.0.1:{self.port}/"
        except BaseException:
            self.__exit__()
            raise
        return self

    def start(self, name, *args, ready=True):
        proc = subprocess.Popen(
            [busproc.tool(name), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=busproc.REPO
        )
        proc.name = name
        self.procs.append(proc)
        if ready:
            self.wait_ready(proc)
        return proc

    @staticmethod
    def wait_ready(proc):
        line = proc.stdout.readline().strip()
        if line != "ready":
            proc.kill()
            raise RuntimeError(f"{proc.name} did not start: {line!r} {proc.stderr.read()}")

    def kill_memo_store(self):
        """kill -9 the memo store, as a crash would."""
        proc = next(p for p in self.procs if p.name == "memo-store" and p.poll() is None)
        proc.kill()
        proc.wait()

    def start_memo_store(self):
        """Starts a memo store on the same database (after kill_memo_store)."""
        return self.start("memo-store", "--bus", self.proxy.bus, "--db", self.db)

    def get(self, path):
        """(status, body) of a GET on the view."""
        try:
            with urllib.request.urlopen(self.url.rstrip("/") + path, timeout=10) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def export(self):
        """What `memo-store export --format text` prints for the running store's database."""
        result = subprocess.run(
            [busproc.tool("memo-store"), "export", "--db", self.db, "--format", "text"],
            check=True, capture_output=True, timeout=60,
        )
        return result.stdout.decode()

    def __exit__(self, *exc):
        for proc in reversed(self.procs):
            if proc.poll() is None:
                proc.terminate()
        for proc in reversed(self.procs):
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            proc.stdout.close()
            proc.stderr.close()
        if hasattr(self, "listener"):
            self.listener.close()
        self.proxy.__exit__()
        shutil.rmtree(self.dir, ignore_errors=True)


class Touch:
    """Touches on the page's canvas in scene points, sent through CDP's Input.dispatchTouchEvent."""

    def __init__(self, page):
        self.page = page
        self.cdp = page.context.new_cdp_session(page)

    def client(self, x, y):
        return self.page.evaluate("([x, y]) => window.uibus.clientPoint(x, y)", [x, y])

    def send(self, kind, points):
        touch_points = []
        for index, (x, y) in enumerate(points):
            cx, cy = self.client(x, y)
            touch_points.append({"x": cx, "y": cy, "id": index, "radiusX": 1, "radiusY": 1, "force": 1})
        self.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": touch_points})

    def drag(self, start, end, steps=20, interval_s=1 / 60, release=True):
        self.send("touchStart", [start])
        for step in range(1, steps + 1):
            time.sleep(interval_s)
            f = step / steps
            self.send("touchMove", [(start[0] + (end[0] - start[0]) * f, start[1] + (end[1] - start[1]) * f)])
        if release:
            self.send("touchEnd", [])

    def tap(self, point):
        self.send("touchStart", [point])
        self.send("touchEnd", [])

    def taps_until(self, points, reached, attempts=5):
        """Taps each of `points` in turn until `reached()` (which waits with its own deadline)
        returns true. The page stamps each touch when the browser delivers it, so on a loaded
        machine two taps can arrive further apart than the idiom allows (a double tap, the
        number pad's sequential interval) and count as unrelated taps; such a test is about what
        the taps produce, not about the machine's speed, so it taps again."""
        for attempt in range(attempts):
            for index, point in enumerate(points):
                if index:
                    time.sleep(0.05)  # distinct taps: the page coalesces a contact's events per 4 ms
                self.tap(point)
            if reached():
                return
        raise AssertionError(f"{len(points)} taps at {points} did not reach the expected state in {attempts} tries")

    def double_tap_until(self, point, expression, arg=None, attempts=5):
        """Double-taps `point` until `expression` holds on the page (see `taps_until`)."""
        from playwright.sync_api import TimeoutError as PageTimeout

        def reached():
            try:
                wait_until(self.page, expression, timeout_s=5.0, arg=arg)
                return True
            except PageTimeout:
                return False

        self.taps_until([point, point], reached, attempts)


def open_page(browser, stack, token=True):
    context = browser.new_context(has_touch=True, viewport={"width": 2300, "height": 1100})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    page.goto(stack.url + (f"?token={stack.token}" if token else ""))
    return page


def wait_until(page, expression, timeout_s=20.0, arg=None):
    page.wait_for_function(expression, arg=arg, timeout=timeout_s * 1000)
