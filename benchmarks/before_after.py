"""`benchmarks/run --baseline REV`: the rows a change must not slow down (codec, bus hop, gesture
recognizer, component host), for REV's build and the working tree's, in one run.

REV is checked out in a git worktree of its own, /tmp/uibus-baseline (its own `.build`, kept for
the next run) and its benchmark products are built in release mode. Then:

- wall clock: in every round each row runs once per build, back to back, the order alternating
  from round to round, so both builds see the same machine load; a row reports the two medians
  and the median of the per-round cost ratios;
- instructions: `valgrind --tool=callgrind` runs each row's program at two workload sizes; the
  difference divided by the extra work is the cost of one unit (frame, message, event) without
  start-up, and does not depend on the machine's load.

The 5 % rule is judged on instructions: on this shared VM the wall clock of one build moves by
more than 5 % between two runs a few seconds apart. A row that either build cannot run (an
executable missing, a changed command line or output) is reported as skipped, with the reason.
"""

import concurrent.futures
import dataclasses
import datetime
import itertools
import json
import os
import pathlib
import re
import statistics
import subprocess
import tempfile

PRODUCTS = ("bus-bench", "gesture-bench", "component-bench")
BEGIN, END = "<!-- before-after:begin -->", "<!-- before-after:end -->"
LIMIT = 0.05  # the largest cost increase a row may show
RUNS = itertools.count()  # tells apart the endpoints of hops that run at the same time


class Skipped(Exception):
    """A row one build cannot run; the message says why."""


@dataclasses.dataclass
class Row:
    """One benchmark row: `command(size)` runs `size` units of work (an encode + decode, a message,
    a frame, a gesture) and prints a JSON line whose `rate` field is units per second;
    `units(result, size)` is the work it actually did."""

    name: str
    command: object
    rate: str
    wall_size: int
    callgrind_sizes: tuple
    units: object = lambda result, size: size


def hop_command(payload):
    def command(size):
        endpoint = f"ipc://{tempfile.gettempdir()}/uibus-before-after-{os.getpid()}-{next(RUNS)}"
        return ["bus-bench", "hop", "--size", str(payload), "--count", str(size), "--endpoint", endpoint]

    return command


def frames(result, _):
    return result["frames"]  # gesture-bench plays its workload whole


def events(result, _):
    return result["events"]


ROWS = [
    Row("codec: touch frame", lambda n: ["bus-bench", "codec", "--part", "frame",
                                                          "--iterations", str(n)],
        "touch_frame_per_s", 3_000_000, (50_000, 150_000)),
    Row("codec: envelope", lambda n: ["bus-bench", "codec", "--part", "envelope",
                                                       "--iterations", str(n)],
        "envelope_per_s", 3_000_000, (50_000, 150_000)),
    Row("bus hop, 64 B", hop_command(64), "rate_per_s", 500_000, (20_000, 60_000)),
    Row("bus hop, 512 B", hop_command(512), "rate_per_s", 500_000, (20_000, 60_000)),
    Row("recognizer, 1 device", lambda n: ["gesture-bench", "--frames", str(n), "--devices", "1"],
        "frames_per_s", 1_000_000, (30_000, 90_000), frames),
    Row("recognizer, 8 devices", lambda n: ["gesture-bench", "--frames", str(n), "--devices", "8"],
        "frames_per_s", 1_000_000, (30_000, 90_000), frames),
    Row("recognizer through DeviceLanes",
        lambda n: ["gesture-bench", "--frames", str(n), "--devices", "1", "--lanes", "1"],
        "frames_per_s", 1_000_000, (30_000, 90_000), frames),
    Row("component host, demo scene",
        lambda n: ["component-bench", "--events", str(n)], "events_per_s", 300_000, (20_000, 60_000), events),
]


