"""Headless Chromium driven over the DevTools protocol, standard library only.

The browser tests (tools/report_browser_test.py for report.html,
tools/live_browser_test.py for the live page of `arena run --serve`) share
this driver. Chromium is started with --remote-debugging-pipe: commands go
to it on its fd 3 and answers come back on its fd 4, as NUL-terminated JSON
messages, so no port is opened and nothing else can drive it.

    browser = Browser(chromium, workdir)   # workdir: its profile and log
    browser.open(url)                      # returns once the page has loaded
    browser.eval("document.title")         # a value, by JSON
    browser.wait_for("cond", "what")       # polls an expression until it is true
    browser.screenshot(path)               # a PNG of the page
    browser.problems()                     # script errors, console errors, stray requests
    browser.close()
"""

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import time
from pathlib import Path

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--remote-debugging-pipe",
]
# The longest any one browser step may take before the test gives up.
STEP_TIMEOUT_S = 30.0
# How often wait_for looks again at a condition that is not yet true.
POLL_S = 0.05


class CheckFailed(Exception):
    """A check of the page failed."""


def find_chromium(name=None):
    """The path of Chromium (`name`, $CHROMIUM or `chromium`), or None."""
    return shutil.which(name or os.environ.get("CHROMIUM", "chromium"))


def require_chromium(test, name=None):
    """Chromium's path, or None after saying the test skipped; with
    ENDODOI_REQUIRE_CHROMIUM=1 a missing Chromium raises CheckFailed."""
    chromium = find_chromium(name)
    if chromium:
        return chromium
    why = f"{test}: no {name or os.environ.get('CHROMIUM', 'chromium')} (apt-get install chromium)"
    if os.environ.get("ENDODOI_REQUIRE_CHROMIUM") == "1":
        raise CheckFailed(why + ", and ENDODOI_REQUIRE_CHROMIUM=1 requires it")
    print(f"SKIPPED: {why}")
    return None


