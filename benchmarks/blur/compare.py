"""Times render-worker bench-blur and its peers (OpenCV GaussianBlur, Pillow GaussianBlur) on a
1920x1080 RGBA8 frame and prints a table of medians and ratios. Called by benchmarks/blur/run."""
import argparse
import json
import os
import statistics
import subprocess
import time

import cv2
import numpy as np
from PIL import Image, ImageFilter

WIDTH, HEIGHT = 1920, 1080
SIGMAS = [10.2, 20.8, 50.5, 100.0]


def frame():
    """A UI-like frame: gradient, rectangles, mild noise (content does not change FIR timing)."""
    rng = np.random.default_rng(1)
    y, x = np.mgrid[0:HEIGHT, 0:WIDTH]
    img = np.zeros((HEIGHT, WIDTH, 4), np.uint8)
    img[..., 0] = 40 + 120 * x // WIDTH
    img[..., 1] = 60 + 100 * y // HEIGHT
    img[..., 2] = 150 + 60 * (x + y) // (WIDTH + HEIGHT)
    img[..., 3] = 255
    for _ in range(60):
        x0, y0 = rng.integers(0, WIDTH), rng.integers(0, HEIGHT)
        w, h = rng.integers(1, WIDTH // 3), rng.integers(1, HEIGHT // 3)
        img[y0:y0 + h, x0:x0 + w, :3] = rng.integers(0, 256, 3)
    noise = rng.integers(-4, 5, (HEIGHT, WIDTH, 3))
    img[..., :3] = np.clip(img[..., :3].astype(int) + noise, 0, 255)
    return img


def timed(fn, runs, warmup=3):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times), min(times)


def uibus(worker, sigma, threads, runs):
    out = subprocess.run(
        [worker, "bench-blur", "--width", str(WIDTH), "--height", str(HEIGHT), "--sigma", str(sigma),
         "--runs", str(runs), "--threads", str(threads)],
        check=True, capture_output=True, text=True).stdout
    result = json.loads(out)
    return result["median_ms"], result["min_ms"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--worker", required=True)
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--baseline", help="another render-worker (an older build), timed alongside on 2 threads")
    args = parser.parse_args()
    img = frame()
    pil = Image.fromarray(img, "RGBA")
    rows = []
    print(f"# {WIDTH}x{HEIGHT} RGBA8, median (min) ms of {args.runs} runs after 3 warm-ups; "
          f"load average before: {os.getloadavg()[0]:.2f}; OpenCV {cv2.__version__}, Pillow "
          f"{Image.__version__ if hasattr(Image, '__version__') else ''}")
    for sigma in SIGMAS:
        # Interleave the contenders per sigma so drifting machine load hits all of them alike.
        u2 = uibus(args.worker, sigma, 2, args.runs)
        b2 = uibus(args.baseline, sigma, 2, args.runs) if args.baseline else None
        u1 = uibus(args.worker, sigma, 1, args.runs)
        cv2.setNumThreads(2)
        cv_runs = max(3, args.runs // 4) if sigma > 30 else args.runs
        c2 = timed(lambda: cv2.GaussianBlur(img, (0, 0), sigma, borderType=cv2.BORDER_REPLICATE), cv_runs)
        cv2.setNumThreads(1)
        c1 = timed(lambda: cv2.GaussianBlur(img, (0, 0), sigma, borderType=cv2.BORDER_REPLICATE), cv_runs)
        p1 = timed(lambda: pil.filter(ImageFilter.GaussianBlur(sigma)), max(5, args.runs // 2))
        rows.append((sigma, u2, u1, c2, c1, p1, b2))
    header = ("sigma", "UIBus 2t", "UIBus 1t", "OpenCV 2t", "OpenCV 1t", "Pillow 1t",
              "OpenCV2t/UIBus2t", "Pillow/UIBus2t", "UIBus 2t <= 8 ms") + (("baseline 2t", "UIBus2t/baseline2t")
                                                                       if args.baseline else ())
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for sigma, u2, u1, c2, c1, p1, b2 in rows:
        cells = [f"{sigma:g}"] + [f"{m:.2f} ({n:.2f})" for m, n in (u2, u1, c2, c1, p1)]
        cells += [f"{c2[0] / u2[0]:.1f}x", f"{p1[0] / u2[0]:.1f}x", "yes" if u2[0] <= 8 else "NO"]
        if b2:
            cells += [f"{b2[0]:.2f} ({b2[1]:.2f})", f"{u2[0] / b2[0]:.2f}"]
        print("| " + " | ".join(cells) + " |")
    print(f"# load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
