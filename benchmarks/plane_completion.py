"""Covered cards completed from the table's plane (``vision.recognize.plane``): what each part of it wins,
against what it could.

    python benchmarks/plane_completion.py [--scenes 200] [--seed N] [--views 2] [--detector …] [--corners …]

The recognizer runs without the stage (``--no-plane``); each row then completes the found outlines
its way. Scenes, matching and mAP as ``chratze eval-detector``. Rows:

- ``as found``: without the stage; ``hidden corners true``: the truth put in for the corners whose
  patch is less than half in view (the most any completion could win; ``benchmarks/map_losses.py``);
- ``plane: camera true, size true``: the scene's own camera (``Scene.camera``) and card size, hidden
  corners told by the truth: the most this completion can win;
- ``plane: camera fitted`` / ``size fitted`` / ``both fitted``: each as ``vision.recognize.plane`` estimates it
  from the found outlines, hidden corners still told by the truth;
- ``plane: both fitted, hidden told by the layers``: a corner is hidden where it lies beyond the
  picture's edge or in a card that ``vision.recognize.layers`` puts on top of its own (``Detection.under``);
- ``plane: both fitted, hidden told by the index network``: the shipped stage (``eval-detector``'s
  figure with two views).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.map_losses import HIDDEN, matches, print_rows  # noqa: E402
from chratze.options import model_options, recognizer_from, scene_options  # noqa: E402
from vision.training.evaluate import MAP_IOUS, generated_scenes  # noqa: E402
from vision.recognize.geometry import best_roll  # noqa: E402
from vision.recognize.index import NONE  # noqa: E402
from vision.recognize.plane import card_size, fit_camera, hidden_corners, slid  # noqa: E402

# plane rows: name -> (camera, card size, which corners are hidden); "true" is the scene's own
PLANE_ROWS = {
    "plane: camera true, size true": ("true", "true", "truth"),
    "plane: camera fitted, size true": ("fitted", "true", "truth"),
    "plane: camera true, size fitted": ("true", "fitted", "truth"),
    "plane: both fitted": ("fitted", "fitted", "truth"),
    "plane: both fitted, hidden told by the layers": ("fitted", "fitted", "layers"),
    "plane: both fitted, hidden told by the index network": ("fitted", "fitted", "index network"),
}
ROWS = ("as found", "hidden corners true", *PLANE_ROWS)


def under_others(dets: list, size: tuple[int, int], margin: float = 2.0) -> np.ndarray:
    """Corners beyond the picture's edge or within ``margin`` px of a card lying on theirs."""
    w, h = size
    out = np.zeros((len(dets), 4), bool)
    for i, d in enumerate(dets):
        over = [np.float32(dets[j].corners).reshape(-1, 1, 2) for j in d.under]
        for k, (x, y) in enumerate(d.corners):
            out[i, k] = not (1 <= x <= w - 1 and 1 <= y <= h - 1) or any(
                cv2.pointPolygonTest(o, (float(x), float(y)), True) >= -margin for o in over)
    return out


def true_size(cards: list, m: np.ndarray) -> tuple[float, float] | None:
    """The size of the scene's own cards in the plane ``m`` maps to (every card, covered or not)."""
    return card_size([c.quad for c in cards], np.zeros((len(cards), 4), bool), m)


def truths_of(outlines: list[np.ndarray], cards: list, matched: dict[int, int]) -> tuple[np.ndarray, dict]:
    """Per found outline, which corners the truth says are hidden, and the true outline listed
    from the same corner (for the cards found)."""
    hidden, truth = np.zeros((len(outlines), 4), bool), {}
    for k, j in matched.items():
        roll = best_roll(cards[j].quad, outlines[k])
        hidden[k] = np.roll(np.asarray(cards[j].corners_shown) < HIDDEN, roll)
        truth[k] = np.roll(cards[j].quad, roll, axis=0).astype(np.float32)
    return hidden, truth


def scene_rows(dets: list, scene, cards: list, matched: dict[int, int], none: np.ndarray) -> dict[str, list]:
    """Every row's outlines of one picture's found cards (``none``: the index network's p(`none`)
    of each card's corner patches). A camera is fitted once per way of telling hidden corners."""
    outlines = [np.float32(d.corners) for d in dets]
    if not dets:
        return {row: outlines for row in ROWS}
    size = scene.image.shape[1::-1]
    hidden_true, truth = truths_of(outlines, cards, matched)
    hidden = {"truth": hidden_true, "layers": under_others(dets, size), "index network": hidden_corners(outlines, none)}
    out = {"as found": outlines,
           "hidden corners true": [np.where(hidden_true[k][:, None], truth[k], q) if k in truth else q
                                   for k, q in enumerate(outlines)]}
    cameras = {("true", told): np.linalg.inv(scene.camera) for told in hidden}
    for row, (camera, size_from, told) in PLANE_ROWS.items():
        if (camera, told) not in cameras:
            cameras[camera, told] = fit_camera(np.array(outlines), hidden[told], size)
        m = cameras[camera, told]
        wanted = true_size(scene.cards, m) if size_from == "true" else card_size(outlines, hidden[told], m)
        out[row] = outlines if wanted is None else [slid(q, hidden[told][k], m, wanted) for k, q in enumerate(outlines)]
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    scene_options(ap)
    model_options(ap, photos=True)
    args = ap.parse_args(argv)
    args.plane = False  # each row completes the outlines its own way
    rec = recognizer_from(args)
    frames: dict[str, list] = {row: [] for row in ROWS}
    for scene in generated_scenes(args.scenes, args.seed):
        cards, dets = scene.labelled(), rec(scene.image)
        preds = [(np.float32(d.corners), d.confidence, d.card) for d in dets]
        matched, truths = matches(preds, cards), [(c.quad, c.code) for c in cards]
        none = rec.read_corners(scene.image, [p[0] for p in preds])[..., rec.index_names.index(NONE)] if dets else None
        for row, outlines in scene_rows(dets, scene, cards, matched, none).items():
            frames[row].append(([(q, d.confidence, d.card) for q, d in zip(outlines, dets)], truths))
    print(f"{args.scenes} scenes; AP at IoU " + " ".join(f"{t:.2f}" for t in MAP_IOUS))
    print_rows(frames, 52)


if __name__ == "__main__":
    main()
