"""Image of the table -> the cards in it, with ONNX Runtime on the CPU (no torch).

A :class:`Recognizer` promises: each face-up card found once, named with its next-best reads (the
live table falls back on them where the best is impossible), its outline fitted to the card, the box
of its part in view and the cards lying on it; a face-down card (``back``) is left out, never named
as the face it most resembles. The stages and their order: :mod:`vision.recognize`; every threshold
and why: :mod:`vision.recognize.settings`.
"""

from __future__ import annotations

import ast
import copy
import warnings
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from . import corners as corner_stage
from . import edges as edge_stage
from . import index as index_stage
from . import input_size, layers
from . import plane as plane_stage
from .geometry import (
    CROP_H,
    CROP_W,
    Rect,
    box_iou,
    crosswise,
    elongation,
    order_quad,
    quad_iou,
    rect_within,
    rectify,
    sideways,
)
from .deck import DeckProfile, classifier_digest, with_features
from .models import BACK, CLASSIFIER, CORNERS, DETECTOR, NOT_CARD
from .not_card import NOT_A_CARD, NotCard
from .settings import FRAME, RecognizerSettings, with_overrides
from .views import CANDIDATE, fuse, turn, unturn


@dataclass
class Detection:
    card: str  # e.g. "Ah"
    confidence: float  # detector score x classifier probability
    box: tuple[float, float, float, float]  # x1, y1, x2, y2 in image pixels
    # the card's outline (the box fitted by vision.recognize.corners), clockwise from its top left
    corners: list[tuple[float, float]]
    detector_score: float = 1.0
    alternatives: list[tuple[str, float]] = field(default_factory=list)  # next-best reads
    cut: bool = False  # the picture's edge cuts the card: part of it is out of view
    # The box of the part in view: ``box`` less what the cards lying on it cover (vision.recognize.layers), which
    # are ``under``'s indices in the same list of detections. None when made: the whole box.
    visible: tuple[float, float, float, float] | None = None
    under: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.visible is None:
            self.visible = self.box

    def to_dict(self) -> dict:
        return {"card": self.card, "confidence": round(self.confidence, 4),
                "box": [round(v, 1) for v in self.box],
                "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
                "detector_score": round(self.detector_score, 4),
                "alternatives": [[c, round(p, 4)] for c, p in self.alternatives], "cut": self.cut,
                "visible": [round(v, 1) for v in self.visible], "under": list(self.under)}


class ModelMissing(FileNotFoundError):
    pass


def _session(model: Path | bytes, threads: int):
    """An ONNX Runtime session for the model file, or the graph, ``model``."""
    import onnxruntime as ort  # noqa: PLC0415 - keeps `import vision` light for the engine-only tools

    if isinstance(model, Path) and not model.is_file():
        raise ModelMissing(f"model file not found: {model} (train one with `make model`)")
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    # Two sessions (detector, classifier) run in turn on the same cores: a pool left spinning
    # after its run steals the cores from the other one.
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    source = model if isinstance(model, bytes) else str(model)
    return ort.InferenceSession(source, opts, providers=["CPUExecutionProvider"])


def _checked_session(path: Path, threads: int, want: dict[str, object], stage: str):
    """A session for a network whose input geometry ``stage`` defines, refused if its metadata says it
    was trained for another (a window or patch cut otherwise would be misread without a sound)."""
    session = _session(path, threads)
    meta = session.get_modelmeta().custom_metadata_map
    got, wanted = {k: meta.get(k) for k in want}, {k: str(v) for k, v in want.items()}
    if got != wanted:
        raise ValueError(f"{path}: trained for {got}, but {stage} cuts {wanted}")
    return session


def _corner_session(path: Path, threads: int):
    return _checked_session(path, threads, {"size": corner_stage.SIZE, "grow": corner_stage.GROW}, "vision.recognize.corners")


def _index_session(path: Path, threads: int):
    return _checked_session(path, threads, {"size": index_stage.SIZE, "share": index_stage.SHARE}, "vision.recognize.index")


