#!/usr/bin/env python3
"""What else ran when a frame was late: the pipeline's tail, set against the scheduler's trace.

Runs the pipeline as deployed (bus-proxy, gesture-recognizer and component-host on the cores
deploy/demo-services.json gives them, bus-flood on the host's) at 10 k frames/s while
`perf record -e sched:sched_switch` traces both cores on CLOCK_MONOTONIC, the clock of the flood's
frames.csv. Frames slower than --slow-ms are grouped into episodes (slow frames less than 2 ms
apart) and each episode is put down to what its window shows on the pipeline's cores, in this
order (each a single stretch, not a sum):
  - another task ran on a core for --other-ms or more (kdamond, rcu_preempt, kcompactd, …);
  - a pipeline thread ran --held-ms or more without a switch: a thread that runs microseconds
    per message does not compute that long, so the host most likely held its vCPU;
  - a core sat idle for --idle-ms or more while the frame waited: a wake-up through the host;
  - none of these.
Usage: benchmarks/pipeline/tail.py [--rate R] [--seconds S] [--slow-ms MS]   (needs perf: linux-perf)
"""

import argparse
import bisect
import collections
import importlib.machinery
import importlib.util
import math
import pathlib
import re
import subprocess
import tempfile
import time

PIPELINE = re.compile(r"^(bus-proxy|gesture-recogn|component-hos|bus-flood|ZMQbg/)")
SWITCH = re.compile(
    r"^\s*\[(\d+)\]\s+([\d.]+):.*?prev_comm=(.+?) prev_pid=(\d+) .*?==> next_comm=(.+?) next_pid=(\d+)")


def load_bench():
    path = pathlib.Path(__file__).resolve().parent.parent / "run"
    loader = importlib.machinery.SourceFileLoader("uibus_bench", str(path))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def parse_switches(text):
    """`perf script -F cpu,time,trace` of sched_switch → {cpu: [(start_s, end_s, comm)]}, time-sorted."""
    runs, current = collections.defaultdict(list), {}
    for line in text.splitlines():
        match = SWITCH.match(line)
        if not match:
            continue
        cpu, at = int(match.group(1)), float(match.group(2))
        if cpu in current:
            runs[cpu].append((current[cpu], at, match.group(3)))
        current[cpu] = at
    return dict(runs)


def read_frames(path):
    """frames.csv → [(sent_s, published_s, received_s)] on CLOCK_MONOTONIC."""
    lines = pathlib.Path(path).read_text().splitlines()[1:]
    return [tuple(int(field) / 1e9 for field in line.split(",")) for line in lines if line]


def episodes(frames, slow_s, gap_s=2e-3):
    """Slow frames, grouped into runs whose sends are less than `gap_s` apart."""
    groups = []
    for frame in sorted(f for f in frames if f[2] - f[0] > slow_s):
        if groups and frame[0] - groups[-1][-1][0] < gap_s:
            groups[-1].append(frame)
        else:
            groups.append([frame])
    return groups


def kind(comm):
    if comm.startswith("swapper"):
        return "idle"
    return "pipeline" if PIPELINE.match(comm) else re.sub(r"\d+", "N", comm)


def pipeline_cores(runs):
    """The cores the pipeline ran on, each with its runs and their start times (for bisecting),
    made once for all the episodes of a trace."""
    return [(cpu_runs, [run[0] for run in cpu_runs]) for cpu_runs in runs.values()
            if any(kind(comm) == "pipeline" for _, _, comm in cpu_runs)]


def window(runs, starts, start, end):
    """The longest single run inside [start, end] of each kind on one core (idle, the pipeline,
    each other task); a pipeline run counts whole, since a run that began before the window and
    held the core into it is what stalled the frame."""
    longest = collections.Counter()
    index = max(0, bisect.bisect_right(starts, start) - 1)
    while index < len(runs) and runs[index][0] < end:
        begin, finish, comm = runs[index]
        name = kind(comm)
        length = finish - begin if name == "pipeline" else min(finish, end) - max(begin, start)
        if min(finish, end) > max(begin, start):
            longest[name] = max(longest[name], length)
        index += 1
    return longest


