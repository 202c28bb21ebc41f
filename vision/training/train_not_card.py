"""The classifier's not-a-card class: a small head learned on its features, for boxes that hold no card.

    python -m vision.training.train_not_card --scenes 4000 --out models/not-a-card.npz   # about 13 min here

The detector boxes card-shaped things that are no card (a coupon, a phone, a chip); the classifier, which
knows only cards and backs, then names them. Here generated scenes with props among the cards
(``SceneOptions.props_rate``, :mod:`datasets.props`) go through the shipped detector and corner fit, and
every box is cut as the recognizer cuts it: a box on a card (or a back) is a card crop, a box touching no
card is a not-a-card crop, and each prop's own outline is one more. On the shipped classifier's features
(the input of its last layer) a small head learns one more output, with the card classes kept as they
are (:mod:`vision.recognize.not_card`). NumPy only, no torch; the crops' features are kept (``--data``)
so that the head can be learned again in seconds.

Seeds are split: the first ``--fit-share`` learn, the last fifth of them choose the threshold
(``RecognizerSettings.not_card_from``: at most ``DROP_CARDS`` of their card crops dropped), and the rest
choose nothing and report how many card crops it drops and how many not-a-card crops it catches.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from datasets.art import BACK, all_packs
from datasets.prints import engraved_aces, vary_print
from datasets.scenes import PlacedCard, Scene, SceneOptions, render_scene
from vision.recognize import CLASSIFIER, FRAME
from vision.recognize.deck import classifier_digest
from vision.recognize.geometry import quad_iou, rectify
from vision.recognize.not_card import NotCard
from vision.recognize.recognizer import Recognizer

SEED = 510_000  # scenes of their own: no other dataset draws these
OPTIONS = SceneOptions(props_rate=0.9, clutter_rate=0.5, things_rate=0.3, hand_rate=0.5, max_cards=6)
CARD_IOU = 0.5  # a box meeting a card's outline this much is that card
CLEAR_IOU = 0.02  # a box meeting every card less than this holds none
DROP_CARDS = 0.002  # the threshold drops at most this share of the learning seeds' card crops
HIDDEN, EPOCHS, BATCH, RATE, DECAY = 64, 40, 256, 1e-3, 1e-4  # the head: small, a few seconds to learn
TUNE_SHARE = 0.2  # the last fifth of the learning seeds' crops chooses the threshold; the head never sees it
CUT_RATE = 0.3  # share of scenes whose frame is cut through a card: a card at the picture's edge is a card


def scene_crops(rec: Recognizer, seed: int, packs: dict) -> tuple[list[np.ndarray], list[int], list[str]]:
    """Crops of one scene's boxes and prop outlines, each labelled 1 (no card) or 0 (a card or a back),
    and where each came from (``card``, ``box`` on no card, ``prop`` outline)."""
    scene = render_scene(seed, packs, OPTIONS)
    rng = np.random.default_rng((seed, 5))
    if rng.random() < CUT_RATE:
        scene = cut_by_frame(scene, rng)
    rgb = scene.image
    detected = rec.detect_cards(rgb)
    quads = rec.refine(rgb, [q for q, _ in detected]) if detected else []
    crops, labels, kinds = [], [], []

    def keep(quad: np.ndarray, label: int, kind: str) -> None:
        crops.append(rectify(rgb, quad))
        labels.append(label)
        kinds.append(kind)

    for q in quads:
        meets = [(quad_iou(_in_view(q, rgb.shape), _in_view(c.quad, rgb.shape)), c.visible) for c in scene.cards]
        if any(iou >= CARD_IOU and visible >= 0.35 for iou, visible in meets):
            keep(q, 0, "card")
        elif max((iou for iou, _ in meets), default=0.0) < CLEAR_IOU:
            keep(q, 1, "box")
    for outline in scene.props:
        if all(quad_iou(outline, c.quad) < CLEAR_IOU for c in scene.cards) and _inside(outline, rgb.shape):
            keep(outline, 1, "prop")
    return crops, labels, kinds


def cut_by_frame(scene: Scene, rng: np.random.Generator) -> Scene:
    """``scene`` seen by a camera that looks a little aside: one side of the picture cut off through a
    card, so that card lies at the picture's edge, part of it out of view. The crop of such a card runs
    past the picture (its edge pixels drawn out), and a head that never saw one drops it as no card
    (the real photos' aces at the edge did). Cards keep the share of them still in view."""
    cards = [c for c in scene.cards if c.visible >= 0.5]
    h, w = scene.image.shape[:2]
    if not cards:
        return scene
    quad = cards[int(rng.integers(len(cards)))].quad
    side, at = int(rng.integers(4)), rng.uniform(0.3, 0.7)
    lo, hi = (quad[:, side % 2].min(), quad[:, side % 2].max())
    line = int(round(lo + at * (hi - lo)))
    x0, y0, x1, y1 = (line if k == side else edge for k, edge in enumerate((0, 0, w, h)))  # the side cut off
    if min(x1 - x0, y1 - y0) < 160 or x0 < 0 or y0 < 0 or x1 > w or y1 > h:
        return scene
    shift = np.float32([x0, y0])

    def moved(card: PlacedCard) -> PlacedCard:
        inside, _ = _within(card.quad, (x0, y0, x1, y1))
        share = inside / max(abs(cv2.contourArea(np.asarray(card.quad, np.float32))), 1e-6)
        return replace(card, quad=card.quad - shift, visible=card.visible * share)

    return replace(scene, image=np.ascontiguousarray(scene.image[y0:y1, x0:x1]),
                   cards=[moved(c) for c in scene.cards], props=[p - shift for p in scene.props])


def _within(quad: np.ndarray, box: tuple[float, float, float, float]) -> tuple[float, np.ndarray | None]:
    """The area and outline of the part of convex outline ``quad`` inside ``box`` (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = box
    return cv2.intersectConvexConvex(np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]), np.asarray(quad, np.float32))


def _in_view(quad: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """The part of outline ``quad`` inside the picture (a convex polygon; the quad where none is)."""
    area, poly = _within(quad, (0, 0, shape[1], shape[0]))
    return poly.reshape(-1, 2) if poly is not None and area > 0 else np.asarray(quad, np.float32)


def _inside(quad: np.ndarray, shape: tuple[int, ...]) -> bool:
    h, w = shape[:2]
    return bool((quad[:, 0] >= 0).all() and (quad[:, 0] < w).all() and (quad[:, 1] >= 0).all() and (quad[:, 1] < h).all())


def printed_packs(rng: np.random.Generator, n: int = 3, base: dict | None = None) -> list[dict]:
    """``base`` (default: the training packs) as they are and as ``n`` other printers made them
    (datasets.prints), every other one with engraved aces (:func:`datasets.prints.engraved_aces`)."""
    base = all_packs() if base is None else base
    out = [base]
    for _ in range(n):
        varied = {name: {code: face if code == BACK else vary_print(face, rng) for code, face in pack.items()}
                  for name, pack in base.items()}
        if len(out) % 2:  # every other printer engraves its aces and prints its name on them
            varied = {name: engraved_aces(pack, rng) for name, pack in varied.items()}
        out.append(varied)
    return out


def features(scenes: int, first_seed: int, fit_share: float, keep: Path) -> tuple[np.ndarray, ...]:
    """Every crop's features, label (1: no card), fold (True: learning seeds) and kind; read from ``keep``
    where it holds the same scenes read by the same classifier, else made (about 0.18 s a scene here)
    and kept there."""
    digest = classifier_digest(CLASSIFIER)
    if keep.exists():
        with np.load(keep) as z:
            same = str(z["classifier"]) == digest if "classifier" in z.files else False
            if same and int(z["scenes"]) == scenes and int(z["first_seed"]) == first_seed and float(z["fit_share"]) == fit_share:
                return z["x"], z["y"], z["fold"], z["kinds"]
    rec = Recognizer(settings=FRAME, floor=0.15)
    packs = printed_packs(np.random.default_rng(first_seed))
    feats, labels, kinds, fold = [], [], [], []
    start, n_fit = time.time(), int(scenes * fit_share)
    for k in range(scenes):
        crops, y, kind = scene_crops(rec, first_seed + k, packs[k % len(packs)])
        if crops:
            feats.append(rec.features(crops))
            labels += y
            kinds += kind
            fold += [k < n_fit] * len(y)
        if (k + 1) % 200 == 0:
            print(f"{k + 1} scenes, {len(labels)} crops, {time.time() - start:.0f} s", flush=True)
    out = np.concatenate(feats), np.array(labels), np.array(fold), np.array(kinds)
    keep.parent.mkdir(parents=True, exist_ok=True)
    np.savez(keep, x=out[0], y=out[1], fold=out[2], kinds=out[3], scenes=scenes, first_seed=first_seed,
             fit_share=fit_share, classifier=digest)
    return out


def fit(x: np.ndarray, y: np.ndarray, hidden: int = HIDDEN, epochs: int = EPOCHS, seed: int = 0) -> list:
    """A one-hidden-layer network (ReLU) of ``y`` on ``x``, both labels weighed alike, Adam on batches,
    weight decay; the features' standardisation is folded into its first layer. NumPy only."""
    rng = np.random.default_rng(seed)
    mu, sd = x.mean(axis=0), x.std(axis=0) + 1e-6
    xs = ((x - mu) / sd).astype(np.float32)
    weight = np.where(y == 1, 0.5 / max(y.mean(), 1e-9), 0.5 / max(1 - y.mean(), 1e-9)).astype(np.float32)
    params = [rng.normal(0, np.sqrt(2 / x.shape[1]), (x.shape[1], hidden)).astype(np.float32),
              np.zeros(hidden, np.float32), rng.normal(0, np.sqrt(1 / hidden), (hidden, 1)).astype(np.float32),
              np.zeros(1, np.float32)]
    m, v, t = [np.zeros_like(p) for p in params], [np.zeros_like(p) for p in params], 0
    for _ in range(epochs):
        order = rng.permutation(len(xs))
        for k in range(0, len(order), BATCH):
            idx = order[k:k + BATCH]
            w1, b1, w2, b2 = params
            h = np.maximum(xs[idx] @ w1 + b1, 0)
            p = 1 / (1 + np.exp(-np.clip((h @ w2 + b2)[:, 0], -60, 60)))
            g = ((p - y[idx]) * weight[idx] / len(idx))[:, None].astype(np.float32)
            gh = (g @ w2.T) * (h > 0)
            grads = [xs[idx].T @ gh, gh.sum(axis=0), h.T @ g, g.sum(axis=0)]
            t += 1
            for i, (param, grad) in enumerate(zip(params, grads)):
                grad = grad + DECAY * param if i in (0, 2) else grad
                m[i] = 0.9 * m[i] + 0.1 * grad
                v[i] = 0.999 * v[i] + 0.001 * grad ** 2
                param -= RATE * (m[i] / (1 - 0.9 ** t)) / (np.sqrt(v[i] / (1 - 0.999 ** t)) + 1e-8)
    w1, b1, w2, b2 = params
    return [((w1 / sd[:, None]).astype(np.float32), (b1 - (mu / sd) @ w1).astype(np.float32)), (w2, b2)]


def threshold(scores: np.ndarray, y: np.ndarray) -> float:
    """The least not-a-card chance that at most ``DROP_CARDS`` of the card crops reach, and never under 0.5."""
    cards = np.sort(scores[y == 0])[::-1]
    k = int(DROP_CARDS * len(cards))  # this many may reach it
    return float(max(0.5, np.nextafter(np.float32(cards[k]), np.float32(1)))) if len(cards) > k else 0.5


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenes", type=int, default=4000)
    ap.add_argument("--first-seed", type=int, default=SEED)
    ap.add_argument("--fit-share", type=float, default=0.75)
    ap.add_argument("--out", type=Path, default=Path("models/not-a-card.npz"))
    ap.add_argument("--data", type=Path, default=Path("runs/not-card-features.npz"),
                    help="the crops' features and labels, kept here and read back where they exist (same --scenes)")
    a = ap.parse_args(argv)
    start = time.time()
    x, y, fold, kinds = features(a.scenes, a.first_seed, a.fit_share, a.data)
    learning = np.flatnonzero(fold)
    tune = np.zeros(len(y), bool)
    tune[learning[int(len(learning) * (1 - TUNE_SHARE)):]] = True  # crops lie in scene order
    learn = fold & ~tune
    row = NotCard(fit(x[learn], y[learn]), classifier_digest(CLASSIFIER))
    scores = row.chance(x)
    tau = threshold(scores[tune], y[tune])
    figures = {"scenes": a.scenes, "crops": int(len(y)), "learn_crops": int(learn.sum()), "threshold": round(tau, 4)}
    for name, part in (("learn", learn), ("tune", tune), ("check", ~fold)):
        cards, others = part & (y == 0), part & (y == 1)
        figures[name] = {"card_crops": int(cards.sum()), "cards_dropped": round(float((scores[cards] >= tau).mean()), 4),
                         **{f"{kind}_crops": int((others & (kinds == kind)).sum()) for kind in ("box", "prop")},
                         **{f"{kind}_caught": round(float((scores[others & (kinds == kind)] >= tau).mean()), 4)
                            for kind in ("box", "prop")}}
    print(json.dumps(figures, indent=1))
    row.figures = figures
    row.save(a.out)
    print(f"wrote {a.out} ({time.time() - start:.0f} s); the threshold above keeps the generated cards; the shipped "
          "RecognizerSettings.not_card_from was chosen on the real photos' tune half")


if __name__ == "__main__":
    main()