@dataclasses.dataclass
class Build:
    """One side of the comparison: a source tree and its release binaries."""

    label: str
    root: pathlib.Path
    bin_dir: pathlib.Path = None
    unbuilt: dict = dataclasses.field(default_factory=dict)  # product → why it did not build

    def run(self, row, size, prefix=()):
        """Runs `row` at `size` from this tree's root (the programs read its deploy/ scenes);
        returns the JSON result and the process's stderr, or raises Skipped."""
        program, *arguments = row.command(size)
        executable = self.bin_dir / program
        if program in self.unbuilt:  # an older binary may still be there: never run it
            raise Skipped(f"{self.label}: `{program}` did not build ({self.unbuilt[program]})")
        if not executable.exists():
            raise Skipped(f"{self.label} has no `{program}`")
        process = subprocess.run([*prefix, str(executable), *arguments], cwd=self.root, capture_output=True,
                                 text=True)
        for argument in arguments:  # a hop's bound ipc file outlives the program
            if argument.startswith("ipc://"):
                pathlib.Path(argument.removeprefix("ipc://")).unlink(missing_ok=True)
        if process.returncode != 0:
            last = (process.stderr.strip().splitlines() or ["no message"])[-1]
            raise Skipped(f"{self.label} `{program} {' '.join(arguments)}` exited {process.returncode}: {last}")
        try:
            result = json.loads(process.stdout.strip().splitlines()[-1])
            result[row.rate], row.units(result, size)
        except (IndexError, ValueError, KeyError) as error:
            raise Skipped(f"{self.label} `{program}` printed no `{row.rate}` ({error!r})")
        if result.get("gaps", 0) != 0:
            raise Skipped(f"{self.label} `{program}` lost messages: {result}")
        return result, process.stderr


def git(*args, cwd):
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def build(root, label):
    print(f"building {label}'s release benchmarks in {root}…", flush=True)
    unbuilt = {}
    for product in PRODUCTS:
        process = subprocess.run(["swift", "build", "-c", "release", "--product", product], cwd=root,
                                 capture_output=True, text=True)
        if process.returncode != 0:
            # A product the revision does not have, or one that does not compile: its rows are skipped.
            output = (process.stdout + process.stderr).splitlines()
            errors = [line for line in output if "error:" in line] or ["no error line"]
            unbuilt[product] = errors[0].strip()
            print(f"  {label}: `{product}` did not build: {unbuilt[product]}", flush=True)
    bin_dir = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=root, check=True,
                             capture_output=True, text=True).stdout.strip()
    return Build(label, root, pathlib.Path(bin_dir), unbuilt)


def baseline_tree(root, revision):
    """REV checked out (detached) in a worktree of its own, reused by later runs so that its
    `.build` makes the next baseline build incremental."""
    commit = git("rev-parse", "--verify", f"{revision}^{{commit}}", cwd=root)
    tree = pathlib.Path(tempfile.gettempdir()) / "uibus-baseline"
    if not tree.exists():
        git("worktree", "add", "--detach", str(tree), commit, cwd=root)
    elif git("rev-parse", "HEAD", cwd=tree) != commit:
        git("checkout", "--quiet", "--detach", commit, cwd=tree)
    return tree, commit


def described(root):
    """The working tree's commit, and whether uncommitted changes were measured too."""
    commit = git("rev-parse", "--short", "HEAD", cwd=root)
    dirty = git("status", "--porcelain", "--untracked-files=no", cwd=root)
    return commit + (" with uncommitted changes" if dirty else "")


def callgrind_cost(side, row):
    """Instructions per unit of work: the difference of two callgrind runs of different sizes."""
    counts = []
    for size in row.callgrind_sizes:
        result, stderr = side.run(row, size, ("valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"))
        collected = re.findall(r"Collected : (\d+)", stderr)
        if not collected:
            raise Skipped(f"callgrind reported no count for {side.label}")
        counts.append((int(collected[-1]), row.units(result, size)))
    (small, small_units), (large, large_units) = counts
    return (large - small) / (large_units - small_units)


