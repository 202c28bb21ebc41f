"""A table's own pack, taught (``chratze teach``): how the recognizer names its cards.

A deck profile keeps the shipped networks as they are and adds one thing: a new last layer for the
classifier, learned from the pack's captures. The classifier's features (its 1280 numbers before
its last layer) still come from the shipped network; the profile maps them to the pack's cards.
Whether a card lies face down stays the shipped network's call, since a profile is taught faces only.
Where the training stack is installed, ``chratze teach --whole`` fine-tunes the whole classifier
instead, and the deck carries its own copy of it (``classifier.onnx``), read in place of the shipped one.

A profile lives in the user's data folder (:func:`decks_dir`), never in ``models/``: a folder per
deck with its captures, ``head.npz`` (the layer) and ``deck.json`` (pack, figures, the classifier it
was learned on: a profile is refused on any other, whose features differ).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np
import onnx

from .models import CLASSIFIER

OWN_CLASSIFIER = "classifier.onnx"  # a deck's whole fine-tuned classifier, where it has one
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")  # a deck's name is its folder's name


class DeckError(ValueError):
    """A deck that cannot be used or taught, with the reason a table can act on."""


def decks_dir() -> Path:
    """``$CHRATZE_DATA/decks``, else the XDG data folder's ``chratze/decks`` (``~/.local/share``)."""
    root = os.environ.get("CHRATZE_DATA") or Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "chratze"
    return Path(root) / "decks"


def deck_folder(name: str) -> Path:
    if not isinstance(name, str) or not NAME.match(name):
        raise DeckError(f"deck name {name!r}: use 1-40 letters, digits, '-', '_' or '.', starting with a letter or digit")
    return decks_dir() / name


@lru_cache(maxsize=4)
def classifier_digest(path: Path = CLASSIFIER) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def _last_layer(classifier: Path):
    """The classifier's graph and its last layer (the fully connected node its classes come from)."""
    model = onnx.load(str(classifier))
    return model, next(n for n in reversed(model.graph.node) if n.op_type == "Gemm")


def with_features(classifier: Path = CLASSIFIER) -> bytes:
    """The classifier's graph with its features (the input of its last layer) as a second output,
    so one run gives both the shipped read and what a profile reads."""
    model, last = _last_layer(classifier)
    model.graph.output.append(onnx.helper.make_tensor_value_info(last.input[0], onnx.TensorProto.FLOAT, None))
    return model.SerializeToString()


def shipped_head(classifier: Path = CLASSIFIER) -> tuple[np.ndarray, np.ndarray]:
    """The shipped last layer (classes x features, classes): where a profile's learning starts."""
    model, last = _last_layer(classifier)
    init = {t.name: onnx.numpy_helper.to_array(t) for t in model.graph.initializer}
    w, b = init[last.input[1]], init[last.input[2]]
    trans_b = next((a.i for a in last.attribute if a.name == "transB"), 0)
    return (w if trans_b else w.T).astype(np.float32), b.astype(np.float32)


