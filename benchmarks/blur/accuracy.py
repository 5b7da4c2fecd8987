"""Accuracy of render-worker blur against a float64 Gaussian with replicated edges."""
import os
import subprocess

import numpy as np
from PIL import Image
W = os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../.build/release/render-worker')
def gauss_ref(img, s):
    r = int(np.ceil(8*s)); k = np.exp(-np.arange(-r, r+1)**2/(2*s*s)); k /= k.sum()
    out = img.astype(np.float64)
    for axis in (1, 0):
        pad = [(0,0)]*3; pad[axis] = (r, r)
        p = np.pad(out, pad, mode='edge')
        out = np.apply_along_axis(lambda v: np.convolve(v, k, mode='valid'), axis, p)
    return out
def run(img, s, passes):
    Image.fromarray(img, 'RGBA').save('/tmp/uibus-acc-in.png')
    subprocess.run([W, 'blur', '/tmp/uibus-acc-in.png', '/tmp/uibus-acc-out.png', '--sigma', str(s), '--passes', str(passes)], check=True)
    return np.asarray(Image.open('/tmp/uibus-acc-out.png')).astype(np.float64)
rng = np.random.default_rng(3)
nat = np.zeros((240, 320, 4), np.uint8); nat[..., 3] = 255
y, x = np.mgrid[0:240, 0:320]
nat[..., 0] = 40 + 120*x//320; nat[..., 1] = 60 + 100*y//240; nat[..., 2] = 150
for _ in range(25):
    x0, y0 = rng.integers(0, 320), rng.integers(0, 240); w, h = rng.integers(4, 120), rng.integers(4, 90)
    nat[y0:y0+h, x0:x0+w, :3] = rng.integers(0, 256, 3)
edge = np.zeros((4, 900, 4), np.uint8); edge[..., 3] = 255; edge[:, 450:, :3] = 255
print('| sigma | passes | max error on isolated edge (LSB) | PSNR natural-ish 320x240 (dB) |')
print('|---|---|---|---|')
for s in [10.2, 20.8, 50.5, 100]:
    re = gauss_ref(edge[..., :3], s); rn = gauss_ref(nat[..., :3], s)
    for passes in (3, 4):
        e = np.abs(run(edge, s, passes)[..., :3] - re).max()
        mse = ((run(nat, s, passes)[..., :3] - rn)**2).mean()
        print(f'| {s} | {passes} | {e:.2f} | {10*np.log10(255*255/mse):.1f} |')
