"""Start the built UIBus executables from Python tests: a private bus-proxy and bus-tap runs."""

import json
import os
import pathlib
import shutil
import subprocess
import tempfile
import time

REPO = pathlib.Path(__file__).resolve().parents[2]
BIN = pathlib.Path(os.environ.get("UIBUS_BIN_DIR", REPO / ".build" / "debug"))


def tool(name):
    path = BIN / name
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: build first (swift build) or set UIBUS_BIN_DIR")
    return str(path)


class Proxy:
    """A bus-proxy on ipc endpoints in a temporary directory; use as a context manager.

    `preexec_fn` runs in the child before the proxy starts (to lower its open-file limit, say).
    """

    def __init__(self, preexec_fn=None):
        self.preexec_fn = preexec_fn

    def __enter__(self):
        self.dir = tempfile.mkdtemp(prefix="uibus-py-")
        self.bus = os.path.join(self.dir, "bus.json")
        with open(self.bus, "w") as f:
            json.dump({"publish": "ipc://in", "subscribe": "ipc://out"}, f)
        self.proc = subprocess.Popen(
            [tool("bus-proxy"), "--bus", self.bus],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=self.preexec_fn,
        )
        try:
            line = self.proc.stdout.readline().strip()
            if line != "ready":
                raise RuntimeError(f"bus-proxy did not start: {line!r} {self.proc.stderr.read()}")
            endpoints = json.loads(self.tap("endpoints").stdout)
            self.publish, self.subscribe = endpoints["publish"], endpoints["subscribe"]
        except BaseException:
            self.__exit__()
            raise
        return self

    def tap(self, *args, check=True):
        result = subprocess.run(
            [tool("bus-tap"), "--bus", self.bus, *args], capture_output=True, text=True, timeout=60, cwd=REPO
        )
        if check and result.returncode != 0:
            raise AssertionError(f"bus-tap {args[0]} failed ({result.returncode}): {result.stderr}")
        return result

    def __exit__(self, *exc):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for stream in (self.proc.stdout, self.proc.stderr):
            stream.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def finish(proc, timeout_s=20):
    """Waits for a child and returns its output; kills it if it overruns, so no test leaves one behind."""
    try:
        return proc.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise


def stop(proc, timeout_s=10):
    """Ends a child with SIGTERM, then SIGKILL if it overruns, and reaps it."""
    if proc.poll() is None:
        proc.terminate()
    try:
        proc.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def receive_on(sock, topic, timeout_s=10.0):
    """The next (header, payload) frames on exactly `topic`, skipping other topics."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if sock.poll(int(max(deadline - time.monotonic(), 0) * 1000) + 1):
            frames = sock.recv_multipart()
            if frames[0].decode() == topic:
                return frames
    raise TimeoutError(f"nothing on {topic} within {timeout_s} s")


def probe_until_heard(pub, proc, timeout_s):
    """Publishes small probes on `big/probe/` until `proc` prints `heard` (it has read one):
    from then on a test knows the subscription is in place."""
    os.set_blocking(proc.stdout.fileno(), False)
    deadline = time.monotonic() + timeout_s
    while proc.stdout.readline().strip() != "heard":
        assert time.monotonic() < deadline, f"the subscriber (pid {proc.pid}) heard nothing"
        pub.send_multipart([b"big/probe/", b"h", b"probe"])
        time.sleep(0.02)


def rss_bytes(pid):
    """A process's resident memory (VmRSS), in bytes."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")
