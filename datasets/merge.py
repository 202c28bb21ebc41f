"""One training set from several, by symbolic links or lists of paths (no image is copied).

A fine-tuning round mixes sets in chosen shares: the new images it is about, and enough of the
old ones that the model does not forget them. ``SET:SHARE`` takes that share of ``SET`` (0.4 or
2/5: a seeded random 40 %; 2: everything twice; validation images are never repeated).
Classifier crops are chosen class by class and linked::

    python -m datasets.merge runs/data6 runs/data234:0.4 runs/data5:2

writes ``runs/data6/classify/{train,val}/<card>/`` for ``python -m vision.training.train --stage classify``.
Detector scenes (``--detect``) are listed by absolute path, since a scene is an image and its
label file side by side; ``--val SET`` validates on all of that set's scenes instead::

    python -m datasets.merge runs/data11 runs/data8:1/3 runs/data2:1/6 runs/data10 \\
        --detect --val runs/data8 --seed 11

writes ``runs/data11/detect/{train.txt,val.txt,data.yaml}`` for ``--stage detect``.
"""

from __future__ import annotations

import argparse
import random
from fractions import Fraction
from pathlib import Path

from .art import CROP_CLASSES

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png"}
SPLITS = ("train", "val")


def parse_source(text: str, kind: str = "classify") -> tuple[Path, float]:
    path, _, share = text.partition(":")
    try:
        value = float(Fraction(share)) if share else 1.0
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"{text}: the share must be a number such as 0.4, 2 or 1/3") from None
    if value <= 0:
        raise ValueError(f"{text}: the share must be above 0")
    if not (Path(path) / kind).is_dir():
        raise ValueError(f"{path} has no {kind}/ folder (write one with datasets.build"
                         + (" or datasets.detector_crops)" if kind == "classify" else ")"))
    return Path(path), value


def chosen(files: list[Path], share: float, rng: random.Random) -> list[Path]:
    """``share`` of ``files``: whole repeats, then a random part of one more pass."""
    files = sorted(files)
    whole, part = int(share), share - int(share)
    picked = files * whole
    extra = files[:]
    rng.shuffle(extra)
    return picked + sorted(extra[: round(part * len(files))])


def images_in(folder: Path) -> list[Path]:
    return [f for f in folder.iterdir() if f.suffix.lower() in IMAGE_SUFFIXES] if folder.is_dir() else []


def split_share(share: float, split: str) -> float:
    return min(share, 1.0) if split == "val" else share


def merge(out: Path, sources: list[tuple[Path, float]], seed: int = 0) -> dict[str, int]:
    """Link the chosen crops under ``out/classify``; returns the number per split."""
    rng = random.Random(seed)
    counts = {}
    listed = {(src, split, code): images_in(src / "classify" / split / code)
              for src, _ in sources for split in SPLITS for code in CROP_CLASSES}
    codes = [c for c in CROP_CLASSES if any(listed[src, split, c] for src, _ in sources for split in SPLITS)]
    for split in SPLITS:  # a class no source has (sets from before ``back``) gets no empty folder
        n = 0
        for code in codes:
            folder = out / "classify" / split / code
            folder.mkdir(parents=True, exist_ok=True)
            for src, share in sources:
                for k, f in enumerate(chosen(listed[src, split, code], split_share(share, split), rng)):
                    link = folder / f"{src.name}_{k}_{f.name}"
                    if not link.exists():
                        link.symlink_to(f.resolve())
                    n += 1
        counts[split] = n
    return counts


def merge_scenes(out: Path, sources: list[tuple[Path, float]], seed: int = 0,
                 val: Path | None = None) -> dict[str, int]:
    """List the chosen scenes in ``out/detect/{train,val}.txt`` with a ``data.yaml``; returns the number per split."""
    rng = random.Random(seed)
    folder = out / "detect"
    folder.mkdir(parents=True, exist_ok=True)
    counts = {}
    for split in SPLITS:
        if split == "val" and val is not None:
            picked = sorted(images_in(val / "detect" / "images" / "val"))
        else:
            picked = [f for src, share in sources
                      for f in chosen(images_in(src / "detect" / "images" / split), split_share(share, split), rng)]
        (folder / f"{split}.txt").write_text("".join(f"{f.resolve()}\n" for f in picked))
        counts[split] = len(picked)
    (folder / "data.yaml").write_text(f"path: {folder.resolve()}\ntrain: train.txt\nval: val.txt\n"
                                      "names:\n  0: card\n")
    return counts


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("sources", nargs="+", help="SET or SET:SHARE")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--detect", action="store_true", help="detector scenes instead of classifier crops")
    ap.add_argument("--val", type=Path, help="with --detect: validate on all of this set's scenes")
    args = ap.parse_args(argv)
    kind = "detect" if args.detect else "classify"
    try:
        sources = [parse_source(s, kind) for s in args.sources]
        if args.val is not None:
            if not args.detect:
                raise ValueError("--val goes with --detect")
            parse_source(str(args.val), kind)
    except ValueError as exc:
        raise SystemExit(f"error: {exc}") from None
    if args.detect:
        counts = merge_scenes(args.out, sources, args.seed, args.val)
        print(f"{counts['train']} training and {counts['val']} validation scenes listed under {args.out / 'detect'}")
    else:
        counts = merge(args.out, sources, args.seed)
        print(f"{counts['train']} training and {counts['val']} validation crops linked under {args.out / 'classify'}")


if __name__ == "__main__":
    main()
