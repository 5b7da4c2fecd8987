"""Two hosts in network namespaces, joined by a veth pair, with CURVE on the bus.

Host A has the input (input-source playing pans on two devices) and a client that creates memos
and watches gestures; host B has the proxy, two gesture recognizers sharded by device prefix
and the memo store. Gestures and memos must cross with no loss (sequence gaps 0), each device
must be recognized by exactly one recognizer, and a client whose key is not on the allow-list
gets nothing. Needs root and `ip netns` (iproute2); namespaces are removed even on failure.
"""

import json
import os
import subprocess
import sys

import pytest

import busproc

PANS = 4
MEMOS = 12
DEVICES = ("a0", "b0")
ADDRESS_A, ADDRESS_B = "10.231.0.1", "10.231.0.2"


def ip(*args, check=True):
    return subprocess.run(["ip", *args], capture_output=True, text=True, check=check)


@pytest.fixture
def hosts():
    """Two namespaces, lo up in each, a veth pair between them; removed afterwards whatever happens."""
    if os.geteuid() != 0:
        pytest.skip("network namespaces need root")
    suffix = str(os.getpid() % 100000)
    names = (f"uibus-a-{suffix}", f"uibus-b-{suffix}")
    try:
        ip("netns", "add", names[0])
    except (FileNotFoundError, subprocess.CalledProcessError) as error:
        pytest.skip(f"ip netns is not available here: {getattr(error, 'stderr', error)}")
    try:
        ip("netns", "add", names[1])
        ip("link", "add", f"ua{suffix}", "type", "veth", "peer", "name", f"ub{suffix}")
        for name, link, address in zip(names, (f"ua{suffix}", f"ub{suffix}"), (ADDRESS_A, ADDRESS_B)):
            ip("link", "set", link, "netns", name)
            ip("-n", name, "link", "set", "lo", "up")
            ip("-n", name, "address", "add", f"{address}/24", "dev", link)
            ip("-n", name, "link", "set", link, "up")
        yield names
    finally:
        # Deleting a namespace deletes the veth end in it, and the pair goes with it; a pair that
        # never moved is still here.
        for name in names:
            ip("netns", "delete", name, check=False)
        ip("link", "delete", f"ua{suffix}", check=False)


def write_bus(directory, name, client_secret, server=False):
    curve = {"server_public_file": "keys/server.public", "client_secret_file": client_secret}
    if server:
        curve.update({"server_secret_file": "keys/server.secret", "allow_file": "keys/allowed_clients"})
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        json.dump({"publish": f"tcp://{ADDRESS_B}:7101", "subscribe": f"tcp://{ADDRESS_B}:7102", "curve": curve}, f)
    return path


def write_script(directory):
    """PANS long pans on each device, the devices interleaved, 200 ms apart."""
    lines = []
    for index in range(PANS):
        for offset, device in enumerate(DEVICES):
            start = index * 400 + offset * 200
            for step in range(11):
                phase = "began" if step == 0 else "ended" if step == 10 else "moved"
                lines.append({"t_ms": start + step * 10, "device": device, "id": 0, "phase": phase,
                              "x": 100 + step * 15, "y": 300})
    path = os.path.join(directory, "pans.jsonl")
    with open(path, "w") as f:
        f.writelines(json.dumps(line) + "\n" for line in sorted(lines, key=lambda line: line["t_ms"]))
    return path


class Host:
    """Starts processes inside one namespace and stops every one of them."""

    def __init__(self, namespace, directory):
        self.namespace, self.directory, self.procs = namespace, directory, []

    def start(self, *command, ready=True):
        proc = subprocess.Popen(["ip", "netns", "exec", self.namespace, *command], stdout=subprocess.PIPE,
                                stderr=open(os.path.join(self.directory, f"{len(self.procs)}.err"), "w"), text=True,
                                cwd=busproc.REPO)
        self.procs.append(proc)
        if ready:
            line = proc.stdout.readline().strip()
            assert line == "ready", f"{command[0]} did not start ({line!r}): {self.stderr(proc)}"
        return proc

    def stderr(self, proc):
        with open(os.path.join(self.directory, f"{self.procs.index(proc)}.err")) as f:
            return f.read()

    def stop(self):
        for proc in reversed(self.procs):
            busproc.stop(proc)
            proc.stdout.close()


