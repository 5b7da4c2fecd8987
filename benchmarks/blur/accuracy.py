"""Accuracy of render-worker blur against a float64 Gaussian with replicated edges (±8σ), with
OpenCV's GaussianBlur on the same images for comparison. Usage:
    python3 benchmarks/blur/accuracy.py [--worker PATH] [--passes 3,4]"""
import argparse
import os
import subprocess

import cv2
import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
SIGMAS = [10.2, 20.8, 50.5, 100]


def gauss_ref(img, s):
    r = int(np.ceil(8 * s)); k = np.exp(-np.arange(-r, r + 1) ** 2 / (2 * s * s)); k /= k.sum()
    out = img.astype(np.float64)
    for axis in (1, 0):
        pad = [(0, 0)] * out.ndim; pad[axis] = (r, r)
        p = np.pad(out, pad, mode='edge')
        out = np.apply_along_axis(lambda v: np.convolve(v, k, mode='valid'), axis, p)
    return out


def run(worker, img, s, passes):
    Image.fromarray(img, 'RGBA').save('/tmp/uibus-acc-in.png')
    subprocess.run([worker, 'blur', '/tmp/uibus-acc-in.png', '/tmp/uibus-acc-out.png', '--sigma', str(s),
                    '--passes', str(passes)], check=True)
    return np.asarray(Image.open('/tmp/uibus-acc-out.png')).astype(np.float64)


def opaque(h, w):
    img = np.zeros((h, w, 4), np.uint8); img[..., 3] = 255; return img


def feature(bar_x, bar_y):
    """The 2-D feature: black, the right half white, a white 60x80 bar at (bar_x, bar_y)."""
    img = opaque(240, 320); img[:, 160:, :3] = 255; img[bar_y:bar_y + 80, bar_x:bar_x + 60, :3] = 255
    return img


def natural():
    rng = np.random.default_rng(3)
    nat = opaque(240, 320)
    y, x = np.mgrid[0:240, 0:320]
    nat[..., 0] = 40 + 120 * x // 320; nat[..., 1] = 60 + 100 * y // 240; nat[..., 2] = 150
    for _ in range(25):
        x0, y0 = rng.integers(0, 320), rng.integers(0, 240); w, h = rng.integers(4, 120), rng.integers(4, 90)
        nat[y0:y0 + h, x0:x0 + w, :3] = rng.integers(0, 256, 3)
    return nat


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--worker', default=os.path.join(HERE, '../../.build/release/render-worker'))
    parser.add_argument('--passes', default='3,4')
    args = parser.parse_args()
    edge = opaque(4, 900); edge[:, 450:, :3] = 255
    images = {'edge': edge, 'inside': feature(40, 80), 'corner': feature(0, 0), 'natural': natural()}
    print('| sigma | passes | isolated edge (LSB) | 2-D feature, bar inside (LSB) | 2-D feature, bar in the corner (LSB) '
          '| PSNR natural-ish 320x240 (dB) |')
    print('|---|---|---|---|---|---|')
    for s in SIGMAS:
        refs = {name: gauss_ref(img[..., :3], s) for name, img in images.items()}
        rows = [(f'{p}', lambda img, p=p: run(args.worker, img, s, p)) for p in map(int, args.passes.split(','))]
        rows.append(('OpenCV', lambda img: cv2.GaussianBlur(img, (0, 0), s, borderType=cv2.BORDER_REPLICATE)
                     .astype(np.float64)))
        for label, blur in rows:
            err = {name: np.abs(blur(img)[..., :3] - refs[name]).max() for name, img in images.items()
                   if name != 'natural'}
            mse = ((blur(images['natural'])[..., :3] - refs['natural']) ** 2).mean()
            print(f"| {s} | {label} | {err['edge']:.2f} | {err['inside']:.2f} | {err['corner']:.2f} "
                  f"| {10 * np.log10(255 * 255 / mse):.1f} |", flush=True)


if __name__ == '__main__':
    main()
