"""How well recognition does: on generated scenes (full labels) and on real photos (rank-only).

Generated scenes are rendered from seeds the training set never used, so no files are needed.
The real set is ``real/poker-photos`` in the shared folder (``../shared`` or ``$CHRATZE_SHARED``):
Pascal-VOC boxes around each card (round the part in view of a card under another, although the
set's README says whole cards: a fanned card under another is boxed as the strip that shows),
labelled with the rank only. So a found card is matched by the box of its part in view
(``Detection.visible``); the recall with whole boxes (``Detection.box``) is reported beside it.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

import numpy as np

from datasets.art import all_packs, shared_dir
from datasets.scenes import SceneOptions, render_scene
from vision.recognize.geometry import box_iou, greedy_match, quad_iou, rectify
from vision.recognize.recognizer import Detection, read_image

from .seeds import EVAL_SEED

RANK_OF_NAME = {"six": "6", "seven": "7", "eight": "8", "nine": "9", "ten": "T", "jack": "J",
                "queen": "Q", "king": "K", "ace": "A"}
MAP_IOUS = np.arange(0.5, 0.96, 0.05)  # mAP50-95: AP averaged over these IoU thresholds


def average_precision(scored: list[tuple[float, bool]], n_gt: int) -> float:
    """COCO-style 101-point interpolated AP."""
    if n_gt == 0:
        return float("nan")
    scored = sorted(scored, key=lambda t: -t[0])
    tp = np.cumsum([s[1] for s in scored]) if scored else np.array([])
    fp = np.cumsum([not s[1] for s in scored]) if scored else np.array([])
    recall = tp / n_gt if len(tp) else np.array([0.0])
    precision = tp / np.maximum(tp + fp, 1) if len(tp) else np.array([0.0])
    precision = np.maximum.accumulate(precision[::-1])[::-1]
    ap = 0.0
    for r in np.linspace(0, 1, 101):
        k = np.searchsorted(recall, r, side="left")
        ap += precision[k] if k < len(precision) else 0.0
    return ap / 101


def detection_map(frames: list[tuple[list, list]], thresholds: Iterable[float]) -> dict[float, float]:
    """Class-aware mAP over frames of (predictions [(quad, conf, card)], truths [(quad, card)])."""
    classes = {g[1] for _, gts in frames for g in gts}
    out = {}
    for t in thresholds:
        aps = []
        for c in classes:
            scored, n_gt = [], 0
            for preds, gts in frames:
                p = [(q, s) for q, s, k in preds if k == c]
                g = [(q, k) for q, k in gts if k == c]
                n_gt += len(g)
                matched = {i for i, _, _ in greedy_match(p, g, quad_iou, t)}
                scored += [(p[i][1], i in matched) for i in range(len(p))]
            aps.append(average_precision(scored, n_gt))
        out[t] = float(np.nanmean(aps)) if aps else float("nan")
    return out


def interval(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's 95 % score interval of a proportion ``k`` of ``n``: how far a figure on a few hundred
    cards may sit from the same models' figure on endless scenes (v16 names 0.986 of the found cards of
    the default 200 scenes right, 0.950 of 1,000 others; docs/model-history.md, "Covered cards read
    again", held-out scenes)."""
    if n == 0:
        return 0.0, 1.0
    p, q = k / n, z * z / n
    mid, half = (p + q / 2) / (1 + q), z * np.sqrt(p * (1 - p) / n + q / (4 * n)) / (1 + q)
    return float(max(mid - half, 0.0)), float(min(mid + half, 1.0))


@dataclass
class Report:
    frames: int
    truths: int
    predictions: int
    found: int  # truths matched by a prediction at IoU 0.5
    right: int  # of those, named right (generated: the card; real: the rank)
    map50: float | None = None
    map50_95: float | None = None
    # Real photos: (found, total) of cards whose label touches no other label, and of those whose
    # label overlaps another's. The labels box only the visible part of an overlapped card, while the
    # detector boxes the whole card, so the two are worth telling apart.
    alone: tuple[int, int] | None = None
    overlapped: tuple[int, int] | None = None
    whole_recall: float | None = None  # real photos: the recall with each card's whole box

    @property
    def recall(self) -> float:
        return self.found / max(self.truths, 1)

    @property
    def precision(self) -> float:
        return self.found / max(self.predictions, 1)

    @property
    def accuracy(self) -> float:
        """Per card (generated) or rank (real), over the found cards."""
        return self.right / max(self.found, 1)

    def lines(self, title: str, what: str) -> list[str]:
        out = [f"{title}: {self.frames} images, {self.truths} cards, {self.predictions} detections",
               _figure("box recall@0.5", self.found, self.truths),
               _figure("box precision@0.5", self.found, self.predictions), _figure(what, self.right, self.found)]
        if self.whole_recall is not None:
            out.insert(2, f"  (whole-card boxes: recall@0.5 {self.whole_recall:.3f}; above, each card's part in view)")
        if self.map50 is not None:
            out += [f"  mAP50              {self.map50:.3f}", f"  mAP50-95           {self.map50_95:.3f}"]
        for name, tally in (("cards alone", self.alone), ("overlapped cards", self.overlapped)):
            if tally and tally[1]:
                out.append(f"  recall, {name + ':':18s} {tally[0] / tally[1]:.3f} ({tally[0]}/{tally[1]})")
        return out


def _figure(what: str, k: int, n: int) -> str:
    low, high = interval(k, n)
    return f"  {what:18s} {k / max(n, 1):.3f}  ({k}/{n}; 95 % {low:.3f}-{high:.3f})"


