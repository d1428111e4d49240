"""What the browser tests share (tests/test_browser*.py): the skip conditions, a server
in a thread of this process (uvicorn on a free loopback port), and a page whose console
is watched. Playwright drives Debian's ``chromium`` (no browser is ever downloaded); the
``browser`` fixture is in tests/conftest.py."""

from __future__ import annotations

import contextlib
import os
import shutil
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "tests" / "artifacts"
CHROMIUM = (
    os.environ.get("TICTACBLITZ_CHROMIUM")
    or shutil.which("chromium")
    or shutil.which("chromium-browser")
)
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--mute-audio"]
WAIT = 30_000  # ms: generous, for a loaded 2-core machine
# The pages' animation frames in the tests: one every FRAME_MS (20 a second), not headless
# Chromium's 60. A live page's cost is per frame, and most of it is Chromium's, not the
# client's (its JS was 130 of the 819 busy ms of a live Blitz page's renderer thread in a
# 4 s profile, beside the browser and GPU processes' compositing): such a page against a
# bot cost 1.81 CPU s in 5 s at 60 frames a second and 0.93 at 20 (its processes and the
# server, one run each; issue 27, CI item), and the browser files 222-225 CPU s at 60,
# 176-180 at 20 (two runs of each, back to back). The client animates on the clock, not
# by counting frames (a phone gives 30 or 120, a busy machine fewer), so the tests see
# what a person on a slower screen sees; what counts frames (the paint tests) counts them
# in the page.
FRAME_MS = 50
FRAME_RATE = (
    "window.requestAnimationFrame = (step) =>"
    f" setTimeout(() => step(performance.now()), {FRAME_MS});"
)


def require_browser(*modules: str) -> None:
    """Skip the calling test module without the server's dependencies, Playwright, any of
    ``modules`` (a game's native core) or chromium; a failure instead under CI=true, where
    .ci/run installs them all (as the Redis and Node tests do). Call it at module level."""
    strict = os.environ.get("CI", "").lower() == "true"
    for module in ("starlette", "uvicorn", "playwright.sync_api", *modules):
        if strict:
            __import__(module)
        else:
            pytest.importorskip(module)
    if not CHROMIUM:
        if strict:
            pytest.fail("CI=true and no chromium on PATH: .ci/run installs it", pytrace=False)
        pytest.skip("no chromium on PATH (apt-get install chromium)", allow_module_level=True)


def readme_shot(docs_name: str, artifact_name: str) -> Path:
    """The README's screenshot is refreshed only on request (TICTACBLITZ_README_SHOT=1), so
    an ordinary test run never rewrites a tracked file."""
    if os.environ.get("TICTACBLITZ_README_SHOT"):
        return ROOT / "docs" / "img" / docs_name
    return ARTIFACTS / artifact_name


@contextlib.contextmanager
def serve(settings, **config):
    """The server of ``settings`` in a thread; yields its base URL. ``config``: more
    ``uvicorn.Config`` options."""
    import uvicorn

    from tictacblitz.loadtest.cluster import free_port
    from tictacblitz.server.app import create_app

    port = free_port()
    srv = uvicorn.Server(
        uvicorn.Config(
            create_app(settings), host="127.0.0.1", port=port, log_level="warning", **config
        )
    )
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not srv.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the test server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(timeout=10)


def serve_game(game: str, rules=None, config=None, **settings):
    """``serve`` a server of ``game`` (with ``rules`` overrides, ``Settings`` fields
    ``settings`` and ``uvicorn.Config`` options ``config``): the browser tests' module
    fixture, ``with serve_game(...) as url``."""
    from tictacblitz.games import load_game
    from tictacblitz.server.settings import Settings

    return serve(Settings(game=load_game(game, rules), **settings), **(config or {}))


