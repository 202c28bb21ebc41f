"""Load on the tablet page: 20 live viewers (SSE) and one writer tapping through whole hands.

    python benchmarks/page_load.py --viewers 20 --hands 2

Starts ``chratze serve`` as a separate process, opens the viewers' event streams, then posts
every event of simulated hands one by one. For each write, the update time of a viewer is from
the moment the write was sent to the moment that viewer received a state at least that new.
Prints the median, 99th percentile and slowest update.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.events import HandsKnown, HandStarted  # noqa: E402
from engine.session import Session  # noqa: E402
from engine.simulate import simulate_hand  # noqa: E402

PIN = "9999"


def start_server(data: str) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-m", "chratze", "serve", "--host", "127.0.0.1", "--port", "0",
                             "--data", data, "--pin", PIN], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    for line in proc.stdout:
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if m:
            return proc, f"http://127.0.0.1:{m.group(1)}"
    raise SystemExit("server did not start")


def viewer(base: str, arrivals: list, ready: threading.Event, stop: threading.Event) -> None:
    with urllib.request.urlopen(base + "/api/events", timeout=60) as stream:
        ready.set()
        for raw in stream:
            if stop.is_set():
                return
            line = raw.decode()
            if line.startswith("id: "):
                arrivals.append((int(line[4:]), time.perf_counter()))


def post(base: str, body: dict) -> int:
    req = urllib.request.Request(base + "/api/event", data=json.dumps({"event": body}).encode(),
                                 headers={"Content-Type": "application/json", "X-Table-Pin": PIN})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)["version"]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--viewers", type=int, default=20)
    ap.add_argument("--hands", type=int, default=2)
    ap.add_argument("--gap", type=float, default=0.05, help="seconds between taps")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as data:
        proc, base = start_server(data)
        try:
            stop = threading.Event()
            streams = [[] for _ in range(args.viewers)]
            readies = [threading.Event() for _ in streams]
            for s, r in zip(streams, readies):
                threading.Thread(target=viewer, args=(base, s, r, stop), daemon=True).start()
            for r in readies:
                r.wait(10)
            sent: list[tuple[int, float]] = []
            rng, session = random.Random(1), Session()
            for _ in range(args.hands):
                start = session.next_hand(("Anna", "Beat", "Cla", "Doris"))
                sim = simulate_hand(rng, start=start, known=True)
                for ev in sim.events:
                    if isinstance(ev, HandsKnown):
                        continue
                    session.record(ev if not isinstance(ev, HandStarted) else start)
                    t = time.perf_counter()
                    sent.append((post(base, ev.to_dict()), t))
                    time.sleep(args.gap)
            time.sleep(1.0)
            stop.set()
        finally:
            proc.kill()
            proc.wait()
    delays = []
    for arrivals in streams:
        for version, t in sent:
            got = next((ta for v, ta in arrivals if v >= version), None)
            delays.append(float("inf") if got is None else got - t)
    missing = sum(d == float("inf") for d in delays)
    finite = sorted(d for d in delays if d != float("inf"))
    print(f"{args.viewers} viewers, 1 writer, {len(sent)} taps over {args.hands} hands")
    print(f"update time (tap sent -> viewer has it): median {statistics.median(finite) * 1000:.1f} ms, "
          f"p99 {finite[int(0.99 * (len(finite) - 1))] * 1000:.1f} ms, slowest {finite[-1] * 1000:.1f} ms; "
          f"updates never received: {missing}")


if __name__ == "__main__":
    main()
