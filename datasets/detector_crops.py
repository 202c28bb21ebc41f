"""Classifier crops cut where the shipped detector puts its boxes, not where the cards truly lie.

Measured on generated scenes (``chratze eval-detector``): a card whose detected box overlaps
the true one by IoU >= 0.85 was named right 98 % of the time, by 0.7-0.85 87 %, below 0.7 only
28 %; and most wrong names were cards half covered by another in a trick pile, which the scene
crops leave out. So the second stage is also trained on the first stage's own boxes (as a
two-stage detector trains its head on its proposals): each scene is rendered, the detector
runs on it, and every box that matches a labelled card (IoU >= 0.5, at least half of the card
in view) is cut out exactly as :class:`vision.recognize.recognizer.Recognizer` cuts it, under that card's
name; a box on a face-down card, under ``back``.

With ``--corners FILE`` each box is first fitted to its card's outline by that corner network,
as the recognizer does before it cuts (v7's crops are tighter than the boxes v5 was trained on).

``python -m datasets.detector_crops OUT --train 3000 --val 300 --seed 5`` writes
``OUT/classify/{train,val}/<card>/*.jpg``; scene ``i`` is rendered from the same seeds as
:mod:`datasets.build`, so a set is reproducible for a given detector.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from vision.recognize import DETECTOR
from vision.recognize.geometry import CROP_H, CROP_W, greedy_match, quad_iou, rectify
from vision.recognize.recognizer import Recognizer

from .art import CROP_CLASSES, DEFAULT_GROUPS, PACK_GROUPS, packs_of, parse_groups
from .build import layouts_option, run_jobs, scene_seed
from .scenes import Scene, SceneOptions, render_scene

MIN_IOU = 0.5
MIN_VISIBLE = 0.5  # less than half a card in view: its name is a guess, not a reading

_recognizer = None  # one per worker process


def init_worker(detector: str, corners: str | None = None) -> None:
    """Load the detector once in each worker process, with the corner fit ``corners`` (None: the
    boxes as found)."""
    global _recognizer

    _recognizer = Recognizer(Path(detector), threads=1, corners=Path(corners) if corners else None, index=None)


def worker_recognizer():
    """The recognizer :func:`init_worker` loaded in this process."""
    return _recognizer


def matched_outlines(image: np.ndarray, cards: list, recognizer) -> dict[int, np.ndarray]:
    """The outlines ``recognizer`` finds (and fits, as it reads them) in ``image``, by the index
    of the card of ``cards`` each matches (IoU >= MIN_IOU, surest first, as ``chratze
    eval-detector`` matches)."""
    found = recognizer.detect_cards(image)
    found = list(zip(recognizer.refine(image, [q for q, _ in found]), [s for _, s in found]))
    pairs = greedy_match(found, [(c.quad, c.code) for c in cards], quad_iou, MIN_IOU)
    return {j: found[i][0] for i, j, _ in pairs}


def crops_of_scene(image: np.ndarray, cards: list, recognizer) -> list[tuple[str, np.ndarray]]:
    """(card code, RGB crop) for each detected box matching a card in view enough."""
    cards = [c for c in cards if c.visible >= MIN_VISIBLE]
    return [(cards[j].code, rectify(image, quad, (CROP_W, CROP_H)))
            for j, quad in matched_outlines(image, cards, recognizer).items()]


def crops_of(scene: Scene, recognizer) -> list[tuple[str, np.ndarray]]:
    """The crops of a rendered scene: its face-up cards under their names, its backs under ``back``."""
    return crops_of_scene(scene.image, scene.labelled() + scene.backs(), recognizer)


def _job(args: tuple[str, str, int, int, tuple[str, ...], tuple[float, ...]]) -> int:
    out, split, i, seed, groups, layouts = args
    scene = render_scene(scene_seed(seed, split, i), packs_of(groups), SceneOptions(layouts=layouts))
    crops = crops_of(scene, worker_recognizer())
    for k, (code, crop) in enumerate(crops):
        cv2.imwrite(str(Path(out) / "classify" / split / code / f"det_{split}_{i:06d}_{k}.jpg"), crop[..., ::-1])
    return len(crops)


def build(out: Path, train: int, val: int, detector: Path, seed: int = 5, workers: int | None = None,
          groups: tuple[str, ...] = DEFAULT_GROUPS, progress: bool = True,
          layouts: tuple[float, ...] = SceneOptions.layouts, corners: Path | None = None) -> int:
    """Write the crops; returns how many."""
    packs_of(groups)  # fail here, once, if a group is unknown or its art is missing
    for split in ("train", "val"):
        for code in CROP_CLASSES:
            (out / "classify" / split / code).mkdir(parents=True, exist_ok=True)
    jobs = [(str(out), s, i, seed, groups, layouts) for s, n in (("train", train), ("val", val)) for i in range(n)]
    n = run_jobs(_job, jobs, workers, progress, desc="scenes", unit="scene", initializer=init_worker,
                 initargs=(str(detector), str(corners) if corners else None))
    if progress:
        at = "fitted outlines" if corners else "boxes"
        print(f"{train + val} scenes, {n} crops at the detector's {at} -> {out / 'classify'}")
    return n


def render_options(ap: argparse.ArgumentParser) -> None:
    """Options of a set rendered from scenes: workers, packs, layouts."""
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--packs", default=",".join(DEFAULT_GROUPS),
                    help=f"comma-separated pack groups from {', '.join(PACK_GROUPS)}")
    layouts_option(ap)


def detector_run_options(ap: argparse.ArgumentParser) -> None:
    """Options of a set rendered and run through a detector: :func:`render_options` and the detector."""
    render_options(ap)
    ap.add_argument("--detector", type=Path, default=DETECTOR)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--train", type=int, default=3000)
    ap.add_argument("--val", type=int, default=300)
    ap.add_argument("--seed", type=int, default=5)
    detector_run_options(ap)
    ap.add_argument("--corners", type=Path, default=None,
                    help="cut at the boxes fitted by this corner network, as the recognizer reads pictures")
    args = ap.parse_args(argv)
    build(args.out, args.train, args.val, args.detector, args.seed, args.workers, parse_groups(args.packs),
          layouts=args.layouts, corners=args.corners)


if __name__ == "__main__":
    main()
