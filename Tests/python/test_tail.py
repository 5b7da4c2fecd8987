"""benchmarks/pipeline/tail.py's reading of a scheduler trace: each episode of slow frames is put
down to what ran on the cores while it lasted (the measurement itself needs perf and is a
benchmark, not a test)."""

import importlib.util
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
SPEC = importlib.util.spec_from_file_location("tail", ROOT / "benchmarks" / "pipeline" / "tail.py")
tail = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(tail)


def switch(cpu, at, prev, nxt, prev_pid=1, next_pid=2):
    return (f"[{cpu:03}] {at:.6f}: sched:sched_switch: prev_comm={prev} prev_pid={prev_pid} prev_prio=120 "
            f"prev_state=S ==> next_comm={nxt} next_pid={next_pid} next_prio=120")


# Core 0: the recognizer, then kdamond for 1.5 ms, then the proxy. Core 1: idle for 2 ms, then
# the flood's I/O thread for 1.2 ms straight, then the host.
TRACE = "\n".join([
    switch(0, 10.000000, "swapper/0", "gesture-recogni"),
    switch(0, 10.000100, "gesture-recogni", "kdamond.0"),
    switch(0, 10.001600, "kdamond.0", "bus-proxy"),
    switch(0, 10.001700, "bus-proxy", "swapper/0"),
    switch(1, 10.000000, "component-host", "swapper/1"),
    switch(1, 10.002000, "swapper/1", "ZMQbg/IO/0"),
    switch(1, 10.003200, "ZMQbg/IO/0", "component-host"),
    switch(1, 10.003300, "component-host", "swapper/1"),
    "a line that is not a switch",
])


def test_a_trace_becomes_each_cores_runs_in_order():
    runs = tail.parse_switches(TRACE)
    assert [comm for _, _, comm in runs[0]] == ["gesture-recogni", "kdamond.0", "bus-proxy"]
    assert [comm for _, _, comm in runs[1]] == ["swapper/1", "ZMQbg/IO/0", "component-host"]
    start, end, _ = runs[0][1]
    assert abs((end - start) - 1.5e-3) < 1e-9


def test_slow_frames_less_than_two_ms_apart_are_one_episode():
    frames = [(1.0, 1.0002, 1.0004), (2.0, 2.0005, 2.0012), (2.0001, 2.0006, 2.0013), (2.01, 2.011, 2.0115)]
    groups = tail.episodes(frames, slow_s=1e-3)
    assert [len(group) for group in groups] == [2, 1]


def test_another_task_on_a_core_comes_first():
    runs = tail.parse_switches(TRACE)
    assert tail.cause(runs, [(10.0, 10.0005, 10.0019)], other_s=0.2e-3, held_s=0.5e-3, idle_s=0.3e-3) == "kdamond.N"


def test_a_pipeline_thread_running_for_a_millisecond_points_at_the_host():
    runs = tail.parse_switches(TRACE)
    assert tail.cause(runs, [(10.0021, 10.0025, 10.0031)], other_s=0.2e-3, held_s=0.5e-3, idle_s=0.3e-3).startswith(
        "a pipeline thread held a core")


def test_an_idle_core_while_the_frame_waits_is_a_slow_wake_up():
    runs = tail.parse_switches(TRACE)
    window = [(10.0017, 10.0018, 10.0019)]
    assert tail.cause(runs, window, other_s=0.2e-3, held_s=0.5e-3, idle_s=0.1e-3).startswith("a core idle")
    assert tail.cause(runs, window, other_s=0.2e-3, held_s=0.5e-3, idle_s=1e-3) == "none of these"


def test_idle_counts_as_one_stretch_not_a_sum():
    # Core 1 idles 0.15 ms twice in the window: no single stretch reaches 0.2 ms.
    trace = "\n".join([
        switch(1, 20.0000, "bus-flood", "swapper/1"),
        switch(1, 20.00015, "swapper/1", "component-host"),
        switch(1, 20.0002, "component-host", "swapper/1"),
        switch(1, 20.00035, "swapper/1", "bus-flood"),
        switch(1, 20.0004, "bus-flood", "swapper/1"),
    ])
    runs = tail.parse_switches(trace)
    assert tail.cause(runs, [(20.0, 20.0001, 20.0004)], other_s=0.2e-3, held_s=0.5e-3, idle_s=0.2e-3) == "none of these"


def test_the_summary_counts_slow_frames_by_cause(tmp_path):
    csv = tmp_path / "frames.csv"
    csv.write_text("sent_ns,published_ns,received_ns\n"
                   + "".join(f"{9_000_000_000 + i * 100_000},{9_000_050_000 + i * 100_000},"
                             f"{9_000_300_000 + i * 100_000}\n" for i in range(98))
                   + "10000000000,10000500000,10001900000\n10001500000,10002500000,10002650000\n")
    frames = tail.read_frames(csv)
    assert len(frames) == 100
    lines = tail.summary(frames, tail.parse_switches(TRACE), 1e-3, 0.2e-3, 0.5e-3, 0.3e-3)
    assert lines[0].startswith("100 frames") and "2 slower than 1 ms in 1 episodes" in lines[0]
    assert lines[1].strip() == "2 frames in    1 episodes: kdamond.N"


def test_no_frames_says_so():
    assert tail.summary([], {}, 1e-3, 0.2e-3, 0.5e-3, 0.3e-3) == ["no frames: did the flood reach the gesture recognizer?"]


def test_the_p99_is_the_nearest_rank_as_the_flood_takes_it():
    assert tail.percentile(list(range(1, 101)), 0.99) == 99
    assert tail.percentile(list(range(1, 201)), 0.99) == 198
    assert tail.percentile([7], 0.99) == 7
