"""A burst of raw ipc connections past the proxy's descriptor limit (issue 20, point 6).

libzmq's ipc listener aborts the process when `accept` fails with EMFILE, so the proxy's cap
must refuse connections early enough that a burst never reaches the limit. Real bus-proxy,
real unix sockets: 2 000 connections on each endpoint against 3 000 descriptors (an uncapped
proxy aborts).
"""

import resource
import socket
import time

import msgpack
import zmq

import busproc

PROXY_DESCRIPTORS = 3000
PER_ENDPOINT = 2000


def few_descriptors():
    resource.setrlimit(resource.RLIMIT_NOFILE, (PROXY_DESCRIPTORS, PROXY_DESCRIPTORS))


def health(sub, timeout_s=10.0):
    frames = busproc.receive_on(sub, "sys/health/bus-proxy/", timeout_s)
    return msgpack.unpackb(frames[2], raw=False)["extra"]


def hears(pub, sub, topic, timeout_s=10.0):
    """Publishes on `topic` until `sub` hears it (health reports in between are skipped)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        pub.send_multipart([topic, b"h", b"probe"])
        while sub.poll(20):
            if sub.recv_multipart()[0] == topic:
                return True
    return False


def connect_raw(path, timeout_s=5.0):
    """A unix socket connected to `path`, retried while the listener's backlog is full; None if
    it stays full for `timeout_s`."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.setblocking(False)
        try:
            s.connect(path)
            return s
        except BlockingIOError:
            s.close()
            time.sleep(0.001)  # the backlog drains as the proxy accepts; poll it
    return None


def test_a_burst_of_raw_ipc_connections_is_refused_by_the_cap_and_the_proxy_keeps_forwarding():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    assert hard >= 2 * PER_ENDPOINT + 256, f"the test itself needs descriptors (hard limit {hard})"
    context = zmq.Context()
    context.setsockopt(zmq.LINGER, 0)
    raw = []
    try:
        with busproc.Proxy(preexec_fn=few_descriptors) as proxy:
            sub = context.socket(zmq.SUB)
            sub.setsockopt(zmq.SUBSCRIBE, b"t/")
            sub.setsockopt(zmq.SUBSCRIBE, b"sys/health/bus-proxy/")
            sub.connect(proxy.subscribe)
            pub = context.socket(zmq.PUB)
            pub.connect(proxy.publish)
            assert hears(pub, sub, b"t/before/")

            for endpoint in (proxy.subscribe, proxy.publish):
                path = endpoint.removeprefix("ipc://")
                for _ in range(PER_ENDPOINT):
                    s = connect_raw(path)
                    if s is not None:
                        raw.append(s)
            # Most get in: the proxy accepts them and then refuses those past its cap.
            assert len(raw) > PER_ENDPOINT, len(raw)
            assert proxy.proc.poll() is None, proxy.proc.stderr.read()

            deadline = time.monotonic() + 30
            while True:
                assert proxy.proc.poll() is None, proxy.proc.stderr.read()
                extra = health(sub)
                if extra["connections_refused"] > 0:
                    break
                assert time.monotonic() < deadline, extra
            assert extra["connections_subscribers"] <= extra["connections_limit"], extra
            assert hears(pub, sub, b"t/during/"), "a member stopped hearing during the burst"

            for s in raw:
                s.close()
            raw.clear()
            assert hears(pub, sub, b"t/after/")
            assert proxy.proc.poll() is None
    finally:
        for s in raw:
            s.close()
        context.destroy(linger=0)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
