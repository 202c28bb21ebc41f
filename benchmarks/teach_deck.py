"""Teaching a pack no network saw: time and memory of teaching, and held-out hands before and after.

    python -m datasets.fetched              # once: fetches the unseen pack (kennard) with the others
    python benchmarks/teach_deck.py                     # teach from 36 photos: wall time, peak memory, figures
    python benchmarks/teach_deck.py --hands 20          # and 20 held-out hands with the pack, before and after
    python benchmarks/teach_deck.py --whole --hands 20  # the whole classifier fine-tuned instead (needs torch)

The pack is Adrian Kennard's (``datasets.fetched.UNSEEN``), kept out of every training set. Each card
is photographed once on a table of the held-out world (``datasets.held_out.capture_frame``: its
cloths, light, tilt and webcam), written as ``<code>.jpg`` as a phone would, and taught with
``chratze teach --photos`` in a fresh data folder, as a user would. A card whose photo is refused is
photographed again on another table, as a user would retake it. The hands are
``benchmarks/live_table.py --world held-out --pack kennard`` without and with ``--deck``.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from datasets.fetched import UNSEEN, fetch, load  # noqa: E402
from datasets.held_out import HELD_OUT_SEED, capture_frame  # noqa: E402
from vision.teach.packs import PACKS  # noqa: E402

PHOTO_SEED = HELD_OUT_SEED + 90_000  # the capture tables: held-out seeds no hand uses


def photograph(folder: Path, codes: list[str], pack: dict, attempt: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for i, code in enumerate(codes):
        rgb = capture_frame(pack[code], PHOTO_SEED + 100 * attempt + i)
        cv2.imwrite(str(folder / f"{code}.jpg"), rgb[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 92])


def teach(name: str, photos: Path, env: dict, whole: bool) -> tuple[int, str]:
    cmd = [sys.executable, "-m", "chratze", "teach", name, "--pack", "poker-36", "--photos", str(photos)]
    run = subprocess.run(cmd + (["--whole"] if whole else []), env=env, capture_output=True, text=True, cwd=ROOT)
    return run.returncode, run.stdout + run.stderr


def hands(args, env: dict, deck: str | None) -> str:
    cmd = [sys.executable, "benchmarks/live_table.py", "--world", "held-out", "--pack", "kennard",
           "--hands", str(args.hands), "--first-seed", str(args.first_seed), "--workers", str(args.workers)]
    cmd += ["--deck", deck] if deck else []
    return subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=ROOT).stdout


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=0, help="held-out hands with the pack, before and after (0: none)")
    ap.add_argument("--first-seed", type=int, default=81, help="the first hand's held-out seed (from 700,000)")
    ap.add_argument("--workers", type=int, default=1, help="hands side by side (live_table.py --workers)")
    ap.add_argument("--data", help="the data folder to teach into (default: a fresh temporary one)")
    ap.add_argument("--whole", action="store_true", help="teach with chratze teach --whole (the whole classifier)")
    args = ap.parse_args(argv)
    fetch(UNSEEN["kennard"])
    pack, codes = load("kennard"), list(PACKS["poker-36"].codes)
    data = Path(args.data or tempfile.mkdtemp(prefix="chratze-teach-"))
    env = {**os.environ, "CHRATZE_DATA": str(data)}
    name, wall, retakes = "kennard-bench" + ("-whole" if args.whole else ""), 0.0, 0
    for attempt in range(3):
        photos = data / f"photos-{attempt}"
        photograph(photos, codes, pack, attempt)
        t0 = time.time()
        rc, out = teach(name, photos, env, args.whole)
        wall += time.time() - t0
        print("\n".join(line for line in out.splitlines() if "%|" not in line and line.strip()))  # no progress bars
        if rc != 1 or "still to capture" not in out:
            break
        codes = [line.split("(")[-1].rstrip(")") for line in out.split("still to capture: ")[1].splitlines()[0].split(", ")]
        retakes += len(codes)
        print(f"-- retaking {len(codes)} card(s) on other tables")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"\nteaching from 36 photos: {wall:.0f} s wall in all (bar: <= 600 s), peak memory {peak:.0f} MB "
          f"(bar: < 4096 MB), {retakes} photo(s) retaken; data folder {data}")
    if args.hands:
        for deck in (None, name):
            print(f"\n== {'after teaching (--deck ' + name + ')' if deck else 'before teaching (the shipped model)'}")
            print(hands(args, env, deck).rstrip())


if __name__ == "__main__":
    main()
