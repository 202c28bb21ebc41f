"""One classifier training set from several, by symbolic links (no image is copied).

A fine-tuning round mixes sets in chosen shares: the new crops it is about, and enough of the
old ones that the classifier does not forget them. ``SET:SHARE`` takes that share of each
class of ``SET`` (0.4: a seeded random 40 %; 2: every crop twice; validation crops are never
repeated)::

    python -m datasets.merge runs/data6 runs/data234:0.4 runs/data5:2

writes ``runs/data6/classify/{train,val}/<card>/`` for ``python -m vision.train --stage classify``.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from .art import CLASS_NAMES

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png"}


def parse_source(text: str) -> tuple[Path, float]:
    path, _, share = text.partition(":")
    value = float(share) if share else 1.0
    if value <= 0:
        raise ValueError(f"{text}: the share must be above 0")
    if not (Path(path) / "classify").is_dir():
        raise ValueError(f"{path} has no classify/ folder (write one with datasets.build or datasets.detector_crops)")
    return Path(path), value


def chosen(files: list[Path], share: float, rng: random.Random) -> list[Path]:
    """``share`` of ``files``: whole repeats, then a random part of one more pass."""
    files = sorted(files)
    whole, part = int(share), share - int(share)
    picked = files * whole
    extra = files[:]
    rng.shuffle(extra)
    return picked + sorted(extra[: round(part * len(files))])


def merge(out: Path, sources: list[tuple[Path, float]], seed: int = 0) -> dict[str, int]:
    """Link the chosen crops under ``out/classify``; returns the number per split."""
    rng = random.Random(seed)
    counts = {}
    for split in ("train", "val"):
        n = 0
        for code in CLASS_NAMES:
            folder = out / "classify" / split / code
            folder.mkdir(parents=True, exist_ok=True)
            for src, share in sources:
                here = src / "classify" / split / code
                files = [f for f in here.iterdir() if f.suffix.lower() in IMAGE_SUFFIXES] if here.is_dir() else []
                for k, f in enumerate(chosen(files, min(share, 1.0) if split == "val" else share, rng)):
                    link = folder / f"{src.name}_{k}_{f.name}"
                    if not link.exists():
                        link.symlink_to(f.resolve())
                    n += 1
        counts[split] = n
    return counts


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("sources", nargs="+", help="SET or SET:SHARE")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    try:
        sources = [parse_source(s) for s in args.sources]
    except ValueError as exc:
        raise SystemExit(f"error: {exc}") from None
    counts = merge(args.out, sources, args.seed)
    print(f"{counts['train']} training and {counts['val']} validation crops linked under {args.out / 'classify'}")


if __name__ == "__main__":
    main()
