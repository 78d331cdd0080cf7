"""Open a page in headless Chromium and report what happened: errors, requests, charts, a screenshot.

Speaks the DevTools protocol over `--remote-debugging-pipe` (JSON messages separated by NUL on
file descriptors 3 and 4), so no Python package is needed beyond the standard library. Used by
the HTML report tests; `find_browser()` says why there is none, for a skip.
"""

from __future__ import annotations

import base64
import json
import os
import queue
import shutil
import struct
import subprocess
import tempfile
import threading
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
ENV = "SENGOKU_TEST_BROWSER"  # a browser to use instead of looking one up
TIMEOUT = 60.0

# What the page itself reports about its charts (run in the page after load).
CHARTS_JS = """JSON.stringify(Array.from(document.querySelectorAll('svg.chart')).map(svg => {
  const box = svg.getBoundingClientRect();
  const ids = (svg.getAttribute('aria-labelledby') || '').split(' ');
  const named = ids.map(id => document.getElementById(id)).filter(e => e && svg.contains(e));
  return {id: svg.id, role: svg.getAttribute('role'), width: box.width, height: box.height,
          title: named.length ? named[0].textContent : '', desc: named.length > 1 ? named[1].textContent : '',
          series: svg.querySelectorAll('polyline.series').length,
          drawn: Array.from(svg.querySelectorAll('polyline.series, polygon.band, rect.bar'))
                 .filter(e => { const b = e.getBBox(); return b.width > 0 || b.height > 0; }).length,
          legend: svg.querySelectorAll('g.legend').length,
          texts: svg.querySelectorAll('text').length};
}))"""


def find_browser() -> tuple[str | None, str]:
    """Return (the browser's path, '') or (None, why there is none)."""
    given = os.environ.get(ENV)
    if given:
        return (given, "") if shutil.which(given) else (None, f"${ENV}={given} is not an executable")
    for name in NAMES:
        path = shutil.which(name)
        if path:
            return path, ""
    return None, f"no headless Chromium found ({', '.join(NAMES)}; or set ${ENV}); Debian: apt-get install chromium"


@dataclass
class PageReport:
    """What loading a page did."""

    errors: list[str] = field(default_factory=list)  # console errors, uncaught exceptions, error log entries
    requests: list[str] = field(default_factory=list)  # every URL fetched but the page itself
    charts: list[dict[str, Any]] = field(default_factory=list)
    screenshot: bytes = b""  # PNG of the whole page, scaled down
    chart_screenshot: bytes = b""  # PNG of the first chart, full size
    size: tuple[float, float] = (0.0, 0.0)  # the page's CSS width and height


class _Pipe:
    """The DevTools protocol over a pipe: send commands, wait for their answers, keep every event."""

    def __init__(self, browser: str, profile: str) -> None:
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()

        def wire() -> None:  # in the child: the browser reads commands on fd 3 and writes on fd 4
            a, b = os.dup(to_browser_r), os.dup(from_browser_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        args = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
                f"--user-data-dir={profile}", "--no-first-run", "--no-default-browser-check",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-default-apps", "--disable-extensions", "--mute-audio", "--hide-scrollbars",
                "about:blank"]
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, close_fds=False, preexec_fn=wire)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._next = 0
        self.events: list[dict[str, Any]] = []
        self._inbox: queue.Queue[dict[str, Any] | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        buffer = b""
        while True:
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                self._inbox.put(None)
                return
            buffer += chunk
            *messages, buffer = buffer.split(b"\0")
            for m in messages:
                self._inbox.put(json.loads(m))

    def _take(self, deadline: float) -> dict[str, Any]:
        message = self._inbox.get(timeout=max(0.01, deadline - time.monotonic()))
        if message is None:
            raise RuntimeError(f"the browser closed its pipe: {self.stderr()}")
        if "method" in message:
            self.events.append(message)
        return message

    def call(self, method: str, session: str | None = None, **params: Any) -> dict[str, Any]:
        self._next += 1
        command: dict[str, Any] = {"id": self._next, "method": method, "params": params}
        if session:
            command["sessionId"] = session
        os.write(self._to_browser, json.dumps(command).encode() + b"\0")
        deadline = time.monotonic() + TIMEOUT
        while True:
            message = self._take(deadline)
            if message.get("id") == self._next:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]

    def wait_for(self, method: str, deadline: float) -> None:
        if any(e["method"] == method for e in self.events):
            return
        while self._take(deadline).get("method") != method:
            pass

    def stderr(self) -> str:
        if self.proc.poll() is None:
            return "(still running)"
        return (self.proc.stderr.read() if self.proc.stderr else b"").decode(errors="replace")[-2000:]

    def close(self) -> None:
        try:
            self.call("Browser.close")
        except Exception:  # noqa: BLE001 - closing anyway
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._to_browser)
        if self.proc.stderr:
            self.proc.stderr.close()