def _not_card(path: Path | None, classifier: Path) -> NotCard | None:
    """The not-a-card row, where there is one and it was learned on ``classifier``'s features."""
    if path is None or not Path(path).exists():
        return None
    row = NotCard.load(Path(path))
    return row if row.classifier == classifier_digest(classifier) else None


def _names(session) -> list[str]:
    raw = session.get_modelmeta().custom_metadata_map.get("names", "{}")
    names = ast.literal_eval(raw)
    return [names[i] for i in range(len(names))]


def letterbox(image: np.ndarray, size: int | tuple[int, int],
              halve: bool = False) -> tuple[np.ndarray, float, tuple[float, float]]:
    """Resize keeping the aspect ratio and pad to ``size`` square, or to (height, width), centred
    (Ultralytics' grey 114). ``halve``: a picture at least 4 times the size each way is first halved
    (2x2 means, OpenCV's fast path) for as long as it stays so, then area-resized: a 1920x1080 frame in about 60 % of
    the time, its pixels a twentieth of a grey level from the one-step resize on average."""
    h, w = image.shape[:2]
    out_h, out_w = (size, size) if isinstance(size, int) else size
    r = min(out_h / h, out_w / w)
    nw, nh = int(round(w * r)), int(round(h * r))
    while halve and image.shape[1] >= 4 * nw and image.shape[0] >= 4 * nh:
        image = cv2.resize(image, (image.shape[1] // 2, image.shape[0] // 2), interpolation=cv2.INTER_AREA)
    resized = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_AREA if r < 1 else cv2.INTER_LINEAR)
    out = np.full((out_h, out_w, 3), 114, np.uint8)
    left, top = (out_w - nw) // 2, (out_h - nh) // 2
    out[top:top + nh, left:left + nw] = resized
    return out, r, (left, top)


def frame_box(quad: np.ndarray, width: int, height: int) -> tuple[float, float, float, float]:
    """The upright box of a card's outline within the frame: a card cut by the picture's edge is
    boxed where it is in view (its corners keep the whole card, which the crop needs). An outline
    wholly outside the picture gets an empty box on the edge nearest it, never an inverted one."""
    x1, y1 = np.minimum(np.maximum(quad.min(axis=0), 0), (width, height))
    x2, y2 = np.maximum(np.minimum(quad.max(axis=0), (width, height)), (x1, y1))
    return float(x1), float(y1), float(x2), float(y2)


def cut_by_edge(quad: np.ndarray, width: int, height: int, margin: float = 2.0) -> bool:
    """Whether the outline reaches the picture's edge (within ``margin`` pixels) or beyond it."""
    lo, hi = quad.min(axis=0), quad.max(axis=0)
    return bool((lo < margin).any() or hi[0] > width - margin or hi[1] > height - margin)


class Recognizer:
    """Callable: RGB image -> list of :class:`Detection`, best first."""

    settings: RecognizerSettings = FRAME
    not_card: NotCard | None = None  # the not-a-card class, where one was learned on this classifier
    no_card: int | None = None  # its column in a read

    def __init__(self, detector: Path = DETECTOR, classifier: Path = CLASSIFIER, *, corners: Path | None = CORNERS,
                 index: Path | None = None, settings: RecognizerSettings | None = None, threads: int = 2,
                 deck: DeckProfile | None = None, not_card: Path | None = NOT_CARD, **overrides) -> None:
        """The four networks (``corners`` or ``index`` None: that stage left out), read with ``settings``
        (else the preset ``overrides``' ``views`` stands for) and ``overrides`` of its fields; ``deck``: a
        taught pack's profile names the faces (:mod:`vision.recognize.deck`); ``not_card``: the classifier's
        not-a-card row (:mod:`vision.recognize.not_card`), used where it was learned on this classifier."""
        self.settings = s = with_overrides(settings, **overrides)
        self.det = _session(Path(detector), threads)
        self.det_path, self.threads = Path(detector), threads
        self.fit_input = s.fit_input  # cleared where the detector's graph cannot be resized
        self._sized: dict[tuple[int, int], object] = {}  # the detector's sessions at other input sizes
        own = deck.classifier_path if deck is not None else None  # a deck with its own whole classifier
        deck = None if own else deck  # ... needs no layer of its own
        classifier = own or Path(classifier)
        self.deck, self.cls_path = deck, Path(classifier)
        self.not_card = _not_card(not_card, self.cls_path)
        if deck or self.not_card:  # one run gives the read and the features the layer or the class reads
            self.cls = self._features = _session(with_features(self.cls_path), threads)
        else:  # the features' session is made when first asked for (teaching)
            self.cls, self._features = _session(self.cls_path, threads), None
        self.corners = _corner_session(Path(corners), threads) if corners else None
        self.index = _index_session(Path(index), threads) if index else None
        self.index_names = _names(self.index) if self.index is not None else []
        self.det_size = int(self.det.get_inputs()[0].shape[2])
        self.cls_size = int(self.cls.get_inputs()[0].shape[2])
        self.cls_batch = not isinstance(self.cls.get_inputs()[0].shape[0], int)  # exported with a dynamic batch
        self.names = _names(self.cls) + ([NOT_A_CARD] if self.not_card else [])
        self.back = self.names.index(BACK) if BACK in self.names else None  # classifiers before v4 have none
        self.no_card = self.names.index(NOT_A_CARD) if self.not_card else None
        self._cache: list[Kept] = []

    def detect_cards(self, rgb: np.ndarray) -> list[tuple[np.ndarray, float]]:
        """Oriented boxes (corners in image pixels) and detector scores, boldest first."""
        if self.settings.views == 1:
            det, size = self._detector_for(*rgb.shape[:2])
            img, r, pad = letterbox(rgb, size, self.settings.halve_large)
            found = [(order_quad(cv2.boxPoints(rect)), s) for rect, s in self._rects(img, self.settings.low, det)]
        else:  # the letterboxed square turned is the turned frame letterboxed, and 4 times smaller
            img, r, pad = letterbox(rgb, self.det_size, self.settings.halve_large)
            upright = self._rects(img, CANDIDATE)
            turned = [(unturn(rect, self.det_size), s) for rect, s in self._rects(turn(img), CANDIDATE)]
            found = fuse([[(order_quad(cv2.boxPoints(rect)), s) for rect, s in view] for view in (upright, turned)],
                         self.settings.low)
        return [((quad - np.float32(pad)) / r, s) for quad, s in found]

    def closer(self) -> Recognizer:
        """This recognizer with the detector looking at ``closer_side``, for a table whose cards the usual size
        misses; itself where that is no closer, or where the detector runs at its exported square."""
        s = self.settings
        if not self.fit_input or s.closer_side <= s.short_side:
            return self
        looking = copy.copy(self)  # the networks' sessions are shared, not loaded again
        looking.settings, looking._cache = replace(s, short_side=s.closer_side), []
        return looking

    def _detector_for(self, height: int, width: int) -> tuple[object, tuple[int, int]]:
        """The detector session for a picture of this shape, and the input size it letterboxes to: its
        exported square, or (``fit_input``) the shape's own (:mod:`vision.recognize.input_size`), made once per
        shape. A detector whose graph cannot be resized (not laid out as the rewrite expects, or refused
        by ONNX Runtime at that size) runs at its square, with a warning, rather than stop a game."""
        square = (self.det_size, self.det_size)
        long_side = max(self.det_size, round(self.settings.short_side * max(height, width) / min(height, width)))
        size = input_size.fitting(height, width, long_side) if self.fit_input else square
        if size == square:
            return self.det, square
        if size not in self._sized:
            try:
                self._sized[size] = _session(input_size.detector_graph(str(self.det_path), *size), self.threads)
            except Exception as exc:  # noqa: BLE001 - ONNX Runtime's errors share no base class but Exception
                warnings.warn(f"detector not resized to {size}: {exc}; it runs at its exported square", stacklevel=2)
                self.fit_input = False
                return self.det, square
        return self._sized[size], size

    def _rects(self, img: np.ndarray, low: float, det=None) -> list[tuple[Rect, float]]:
        """One detector run (``det``, else the exported square's) on a letterboxed picture: rotated
        rects in its pixels scoring ``low`` or more, after rotated NMS."""
        det = det or self.det
        x = img.transpose(2, 0, 1)[None].astype(np.float32) / 255.0
        out = det.run(None, {det.get_inputs()[0].name: x})[0][0]  # (4 + classes + 1, N)
        scores = out[4:-1].max(axis=0)
        keep = scores >= low
        if not keep.any():
            return []
        rects = [((float(a), float(b)), (float(c), float(d)), float(np.degrees(t)))
                 for a, b, c, d, t in zip(*out[:4, keep], out[-1, keep])]
        kept = scores[keep].astype(float).tolist()
        idx = cv2.dnn.NMSBoxesRotated(rects, kept, low, self.settings.nms_iou)
        return [(rects[i], kept[i]) for i in np.array(idx).reshape(-1)]

    def refine(self, rgb: np.ndarray, quads: list[np.ndarray]) -> list[np.ndarray]:
        """Each box's corners moved to where the card's are (``corner_passes`` looks, each around
        the corners the last found); a box the network turns into something that is no card
        outline near it stays as found."""
        if self.corners is None or not quads:
            return quads
        fitted = quads
        for _ in range(self.settings.corner_passes):
            fitted = self._fit(rgb, fitted)
        return [f if quad_iou(f, q) >= corner_stage.MIN_AGREEMENT else q for q, f in zip(quads, fitted)]

    def snap(self, rgb: np.ndarray, boxes: list[np.ndarray], fitted: list[np.ndarray]) -> list[np.ndarray]:
        """The fitted outlines with each side the picture shows moved onto the card's edge
        (:mod:`vision.recognize.edges`); a box the fit left as found stays so. Only the outline reported is
        snapped, not the one the card is read from: read from snapped outlines, 2 more of the 498
        cards found in the generated scenes were misread, and 2 real ones were lost."""
        if self.corners is None or not self.settings.snap_edges:
            return fitted
        moved = [i for i, (b, q) in enumerate(zip(boxes, fitted)) if not np.array_equal(q, b)]
        if not moved:
            return fitted
        out = list(fitted)
        for i, q in zip(moved, edge_stage.snap_all(edge_stage.edge_image(rgb), [fitted[i] for i in moved])):
            out[i] = q
        return out

    def _fit(self, rgb: np.ndarray, quads: list[np.ndarray]) -> list[np.ndarray]:
        """One look of the corner network at every box, in one run; a fit that is no outline is not taken."""
        maps = [corner_stage.window_transform(q) for q in quads]  # each window's, to cut it and to map back
        x = np.stack([corner_stage.cut_window(rgb, q, m) for q, m in zip(quads, maps)])
        x = x.transpose(0, 3, 1, 2).astype(np.float32) / 255
        out = self.corners.run(None, {self.corners.get_inputs()[0].name: x})[0]
        fitted = [corner_stage.from_window(q, c, m) for q, c, m in zip(quads, out, maps)]
        return [f if corner_stage.convex_quad(f) else q for q, f in zip(quads, fitted)]

    def classify(self, crops: list[np.ndarray]) -> np.ndarray:
        """Class probabilities, a row per crop: all in one run where the model takes a batch
        (a frame's five cards in 8 ms against 12 one by one)."""
        x = np.stack([self._tensor(c) for c in crops])
        name = self.cls.get_inputs()[0].name
        if self.cls_batch:
            outs = self.cls.run(None, {name: x})
        else:
            runs = [self.cls.run(None, {name: x[i:i + 1]}) for i in range(len(x))]
            outs = [np.concatenate(parts) for parts in zip(*runs)]
        probs = outs[0] if self.deck is None else self.deck.read(outs[0], outs[1], self.names[:outs[0].shape[1]], self.back)
        return probs if self.not_card is None else self.not_card.fold(probs, outs[1])

    def features(self, crops: list[np.ndarray]) -> np.ndarray:
        """What the classifier sees in each upright crop (the input of its last layer): what a deck
        profile is learned on."""
        if self._features is None:
            self._features = _session(with_features(self.cls_path), self.threads)
        x = np.stack([self._tensor(c) for c in crops])
        return self._features.run(None, {self._features.get_inputs()[0].name: x})[1]

    def _tensor(self, crop_rgb: np.ndarray) -> np.ndarray:
        if crop_rgb.shape[0] != self.cls_size or crop_rgb.shape[1] != self.cls_size:
            crop_rgb = cv2.resize(crop_rgb, (self.cls_size, self.cls_size), interpolation=cv2.INTER_AREA)
        return crop_rgb.transpose(2, 0, 1).astype(np.float32) / 255.0

    def read(self, crops: list[np.ndarray]) -> np.ndarray:
        """Class probabilities of upright crops; those it is unsure of are averaged with the crop
        turned half round (two views of one card: about a third of the crops need it)."""
        if not crops:
            return np.zeros((0, len(self.names)), np.float32)
        probs = self.classify(crops)
        unsure = np.flatnonzero(probs.max(axis=1) < self.settings.second_look)
        if len(unsure):
            turned = [np.ascontiguousarray(crops[i][::-1, ::-1]) for i in unsure]
            probs[unsure] = (probs[unsure] + self.classify(turned)) / 2
        return probs

    def read_cards(self, rgb: np.ndarray, quads: list[np.ndarray]) -> np.ndarray:
        """Class probabilities of the cards whose outlines are ``quads``; an outline shorter than
        ``sideways_below`` times its width, read less surely than ``index_unsure``, is read the other way
        round too, and the surer read is kept, unless the first is `back`: a card's back looks the
        same either way, so a face read on it sideways is a stretched guess (the real photos' stacks
        of backs and lids of jars)."""
        ordered = [order_quad(q) for q in quads]
        probs = self._read_ordered(rgb, ordered)
        doubtful = [i for i, (q, p) in enumerate(zip(ordered, probs))
                    if elongation(q) < self.settings.sideways_below and p.max() < self.settings.index_unsure]
        if doubtful:
            turned = self._read_ordered(rgb, [sideways(ordered[i]) for i in doubtful])
            for i, p in zip(doubtful, turned):
                if p.max() > probs[i].max() and int(np.argmax(probs[i])) != self.back:
                    probs[i] = p
        return probs

    def _read_ordered(self, rgb: np.ndarray, quads: list[np.ndarray]) -> np.ndarray:
        """The classifier's read of each whole card, its top end the one from ``quads``' first
        corner to its second, with its four corners' reads multiplied in (:func:`vision.recognize.index.combine`)
        where the classifier is less sure than ``index_unsure``."""
        probs = self.read([rectify(rgb, q, (CROP_W, CROP_H), ordered=True) for q in quads])
        unsure = [] if self.index is None else [i for i, p in enumerate(probs) if p.max() < self.settings.index_unsure]
        if unsure:
            corners = self.read_corners(rgb, [quads[i] for i in unsure], ordered=True)
            for i, c in zip(unsure, corners):
                probs[i] = index_stage.combine(probs[i], c, self.names, self.index_names)
        return probs

    def read_corners(self, rgb: np.ndarray, quads: list[np.ndarray], ordered: bool = False) -> np.ndarray:
        """The index network's reads of each card's four corner patches (cards x 4 x
        ``index_names``), all in one run; ``ordered`` as for :func:`vision.recognize.index.corner_patches`."""
        patches = np.stack([p for q in quads for p in index_stage.corner_patches(rgb, q, ordered)])
        x = patches.transpose(0, 3, 1, 2).astype(np.float32) / 255.0
        return self.index.run(None, {self.index.get_inputs()[0].name: x})[0].reshape(len(quads), 4, -1)

    def __call__(self, rgb: np.ndarray) -> list[Detection]:
        found, cache = [], []
        h, w = rgb.shape[:2]
        detected = self.detect_cards(rgb)
        boxes = [quad for quad, _ in detected]
        # A card lying still is known by the detector's box, which the fit moves a little differently
        # from frame to frame (most of all on a loose box): keyed by the fitted box, the 6-player
        # hands of the virtual table re-read such cards every frame. It keeps its fit as well as its read.
        found_boxes = [frame_box(quad, w, h) for quad in boxes]
        kept = [self._reused(box) for box in found_boxes]
        fresh = [i for i, k in enumerate(kept) if k is None]
        fitted = self.refine(rgb, [boxes[i] for i in fresh])  # what each card is read from
        snapped = self.snap(rgb, [boxes[i] for i in fresh], fitted)  # what is reported
        for i, outline, probs in zip(fresh, snapped, self.read_cards(rgb, fitted)):
            kept[i] = Kept(found_boxes[i], probs, 0, outline)
        for (_, score), k in zip(detected, kept):
            cache.append(replace(k, age=k.age + 1))
            outline, probs = k.outline, k.probs
            best = self.ranked(probs)
            if self.back is not None and probs[self.back] > probs[best[0]]:
                continue
            if self.no_card is not None and probs[self.no_card] >= self.settings.not_card_from:
                continue
            if score < self.settings.conf and probs[best[0]] < self.settings.read_sure:  # neither box nor read sure
                continue
            card, confidence, alternatives = self.named(best, probs, score)
            found.append(Detection(card, confidence, frame_box(outline, w, h),
                                   [(float(a), float(b)) for a, b in outline], score, alternatives,
                                   cut_by_edge(outline, w, h, self.settings.edge_margin)))
        self._cache = cache if self.settings.reuse_frames else []
        if self.corners is not None:  # fitted, two boxes may have become one outline
            found = one_per_outline(found, corner_stage.SAME_CARD, self.settings.same_read)
        return self.complete(rgb, self.stack(rgb, across_surer(found, self.settings.cross_cover)))

    def complete(self, rgb: np.ndarray, found: list[Detection]) -> list[Detection]:
        """The cards with their hidden corners, those whose patches the index network sees no card
        in, where the table's plane puts them (:mod:`vision.recognize.plane`), and each card so moved read again
        there (``take_surer``); needs the corner fit and the index network. Which card lies on which,
        and the part of a covered card in view, stay as the fitted outlines showed them: what is moved
        lies out of sight (on the real photos, 2 cards' parts in view of 527 were lost when they were
        worked out from the completed outlines)."""
        if self.corners is None or self.index is None or not (self.settings.plane and found):
            return found
        h, w = rgb.shape[:2]
        outlines = [np.float32(d.corners) for d in found]
        none = self.read_corners(rgb, outlines)[..., self.index_names.index(index_stage.NONE)]
        done = plane_stage.complete(outlines, plane_stage.hidden_corners(outlines, none), (w, h))
        moved = [i for i, (was, now) in enumerate(zip(outlines, done))
                 if np.abs(now - was).max() > self.settings.reread_moved]
        for i, probs in zip(moved, self.read_cards(rgb, [done[i] for i in moved]) if moved else []):
            self.take_surer(found[i], probs)
        for d, outline in zip(found, done):
            d.corners = [(float(a), float(b)) for a, b in outline]
            d.box, d.cut = frame_box(outline, w, h), cut_by_edge(outline, w, h, self.settings.edge_margin)
            if not d.under:  # no card on it: in view as a whole
                d.visible = d.box
        return found

    def ranked(self, probs: np.ndarray) -> list[int]:
        """The classes of a read, likeliest first, ``top_k`` of them: a card's name and its next best
        (``back`` and ``not_a_card`` are none: a face-down card, or no card, is left out, not named)."""
        return [i for i in np.argsort(probs)[::-1] if i not in (self.back, self.no_card)][: self.settings.top_k]

    def named(self, best: list[int], probs: np.ndarray, score: float) -> tuple[str, float, list[tuple[str, float]]]:
        """A read's card, its confidence (the detector's ``score`` times the read's probability) and the
        next best reads, from the classes ``best`` (as :meth:`ranked` gives them)."""
        return (self.names[best[0]], float(score * probs[best[0]]),
                [(self.names[i], float(probs[i])) for i in best[1:]])

    def take_surer(self, d: Detection, probs: np.ndarray) -> None:
        """``d`` named by ``probs``, a second read of it, where that is surer of its card than the first."""
        card, confidence, alternatives = self.named(self.ranked(probs), probs, d.detector_score)
        if confidence > d.confidence:
            d.card, d.confidence, d.alternatives = card, confidence, alternatives

    def stack(self, rgb: np.ndarray, found: list[Detection]) -> list[Detection]:
        """Each card's part in view: its outline less those of the cards the picture shows lying on
        it (:mod:`vision.recognize.layers`); a card under none keeps its whole box."""
        h, w = rgb.shape[:2]
        quads = [np.float32(d.corners) for d in found]
        for d, quad, over in zip(found, quads, layers.stacking(rgb, quads)):
            d.under = over
            if over:
                d.visible = layers.visible_box(quad, [quads[k] for k in over], w, h) or d.box
        return found

    def _reused(self, box: tuple[float, float, float, float]) -> Kept | None:
        """What a card found at ``box`` was fitted to and read as in the last frames, where it lay there."""
        for k in self._cache:
            if k.age <= self.settings.reuse_frames and box_iou(k.box, box) >= self.settings.reuse_iou:
                return replace(k, box=box)
        return None


@dataclass(frozen=True)
class Kept:
    """A card's fit and read, kept for the next frames while its box stays (``reuse_frames``)."""

    box: tuple[float, float, float, float]  # the detector's box, in the frame
    probs: np.ndarray
    age: int  # frames since it was read
    outline: np.ndarray  # the outline reported


def one_per_outline(found: list[Detection], iou: float, same_read: float = 1.0) -> list[Detection]:
    """The reads, surest first, less each whose outline meets a surer one's at ``iou`` or more, or
    at ``same_read`` or more where both name the same card: NMS over again, after the corner fit.
    Two boxes on one card, one along it and one across it, survive the detector's NMS and are both
    fitted to that card's outline; the second copy would be a second card lying there (on the
    virtual table, a Td already played, so the copy was taken for its next-best read, 7h, a card
    never laid). A box along part of a card is fitted short of the whole card's outline, but reads
    the same card, and a pack has each card once."""
    kept: list[Detection] = []
    twin = min(iou, same_read)
    for d in sorted(found, key=lambda d: -d.confidence):
        outline = np.float32(d.corners)
        if all(quad_iou(outline, np.float32(k.corners)) < (twin if k.card == d.card else iou) for k in kept):
            kept.append(d)
    return kept


def across_surer(found: list[Detection], cover: float) -> list[Detection]:
    """The reads, surest first, less each lying crosswise mostly within a surer one's box.

    A card at about 45 degrees is sometimes boxed twice, once along its length and once across
    it, and beside a card back (the stock next to the upcard) the detector can box the card's middle
    and a strip of the back across the card. Rotated NMS keeps both (two crossed card-shaped boxes
    overlap at IoU 0.47 at most); the crop along the card reads surer than the one across it, and
    the crossed crop reads as some other card. A real card lying that way would be the lower of two
    crossed cards with at most 40 % of it in view."""
    kept: list[tuple[Detection, Rect]] = []
    for d in sorted(found, key=lambda d: -d.confidence):
        rect = cv2.minAreaRect(np.float32(d.corners))
        if cover <= 1 and any(crosswise(rect, r) and rect_within(rect, r) >= cover for _, r in kept):
            continue
        kept.append((d, rect))
    return [d for d, _ in kept]


def read_image(path: str | Path) -> np.ndarray:
    """RGB image from a file; raises ValueError with the reason when it cannot be read."""
    p = Path(path)
    if not p.is_file():
        raise ValueError(f"{p}: no such file")
    data = np.fromfile(str(p), dtype=np.uint8)
    img = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if img is None:
        raise ValueError(f"{p}: not an image OpenCV can read")
    return img[..., ::-1].copy()
