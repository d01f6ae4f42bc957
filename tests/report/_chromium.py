"""Drive headless Chromium over ``--remote-debugging-pipe`` (Chrome DevTools Protocol, NUL-delimited JSON
on file descriptors 3 and 4) to measure a page and take screenshots. Test-only: the report itself has no
scripts; the measurement runs in the browser through ``Runtime.evaluate`` sent from the test."""

from __future__ import annotations

import base64
import fcntl
import json
import os
import shutil
import subprocess
import sys
import time

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")

_TRAMPOLINE = (
    "import os, sys; a, b = int(sys.argv[1]), int(sys.argv[2]); os.dup2(a, 3); os.dup2(b, 4); "
    "os.close(a); os.close(b); os.execv(sys.argv[3], sys.argv[3:])"
)


class Browser:
    """A headless Chromium with one page of the given viewport size."""

    def __init__(self, profile_dir, width=1280, height=900, timeout=60.0):
        self.timeout = timeout
        to_chrome_r, self._w = os.pipe()
        self._r, from_chrome_w = os.pipe()
        # Chromium reads commands on fd 3 and writes answers on fd 4: a small Python trampoline maps the pipe
        # ends there (moved to fds >= 10 first so the dup2 calls cannot clobber each other) and execs.
        a, b = fcntl.fcntl(to_chrome_r, fcntl.F_DUPFD, 10), fcntl.fcntl(from_chrome_w, fcntl.F_DUPFD, 10)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        args = [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync",
            "--disable-background-networking", "--disable-component-update", "--disable-extensions",
            "--hide-scrollbars", "--mute-audio", f"--user-data-dir={profile_dir}", "--remote-debugging-pipe",
            "about:blank",
        ]  # fmt: skip
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _TRAMPOLINE, str(a), str(b), CHROMIUM, *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            pass_fds=(a, b),
        )
        os.close(a)
        os.close(b)
        self._buf = b""
        self._id = 0
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
            session=True,
        )
        self.send("Page.enable", session=True)

    def _read_message(self, deadline):
        while b"\0" not in self._buf:
            if time.monotonic() > deadline:
                raise TimeoutError("no answer from chromium")
            chunk = os.read(self._r, 1 << 16)
            if not chunk:
                raise RuntimeError(
                    "chromium closed the pipe: " + self.proc.stderr.read().decode(errors="replace")[-2000:]
                )
            self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None, *, session=False, wait_event=None):
        """Send one command; return its result (after the event ``wait_event``, when given)."""
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = self.session
        os.write(self._w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        result, seen_event = None, wait_event is None
        while result is None or not seen_event:
            m = self._read_message(deadline)
            if m.get("id") == self._id:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                result = m.get("result", {})
            elif wait_event and m.get("method") == wait_event:
                seen_event = True
        return result

    def goto(self, url):
        self.send("Page.navigate", {"url": url}, session=True, wait_event="Page.loadEventFired")

    def evaluate(self, expression):
        r = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session=True)
        if "exceptionDetails" in r:
            raise RuntimeError(r["exceptionDetails"])
        return r["result"].get("value")

    def screenshot(self, path, *, y=0, height=None, width=1280):
        params = {"format": "png"}
        if height is not None:
            params["clip"] = {"x": 0, "y": y, "width": width, "height": height, "scale": 1}
            params["captureBeyondViewport"] = True
        data = self.send("Page.captureScreenshot", params, session=True)["data"]
        with open(path, "wb") as fh:
            fh.write(base64.b64decode(data))
        return path

    def close(self):
        try:
            self.send("Browser.close")
        except Exception:
            pass
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._r, self._w):
            try:
                os.close(fd)
            except OSError:
                pass
        if self.proc.stderr:
            self.proc.stderr.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
