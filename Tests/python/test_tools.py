"""The command-line tools as a user meets them: flags, help, the bus found from anywhere, bus-tap's
patterns, filters and recordings, bus-flood's refusals. Every test runs the built executables."""

import json
import os
import re
import subprocess
import tempfile
import time

import pytest

import busproc

TOOLS = ["bus-proxy", "bus-tap", "bus-flood", "input-source", "gesture-recognizer", "component-host",
         "render-worker", "memo-store", "uibus-supervisor", "uibus-faults", "uibus-fuzz", "uibus-report", "uibus-view"]
FRAME = {"device": "d0", "frame": 1, "t_ns": 5, "contacts": [{"id": 0, "phase": "began", "x": 1.5, "y": 2}]}


def run(*args, timeout=60, **kwargs):
    return subprocess.run([busproc.tool(args[0]), *args[1:]], capture_output=True, text=True, timeout=timeout,
                          **kwargs)


def start(*args, **kwargs):
    return subprocess.Popen([busproc.tool(args[0]), *args[1:]], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, **kwargs)


def start_service(proxy, name, *args):
    proc = start(name, "--bus", proxy.bus, *args, cwd=busproc.REPO)
    line = proc.stdout.readline().strip()
    if line != "ready":
        proc.kill()
        raise AssertionError(f"{name} did not start: {line!r} {proc.stderr.read()}")
    return proc


def stop(proc):
    proc.terminate()
    busproc.finish(proc)


def echo(proxy, *args):
    """A `bus-tap echo` that has subscribed (its subscription reached the proxy) when this returns."""
    proc = start("bus-tap", "--bus", proxy.bus, "echo", *args)
    # `list` sees the proxy's own health only once a second; a pub with --wait-ms waits for the echo instead.
    return proc