def generated_scenes(scenes: int = 200, seed: int = EVAL_SEED, things_rate: float = 0.0,
                     props_rate: float = 0.0) -> Iterator:
    """The generated validation scenes (datasets.scenes.Scene), rendered one by one."""
    packs, opts = all_packs(), SceneOptions(things_rate=things_rate, props_rate=props_rate)
    return (render_scene(seed + i, packs, opts) for i in range(scenes))


def evaluate_generated(recognizer: Callable[[np.ndarray], list[Detection]], scenes: int = 200,
                       seed: int = EVAL_SEED, things_rate: float = 0.0, *, source: Iterable | None = None,
                       props_rate: float = 0.0) -> Report:
    """Recognition on fresh generated scenes (or ``source``'s, e.g. datasets.held_out.held_out_scenes).
    Without things over the cards (``things_rate`` 0, as the generator drew before datasets.things)
    they are the scenes every round was measured on, so figures compare across rounds."""
    frames, n_pred, hits, right, n_gt = [], 0, 0, 0, 0
    for sc in source if source is not None else generated_scenes(scenes, seed, things_rate, props_rate):
        gts = [(c.quad, c.code) for c in sc.labelled()]
        dets = recognizer(sc.image)
        preds = [(np.array(d.corners, np.float32), d.confidence, d.card) for d in dets]
        frames.append((preds, gts))
        pairs = greedy_match([(p[0], p[1]) for p in preds], gts, quad_iou, 0.5)
        n_pred += len(preds)
        n_gt += len(gts)
        hits += len(pairs)
        right += sum(preds[i][2] == gts[j][1] for i, j, _ in pairs)
    maps = detection_map(frames, MAP_IOUS)
    return Report(scenes, n_gt, n_pred, hits, right, maps[0.5], float(np.mean(list(maps.values()))))


def real_photos() -> Path:
    """The real set where the card scans are: CI and users point ``$CHRATZE_SHARED`` at one folder."""
    return shared_dir() / "real" / "poker-photos"


def image_for(xml_path: Path) -> Path:
    """The photo a label file describes (the set mixes .JPG and .jpg)."""
    for suffix in (".JPG", ".jpg", ".jpeg", ".png"):
        if xml_path.with_suffix(suffix).is_file():
            return xml_path.with_suffix(suffix)
    return xml_path.with_suffix(".JPG")


def read_voc(xml_path: Path) -> list[tuple[tuple[float, float, float, float], str]]:
    root = ET.parse(xml_path).getroot()
    out = []
    for obj in root.iter("object"):
        b = obj.find("bndbox")
        box = tuple(float(b.find(k).text) for k in ("xmin", "ymin", "xmax", "ymax"))
        out.append((box, RANK_OF_NAME[obj.find("name").text.strip().lower()]))
    return out


HALVES = ("tune", "report")


def photo_half(xml_path: Path) -> str:
    """Which half of the real photos a label file is in, fixed by its name (not its place in a listing):
    thresholds are chosen on ``tune``, figures reported on ``report``."""
    return HALVES[zlib.crc32(xml_path.stem.encode("utf-8")) % 2]


def real_files(folder: Path, limit: int | None = None, half: str | None = None) -> list[Path]:
    """The labelled photos of ``folder`` (of one half where asked), sorted, at most ``limit``."""
    files = [f for f in sorted(folder.glob("*.xml")) if half is None or photo_half(f) == half]
    return files[:limit]


def evaluate_real(recognizer: Callable[[np.ndarray], list[Detection]], folder: Path,
                  limit: int | None = None, half: str | None = None) -> Report:
    files = real_files(folder, limit, half)
    n_gt = n_pred = hits = whole = right = 0
    alone, overlapped = [0, 0], [0, 0]
    for xml in files:
        gts = read_voc(xml)
        dets = recognizer(read_image(image_for(xml)))
        preds = [(d.visible, d.confidence, d.card[0]) for d in dets]
        pairs = greedy_match([(p[0], p[1]) for p in preds], gts, box_iou, 0.5)
        whole += len(greedy_match([(d.box, d.confidence) for d in dets], gts, box_iou, 0.5))
        n_gt += len(gts)
        n_pred += len(preds)
        hits += len(pairs)
        right += sum(preds[i][2] == gts[j][1] for i, j, _ in pairs)
        found = {j for _, j, _ in pairs}
        for j, (box, _) in enumerate(gts):
            tally = overlapped if any(box_iou(box, other) > 0 for k, (other, _) in enumerate(gts) if k != j) else alone
            tally[0] += j in found
            tally[1] += 1
    return Report(len(files), n_gt, n_pred, hits, right, alone=tuple(alone), overlapped=tuple(overlapped),
                  whole_recall=whole / max(n_gt, 1))


def classify_real_boxes(recognizer, folder: Path, limit: int | None = None,
                        half: str | None = None) -> tuple[int, float, dict]:
    """Stage 2 alone (with its second look): name each real card cut from its labelled box.
    Returns (cards, rank accuracy, confusion counts {(true rank, read rank): n})."""
    confusion: dict[tuple[str, str], int] = {}
    for xml in real_files(folder, limit, half):
        image = read_image(image_for(xml))
        for (x1, y1, x2, y2), rank in read_voc(xml):
            quad = np.float32([[x1, y1], [x2, y1], [x2, y2], [x1, y2]])
            probs = recognizer.read([rectify(image, quad, (recognizer.cls_size, recognizer.cls_size))])[0]
            read = recognizer.names[int(np.argmax(probs))][0]
            confusion[(rank, read)] = confusion.get((rank, read), 0) + 1
    n = sum(confusion.values())
    right = sum(v for (a, b), v in confusion.items() if a == b)
    return n, right / max(n, 1), confusion