class Page:
    """A page with its console watched: any error fails the test at the end.

    ``size`` is the viewport; ``context`` more ``browser.new_context`` options. Screenshots
    are ``ARTIFACTS/<prefix><name>_<label>.png``."""

    size = (1280, 760)
    prefix = ""

    def __init__(self, browser, name: str, size=None, **context) -> None:
        width, height = size or self.size
        # bypass_csp: the server's CSP forbids eval, which Playwright's wait_for_function uses.
        self.context = browser.new_context(
            viewport={"width": width, "height": height}, bypass_csp=True, **context
        )
        self.context.add_init_script(FRAME_RATE)
        self.page = self.context.new_page()
        self.page.set_default_timeout(WAIT)
        self.name = name
        self.errors: list = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))

    def js(self, expr: str, arg=None):
        return self.page.evaluate(expr, arg)

    def wait(self, predicate: str, arg=None, timeout: int = WAIT):
        """Wait until ``predicate`` (a JS function of ``arg``) is true. A TypeError in it
        counts as "not yet": the view model is made a frame after the game starts, and a
        predicate that read it in between (``window.__blitz.view.phase`` on a null view)
        ended Playwright's wait at once (seen on a loaded machine); any other error still
        ends it."""
        tolerant = (
            f"(a) => {{ try {{ return ({predicate})(a); }} catch (e) {{"
            " if (e instanceof TypeError) return false; throw e; } }"
        )
        return self.page.wait_for_function(tolerant, arg=arg, timeout=timeout, polling=50)

    def shot(self, label: str, path: Path | None = None, full_page: bool = False) -> None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = path or ARTIFACTS / f"{self.prefix}{self.name}_{label}.png"
        self.page.screenshot(path=str(path), full_page=full_page)

    def view(self):
        return self.js("() => window.__blitz.view")

    def open_replay_file(self, name: str, content: bytes) -> None:
        """Choose a replay file in the menu, as a person picking ``name`` would."""
        self.page.set_input_files(
            "#replay-file",
            files=[{"name": name, "mimeType": "application/json", "buffer": content}],
        )

    def click_cell(self, cell) -> None:
        xy = self.js("(c) => window.__blitz.cellCenter(c)", list(cell))
        self.page.mouse.click(xy["x"], xy["y"])

    def click_box(self, fn: str, arg) -> None:
        """Click the centre of the box ``window.__blitz.ui.<fn>`` gives for ``arg``."""
        xy = self.js(
            f"(a) => window.__blitz.ui.{fn}(window.__blitz.lay, "
            "document.getElementById('board').getBoundingClientRect(), a)",
            arg,
        )
        self.page.mouse.click(xy["x"], xy["y"])

    def open(self, url: str) -> None:
        self.page.goto(url)
        self.wait("() => !document.querySelector('#play-bot').disabled")

    def close(self) -> None:
        self.context.close()
        assert not self.errors, f"console errors in {self.name}: {self.errors}"


# The page's next ``n`` animation frames and the canvas paints among them, counted in the
# page (counts, not times: how many frames a loaded machine gives does not matter).
SAMPLE_FRAMES = """(n) => new Promise((done) => {
  const f0 = window.__blitz.frames, p0 = window.__blitz.paints;
  const tick = () => window.__blitz.frames - f0 >= n
    ? done({frames: window.__blitz.frames - f0, paints: window.__blitz.paints - p0})
    : requestAnimationFrame(tick);
  requestAnimationFrame(tick);
})"""


def free_cells(view, prefer):
    """The cells of ``prefer`` (row, col) with no mark and no crater in a Blitz view."""
    cells = {(c["row"], c["col"]): c for c in view["cells"]}
    return [cell for cell in prefer if not cells[cell]["mark"] and not cells[cell]["crater"]]


def x_builds_row_0(a: "Page", b: "Page") -> None:
    """One Blitz round, until it or the match ends: X (page ``a``) builds row 0 while O
    (page ``b``) only dots row 5, so X wins it."""
    while not a.js("() => !!window.__blitz.view.roundEnd || window.__blitz.view.phase === 'over'"):
        va = a.view()
        if va["players"]["X"]["full"]:
            free = free_cells(va, [(0, c) for c in range(6)])
            if free:
                a.click_cell(free[0])
        vb = b.view()
        if vb["players"]["O"]["full"] and vb["phase"] == "live" and not vb["roundEnd"]:
            free = free_cells(vb, [(5, c) for c in (0, 2, 4)])
            if free:
                b.click_cell(free[0])
        a.page.wait_for_timeout(120)


def box_inside(inner, outer, slack=0.5) -> bool:
    """Whether the box ``inner`` (``x``, ``y``, ``w``, ``h`` in CSS px) lies within
    ``outer``, to ``slack`` px (sub-pixel layout)."""
    return (
        inner["x"] >= outer["x"] - slack
        and inner["y"] >= outer["y"] - slack
        and inner["x"] + inner["w"] <= outer["x"] + outer["w"] + slack
        and inner["y"] + inner["h"] <= outer["y"] + outer["h"] + slack
    )


def boxes_overlap(a, b) -> bool:
    """Whether two boxes share any area (touching edges do not count)."""
    return not (
        a["x"] + a["w"] <= b["x"]
        or b["x"] + b["w"] <= a["x"]
        or a["y"] + a["h"] <= b["y"]
        or b["y"] + b["h"] <= a["y"]
    )