def wait_subscribed(proxy, prefix, timeout_s=30):
    """Waits until the proxy forwards `prefix` as a subscription (someone started listening to it)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        # Asked about a level below, so that this query's own subscription is never the one found.
        info = json.loads(proxy.tap("info", prefix + "x/", "--json", "--duration", "0.1").stdout)
        if prefix in info["subscriptions"]:
            return
    raise TimeoutError(f"nobody subscribed to {prefix} within {timeout_s} s")


def pub(proxy, topic, schema, payload, *args):
    return proxy.tap("pub", topic, "--schema", schema, json.dumps(payload), "--wait-ms", "10000", *args)


@pytest.fixture(scope="module")
def proxy():
    with busproc.Proxy() as proxy:
        yield proxy


# Flags the same everywhere

@pytest.mark.parametrize("tool", TOOLS)
def test_every_tool_answers_version(tool):
    result = run(tool, "--version")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().startswith(f"{tool} ") and result.stdout.strip().split()[1][0].isdigit()


@pytest.mark.parametrize("command,suggestion", [
    (["bus-tap", "echo", "touch/", "--jsno"], "--json"),
    (["bus-flood", "touch", "--rate", "10", "--duraton", "1"], "--duration"),
    (["input-source", "run", "--scenario", "tap", "--nmae", "sc"], "--name"),
    (["gesture-recognizer", "replay", "--touchs", "x.jsonl"], "--touches"),
    (["memo-store", "export", "--formt", "md"], "--format"),
    (["render-worker", "render", "--scnee", "s.json", "out.png"], "--scene"),
])
def test_a_typo_is_a_usage_error_that_suggests_the_option_meant(command, suggestion):
    result = run(*command)
    assert result.returncode == 64, result.stderr
    assert f"(did you mean {suggestion}?)" in result.stderr, result.stderr


def test_a_verbs_help_shows_that_verb_and_its_options():
    result = run("bus-tap", "echo", "--help")
    assert result.returncode == 0 and result.stderr == ""
    assert "echo [PATTERN]" in result.stdout and "--filter EXPR" in result.stdout and "--latest" in result.stdout
    assert "replay" not in result.stdout and "record" not in result.stdout


def test_an_unknown_schema_id_lists_the_known_ones_and_the_nearest():
    result = run("bus-tap", "pub", "touch/d0/", "--schema", "touch.frme", json.dumps(FRAME))
    assert result.returncode == 1
    assert "no schema touch.frme v1 (did you mean touch.frame?)" in result.stderr
    assert "gesture.event" in result.stderr and "memo.command" in result.stderr


def test_schema_prints_the_json_schema_and_an_example():
    result = run("bus-tap", "schema", "touch.frame")
    assert result.returncode == 0, result.stderr
    schema_text, example_text = result.stdout.split("\n# example (")
    assert json.loads(schema_text)["title"]
    assert "device" in json.loads(example_text.split(":\n", 1)[1])
    listing = run("bus-tap", "schema")
    assert any(line.split() == ["touch.frame", "v1", "touch/<device>/"] for line in listing.stdout.splitlines())


# The bus found from anywhere

def test_tools_find_the_checkouts_bus_from_another_directory():
    env = {k: v for k, v in os.environ.items() if k != "UIBUS_BUS"}
    result = run("bus-tap", "endpoints", cwd=tempfile.gettempdir(), env=env)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["publish"] == f"ipc://{busproc.REPO}/var/run/bus-in"
    env["UIBUS_BUS"] = "/nonexistent/bus.json"
    assert "/nonexistent/bus.json" in run("bus-tap", "endpoints", cwd="/", env=env).stderr


@pytest.mark.parametrize("verb", [["list"], ["echo", "touch/"], ["hz", "touch/"], ["info", "touch/"],
                                  ["record", "x.mcap"], ["pub", "touch/d0/", "--schema", "touch.frame",
                                                         json.dumps(FRAME)]])
def test_with_no_proxy_every_verb_says_so_at_once_and_fails(verb, tmp_path):
    bus = tmp_path / "bus.json"
    bus.write_text(json.dumps({"publish": "ipc://in", "subscribe": "ipc://out"}))
    began = time.monotonic()
    result = run("bus-tap", "--bus", str(bus), *verb, cwd=tmp_path, timeout=10)
    assert result.returncode == 1 and "no bus proxy reachable at ipc://" in result.stderr, result.stderr
    assert time.monotonic() - began < 5, "it should not wait for a proxy that is not there"
    assert not (tmp_path / "x.mcap").exists()


# bus-tap

def test_echo_exits_quietly_when_its_reader_closes_the_pipe(proxy):
    proc = echo(proxy, "pipe/")
    pub(proxy, "pipe/a/", "lifecycle", {"service": "t", "event": "started", "epoch": 1, "pid": 1})
    assert proc.stdout.readline().startswith("pipe/a/")
    proc.stdout.close()  # `| head -1`: the reader goes away while nothing more arrives
    assert proc.wait(timeout=10) == 0
    assert proc.stderr.read() == ""


def test_wildcards_match_one_level_or_any_depth(proxy):
    one = echo(proxy, "wild/*/tap/", "--json", "--duration", "20", "--count", "1")
    deep = echo(proxy, "**/tap/", "--json", "--count", "2")
    # Both must listen before anything is sent: their subscriptions are "wild/" and "".
    wait_subscribed(proxy, "wild/")
    wait_subscribed(proxy, "")
    for topic in ["wild/a/b/tap/", "wild/a/tap/"]:
        pub(proxy, topic, "lifecycle", {"service": topic, "event": "started", "epoch": 1, "pid": 1})
    out, err = busproc.finish(one)
    assert one.returncode == 0, err
    assert [json.loads(line)["topic"] for line in out.splitlines()] == ["wild/a/tap/"]
    out, _ = busproc.finish(deep)
    assert [json.loads(line)["topic"] for line in out.splitlines()] == ["wild/a/b/tap/", "wild/a/tap/"]


def test_field_and_filter_pick_what_is_printed(proxy):
    proc = echo(proxy, "flt/", "--filter", 'event == "stopped" and pid > 10', "--field", "pid", "--once")
    for event, pid in [("started", 50), ("stopped", 5), ("stopped", 42)]:
        pub(proxy, "flt/x/", "lifecycle", {"service": "s", "event": event, "epoch": 1, "pid": pid})
    out, err = busproc.finish(proc)
    assert proc.returncode == 0, err
    assert out == "42\n"
    bad = run("bus-tap", "echo", "flt/", "--filter", "pid >")
    assert bad.returncode == 1 and "expected a value" in bad.stderr


def test_latest_prints_one_message_per_topic_then_exits(proxy):
    feeders = [start("bus-tap", "--bus", proxy.bus, "pub", f"last/{name}/", "--schema", "lifecycle",
                     json.dumps({"service": name, "event": "started", "epoch": 1, "pid": 1}),
                     "--rate", "20", "--count", "200") for name in ["a", "b"]]
    try:
        result = proxy.tap("echo", "last/", "--latest", "--json", "--duration", "3")
    finally:
        for feeder in feeders:
            stop(feeder)
    topics = [json.loads(line)["topic"] for line in result.stdout.splitlines()]
    assert sorted(topics) == ["last/a/", "last/b/"]
    empty = proxy.tap("echo", "nothing-here/", "--latest", "--duration", "0.5", check=False)
    assert empty.returncode == 1 and "no value on nothing-here/" in empty.stderr


def test_latest_on_an_idle_stack_prints_the_last_state_at_once(proxy):
    example = json.loads((busproc.REPO / "schemas/state.drawer/examples/open.json").read_text())
    proxy.tap("pub", "ui/drawer/idle/", "--schema", "state.drawer", json.dumps(example), "--wait-ms", "500")
    # The publisher is gone and nothing changes: only the proxy still has the value.
    result = proxy.tap("echo", "ui/drawer/idle/", "--latest", "--json", check=False)
    assert result.returncode == 0, result.stderr
    assert [json.loads(line)["payload"] for line in result.stdout.splitlines()] == [example]


def test_pub_refuses_a_schema_the_topic_does_not_carry_and_reads_stdin_or_a_file(proxy, tmp_path):
    wrong = run("bus-tap", "pub", "touch/d0/", "--schema", "gesture.event", "--file", "-",
                input=open(busproc.REPO / "schemas/gesture.event/examples" /
                           sorted(os.listdir(busproc.REPO / "schemas/gesture.event/examples"))[0]).read())
    assert wrong.returncode == 1 and "touch/d0/ carries touch.frame, not gesture.event" in wrong.stderr
    proc = echo(proxy, "touch/stdin/", "--json", "--count", "2")
    frame = dict(FRAME, device="stdin")
    path = tmp_path / "frame.json"
    path.write_text(json.dumps(frame))
    proxy.tap("pub", "touch/stdin/", "--schema", "touch.frame", "--file", str(path), "--wait-ms", "10000")
    subprocess.run([busproc.tool("bus-tap"), "--bus", proxy.bus, "pub", "touch/stdin/", "--schema", "touch.frame", "-"],
                   input=json.dumps(frame), text=True, check=True, timeout=60)
    out, _ = busproc.finish(proc)
    assert [json.loads(line)["payload"] for line in out.splitlines()] == [frame, frame]


def test_info_names_the_schema_publishers_rate_and_subscriptions_of_a_topic(proxy):
    listener = echo(proxy, "touch/info/", "--duration", "30")
    feeder = start("bus-tap", "--bus", proxy.bus, "pub", "touch/info/", "--schema", "touch.frame",
                   json.dumps(dict(FRAME, device="info")), "--rate", "20", "--count", "200", "--wait-ms", "10000")
    try:
        result = proxy.tap("info", "touch/info/", "--json", "--duration", "1")
    finally:
        stop(feeder)
        stop(listener)
    info = json.loads(result.stdout)
    assert info["expected_schemas"] == ["touch.frame"]
    assert "touch/info/" in info["subscriptions"]
    [topic] = info["topics"]
    assert topic["topic"] == "touch/info/" and topic["schema"] == "touch.frame v1.0"
    assert topic["publishers"] == ["bus-tap"] and topic["rate_per_s"] > 0


def settle_subscribers(health, prefix, want, timeout_s=30):
    """Reads the proxy's health (a `bus-tap echo sys/health/bus-proxy/ --json`) until `want`
    subscriptions hold `prefix` and none a longer prefix under it."""
    deadline = time.monotonic() + timeout_s
    counts = None
    while time.monotonic() < deadline:
        counts = json.loads(health.stdout.readline())["payload"].get("subscribers", {})
        if counts.get(prefix, 0) == want and not any(p.startswith(prefix) and p != prefix for p in counts):
            return
    raise TimeoutError(f"{prefix} never had {want} subscribers: {counts}")


def test_info_counts_the_subscribers_the_proxy_sees_join_and_leave(proxy):
    health = echo(proxy, "sys/health/bus-proxy/", "--json")
    listeners = [echo(proxy, "subs/")]
    try:
        settle_subscribers(health, "subs/", 1)
        listeners.append(echo(proxy, "subs/"))
        settle_subscribers(health, "subs/", 2)
        info = json.loads(proxy.tap("info", "subs/a/", "--json", "--duration", "0.2").stdout)
        assert info["subscribers"] == 2 and info["subscribers_by_prefix"] == {"subs/": 2}, info
        stop(listeners.pop())
        # Also waits for the query's own subscription to subs/a/ to have gone.
        settle_subscribers(health, "subs/", 1)
        text = proxy.tap("info", "subs/a/", "--duration", "0.2").stdout
        assert "subscribers seen by the proxy: 1 (by prefix: 'subs/' 1)" in text, text
    finally:
        for proc in listeners + [health]:
            stop(proc)


def test_hz_prints_times_in_human_units(proxy):
    feeder = start("bus-tap", "--bus", proxy.bus, "pub", "hz/a/", "--schema", "lifecycle",
                   json.dumps({"service": "a", "event": "started", "epoch": 1, "pid": 1}), "--rate", "50",
                   "--count", "100")
    try:
        result = proxy.tap("hz", "hz/", "--count", "20")
    finally:
        stop(feeder)
    line = result.stdout.strip().splitlines()[-1]
    unit = r"[\d.]+ (µs|ms|s)"
    assert re.search(f"min: {unit}  max: {unit}  std dev: {unit}  .*latency p50: {unit}  p99: {unit}$", line), line


# Recordings

def test_a_recording_is_indexed_with_statistics_and_one_channel_per_topic_and_schema(proxy, tmp_path):
    from mcap.reader import make_reader

    out = tmp_path / "session.mcap"
    record = start("bus-tap", "--bus", proxy.bus, "record", str(out), "rec/", "--count", "5")
    for index in range(3):
        pub(proxy, "rec/a/", "lifecycle", {"service": "a", "event": "started", "epoch": 1, "pid": index + 1})
    pub(proxy, "rec/b/", "lifecycle", {"service": "b", "event": "started", "epoch": 1, "pid": 9}, "--count", "2")
    _, err = busproc.finish(record)
    assert record.returncode == 0, err
    with open(out, "rb") as f:
        reader = make_reader(f)
        summary = reader.get_summary()
        assert summary is not None, "no summary section"
        assert summary.statistics.message_count == 5
        assert len(summary.chunk_indexes) >= 1
        # zstd by default: the reader decompresses through `zstandard`.
        assert {index.compression for index in summary.chunk_indexes} == {"zstd"}
        topics = {c.id: c.topic for c in summary.channels.values()}
        # Three publisher processes on rec/a/, yet one channel for (rec/a/, lifecycle).
        assert sorted(topics.values()) == ["rec/a/", "rec/b/"]
        counts = {topics[cid]: n for cid, n in summary.statistics.channel_message_counts.items()}
        assert counts == {"rec/a/": 3, "rec/b/": 2}
        assert [json.loads(m.data)["pid"] for _, _, m in reader.iter_messages(topics=["rec/a/"])] == [1, 2, 3]
    refused = proxy.tap("record", str(out), "rec/", "--count", "1", check=False)
    assert refused.returncode == 1 and "exists; give --force" in refused.stderr
    unknown = proxy.tap("record", str(out), "rec/", "--force", "--compression", "lz4", check=False)
    assert unknown.returncode == 64 and "--compression takes zstd or none, not lz4" in unknown.stderr
    info = proxy.tap("info", str(out))
    assert "messages:  5" in info.stdout and "indexed, with statistics" in info.stdout
    assert "rec/a/  3 msgs  lifecycle v1.0" in info.stdout and "rec/b/  2 msgs" in info.stdout


def test_a_recorded_swipe_replayed_three_times_is_three_swipes(proxy, tmp_path):
    recognizer = start_service(proxy, "gesture-recognizer")
    try:
        out = tmp_path / "swipe.mcap"
        script = tmp_path / "swipe.jsonl"
        script.write_text(run("input-source", "scenario", "swipe-left").stdout)  # on device d0
        frames = len(run("input-source", "convert", str(script)).stdout.splitlines())
        # The recorder stops by itself once it has every frame (a signal could overtake frames in flight).
        record = start("bus-tap", "--bus", proxy.bus, "record", str(out), "touch/sw/", "--count", str(frames))
        # The recognizer's touch/ lets the source start at once: the recorder must be listening first.
        wait_subscribed(proxy, "touch/sw/")
        # --name renames the script's device: the frames go out as device sw, on touch/sw/.
        source = start("input-source", "--bus", proxy.bus, "run", "--script", str(script), "--name", "sw",
                       "--pace", "max")
        busproc.finish(source, timeout_s=60)
        assert source.returncode == 0, source.stderr.read()
        _, err = busproc.finish(record)
        assert record.returncode == 0, err
        swipes = echo(proxy, "gesture/sw/**", "--filter", 'state == "recognized" and recognizer == "swipe"',
                      "--json", "--count", "3", "--duration", "20")
        wait_subscribed(proxy, "gesture/sw/")
        for _ in range(3):
            replay = proxy.tap("replay", str(out), "--speed", "0")
            assert replay.stdout.startswith("replayed ") and "device sw: frames renumbered" in replay.stdout
        lines, err = busproc.finish(swipes, timeout_s=70)
        assert len(lines.splitlines()) == 3, err + proxy.tap("info", str(out)).stdout
    finally:
        stop(recognizer)


# Silent no-ops that now say no

def test_offline_tools_refuse_input_they_cannot_use(tmp_path):
    desc = busproc.REPO / "Tests/data/evemu/EP0430M09.desc"
    replay = run("gesture-recognizer", "replay", "--touches", str(desc))
    assert replay.returncode != 0 and "no touch frame in it" in replay.stderr
    assert len(replay.stderr.splitlines()) <= 12
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"instance": "nosuch", "open": True}))
    scene = busproc.REPO / "deploy/scenes/demo.json"
    bad = run("render-worker", "render", "--scene", str(scene), "--state", str(state), str(tmp_path / "o.png"))
    assert bad.returncode != 0 and "'nosuch', which the scene does not have" in bad.stderr
    state.write_text(json.dumps({"instance": "drawer1", "t_ms": 0, "opne": True}))
    typo = run("render-worker", "render", "--scene", str(scene), "--state", str(state), str(tmp_path / "o.png"))
    assert typo.returncode != 0 and "unknown field 'opne' for a drawer (did you mean 'open'?)" in typo.stderr
    assert not (tmp_path / "o.png").exists()


# Supervisor

def test_a_second_up_says_so_at_once_without_building():
    """`deploy/uibus up` while a supervisor holds the checkout's lock answers before installing or building."""
    import fcntl

    run_dir = busproc.REPO / "var/run"
    made_dir = not run_dir.exists()
    run_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    lock_path = run_dir / "supervisor.lock"
    made_lock = not lock_path.exists()
    with open(lock_path, "a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pass  # a stack of this checkout is up: its supervisor holds the lock, as this test would
        try:
            began = time.monotonic()
            result = subprocess.run([busproc.REPO / "deploy/uibus", "up"], capture_output=True, text=True,
                                    timeout=60, cwd=tempfile.gettempdir())
            elapsed = time.monotonic() - began
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
            if made_lock:
                lock_path.unlink()
            if made_dir:
                run_dir.rmdir()
    assert result.returncode != 0 and "already up (deploy/uibus status, deploy/uibus down)" in result.stderr, \
        result.stderr
    assert "Compiling" not in result.stdout + result.stderr and elapsed < 10, "it should answer before building"


# bus-flood

def test_bus_flood_refuses_a_pipeline_that_is_not_there(proxy):
    result = run("bus-flood", "--bus", proxy.bus, "touch", "--rate", "max", "--duration", "0.5", timeout=60)
    assert result.returncode == 1
    assert "no health report from gesture-recognizer or component-host" in result.stderr


def test_bus_flood_without_the_component_host_fails_with_the_reason(proxy):
    recognizer = start_service(proxy, "gesture-recognizer")
    try:
        result = run("bus-flood", "--bus", proxy.bus, "touch", "--rate", "200", "--duration", "0.5", timeout=60)
    finally:
        stop(recognizer)
    assert result.returncode == 1
    assert "component-host" in result.stderr
