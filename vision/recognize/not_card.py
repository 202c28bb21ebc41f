"""The classifier's not-a-card class: one more output over its features, for boxes that hold no card.

The detector boxes card-shaped things that are no card (a coupon, a phone, a chip) and the classifier,
which knows only cards and backs, names them. A small head on the classifier's features (the input of
its last layer), learned by ``vision.training.train_not_card``, gives the chance that a crop holds no
card; the card classes stay the shipped ones. Folded in as a class of its own (:meth:`NotCard.fold`),
a crop's card probabilities are its read given that it is a card, times the chance that it is one. It
is kept in a file of its own (``models/not-a-card.npz``) so that the classifier, and every deck taught
on it, stays as it was; it names the classifier it was learned on and is used with no other.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

NOT_A_CARD = "not_a_card"  # its class name beside the classifier's (the index reader's "none" is another thing)


@dataclass
class NotCard:
    layers: list[tuple[np.ndarray, np.ndarray]]  # (weights in x out, bias); ReLU between, one output last
    classifier: str  # digest of the classifier whose features it reads
    figures: dict = field(default_factory=dict)  # what its training measured

    def chance(self, features: np.ndarray) -> np.ndarray:
        """How likely each crop (a row of features) holds no card."""
        h = features.astype(np.float32)
        for k, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if k < len(self.layers) - 1:
                h = np.maximum(h, 0)
        return (1 / (1 + np.exp(-np.clip(h[:, 0], -60, 60)))).astype(np.float32)

    def fold(self, probs: np.ndarray, features: np.ndarray) -> np.ndarray:
        """``probs`` over the classifier's classes, with the not-a-card class as one more column."""
        p = self.chance(features)[:, None]
        return np.concatenate([probs * (1 - p), p], axis=1)

    def save(self, path: Path) -> None:
        arrays = {f"{part}{k}": a for k, (w, b) in enumerate(self.layers) for part, a in (("w", w), ("b", b))}
        np.savez(path, **arrays, meta=json.dumps({"classifier": self.classifier, "figures": self.figures}))

    @classmethod
    def load(cls, path: Path) -> NotCard:
        with np.load(path) as z:
            meta = json.loads(str(z["meta"]))
            n = sum(1 for key in z.files if key.startswith("w"))
            layers = [(z[f"w{k}"].astype(np.float32), z[f"b{k}"].astype(np.float32)) for k in range(n)]
        return cls(layers, meta["classifier"], meta.get("figures", {}))
