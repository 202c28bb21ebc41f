"""The classifier alone, on crops of fresh generated scenes, split by pack kind.

    python benchmarks/classifier_crops.py --scenes 200 [--classifier models/card-classifier.onnx]

Cards at least 80 % visible, cut out as the detector would (minimum-area box, corners jittered),
from scenes the training never saw (seeds 90000 on). Prints how many each classifier names right,
for the Swiss packs and for the drawn French designs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from datasets.art import all_packs, pack_group  # noqa: E402
from datasets.crops import detector_crop  # noqa: E402
from datasets.scenes import SceneOptions, render_scene  # noqa: E402
from vision.recognize import CLASSIFIER, Recognizer  # noqa: E402


def crops(scenes: int, first_seed: int = 90000):
    rng = np.random.default_rng(5)
    for s in range(scenes):
        sc = render_scene(first_seed + s, all_packs(), SceneOptions())
        for c in sc.labelled():
            if c.visible < 0.8:
                continue
            yield c.code, c.pack, detector_crop(sc.image, c.quad, rng)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=200)
    ap.add_argument("--classifier", nargs="+", default=[str(CLASSIFIER)])
    args = ap.parse_args(argv)
    models = [(m, Recognizer(classifier=m)) for m in args.classifier]
    tally = {m: {"swiss": [0, 0], "drawn": [0, 0]} for m, _ in models}
    for code, pack, crop in crops(args.scenes):
        kind = pack_group(pack)
        for m, rec in models:
            tally[m][kind][0] += rec.names[int(rec.classify(crop).argmax())] == code
            tally[m][kind][1] += 1
    for m, t in tally.items():
        print(m + ": " + ", ".join(f"{k} {ok}/{n} ({ok / max(n, 1):.3f})" for k, (ok, n) in t.items()))


if __name__ == "__main__":
    main()
