"""What the detector's false boxes on the real poker photos are, by kind.

    python benchmarks/false_boxes.py [--detector models/card-detector.onnx] [--real DIR]

The real photos are ``real/poker-photos`` in the shared folder (``../shared`` or ``$CHRATZE_SHARED``).

A false box is a detection whose part in view (``Detection.visible``) is matched to no labelled card
at IoU >= 0.5 (as ``chratze eval-detector`` counts precision). Kinds, by how it lies against the
labelled cards: ``background`` touches none; ``part of a card`` lies mostly (> 70 %) within one
card; ``joins cards`` holds more than half of two or more; ``too big`` holds more than 70 % of one
card; ``duplicate`` overlaps a card at IoU >= 0.5 that another box already took; ``off`` overlaps a
card otherwise (shifted, turned or mis-sized).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from chratze.options import model_options, recognizer_from  # noqa: E402
from vision.training.evaluate import greedy_match, image_for, read_image, read_voc, real_photos  # noqa: E402
from vision.recognize.geometry import box_iou, box_within  # noqa: E402


def kind(box, cards: list) -> str:
    if not cards or max(box_iou(box, c) for c in cards) < 0.05:
        return "background"
    if max(box_within(box, c) for c in cards) > 0.7 and max(box_within(c, box) for c in cards) <= 0.7:
        return "part of a card"
    if sum(box_within(c, box) > 0.5 for c in cards) >= 2:
        return "joins cards"
    if max(box_within(c, box) for c in cards) > 0.7:
        return "too big"
    return "duplicate" if max(box_iou(box, c) for c in cards) >= 0.5 else "off"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    model_options(ap, photos=True)  # as chratze eval-detector measures the real photos
    ap.add_argument("--real", type=Path, help="labelled real photos (default: real/poker-photos in the shared folder)")
    args = ap.parse_args()
    args.real = args.real or real_photos()
    if not args.real.is_dir():
        raise SystemExit(f"error: real photos not found at {args.real} (set CHRATZE_SHARED or --real)")
    rec = recognizer_from(args)
    kinds: Counter = Counter()
    boxes = 0
    for xml in sorted(args.real.glob("*.xml")):
        labels = read_voc(xml)
        preds = [(d.visible, d.confidence) for d in rec(read_image(image_for(xml)))]
        boxes += len(preds)
        matched = {i for i, _, _ in greedy_match(preds, labels, box_iou, 0.5)}
        cards = [b for b, _ in labels]
        kinds.update(kind(p, cards) for i, (p, _) in enumerate(preds) if i not in matched)
    print(f"{args.detector}: {boxes} boxes, {sum(kinds.values())} false")
    for k, n in kinds.most_common():
        print(f"  {k:15s} {n}")


if __name__ == "__main__":
    main()
