"""Learning a deck profile from its captures, and the figures a table sees before its evening.

The classifier's features of many views of each capture are computed once; a new last layer over the
pack's cards is learned on them (softmax regression, Adam, full batch), starting from the shipped
last layer and pulled toward it. No torch: NumPy, on the features ONNX Runtime gives. Views drawn
apart then compare the profile with the shipped network; a profile that reads them worse is refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from vision.recognize.deck import DeckProfile, classifier_digest, shipped_head

from .augment import views
from .captures import Capture
from .packs import Pack
from .settings import TEACH, TeachSettings

Progress = Callable[[str, int, int], None]  # (stage, done, of)
BATCH = 64


class Refused(ValueError):
    """A profile that reads its own captures worse than the shipped network; ``figures`` say how."""

    def __init__(self, message: str, figures: dict) -> None:
        super().__init__(message)
        self.figures = figures


@dataclass
class Views:
    features: np.ndarray  # views x features
    labels: np.ndarray  # index into the pack's codes
    shipped: np.ndarray  # the shipped network's read of each view: views x its classes


def learn(name: str, pack: Pack, captures: dict[str, list[Capture]], recognizer,
          settings: TeachSettings = TEACH, progress: Progress | None = None) -> DeckProfile:
    """The profile of ``pack`` taught from ``captures`` (every card of the pack, one or more each)."""
    missing = [c for c in pack.codes if not captures.get(c)]
    if missing:
        raise ValueError(f"not every card is captured yet; missing: {', '.join(pack.card_name(c) for c in missing)}")
    rng = np.random.default_rng(settings.seed)
    train = _views(pack, captures, recognizer, settings.views, rng, settings, progress, "views")
    check = _views(pack, captures, recognizer, settings.check_views, rng, settings, progress, "check")
    w0, b0 = _start(pack, recognizer)
    w, b = fit(train.features, train.labels, w0, b0, settings, progress)
    profile = DeckProfile(name, pack.name, list(pack.codes), w, b, classifier_digest(recognizer.cls_path))
    profile.figures = figures(pack, profile.faces(check.features), check, recognizer.names)
    profile.figures["nearest_right"] = nearest_right(train, check)
    refuse_if_worse(name, profile.figures)
    return profile


def refuse_if_worse(name: str, figures: dict) -> None:
    ours, shipped = figures["profile_right"], figures["shipped_right"]
    if ours < shipped:
        raise Refused(f"deck {name!r} not kept: it reads {ours:.1%} of its own check views right, the shipped "
                      f"network {shipped:.1%}; retake the cards named in the figures", figures)


def view_crops(pack: Pack, captures: dict[str, list[Capture]], per: int, rng: np.random.Generator,
               settings: TeachSettings = TEACH) -> tuple[list[np.ndarray], np.ndarray]:
    """``per`` views of every capture, card by card in the pack's order, and each one's index in
    ``pack.codes``: one order, so the last layer and the whole fine-tune (with the same seed) learn
    from and are checked on the very same views."""
    crops, labels = [], []
    for i, code in enumerate(pack.codes):
        for cap in captures[code]:
            crops += views(cap, per, rng, settings)
            labels += [i] * per
    return crops, np.array(labels)


def _views(pack: Pack, captures: dict[str, list[Capture]], recognizer, per: int, rng: np.random.Generator,
           settings: TeachSettings, progress: Progress | None, stage: str) -> Views:
    crops, labels = view_crops(pack, captures, per, rng, settings)
    feats, shipped = [], []
    for k in range(0, len(crops), BATCH):
        part = crops[k:k + BATCH]
        feats.append(recognizer.features(part))
        shipped.append(recognizer.classify(part))
        if progress:
            progress(stage, min(k + BATCH, len(crops)), len(crops))
    return Views(np.concatenate(feats), labels, np.concatenate(shipped))


def _start(pack: Pack, recognizer) -> tuple[np.ndarray, np.ndarray]:
    w, b = shipped_head(recognizer.cls_path)
    rows = [recognizer.names.index(c) for c in pack.codes]
    return w[rows].copy(), b[rows].copy()


def fit(x: np.ndarray, y: np.ndarray, w0: np.ndarray, b0: np.ndarray, settings: TeachSettings = TEACH,
        progress: Progress | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Softmax regression of ``y`` on ``x`` from ``(w0, b0)``, with an L2 pull toward them."""
    w, b = w0.astype(np.float64).copy(), b0.astype(np.float64).copy()
    onehot = np.eye(len(w))[y]
    m = [np.zeros_like(w), np.zeros_like(b)]
    v = [np.zeros_like(w), np.zeros_like(b)]
    for t in range(1, settings.steps + 1):
        z = x @ w.T + b
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        g = (p - onehot) / len(x)
        grads = [g.T @ x + settings.pull * (w - w0), g.sum(axis=0)]
        for i, (param, grad) in enumerate(zip((w, b), grads)):
            m[i] = 0.9 * m[i] + 0.1 * grad
            v[i] = 0.999 * v[i] + 0.001 * grad ** 2
            param -= settings.rate * (m[i] / (1 - 0.9 ** t)) / (np.sqrt(v[i] / (1 - 0.999 ** t)) + 1e-8)
        if progress and t % 20 == 0:
            progress("learn", t, settings.steps)
    return w.astype(np.float32), b.astype(np.float32)


def nearest_right(train: Views, check: Views) -> float:
    """The other way of naming a taught card, measured beside the learned layer: the nearest card's mean
    feature direction (cosine), as card scanners match one picture per card. Reported, not used."""
    unit = lambda x: x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-9)  # noqa: E731
    f = unit(train.features)
    centres = unit(np.stack([f[train.labels == i].mean(axis=0) for i in range(train.labels.max() + 1)]))
    return round(float(((unit(check.features) @ centres.T).argmax(axis=1) == check.labels).mean()), 4)


def figures(pack: Pack, probs: np.ndarray, check: Views, names: list[str]) -> dict:
    """How surely each card is told from its look-alikes on the check views: the share read right by
    the deck (``probs``: its read of each check view over the pack's codes) and by the shipped network,
    and for each card the look-alike most often taken for it."""
    ours = probs.argmax(axis=1)
    truth = [names.index(pack.codes[i]) for i in check.labels]
    shipped_right = check.shipped.argmax(axis=1) == np.array(truth)
    cards = {}
    for i, code in enumerate(pack.codes):
        rows = check.labels == i
        mass = probs[rows].mean(axis=0)
        mass[i] = -1
        rival = int(mass.argmax())
        cards[code] = {"right": round(float((ours[rows] == i).mean()), 4),
                       "shipped_right": round(float(shipped_right[rows].mean()), 4),
                       "look_alike": pack.codes[rival], "taken_for_it": round(float(mass[rival]), 4)}
    pairs = sorted(((c, v["look_alike"], v["taken_for_it"]) for c, v in cards.items()), key=lambda r: -r[2])
    return {"profile_right": round(float((ours == check.labels).mean()), 4),
            "shipped_right": round(float(shipped_right.mean()), 4), "views": len(check.labels),
            "cards": cards, "confusable": [list(p) for p in pairs[:8]]}