def cause(runs, group, other_s, held_s, idle_s, cores=None):
    """What an episode's window shows on the cores the pipeline ran on, by the rules of the
    module's docstring: one stretch of another task, of a pipeline thread, or of idle."""
    start, end = group[0][0], max(frame[2] for frame in group)
    seen = [window(cpu_runs, starts, start, end) for cpu_runs, starts in cores or pipeline_cores(runs)]
    others = collections.Counter()
    for longest in seen:
        for name, length in longest.items():
            if name not in ("idle", "pipeline"):
                others[name] = max(others[name], length)
    if others and others.most_common(1)[0][1] >= other_s:
        return others.most_common(1)[0][0]
    if any(longest["pipeline"] >= held_s for longest in seen):
        return "a pipeline thread held a core (the host, most likely)"
    if any(longest["idle"] >= idle_s for longest in seen):
        return "a core idle while the frame waited (a wake-up through the host)"
    return "none of these"


def percentile(sorted_values, fraction):
    """Nearest rank, as bus-flood's histogram takes it."""
    return sorted_values[max(0, math.ceil(len(sorted_values) * fraction) - 1)]


def summary(frames, runs, slow_s, other_s, held_s, idle_s):
    """Lines describing the slow frames and their causes."""
    if not frames:
        return ["no frames: did the flood reach the gesture recognizer?"]
    latencies = sorted(frame[2] - frame[0] for frame in frames)
    groups = episodes(frames, slow_s)
    slow = sum(len(group) for group in groups)
    lines = [
        f"{len(frames)} frames, p50 {percentile(latencies, 0.5) * 1e3:.2f} ms, "
        f"p99 {percentile(latencies, 0.99) * 1e3:.2f} ms; {slow} slower than {slow_s * 1e3:g} ms "
        f"in {len(groups)} episodes",
    ]
    frames_by_cause, episodes_by_cause = collections.Counter(), collections.Counter()
    cores = pipeline_cores(runs)
    for group in groups:
        reason = cause(runs, group, other_s, held_s, idle_s, cores)
        frames_by_cause[reason] += len(group)
        episodes_by_cause[reason] += 1
    for reason, count in frames_by_cause.most_common():
        lines.append(f"  {count:6} frames in {episodes_by_cause[reason]:4} episodes: {reason}")
    return lines


def measure(rate, seconds):
    bench = load_bench()
    bin_dir = pathlib.Path(bench.sh("swift", "build", "-c", "release", "--show-bin-path").strip())
    placement = bench.deployed_placement()
    directory = pathlib.Path(tempfile.mkdtemp(prefix="uibus-tail-"))
    bus = directory / "bus.json"
    bus.write_text('{"publish": "ipc://%s/in", "subscribe": "ipc://%s/out"}' % (directory, directory))
    scene = str(bench.ROOT / "deploy" / "scenes" / "demo.json")
    trace = directory / "sched.data"
    with bench.Processes() as processes:
        for name, extra in (("bus-proxy", []), ("gesture-recognizer", ["--scene", scene]),
                            ("component-host", ["--scene", scene])):
            processes.start(str(bin_dir / name), "--bus", str(bus), *extra, *bench.pinned(placement, name))
        perf = subprocess.Popen(["perf", "record", "-q", "-k", "CLOCK_MONOTONIC", "-e", "sched:sched_switch", "-a",
                                 "-o", str(trace)], stderr=subprocess.DEVNULL)
        time.sleep(0.5)
        try:
            bench.sh(str(bin_dir / "bus-flood"), "--bus", str(bus), *bench.pinned(placement, "bus-flood"), "touch",
                     "--rate", str(rate), "--duration", str(seconds), "--json", "--out", str(directory))
        finally:
            perf.send_signal(2)
            perf.wait()
    text = subprocess.run(["perf", "script", "-i", str(trace), "-F", "cpu,time,trace"], capture_output=True,
                          text=True, check=True).stdout
    return read_frames(directory / "frames.csv"), parse_switches(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rate", type=int, default=10_000)
    parser.add_argument("--seconds", type=float, default=6)
    parser.add_argument("--slow-ms", type=float, default=1.0)
    parser.add_argument("--other-ms", type=float, default=0.2)
    parser.add_argument("--held-ms", type=float, default=0.5)
    parser.add_argument("--idle-ms", type=float, default=0.3)
    options = parser.parse_args()
    frames, runs = measure(options.rate, options.seconds)
    for line in summary(frames, runs, options.slow_ms / 1e3, options.other_ms / 1e3, options.held_ms / 1e3,
                        options.idle_ms / 1e3):
        print(line)


if __name__ == "__main__":
    main()
