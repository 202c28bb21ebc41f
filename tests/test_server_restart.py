"""Fault test: the server killed mid-hand (SIGKILL, nothing flushed by hand) and started again
shows the same hand with nothing lost."""

import json
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PIN = "1357"


def start(data: Path, port: str = "0") -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-m", "chratze", "serve", "--host", "127.0.0.1", "--port", port,
                             "--data", str(data), "--pin", PIN], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    for line in proc.stdout:
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if m:
            return proc, f"http://127.0.0.1:{m.group(1)}"
    raise AssertionError("the server did not start")


def call(base: str, path: str, body: dict | None = None) -> dict:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode() if body is not None else None,
                                 headers={"Content-Type": "application/json", "X-Table-Pin": PIN})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)


def test_a_server_killed_mid_hand_comes_back_with_the_same_hand(tmp_path):
    proc, base = start(tmp_path)
    try:
        call(base, "/api/hand/start", {"seats": ["Anna", "Beat", "Cla", "Doris"]})
        call(base, "/api/upcard", {"card": "Qs"})
        for p, b in (("Beat", "chratze"), ("Cla", "metcho"), ("Doris", "weg"), ("Anna", "metcho")):
            call(base, "/api/bid", {"player": p, "bid": b})
        for p in ("Beat", "Cla", "Anna"):
            call(base, "/api/exchange", {"player": p, "count": 1})
        call(base, "/api/play", {"player": "Beat", "card": "As"})
        before = call(base, "/api/play", {"player": "Cla", "card": "7s"})
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    proc, base = start(tmp_path)
    try:
        after = call(base, "/api/state")
        assert after["hand"] == before["hand"] and after["pot"] == before["pot"]
        assert after["hand"]["turn"] == "Anna"
        call(base, "/api/play", {"player": "Anna", "card": "Ks"})  # and the hand goes on
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
