"""The classifier alone, on crops of fresh generated scenes, split by pack kind.

    python benchmarks/classifier_crops.py --scenes 200 [--classifier models/card-classifier.onnx]
                                          [--packs swiss,drawn]   (or svg-cards,cardsjs: fetched packs)

Cards at least 80 % visible, cut out as the detector would (minimum-area box, corners jittered),
from scenes the training never saw (seeds 90000 on). Prints how many each classifier names right,
by pack group (the Swiss packs, the drawn French designs, each fetched pattern).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from datasets.art import DEFAULT_GROUPS, pack_group, packs_of, parse_groups  # noqa: E402
from datasets.crops import detector_crop  # noqa: E402
from datasets.scenes import SceneOptions, render_scene  # noqa: E402
from vision.recognize import CLASSIFIER  # noqa: E402
from vision.recognize.recognizer import Recognizer  # noqa: E402


def crops(scenes: int, groups: tuple[str, ...] = DEFAULT_GROUPS, first_seed: int = 90000):
    rng = np.random.default_rng(5)
    for s in range(scenes):
        sc = render_scene(first_seed + s, packs_of(groups), SceneOptions(things_rate=0.0))  # the scenes of every row
        for c in sc.labelled():
            if c.visible < 0.8:
                continue
            yield c.code, c.pack, detector_crop(sc.image, c.quad, rng)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=200)
    ap.add_argument("--classifier", nargs="+", default=[str(CLASSIFIER)])
    ap.add_argument("--packs", default=",".join(DEFAULT_GROUPS), help="pack groups to render (datasets.art)")
    args = ap.parse_args(argv)
    groups = parse_groups(args.packs)
    models = [(m, Recognizer(classifier=m)) for m in args.classifier]
    tally = {m: {} for m, _ in models}
    for code, pack, crop in crops(args.scenes, groups):
        for m, rec in models:
            t = tally[m].setdefault(pack_group(pack), [0, 0])
            t[0] += rec.names[int(rec.classify([crop])[0].argmax())] == code
            t[1] += 1
    for m, t in tally.items():
        print(m + ": " + ", ".join(f"{k} {ok}/{n} ({ok / max(n, 1):.3f})" for k, (ok, n) in t.items()))


if __name__ == "__main__":
    main()
