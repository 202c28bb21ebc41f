"""Write Ultralytics datasets from synthetic scenes: an oriented-box card detector set and a
37-class crop set for the classifier (the 36 cards and ``back``).

``python -m datasets.build OUT --train 2000 --val 200 --seed 1`` writes::

    OUT/detect/images/{train,val}/*.jpg, OUT/detect/labels/{train,val}/*.txt, OUT/detect/data.yaml
    OUT/classify/{train,val}/<card>/*.jpg

Scene i of a split is rendered from seed ``(seed, split, i)``, so a dataset is reproducible and
can be built in parallel.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Callable

import cv2
import numpy as np

from .art import CROP_CLASSES, DEFAULT_GROUPS, PACK_GROUPS, packs_of, parse_groups
from .crops import detector_crop, render_card_crop
from .scenes import LAYOUTS, SceneOptions, render_scene

SPLIT_SALT = {"train": 0, "val": 1_000_003}

def scene_seed(seed: int, split: str, i: int) -> int:
    return seed * 10_000_019 + SPLIT_SALT[split] + i


def obb_label_line(quad: np.ndarray, w: int, h: int) -> str:
    """Ultralytics OBB label: class 0 ("card") and four corners, normalised to [0, 1]."""
    pts = np.clip(quad / np.array([w, h]), 0, 1)
    return "0 " + " ".join(f"{v:.6f}" for v in pts.reshape(-1))


def write_scene(out: Path, split: str, i: int, seed: int, crops_per_card: int = 1,
                groups: tuple[str, ...] = DEFAULT_GROUPS, layouts: tuple[float, ...] = SceneOptions.layouts) -> int:
    """Render one scene, write its image, labels and crops; returns the number of cards labelled."""
    rng = np.random.default_rng(scene_seed(seed, split, i) + 17)
    scene = render_scene(scene_seed(seed, split, i), packs_of(groups), SceneOptions(layouts=layouts))
    h, w = scene.image.shape[:2]
    name = f"{split}_{i:06d}"
    bgr = scene.image[..., ::-1]
    cv2.imwrite(str(out / "detect" / "images" / split / f"{name}.jpg"), bgr, [cv2.IMWRITE_JPEG_QUALITY, 92])
    cards = scene.labelled()
    lines = [obb_label_line(c.quad, w, h) for c in cards]
    (out / "detect" / "labels" / split / f"{name}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
    for k, c in enumerate(cards + scene.backs()):  # backs last: the cards' crops stay those of older builds
        if c.visible < 0.8:
            continue  # a crop of a half-covered card would teach the classifier to guess
        for j in range(crops_per_card):
            crop = detector_crop(bgr, c.quad, rng)
            cv2.imwrite(str(out / "classify" / split / c.code / f"{name}_{k}_{j}.jpg"), crop)
    return len(cards)


def write_card_crop(out: Path, split: str, i: int, seed: int, groups: tuple[str, ...] = DEFAULT_GROUPS,
                    classes: tuple[str, ...] = tuple(CROP_CLASSES), print_rate: float = 0.0) -> int:
    """One close-up crop of class ``classes[i % len(classes)]`` (so the classes stay balanced);
    drawn again while the card comes out covered."""
    code = classes[i % len(classes)]
    for attempt in range(20):
        crop = render_card_crop(scene_seed(seed, split, i) * 31 + attempt, packs_of(groups), code,
                                print_rate=print_rate)
        if crop is not None:
            cv2.imwrite(str(out / "classify" / split / code / f"closeup_{split}_{i:06d}.jpg"), crop[..., ::-1])
            return 1
    return 0


def _job(args: tuple) -> int:
    """A worker's job: ("scene", write_scene's arguments) or ("closeup", write_card_crop's)."""
    kind, *rest = args
    return (write_card_crop if kind == "closeup" else write_scene)(*rest)


def _start_worker(initializer: Callable | None, initargs: tuple) -> None:
    """Each worker runs OpenCV on one thread: the processes are the parallelism (on a leased 16-core
    machine 16 processes with a thread per core each fought for the cores, docs/gpu-round.md)."""
    cv2.setNumThreads(1)
    if initializer is not None:
        initializer(*initargs)


def worker_pool(workers: int | None, initializer: Callable | None = None, initargs: tuple = ()) -> ProcessPoolExecutor:
    """Processes started afresh, never forked: a fork copies the locks the parent's other threads
    hold (a test run's web server, ONNX Runtime's and OpenCV's pools), and a child that needs one
    waits for ever; CI hung so once, building a tiny data set after the browser tests."""
    return ProcessPoolExecutor(workers or os.cpu_count() or 1, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_start_worker, initargs=(initializer, initargs))


def map_jobs(job: Callable[[Any], Any], jobs: list, workers: int | None, progress: bool, desc: str, unit: str,
             initializer: Callable | None = None, initargs: tuple = ()) -> list:
    """Run ``job`` on each of ``jobs`` in worker processes (one per core unless told), with a
    progress bar if asked; returns what the jobs return, in order."""
    with worker_pool(workers, initializer, initargs) as pool:
        results = pool.map(job, jobs, chunksize=8)
        if progress:
            from tqdm import tqdm

            results = tqdm(results, total=len(jobs), desc=desc, unit=unit)
        return list(results)


def run_jobs(job: Callable[[Any], int], jobs: list, workers: int | None, progress: bool, desc: str, unit: str,
             initializer: Callable | None = None, initargs: tuple = ()) -> int:
    """:func:`map_jobs` for jobs that count what they wrote: the sum of the counts."""
    return sum(map_jobs(job, jobs, workers, progress, desc, unit, initializer, initargs))


def crop_folders(scenes: int, crops_per_card: int, card_crops: int, classes: tuple[str, ...]) -> list[str]:
    """The classes this build writes crops of: a set of backs alone gets no empty card folders."""
    scene_classes = CROP_CLASSES if scenes and crops_per_card else []
    return [c for c in CROP_CLASSES if c in scene_classes or (card_crops and c in classes)]


def check_options(groups: tuple[str, ...], classes: tuple[str, ...]) -> None:
    """Fail here, once, with an error a user can act on: a pack group that is unknown (ValueError)
    or whose art is missing (FileNotFoundError), or an unknown class (ValueError)."""
    packs_of(groups)
    unknown = sorted(set(classes) - set(CROP_CLASSES))
    if unknown or not classes:
        raise ValueError(f"unknown classifier classes: {', '.join(unknown) or '(none given)'}")


def build(out: Path, train: int, val: int, seed: int = 1, workers: int | None = None,
          crops_per_card: int = 1, card_crops: int = 0, progress: bool = True,
          groups: tuple[str, ...] = DEFAULT_GROUPS, classes: tuple[str, ...] = tuple(CROP_CLASSES),
          layouts: tuple[float, ...] = SceneOptions.layouts, print_rate: float = 0.0) -> Path:
    """Build both datasets under ``out`` (plus ``card_crops`` close-up classifier crops of
    ``classes``, a tenth as many for validation, ``print_rate`` of them other prints of the card)
    from the packs of ``groups``, the cards laid out in the shares ``layouts`` of
    datasets.scenes.LAYOUTS; returns the detector's ``data.yaml``."""
    check_options(groups, classes)
    for split in ("train", "val"):
        (out / "detect" / "images" / split).mkdir(parents=True, exist_ok=True)
        (out / "detect" / "labels" / split).mkdir(parents=True, exist_ok=True)
        for code in crop_folders(train + val, crops_per_card, card_crops, classes):
            (out / "classify" / split / code).mkdir(parents=True, exist_ok=True)
    jobs = [("scene", out, s, i, seed, crops_per_card, groups, layouts) for s, n in (("train", train), ("val", val))
            for i in range(n)]
    jobs += [("closeup", out, s, i, seed, groups, classes, print_rate)
             for s, n in (("train", card_crops), ("val", card_crops // 10)) for i in range(n)]
    cards = run_jobs(_job, jobs, workers, progress, desc="scenes and crops", unit="job")
    data = data_yaml(out / "detect")
    if progress:
        print(f"{train + val} scenes and {card_crops + card_crops // 10} close-ups, {cards} cards -> {out}")
    return data


def data_yaml(detect: Path) -> Path:
    """Ultralytics' description of the one-class set under ``detect`` (images/ and labels/, train and val)."""
    data = detect / "data.yaml"
    data.write_text(f"path: {detect.resolve()}\ntrain: images/train\nval: images/val\nnames:\n  0: card\n")
    return data


def layout_shares(text: str) -> tuple[float, ...]:
    """``--layouts``: four or five non-negative weights (no heaps when four), made to sum to 1."""
    try:
        weights = tuple(float(v) for v in text.split(","))
    except ValueError:
        weights = ()
    if len(weights) not in (len(LAYOUTS) - 1, len(LAYOUTS)) or min(weights) < 0 or sum(weights) <= 0:
        raise argparse.ArgumentTypeError(f"four or five weights, for {', '.join(LAYOUTS)} (the last may be "
                                         f"left out): {text!r}")
    return tuple(w / sum(weights) for w in weights)


def layouts_option(ap: argparse.ArgumentParser) -> None:
    """``--layouts``, for every command that renders scenes."""
    ap.add_argument("--layouts", type=layout_shares, default=SceneOptions.layouts, metavar="P,S,C,F[,H]",
                    help="how often the cards lie in a pile, at the seats, scattered, fanned or in a heap "
                         "(weights; default 0.35,0.3,0.2,0.15, no heaps)")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--train", type=int, default=2000)
    ap.add_argument("--val", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--crops-per-card", type=int, default=1)
    ap.add_argument("--card-crops", type=int, default=0, help="close-up classifier crops (see datasets.crops)")
    ap.add_argument("--packs", default=",".join(DEFAULT_GROUPS),
                    help=f"comma-separated pack groups from {', '.join(PACK_GROUPS)} "
                         "(svg-cards, cardsjs: fetch them first with `python -m datasets.fetched`)")
    ap.add_argument("--classes", default=",".join(CROP_CLASSES),
                    help="comma-separated classes the close-ups cycle through (default all 37; e.g. `back` for "
                         "a set of face-down cards alone, to mix in with `datasets.merge`)")
    ap.add_argument("--print-rate", type=float, default=0.0,
                    help="share of the close-ups that are another print of the card (datasets.prints): paper, "
                         "ink, wear, indices left out, so the classifier reads pips, not one print's index")
    layouts_option(ap)
    args = ap.parse_args(argv)
    groups, classes = parse_groups(args.packs), parse_groups(args.classes)
    try:
        check_options(groups, classes)  # a bad option is a usage error; a failure while building is not
    except (ValueError, FileNotFoundError) as exc:
        ap.error(str(exc))
    build(args.out, args.train, args.val, args.seed, args.workers, args.crops_per_card, args.card_crops,
          groups=groups, classes=classes, layouts=args.layouts, print_rate=args.print_rate)


if __name__ == "__main__":
    main()