class Browser:
    """Headless Chromium driven over the DevTools protocol on fds 3 and 4."""

    def __init__(self, chromium, workdir):
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        cmd_r, self.cmd_w = os.pipe()  # we write commands; Chromium reads fd 3
        self.res_r, res_w = os.pipe()  # Chromium writes fd 4; we read

        def plumb():
            # Out of the way of 3 and 4 first, then onto them (inheritable).
            a = fcntl.fcntl(cmd_r, fcntl.F_DUPFD_CLOEXEC, 10)
            b = fcntl.fcntl(res_w, fcntl.F_DUPFD_CLOEXEC, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.log_path = self.workdir / "chromium.log"
        self.log = open(self.log_path, "wb")
        profile = self.workdir / "profile"
        profile.mkdir()
        self.proc = subprocess.Popen(
            [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=self.log,
            stderr=self.log,
            preexec_fn=plumb,
            close_fds=False,
        )
        os.close(cmd_r)
        os.close(res_w)
        self.buf = b""
        self.next_id = 0
        self.events = []
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call(
            "Target.attachToTarget", {"targetId": target, "flatten": True}
        )["sessionId"]
        for domain in ["Runtime", "Log", "Page", "Network"]:
            self.page(f"{domain}.enable")

    def close(self):
        try:
            self.call("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self.cmd_w, self.res_r):
            try:
                os.close(fd)
            except OSError:
                pass
        self.log.close()

    def _message(self, deadline):
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise CheckFailed("the browser did not answer in time")
            ready, _, _ = select.select([self.res_r], [], [], left)
            if ready:
                chunk = os.read(self.res_r, 1 << 20)
                if not chunk:
                    raise CheckFailed(
                        f"the browser exited (log: {self.log_path})"
                    )
                self.buf += chunk
        raw, self.buf = self.buf.split(b"\0", 1)
        return json.loads(raw)

    def call(self, method, params=None, session=None, timeout=STEP_TIMEOUT_S):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        data = json.dumps(msg).encode() + b"\0"
        while data:
            data = data[os.write(self.cmd_w, data):]
        deadline = time.monotonic() + timeout
        while True:
            m = self._message(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise CheckFailed(f"{method}: {m['error']}")
                return m.get("result", {})
            self.events.append(m)

    def page(self, method, params=None):
        return self.call(method, params, session=self.session)

    def wait_event(self, method):
        deadline = time.monotonic() + STEP_TIMEOUT_S
        while True:
            for i, e in enumerate(self.events):
                if e.get("method") == method:
                    return self.events.pop(i)
            self.events.append(self._message(deadline))

    def eval(self, expression):
        r = self.page(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
        )
        if "exceptionDetails" in r:
            raise CheckFailed(f"evaluating {expression[:60]}...: {r['exceptionDetails']}")
        return r["result"].get("value")

    def wait_for(self, expression, what, timeout=STEP_TIMEOUT_S):
        """The first truthy value of `expression`, evaluated again every
        POLL_S seconds; CheckFailed naming `what` (and the last value) if it
        is not true within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.eval(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise CheckFailed(f"{what}: not seen within {timeout:.0f} s (last: {value!r})")
            time.sleep(POLL_S)

    def open(self, url):
        self.events = [e for e in self.events if e.get("method") != "Page.loadEventFired"]
        self.page("Page.navigate", {"url": url})
        self.wait_event("Page.loadEventFired")

    def set_width(self, width, height=900):
        """The window's size in CSS pixels, at a device scale of 1."""
        self.page("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def go_to_hash(self, fragment):
        """Sets the address's fragment and returns once the page has handled
        the hashchange event (the page's own listener runs first)."""
        self.eval(
            "new Promise((done) => { addEventListener('hashchange', () => done(), {once: true});"
            f" location.hash = {json.dumps(fragment)}; }})"
        )

    def key(self, key, code, key_code):
        for kind in ("keyDown", "keyUp"):
            self.page(
                "Input.dispatchKeyEvent",
                {"type": kind, "key": key, "code": code, "windowsVirtualKeyCode": key_code},
            )

    def click(self, selector):
        box = self.eval(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
            " e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();"
            " return [r.x + r.width / 2, r.y + r.height / 2]; })()"
        )
        for kind in ("mousePressed", "mouseReleased"):
            self.page(
                "Input.dispatchMouseEvent",
                {"type": kind, "x": box[0], "y": box[1], "button": "left", "clickCount": 1},
            )

    def problems(self, allowed=("file:", "data:", "about:")):
        """Script errors, console errors and warnings, and requests to
        anything whose address does not start with one of `allowed`, seen
        so far."""
        out = []
        for e in self.events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.exceptionThrown":
                d = p["exceptionDetails"]
                text = d.get("exception", {}).get("description") or d.get("text")
                out.append(f"script error: {text} (line {d.get('lineNumber')})")
            elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "warning", "assert"):
                args = " ".join(str(a.get("value", a.get("description"))) for a in p.get("args", []))
                out.append(f"console {p['type']}: {args}")
            elif m == "Log.entryAdded" and p["entry"].get("level") in ("error", "warning"):
                out.append(f"browser log {p['entry']['level']}: {p['entry'].get('text')}")
            elif m == "Network.requestWillBeSent":
                url = p["request"]["url"]
                if not url.startswith(tuple(allowed)):
                    out.append(f"request to {url}: the page must be self-contained")
        return out

    def screenshot(self, path, selector=None):
        """A PNG of the whole page (or of the element `selector`) at `path`."""
        params = {"format": "png", "captureBeyondViewport": True}
        if selector:
            box = self.eval(
                f"(() => {{ const r = document.querySelector({json.dumps(selector)})"
                ".getBoundingClientRect(); return [r.x + scrollX, r.y + scrollY, r.width, r.height]; })()"
            )
            params["clip"] = {"x": box[0], "y": box[1], "width": box[2], "height": box[3], "scale": 1}
        Path(path).write_bytes(base64.b64decode(self.page("Page.captureScreenshot", params)["data"]))
