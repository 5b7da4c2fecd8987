"""Frames to the page as tiles (render.tiles): a changed frame carries only the pixels that
changed, and the page that draws them holds exactly the whole frame the render worker drew.

The render worker runs with --image-encoding png, so that every tile and every whole frame is
lossless and the comparisons are exact, and at --scale 0.25 (400 × 250 pixels), since a debug
build takes seconds for a whole 1600 × 1000 PNG; the listener also watches render/image/, so
that each frame is encoded whole as well, to compare against. Pixels are compared in the browser: the
page's canvas, and PNGs decoded there (createImageBitmap, as the page decodes tiles).
"""

import base64
import json

import pytest

import viewstack

pytest.importorskip("playwright.sync_api")

SCENE = json.loads(viewstack.SCENE.read_text())
PAD = next(v for v in SCENE["views"] if v.get("component", {}).get("kind") == "numberPad")

# Helpers defined once per page: decode PNG bytes (base64) to RGBA, and read the canvas.
HELPERS = """() => {
  window.testPixels = async (b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const g = canvas.getContext('2d');
    g.drawImage(bitmap, 0, 0);
    return { width: bitmap.width, data: g.getImageData(0, 0, bitmap.width, bitmap.height).data };
  };
  window.testDiffer = (a, b, i) => a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2] || a[i + 3] !== b[i + 3];
}"""


@pytest.fixture(scope="module")
def stack():
    with viewstack.Stack(render_args=["--image-encoding", "png", "--scale", "0.25"], whole_frames=True) as running:
        yield running


@pytest.fixture(scope="module")
def browser():
    with viewstack.chromium() as launched:
        yield launched


def opened(stack, browser):
    page = viewstack.open_page(browser, stack)
    viewstack.wait_until(page, "() => window.uibus && window.uibus.device && window.uibus.stats().frames >= 1")
    page.evaluate(HELPERS)
    return page


def b64(data):
    return base64.b64encode(bytes(data)).decode()


def whole_frame(stack, frame):
    """The PNG of the whole frame `frame` (render.image) as base64."""
    body = stack.listener.wait_for(
        "render/image/", lambda b: b["frame"] == frame, timeout_s=60, what=f"(whole frame {frame})")
    return b64(body["data"])


def canvas_differs_from_whole_frame(stack, page):
    """Pixels of the page's canvas that differ from the whole frame it says it shows."""
    # One synchronous evaluation: the frame number and the pixels belong together.
    frame = page.evaluate(
        """() => { const c = document.getElementById('screen');
                   window.testCanvas = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
                   return window.uibus.frame.frame; }""")
    return page.evaluate(
        """async (png) => { const whole = await window.testPixels(png); let differing = 0;
               if (whole.data.length !== window.testCanvas.length) return -1;
               for (let i = 0; i < whole.data.length; i += 4) if (window.testDiffer(whole.data, window.testCanvas, i)) differing++;
               return differing; }""",
        whole_frame(stack, frame))


def test_a_changed_frame_carries_only_the_changed_pixels_and_the_page_shows_the_whole_frame(stack, browser):
    page = opened(stack, browser)
    device = page.evaluate("() => window.uibus.device")
    touch = viewstack.Touch(page)
    key = (PAD["frame"]["x"] + PAD["frame"]["width"] * 0.45, PAD["frame"]["y"] + PAD["frame"]["height"] / 2)
    seen = len(stack.listener.seen("render/tiles/"))
    touch.tap(key)
    changed = stack.listener.wait_for(
        "render/tiles/", lambda b: b.get("base") is not None and (b.get("input") or {}).get("device") == device,
        timeout_s=60, what="(tiles reflecting the tap)", after=seen)
    width, height = changed["width"], changed["height"]
    tiles = [[t["x"], t["y"], t["width"], t["height"], b64(t["data"])] for t in changed["tiles"]]
    assert all(t["encoding"] == "png" for t in changed["tiles"])
    assert sum(w * h for _, _, w, h, _ in tiles) < width * height / 10, "a tap changes a small part of the frame"

    # Against the whole frames before and after: every changed pixel is in a tile, every tile
    # holds a changed pixel, and the tiles drawn over the frame before give the frame after.
    result = page.evaluate(
        """async ([beforePng, afterPng, tiles]) => {
             const before = await window.testPixels(beforePng), after = await window.testPixels(afterPng);
             const w = before.width, inside = (x, y, t) => x >= t[0] && x < t[0] + t[2] && y >= t[1] && y < t[1] + t[3];
             let outside = 0; const touched = tiles.map(() => 0);
             for (let i = 0; i < before.data.length; i += 4) {
               if (!window.testDiffer(before.data, after.data, i)) continue;
               const x = (i / 4) % w, y = Math.floor(i / 4 / w), hit = tiles.findIndex((t) => inside(x, y, t));
               if (hit < 0) outside++; else touched[hit]++;
             }
             const canvas = new OffscreenCanvas(w, before.data.length / 4 / w), g = canvas.getContext('2d');
             g.putImageData(new ImageData(new Uint8ClampedArray(before.data), w), 0, 0);
             for (const t of tiles) {
               const bytes = Uint8Array.from(atob(t[4]), (c) => c.charCodeAt(0));
               g.drawImage(await createImageBitmap(new Blob([bytes], { type: 'image/png' })), t[0], t[1]);
             }
             const patched = g.getImageData(0, 0, canvas.width, canvas.height).data;
             let wrong = 0;
             for (let i = 0; i < patched.length; i += 4) if (window.testDiffer(patched, after.data, i)) wrong++;
             return { outside, touched, wrong };
           }""",
        [whole_frame(stack, changed["base"]), whole_frame(stack, changed["frame"]), tiles])
    assert result["outside"] == 0, "a changed pixel outside every tile"
    assert all(count > 0 for count in result["touched"]), f"a tile with nothing changed in it: {result['touched']}"
    assert result["wrong"] == 0, "the tiles over the frame before are not the frame after"

    viewstack.wait_until(page, f"() => window.uibus.frame.frame >= {changed['frame']}", timeout_s=60)
    assert canvas_differs_from_whole_frame(stack, page) == 0
    assert page.errors == []
    page.context.close()


def test_a_late_page_gets_the_whole_current_frame(stack, browser):
    first = opened(stack, browser)
    first.context.close()
    late = opened(stack, browser)
    assert late.evaluate("() => window.uibus.stats().frames") >= 1
    assert canvas_differs_from_whole_frame(stack, late) == 0
    assert late.errors == []
    late.context.close()
