"""Training pairs for the corner stage (:mod:`vision.recognize.corners`): a window around each box the
detector puts on a card, and where that card's true corners lie in it.

Each scene is rendered from its seed (as :mod:`datasets.detector_crops` does), the detector runs
on it, and every box matching a labelled card (IoU >= 0.4, so loose boxes are learnt from too) gives
one pair at the box as found, ``--jitter`` more at the box shifted, scaled and turned a little, and
``--near`` more at the card's own outline with each corner moved a little: what the network sees
when it looks a second time, around the corners it found the first (:class:`vision.recognize.recognizer.Recognizer`).
The true corners come from the renderer, so a card running off the picture keeps its real
corners (dataset labels are clipped to the picture).

``python -m datasets.corner_crops OUT.npz --scenes 4000 --seed 40`` writes ``windows`` (N x SIZE x
SIZE x 3, RGB uint8) and ``corners`` (N x 4 x 2, fractions of the window, in the box's corner
order); ``--val`` scenes go to ``OUT-val.npz`` (boxes as found and ``--near`` windows, no jitter).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from vision.recognize.corners import SIZE, cut_window, matched_corners
from vision.recognize.geometry import greedy_match, quad_iou

from .art import DEFAULT_GROUPS, packs_of, parse_groups
from .build import map_jobs, scene_seed
from .detector_crops import detector_run_options, init_worker, worker_recognizer
from .scenes import SceneOptions, render_scene

MIN_IOU = 0.4
# How far a jittered box strays from the found one: centre (share of the box's size), size, degrees.
SHIFT, SCALE, TURN = 0.06, 0.08, 6.0
NEAR = 0.04  # how far each corner of a card's outline strays for a second look, as a share of the card's height

def jittered(quad: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The box moved, resized and turned a little: the detector's errors, more of them."""
    import cv2  # noqa: PLC0415

    (cx, cy), (w, h), ang = cv2.minAreaRect(np.float32(quad))
    cx += rng.uniform(-SHIFT, SHIFT) * w
    cy += rng.uniform(-SHIFT, SHIFT) * h
    w *= 1 + rng.uniform(-SCALE, SCALE)
    h *= 1 + rng.uniform(-SCALE, SCALE)
    return cv2.boxPoints(((cx, cy), (w, h), ang + rng.uniform(-TURN, TURN))).astype(np.float32)


def near(quad: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A card's outline with each corner moved a little: the corners a first look found."""
    height = max(np.linalg.norm(quad[2] - quad[1]), np.linalg.norm(quad[1] - quad[0]))
    return (quad + rng.uniform(-NEAR, NEAR, (4, 2)) * height).astype(np.float32)


def pairs_of_scene(image: np.ndarray, cards: list, boxes: list[np.ndarray], rng: np.random.Generator,
                   jitter: int, near_copies: int = 0) -> list[tuple[np.ndarray, np.ndarray]]:
    """(window, true corners in it) for each box matching a card, ``jitter`` more per box, and
    ``near_copies`` at the card's outline moved a little."""
    matched = greedy_match([(b, 1.0) for b in boxes], [(c.quad, c.code) for c in cards], quad_iou, MIN_IOU)
    out = []
    for i, j, _ in matched:
        quad = cards[j].quad
        for box in [boxes[i]] + [jittered(boxes[i], rng) for _ in range(jitter)] + [
                near(quad, rng) for _ in range(near_copies)]:
            out.append((cut_window(image, box), matched_corners(box, quad)))
    return out


def _job(args: tuple[int, int, int, tuple[str, ...], tuple[float, ...]]) -> tuple[np.ndarray, np.ndarray]:
    seed, jitter, near_copies, groups, layouts = args
    scene = render_scene(seed, packs_of(groups), SceneOptions(layouts=layouts))
    boxes = [q for q, _ in worker_recognizer().detect_cards(scene.image)]
    pairs = pairs_of_scene(scene.image, scene.labelled(), boxes, np.random.default_rng(seed), jitter, near_copies)

    if not pairs:
        return np.zeros((0, SIZE, SIZE, 3), np.uint8), np.zeros((0, 4, 2), np.float32)
    return np.stack([w for w, _ in pairs]), np.stack([c for _, c in pairs]).astype(np.float32)


def build(out: Path, scenes: int, detector: Path, seed: int = 40, split: str = "train", jitter: int = 1,
          near_copies: int = 1, workers: int | None = None, groups: tuple[str, ...] = DEFAULT_GROUPS,
          progress: bool = True, layouts: tuple[float, ...] = SceneOptions.layouts) -> int:
    """Write the pairs of ``scenes`` scenes to ``out``; returns how many."""
    packs_of(groups)  # fail here, once, if a group is unknown or its art is missing
    jobs = [(scene_seed(seed, split, i), jitter, near_copies, groups, layouts) for i in range(scenes)]
    parts = map_jobs(_job, jobs, workers, progress, desc=f"{split} scenes", unit="scene",
                     initializer=init_worker, initargs=(str(detector),))
    windows = np.concatenate([w for w, _ in parts])
    corners = np.concatenate([c for _, c in parts])
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(out, windows=windows, corners=corners)
    if progress:
        print(f"{scenes} scenes, {len(windows)} windows -> {out}")
    return len(windows)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="the training set's .npz (the validation set goes beside it, -val.npz)")
    ap.add_argument("--scenes", type=int, default=4000)
    ap.add_argument("--val", type=int, default=200)
    ap.add_argument("--seed", type=int, default=40)
    ap.add_argument("--jitter", type=int, default=1, help="jittered copies of each training box")
    ap.add_argument("--near", type=int, default=1, help="copies at the card's outline, corners moved a little")
    detector_run_options(ap)
    args = ap.parse_args(argv)
    groups = parse_groups(args.packs)
    build(args.out, args.scenes, args.detector, args.seed, "train", args.jitter, args.near, args.workers, groups,
          layouts=args.layouts)
    if args.val:  # the boxes as found, and as many second looks at each as in training
        build(val_path(args.out), args.val, args.detector, args.seed, "val", 0, args.near, args.workers, groups,
              layouts=args.layouts)


def val_path(train: Path) -> Path:
    return train.with_name(train.stem + "-val.npz")


if __name__ == "__main__":
    main()