def open_page(browser: str, page: Path, width: int = 1280, height: int = 900) -> PageReport:
    """Load `page` (a file) in headless `browser`; return its errors, requests, charts and screenshots."""
    url = page.resolve().as_uri()
    report = PageReport()
    with tempfile.TemporaryDirectory(prefix="sengoku-browser-") as profile:
        pipe = _Pipe(browser, profile)
        try:
            target = pipe.call("Target.createTarget", url="about:blank")["targetId"]
            session = pipe.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
            for domain in ("Page", "Runtime", "Log", "Network"):
                pipe.call(f"{domain}.enable", session)
            pipe.call("Emulation.setDeviceMetricsOverride", session, width=width, height=height,
                      deviceScaleFactor=1, mobile=False)
            pipe.events.clear()
            pipe.call("Page.navigate", session, url=url)
            pipe.wait_for("Page.loadEventFired", time.monotonic() + TIMEOUT)
            time.sleep(0.3)  # let late console messages and requests arrive
            report.charts = json.loads(pipe.call("Runtime.evaluate", session, expression=CHARTS_JS,
                                                 returnByValue=True)["result"]["value"])
            size = pipe.call("Page.getLayoutMetrics", session)["cssContentSize"]
            report.size = (size["width"], size["height"])
            report.screenshot = base64.b64decode(pipe.call(
                "Page.captureScreenshot", session, format="png", captureBeyondViewport=True,
                clip={"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 0.25})["data"])
            first = pipe.call("Runtime.evaluate", session, returnByValue=True, expression=(
                "(() => { const b = document.querySelector('svg.chart').getBoundingClientRect();"
                " return [b.x + scrollX, b.y + scrollY, b.width, b.height]; })()"))["result"]["value"]
            report.chart_screenshot = base64.b64decode(pipe.call(
                "Page.captureScreenshot", session, format="png", captureBeyondViewport=True,
                clip={"x": first[0], "y": first[1], "width": first[2], "height": first[3], "scale": 1})["data"])
        finally:
            pipe.close()
    for event in pipe.events:
        method, params = event["method"], event.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            report.errors.append("console: " + " ".join(str(a.get("value", a.get("description", "")))
                                                         for a in params.get("args", [])))
        elif method == "Runtime.exceptionThrown":
            report.errors.append("exception: " + str(params.get("exceptionDetails", {}).get("text")))
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            report.errors.append(f"log ({params['entry'].get('source')}): {params['entry'].get('text')}")
        elif method == "Network.requestWillBeSent" and params.get("request", {}).get("url") != url:
            report.requests.append(params["request"]["url"])
    return report


def png_pixels(png: bytes) -> tuple[int, int, list[tuple[int, ...]]]:
    """Decode an 8-bit RGB or RGBA, non-interlaced PNG (what Chromium writes): width, height, pixels."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, data, header = 8, b"", b""
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        body = png[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            data += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(data)
    stride = width * channels
    rows: list[bytearray] = []
    previous = bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        row = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):  # PNG filters: None, Sub, Up, Average, Paeth
            a = row[i - channels] if i >= channels else 0
            b = previous[i]
            if kind == 1:
                row[i] = (row[i] + a) & 255
            elif kind == 2:
                row[i] = (row[i] + b) & 255
            elif kind == 3:
                row[i] = (row[i] + (a + b) // 2) & 255
            elif kind == 4:
                c = previous[i - channels] if i >= channels else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(row)
        previous = row
    pixels = [tuple(row[x:x + 3]) for row in rows for x in range(0, stride, channels)]
    return width, height, pixels


# What a browser test module needs: the browser, and a mark that skips without one, except in CI,
# which sets SENGOKU_REQUIRE_BROWSER=1 so that a browser that failed to install is a failure.
BROWSER, NO_BROWSER = find_browser()
REQUIRED = os.environ.get("SENGOKU_REQUIRE_BROWSER") == "1"


def needs_browser(test: Any) -> Any:
    """Mark a test that opens a page in the browser: skipped, with the reason, where none is found."""
    import pytest

    return pytest.mark.skipif(BROWSER is None and not REQUIRED, reason=NO_BROWSER)(test)


def show(folder: Path, name: str, text: str) -> PageReport:
    """Write `text` to `folder/name` and open it in the browser."""
    assert BROWSER is not None, NO_BROWSER
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return open_page(BROWSER, path)