def gaps(streams, prefix):
    """Messages missing from streams under `prefix`, counted from seq 1 (we listened before the first)."""
    missing = 0
    for stream, seqs in streams.items():
        if stream.split("|")[2].startswith(prefix):
            assert seqs == sorted(set(seqs)), f"duplicates or reorders in {stream}: {seqs}"
            missing += max(seqs) - len(seqs)
    return missing


def test_gestures_and_memos_cross_two_hosts_with_curve_sharded_recognizers_and_no_loss(hosts, tmp_path):
    directory = str(tmp_path)
    subprocess.run([busproc.tool("bus-proxy"), "keys", "--dir", os.path.join(directory, "keys"), "host-a", "host-b"],
                   check=True, capture_output=True)
    # A stranger: a key pair of its own, not on the allow-list.
    subprocess.run([busproc.tool("bus-proxy"), "keys", "--dir", os.path.join(directory, "stranger-keys"), "stranger"],
                   check=True, capture_output=True)
    bus_a = write_bus(directory, "bus-a.json", "keys/host-a.secret")
    bus_b = write_bus(directory, "bus-b.json", "keys/host-b.secret", server=True)
    bus_stranger = write_bus(directory, "bus-stranger.json", "stranger-keys/stranger.secret")
    script = write_script(directory)
    db = os.path.join(directory, "memo.sqlite")
    host_a, host_b = Host(hosts[0], directory), Host(hosts[1], directory)
    try:
        host_b.start(busproc.tool("bus-proxy"), "--bus", bus_b)
        host_b.start(busproc.tool("memo-store"), "--bus", bus_b, "--db", db)
        for prefix in ("a", "b"):
            host_b.start(busproc.tool("gesture-recognizer"), "--bus", bus_b, "--device-prefixes", prefix)

        client = host_a.start(sys.executable, os.path.join(busproc.REPO, "Tests/python/netclient.py"), bus_a,
                              str(MEMOS), str(PANS), *DEVICES, ready=False)
        assert client.stdout.readline().strip() == "listening", host_a.stderr(client)
        stranger = host_a.start(busproc.tool("bus-tap"), "--bus", bus_stranger, "echo", "", "--json",
                                "--duration", "3", ready=False)
        source = host_a.start(busproc.tool("input-source"), "--bus", bus_a, "run", "--script", script,
                              "--width", "390", "--height", "844", "--subscriber-wait-ms", "30000", ready=False)
        assert source.wait(timeout=60) == 0, host_a.stderr(source)
        summary = json.loads(client.stdout.readline())
        assert client.wait(timeout=30) == 0, host_a.stderr(client)
        heard_by_stranger = stranger.communicate(timeout=30)[0]
        health = subprocess.run(["ip", "netns", "exec", hosts[1], busproc.tool("bus-tap"), "--bus", bus_b, "echo",
                                 "sys/health/bus-proxy/", "--count", "1", "--json"],
                                capture_output=True, text=True, timeout=30, check=True)
    finally:
        host_a.stop()
        host_b.stop()

    assert heard_by_stranger == "", "a client off the allow-list received messages"
    denied = json.loads(health.stdout)["payload"]["extra"]
    assert denied["zap_denied"] >= 1 and denied["zap_accepted"] >= 8, denied

    assert sorted(ack["cmd_id"] for ack in summary["acks"]) == sorted(f"two-hosts:{i}" for i in range(MEMOS))
    assert {ack["status"] for ack in summary["acks"]} == {"ok"}, summary["acks"]
    assert gaps(summary["streams"], "gesture/") == 0
    assert gaps(summary["streams"], "memo/ack/") == 0
    for device in DEVICES:
        events = [g for g in summary["gestures"] if g["device"] == device]
        assert sum(1 for g in events if g["recognizer"] == "pan" and g["state"] == "ended") == PANS, device
        # Sharding: one recognizer (one epoch) per device, a different one for each device.
        assert len({g["epoch"] for g in events}) == 1, f"{device} recognized by more than one recognizer"
    assert len({g["epoch"] for g in summary["gestures"]}) == len(DEVICES)

    exported = subprocess.run([busproc.tool("memo-store"), "export", "--db", db, "--format", "text"],
                              capture_output=True, text=True, check=True).stdout
    assert all(f"二台目から {i}" in exported for i in range(MEMOS))
