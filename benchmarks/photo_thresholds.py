"""The photo preset's thresholds chosen on one half of the real photos, reported on the other.

    python benchmarks/photo_thresholds.py [--real DIR] [--grid small|full]

Each combination of the detector score a box needs (``conf``), the lowest score a box is read at
(``floor``), how sure a read under ``conf`` must be (``read_sure``) and the rotated NMS overlap
(``nms_iou``) is scored on the photos of the ``tune`` half (``vision.training.evaluate.photo_half``,
fixed by file name). The rule, set before any figure was seen: most cards found and named right;
ties go to fewer boxes (precision), then to the preset's own value. The ``report`` half is read once,
with the chosen values and with the preset's, and printed beside them; nothing is chosen on it.

The real photos are ``real/poker-photos`` in the shared folder (``../shared`` or ``$CHRATZE_SHARED``);
without them the script says so and stops.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.recognize import CLASSIFIER, CORNERS, DETECTOR, PHOTO, RecognizerSettings  # noqa: E402
from vision.recognize.recognizer import Recognizer  # noqa: E402
from vision.training.evaluate import Report, evaluate_real, real_photos  # noqa: E402

GRIDS = {
    "small": {"conf": (0.3, 0.35, 0.4), "floor": (None, 0.1, 0.15, 0.2), "read_sure": (0.7, 0.8, 0.9),
              "nms_iou": (0.5, 0.7)},
    "full": {"conf": (0.25, 0.3, 0.35, 0.4, 0.45), "floor": (None, 0.1, 0.15, 0.2, 0.25),
             "read_sure": (0.6, 0.7, 0.8, 0.9), "nms_iou": (0.5, 0.6, 0.7)},
}


def candidates(grid: dict[str, tuple]) -> list[RecognizerSettings]:
    """Every combination of the grid on top of PHOTO; without a floor ``read_sure`` reads nothing, so it
    keeps the preset's value there (and a floor at or over conf is no floor)."""
    out = []
    for values in itertools.product(*grid.values()):
        s = dict(zip(grid, values))
        if s["floor"] is None and s["read_sure"] != PHOTO.read_sure or s["floor"] is not None and s["floor"] >= s["conf"]:
            continue
        out.append(replace(PHOTO, **s))
    return out


def score(rep: Report, s: RecognizerSettings) -> tuple:
    """The choosing rule: cards found and named right, then fewer boxes, then nearest the preset."""
    nearness = sum(getattr(s, k) == getattr(PHOTO, k) for k in GRIDS["full"])
    return rep.right, -rep.predictions, nearness


def line(name: str, s: RecognizerSettings, rep: Report) -> str:
    return (f"{name:10s} conf {s.conf:.2f} floor {s.floor!s:4s} read_sure {s.read_sure:.2f} nms_iou {s.nms_iou:.2f}: "
            f"recall {rep.recall:.3f} ({rep.found}/{rep.truths}), rank {rep.accuracy:.3f} ({rep.right}/{rep.found}), "
            f"precision {rep.precision:.3f}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--real", type=Path, default=None, help="labelled real photos (default: the shared ones)")
    p.add_argument("--grid", choices=sorted(GRIDS), default="small")
    args = p.parse_args(argv)
    real = args.real or real_photos()
    if not real.is_dir():
        print(f"error: real photos not found at {real} (set CHRATZE_SHARED or --real)", file=sys.stderr)
        return 1

    def run(s: RecognizerSettings, half: str) -> Report:
        return evaluate_real(Recognizer(DETECTOR, CLASSIFIER, corners=CORNERS, settings=s, threads=2), real, half=half)

    tried = []
    for s in candidates(GRIDS[args.grid]):
        rep = run(s, "tune")
        tried.append((score(rep, s), s, rep))
        print(line("tune", s, rep), flush=True)
    _, chosen, rep = max(tried, key=lambda x: x[0])
    preset = next(r for _, s, r in tried if s == PHOTO) if any(s == PHOTO for _, s, _ in tried) else run(PHOTO, "tune")
    print("\nchosen on the tune half:")
    print(line("tune", chosen, rep))
    print(line("preset", PHOTO, preset))
    print("\nthe report half (nothing chosen on it):")
    print(line("chosen", chosen, run(chosen, "report")))
    print(line("preset", PHOTO, run(PHOTO, "report")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
