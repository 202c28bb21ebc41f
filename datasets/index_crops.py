"""Training patches for the index stage (:mod:`vision.recognize.index`): each card's four corner patches,
named by the card they show or ``none``.

Each scene is rendered from its seed; every card at least ``MIN_VISIBLE`` in view gives its four
patches, cut at the card's outline with each corner moved a little (``datasets.corner_crops.near``:
what the corner fit leaves), the outline's start turned half round at random (at the table either
end of a card may come out on top). A patch is named by its card where at least ``SHOWN`` of it is
in view, ``none`` where less than ``HIDDEN`` is or the card lies face down, and is left out in
between (a half-covered index is neither). The renderer knows what covers what (``corners_shown``).

With ``--corners FILE`` the patches are cut where the table cuts them instead: at the outline the
detector and that corner network fit to each card (as :class:`vision.recognize.recognizer.Recognizer` does),
for every fitted outline matching a card at IoU >= 0.5. A fit's errors are not a true outline's
moved corners: on a card half under others it slides along the card or onto its neighbour, and most
cards still misread after the fit were such cards (``docs/recognition.md``, "Indices").

``python -m datasets.index_crops OUT.npz --scenes 4000 --seed 63`` writes ``patches`` (N x SIZE x
SIZE x 3, RGB uint8) and ``names`` (N strings); ``--val`` scenes go to ``OUT-val.npz``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from vision.recognize import DETECTOR
from vision.recognize.index import NONE, SIZE, corner_patches

from .art import BACK, DEFAULT_GROUPS, packs_of, parse_groups
from .build import map_jobs, scene_seed
from .corner_crops import near, val_path
from .detector_crops import detector_run_options, init_worker, matched_outlines, worker_recognizer
from .scenes import SceneOptions, render_scene

MIN_VISIBLE = 0.1
SHOWN, HIDDEN = 0.6, 0.3


def patches_of_scene(scene, rng: np.random.Generator,
                     outlines: dict[int, np.ndarray] | None = None) -> tuple[list[np.ndarray], list[str]]:
    """(patches, names) of every card of ``scene`` in view enough, cut near its true outline, or
    at ``outlines`` (fitted outlines by the index of the card in ``scene.cards`` they match)."""
    patches, names = [], []
    for k, card in enumerate(scene.cards):
        if card.visible < MIN_VISIBLE or (outlines is not None and k not in outlines):
            continue
        quad = near(card.quad, rng) if outlines is None else as_card(outlines[k], card.quad)
        shown = list(card.corners_shown)
        if rng.random() < 0.5:  # the other end on top: the patches and what covers them turn together
            quad, shown = quad[[2, 3, 0, 1]], shown[2:] + shown[:2]
        for patch, share in zip(corner_patches(scene.image, quad, ordered=True), shown):
            name = NONE if card.code == BACK or share < HIDDEN else card.code if share >= SHOWN else None
            if name is not None:
                patches.append(patch)
                names.append(name)
    return patches, names


def as_card(outline: np.ndarray, truth: np.ndarray) -> np.ndarray:
    """A fitted outline's corners started where the card's face starts (of the four ways round,
    the nearest to ``truth``): which corner patch shows which of the card's corners."""
    rolls = [np.roll(outline, -k, axis=0) for k in range(4)]
    return min(rolls, key=lambda q: float(np.linalg.norm(q - truth, axis=1).sum())).astype(np.float32)


def _job(args: tuple[int, tuple[str, ...], tuple[float, ...]]) -> tuple[list[np.ndarray], list[str]]:
    seed, groups, layouts = args
    scene = render_scene(seed, packs_of(groups), SceneOptions(layouts=layouts))
    recognizer = worker_recognizer()
    outlines = matched_outlines(scene.image, scene.cards, recognizer) if recognizer is not None else None
    return patches_of_scene(scene, np.random.default_rng(seed), outlines)


def build(out: Path, scenes: int, seed: int = 63, split: str = "train", workers: int | None = None,
          groups: tuple[str, ...] = DEFAULT_GROUPS, progress: bool = True,
          layouts: tuple[float, ...] = SceneOptions.layouts, detector: Path | None = None,
          corners: Path | None = None) -> int:
    """Write the patches of ``scenes`` scenes to ``out``; returns how many. With ``corners`` they
    are cut at the outlines ``detector`` and ``corners`` fit, else near the true ones."""
    packs_of(groups)  # fail here, once, if a group is unknown or its art is missing
    jobs = [(scene_seed(seed, split, i), groups, layouts) for i in range(scenes)]
    start = dict(initializer=init_worker, initargs=(str(detector or DETECTOR), str(corners))) if corners else {}
    parts = map_jobs(_job, jobs, workers, progress, desc=f"{split} scenes", unit="scene", **start)
    patches = [p for ps, _ in parts for p in ps]
    names = [n for _, ns in parts for n in ns]
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(out, patches=np.stack(patches) if patches else np.zeros((0, SIZE, SIZE, 3), np.uint8),
             names=np.array(names, dtype=str))
    if progress:
        print(f"{scenes} scenes, {len(names)} patches ({names.count('none')} none) -> {out}")
    return len(names)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="the training set's .npz (the validation set goes beside it, -val.npz)")
    ap.add_argument("--scenes", type=int, default=4000)
    ap.add_argument("--val", type=int, default=300)
    ap.add_argument("--seed", type=int, default=63)
    detector_run_options(ap)
    ap.add_argument("--corners", type=Path, default=None,
                    help="cut at the outlines the detector and this corner network fit, as the recognizer reads")
    args = ap.parse_args(argv)
    groups = parse_groups(args.packs)
    fit = dict(layouts=args.layouts, detector=args.detector, corners=args.corners)
    build(args.out, args.scenes, args.seed, "train", args.workers, groups, **fit)
    if args.val:
        build(val_path(args.out), args.val, args.seed, "val", args.workers, groups, **fit)


if __name__ == "__main__":
    main()
