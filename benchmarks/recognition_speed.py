"""Whole-recognition latency per frame (640x480 with 5 cards in view unless told), on 2 CPU threads.

Frames are generated scenes with exactly five face-up cards; each is recognised end to end
(detector, corner fit, rectification, classifier and index reader for every card; ``--corners none``
leaves the fit out, ``--index none`` the index reader). Prints median and p90 milliseconds, where
they went (each network's ONNX Runtime runs, and the rest: cutting crops, post-processing), and the
last step alone (which card lies on which, ``Recognizer.stack``), timed again on each frame's cards.
The host's speed drifts from run to run; the split tells a slower machine (every part slower) from
a slower recogniser.

Run: ``python benchmarks/recognition_speed.py [--frames 100] [--threads 2] [--size 1280x720 --cards 6]``
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from chratze.options import model_options, recognizer_from  # noqa: E402
from datasets.art import all_packs  # noqa: E402
from datasets.scenes import SceneOptions, render_scene  # noqa: E402

# The Recognizer's ONNX Runtime sessions, in the order a frame runs them, and what the split calls them.
NETWORKS = {"det": "detector", "corners": "corner fit", "cls": "classifier", "index": "index reader"}


class Timed:
    """An ONNX Runtime session that adds each run's time to ``spent[name]``."""

    def __init__(self, session, name: str, spent: dict[str, float]) -> None:
        self.session, self.name, self.spent = session, name, spent

    def run(self, *args, **kwargs):
        t = time.perf_counter()
        out = self.session.run(*args, **kwargs)
        self.spent[self.name] += time.perf_counter() - t
        return out

    def __getattr__(self, attr: str):
        return getattr(self.session, attr)


def card_frames(n: int, size: tuple[int, int] = (640, 480), cards: int = 5) -> list:
    """``n`` generated frames of ``size`` with exactly ``cards`` face-up cards in view."""
    packs = all_packs()
    opts = SceneOptions(size=size, max_cards=cards, back_rate=0.0, empty_rate=0.0, hand_rate=0.0, portrait_rate=0.0,
                        things_rate=0.0)
    frames, seed = [], 500_000
    while len(frames) < n:
        sc = render_scene(seed, packs, opts)
        seed += 1
        if len(sc.labelled()) == cards:
            frames.append(sc.image)
    return frames


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=100)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--size", default="640x480", help="frame size, WxH")
    ap.add_argument("--cards", type=int, default=5, help="face-up cards in view")
    model_options(ap)  # --second-look 1.01 reads every card twice: the worst case
    args = ap.parse_args()
    rec = recognizer_from(args, threads=args.threads)
    size = tuple(int(x) for x in args.size.lower().split("x"))
    frames = card_frames(args.frames, size, args.cards)
    for f in frames[:5]:
        rec(f)  # warm up
    spent: dict[str, float] = defaultdict(float)
    for name in NETWORKS:
        if getattr(rec, name) is not None:
            setattr(rec, name, Timed(getattr(rec, name), name, spent))
    for shape, session in rec._sized.items():  # the detector at the frames' own shape (vision.recognize.input_size)
        rec._sized[shape] = Timed(session, "det", spent)
    times, found = [], []
    for f in frames:
        t = time.perf_counter()
        found.append(rec(f))
        times.append((time.perf_counter() - t) * 1000)
    stacking = []
    for f, cards in zip(frames, found):
        t = time.perf_counter()
        rec.stack(f, cards)
        stacking.append((time.perf_counter() - t) * 1000)
    print(f"whole recognition, {size[0]}x{size[1]}, {args.cards} cards in view, {args.threads} threads, second look below "
          f"{rec.settings.second_look}, {len(frames)} frames: {_spread(times)} "
          f"(cards found per frame: median {statistics.median(len(c) for c in found)})")
    print(f"  where it went, mean ms a frame: {_split(spent, sum(times) / 1000, len(frames))}")
    print(f"  of which which card lies on which: {_spread(stacking)} "
          f"({sum(any(d.under for d in c) for c in found)} frames with a card found under another)")


def _spread(ms: list[float]) -> str:
    ms = sorted(ms)
    return f"median {statistics.median(ms):.1f} ms, p90 {ms[int(0.9 * len(ms))]:.1f} ms"


def _split(spent: dict[str, float], total_s: float, frames: int) -> str:
    """Each network's share of the frames' time, and the rest, as mean milliseconds a frame."""
    parts = [(label, spent[name]) for name, label in NETWORKS.items() if name in spent]
    parts.append(("the rest", total_s - sum(s for _, s in parts)))
    return ", ".join(f"{name} {s * 1000 / frames:.1f}" for name, s in parts) + f" (all {total_s * 1000 / frames:.1f})"


if __name__ == "__main__":
    main()