def measure(rows, sides, rounds):
    """Wall clock (rounds, alternating order) and instructions for every row both sides can run."""
    skipped, rates = {}, {row.name: ([], []) for row in rows}
    for row in rows:  # a short run of each: a row either side cannot run is skipped from here on
        for side in sides:
            try:
                side.run(row, row.callgrind_sizes[0])
            except Skipped as reason:
                skipped[row.name] = str(reason)
    runnable = [row for row in rows if row.name not in skipped]
    for round_ in range(rounds):
        for row in runnable:
            for index in (0, 1) if round_ % 2 == 0 else (1, 0):
                result, _ = sides[index].run(row, row.wall_size)
                rates[row.name][index].append(result[row.rate])
        print(f"  wall clock round {round_ + 1}/{rounds} done (load {os.getloadavg()[0]:.1f})", flush=True)
    print("  callgrind…", flush=True)
    instructions = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        futures = {(row.name, index): pool.submit(callgrind_cost, side, row)
                   for row in runnable for index, side in enumerate(sides)}
        for row in runnable:
            try:
                instructions[row.name] = tuple(futures[(row.name, index)].result() for index in (0, 1))
            except Skipped as reason:
                instructions[row.name] = str(reason)
    return rates, instructions, skipped


def percent(change):
    return f"{change * 100:+.1f}%"


def table(rows, rates, instructions, skipped, header):
    """The README's table, and each row's verdict (None: skipped)."""
    lines = [BEGIN, "", header, "",
             "| per encode + decode, message, frame, gesture | instructions | per second (median of rounds) | ≤ +5 % |",
             "|---|---|---|---|"]
    verdicts = []
    for row in rows:
        name = row.name
        if row.name in skipped:
            reason = skipped[row.name].replace("|", "\\|")
            lines.append(f"| {name} | skipped: {reason} | | — |")
            verdicts.append((row.name, None))
            continue
        before, after = rates[row.name]
        wall = statistics.median(b / a for b, a in zip(before, after)) - 1  # rates: before / after is the cost ratio
        wall_text = f"{rate(statistics.median(before))} → {rate(statistics.median(after))} ({percent(wall)})"
        counted = instructions[row.name]
        if isinstance(counted, str):  # judged on the wall clock then, and said so
            reason = counted.replace("|", "\\|")
            counted_text, ok = f"not counted: {reason}; judged on wall clock", wall <= LIMIT
        else:
            change = counted[1] / counted[0] - 1
            counted_text, ok = f"{counted[0]:.0f} → {counted[1]:.0f} ({percent(change)})", change <= LIMIT
        lines.append(f"| {name} | {counted_text} | {wall_text} | {'yes' if ok else '**no**'} |")
        verdicts.append((row.name, ok))
    lines += ["", END]
    return "\n".join(lines), verdicts


def rate(value):
    return f"{value / 1e6:.2f} M" if value >= 1e6 else f"{value / 1e3:.0f} k"


def run(root, readme, revision, rounds):
    tree, commit = baseline_tree(root, revision)
    current = described(root)
    sides = [build(tree, f"before ({commit[:7]})"), build(root, f"after ({current})")]
    load = os.getloadavg()[0]
    started = datetime.datetime.now(datetime.timezone.utc)
    rates, instructions, skipped = measure(ROWS, sides, rounds)
    minutes = (datetime.datetime.now(datetime.timezone.utc) - started).total_seconds() / 60
    header = (f"`benchmarks/run --baseline {revision} --rounds {rounds}`, {started:%Y-%m-%d}, {minutes:.0f} min, "
              f"load average {load:.0f} → {os.getloadavg()[0]:.0f}: before {commit[:7]}, after {current}. "
              f"Change: cost after / cost before − 1.")
    text, verdicts = table(ROWS, rates, instructions, skipped, header)
    print(text)
    document = readme.read_text()
    if BEGIN not in document:
        raise SystemExit(f"{readme} has no {BEGIN} … {END} markers for the table")
    readme.write_text(re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: text, document, flags=re.S))
    failed = [name for name, ok in verdicts if ok is False]
    print("slower by more than 5 %: " + (", ".join(failed) if failed else "none"), flush=True)
    return 1 if failed else 0
