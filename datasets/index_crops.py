"""Training patches for the index stage (:mod:`vision.index`): each card's four corner patches,
named by the card they show or ``none``.

Each scene is rendered from its seed; every card at least ``MIN_VISIBLE`` in view gives its four
patches, cut at the card's outline with each corner moved a little (``datasets.corner_crops.near``:
what the corner fit leaves), the outline's start turned half round at random (at the table either
end of a card may come out on top). A patch is named by its card where at least ``SHOWN`` of it is
in view, ``none`` where less than ``HIDDEN`` is or the card lies face down, and is left out in
between (a half-covered index is neither). The renderer knows what covers what (``corners_shown``).

``python -m datasets.index_crops OUT.npz --scenes 4000 --seed 63`` writes ``patches`` (N x SIZE x
SIZE x 3, RGB uint8) and ``names`` (N strings); ``--val`` scenes go to ``OUT-val.npz``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from .art import BACK, DEFAULT_GROUPS, packs_of, parse_groups
from .build import map_jobs, scene_seed
from .corner_crops import near, val_path
from .detector_crops import render_options
from .scenes import SceneOptions, render_scene

MIN_VISIBLE = 0.1
SHOWN, HIDDEN = 0.6, 0.3


def patches_of_scene(scene, rng: np.random.Generator) -> tuple[list[np.ndarray], list[str]]:
    """(patches, names) of every card of ``scene`` in view enough."""
    from vision.index import NONE, corner_patches  # noqa: PLC0415

    patches, names = [], []
    for card in scene.cards:
        if card.visible < MIN_VISIBLE:
            continue
        quad = near(card.quad, rng)
        shown = list(card.corners_shown)
        if rng.random() < 0.5:  # the other end on top: the patches and what covers them turn together
            quad, shown = quad[[2, 3, 0, 1]], shown[2:] + shown[:2]
        for patch, share in zip(corner_patches(scene.image, quad, ordered=True), shown):
            name = NONE if card.code == BACK or share < HIDDEN else card.code if share >= SHOWN else None
            if name is not None:
                patches.append(patch)
                names.append(name)
    return patches, names


def _job(args: tuple[int, tuple[str, ...], tuple[float, ...]]) -> tuple[list[np.ndarray], list[str]]:
    seed, groups, layouts = args
    scene = render_scene(seed, packs_of(groups), SceneOptions(layouts=layouts))
    return patches_of_scene(scene, np.random.default_rng(seed))


def build(out: Path, scenes: int, seed: int = 63, split: str = "train", workers: int | None = None,
          groups: tuple[str, ...] = DEFAULT_GROUPS, progress: bool = True,
          layouts: tuple[float, ...] = SceneOptions.layouts) -> int:
    """Write the patches of ``scenes`` scenes to ``out``; returns how many."""
    from vision.index import SIZE  # noqa: PLC0415

    packs_of(groups)  # fail here, once, if a group is unknown or its art is missing
    jobs = [(scene_seed(seed, split, i), groups, layouts) for i in range(scenes)]
    parts = map_jobs(_job, jobs, workers, progress, desc=f"{split} scenes", unit="scene")
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
    render_options(ap)
    args = ap.parse_args(argv)
    groups = parse_groups(args.packs)
    build(args.out, args.scenes, args.seed, "train", args.workers, groups, layouts=args.layouts)
    if args.val:
        build(val_path(args.out), args.val, args.seed, "val", args.workers, groups, layouts=args.layouts)


if __name__ == "__main__":
    main()