@dataclass
class DeckProfile:
    """A taught pack: its name, which pack it is (:mod:`vision.teach.packs`), the card codes the
    layer names, and the layer itself."""

    name: str
    pack: str
    codes: list[str]
    weights: np.ndarray  # len(codes) x features
    bias: np.ndarray  # len(codes)
    classifier: str  # digest of the shipped classifier it was learned from
    figures: dict = field(default_factory=dict)  # what teaching measured (deck.json)
    own_classifier: bool = False  # the whole classifier fine-tuned (classifier.onnx beside it), no layer
    folder: Path | None = None  # where it was loaded from

    def look_alikes(self, below: float) -> dict[str, set[str]]:
        """The pairs its own check views confuse: each card read right less often than ``below`` with
        the look-alike it was taken for, both ways. {code: its unsure look-alikes}."""
        out: dict[str, set[str]] = {}
        for code, c in self.figures.get("cards", {}).items():
            other = c.get("look_alike")
            if c.get("right", 1.0) < below and other:
                out.setdefault(code, set()).add(other)
                out.setdefault(other, set()).add(code)
        return out

    @property
    def classifier_path(self) -> Path | None:
        """The deck's own classifier, where the whole network was fine-tuned for it."""
        return self.folder / OWN_CLASSIFIER if self.own_classifier and self.folder is not None else None

    def faces(self, features: np.ndarray) -> np.ndarray:
        """Probabilities over ``codes``, a row per crop."""
        z = features @ self.weights.T + self.bias
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True)

    def read(self, shipped: np.ndarray, features: np.ndarray, names: list[str], back: int | None) -> np.ndarray:
        """Probabilities over the classifier's ``names``: face down as the shipped read says, each face
        as the profile reads it; a code the pack lacks stays 0."""
        out = np.zeros_like(shipped)
        down = shipped[:, back] if back is not None else np.zeros(len(shipped), np.float32)
        cols = [names.index(c) for c in self.codes]
        out[:, cols] = self.faces(features) * (1 - down)[:, None]
        if back is not None:
            out[:, back] = down
        return out

    def save(self, folder: Path, own_classifier: bytes | None = None) -> None:
        """The layer (or ``own_classifier``, a whole fine-tuned network's ONNX) first, then deck.json:
        a crash leaves the old pair, or new weights the old figures name, never half a file."""
        folder.mkdir(parents=True, exist_ok=True)
        self.own_classifier = own_classifier is not None
        if own_classifier is not None:
            (folder / "classifier.tmp").write_bytes(own_classifier)
            (folder / "classifier.tmp").replace(folder / OWN_CLASSIFIER)
        else:
            tmp = folder / "head.tmp.npz"
            np.savez(tmp, weights=self.weights, bias=self.bias)
            tmp.replace(folder / "head.npz")
        meta = {"name": self.name, "pack": self.pack, "codes": self.codes, "classifier": self.classifier,
                "own_classifier": self.own_classifier, "figures": self.figures}
        (folder / "deck.json.tmp").write_text(json.dumps(meta, indent=1), encoding="utf-8")
        (folder / "deck.json.tmp").replace(folder / "deck.json")
        self.folder = folder

    @classmethod
    def load(cls, folder: Path) -> "DeckProfile":
        meta_path = folder / "deck.json"
        if not meta_path.is_file():
            raise DeckError(f"deck {folder.name!r} has not been learned yet (no {meta_path.name} in {folder}): "
                            f"run `chratze teach {folder.name} ...` to the end")
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        own = bool(meta.get("own_classifier"))
        weights = bias = np.zeros((0,), np.float32)
        if own and not (folder / OWN_CLASSIFIER).is_file() or not own and not (folder / "head.npz").is_file():
            raise DeckError(f"deck {folder.name!r} is incomplete in {folder}: teach it again (`--relearn`)")
        if not own:
            with np.load(folder / "head.npz") as head:
                weights, bias = head["weights"], head["bias"]
        return cls(meta["name"], meta["pack"], list(meta["codes"]), weights, bias, meta["classifier"],
                   meta.get("figures", {}), own, folder)


def load_deck(name: str, classifier: Path = CLASSIFIER) -> DeckProfile:
    """The deck ``name`` from the data folder, checked against ``classifier``."""
    folder = deck_folder(name)
    if not folder.is_dir():
        known = ", ".join(listed()) or "none yet"
        raise DeckError(f"no deck {name!r} in {decks_dir()} (taught decks: {known})")
    profile = DeckProfile.load(folder)
    if profile.classifier != classifier_digest(Path(classifier)):
        raise DeckError(f"deck {name!r} was learned on another classifier than {classifier}: teach it again "
                        f"(`chratze teach {name} --relearn`)")
    return profile


def listed() -> list[str]:
    """The names of the decks in the data folder, learned or not."""
    root = decks_dir()
    return sorted(p.name for p in root.iterdir() if p.is_dir() and NAME.match(p.name)) if root.is_dir() else []
