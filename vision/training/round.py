"""A training round in steps that each fit one short command on a leased GPU machine.

``make model DEVICE=0`` is one long run, but the GPU machines lent to this project run a command
for ten minutes at most and are held thirty minutes in all. Each step here keeps to the minutes
it is given, goes on from what the last step left in the work folder (the first time, from the
shipped ONNX files, recovered with :mod:`vision.training.recover`), and writes what it made to the out
folder as it ends, so a machine lost between steps costs only the step in flight::

    python -m vision.training.round data     --scenes 12000 --packs swiss,drawn,svg-cards,cardsjs
    python -m vision.training.round detector --minutes 4 --device 0
    python -m vision.training.round corners  --minutes 2 --device 0 --scenes 3000 --packs ...

The calls, what travels with them, and how the weights come back and are judged:
docs/gpu-round.md. On the CPU the same steps run at any size (the tests run them tiny).
"""

from __future__ import annotations

import argparse
import shutil
import time
from pathlib import Path

from datasets import corner_crops
from datasets.art import DEFAULT_GROUPS, parse_groups
from datasets.build import build
from datasets.detector_crops import render_options
from datasets.scenes import SceneOptions
from vision.recognize import DETECTOR, MODELS

from . import train_corners
from .recover import recover
from .train import DETECTOR as STAGE
from .train import export_onnx, train_stage

WORK, OUT = Path("runs/round"), Path("runs/round/out")
# AdamW at 2e-3, as the CPU fine-tunes ran: Ultralytics' "auto" chose it for their few steps, but would
# choose SGD for the many steps a round's nominal epochs come to.
FINE_TUNE_LR = 2e-3
GPU_BATCH = 256  # 320 px images: a few GB on the GPU; the loaders, not the GPU, set the pace


def data(work: Path, scenes: int, seed: int = 101, workers: int | None = None,
         groups: tuple[str, ...] = DEFAULT_GROUPS, layouts: tuple[float, ...] = SceneOptions.layouts) -> Path:
    """The detector's scenes (no classifier crops), built once: a later call finds them."""
    yaml = work / "data" / "detect" / "data.yaml"
    if yaml.is_file():
        print(f"{yaml} is there already: not built again")
        return yaml
    return build(work / "data", train=scenes, val=max(scenes // 20, 2), seed=seed, workers=workers,
                 crops_per_card=0, groups=groups, layouts=layouts)


def start_from(latest: Path, shipped: Path, recovered: Path) -> Path:
    """The last step's weights, or the shipped ONNX file turned back into weights."""
    return latest if latest.is_file() else recover(shipped, recovered)


def detector(work: Path, out: Path, minutes: float, device: str = "cpu", batch: int | None = None,
             workers: int = 8, epochs: int | None = None) -> Path:
    """Fine-tune the detector for ``minutes`` (or ``epochs``) from where the last call left it;
    returns the ONNX file written to ``out``."""
    latest = work / "detector-latest.pt"
    init = start_from(latest, DETECTOR, work / "detector-shipped.pt")
    gpu = device != "cpu"
    overrides = {"batch": batch or (GPU_BATCH if gpu else STAGE.batch), "workers": workers if gpu else 0,
                 "cache": "ram" if gpu else False, "amp": "bf16" if gpu else False,  # bf16 skips a download
                 "optimizer": "AdamW", "lr0": FINE_TUNE_LR}
    if epochs is None:
        overrides["time"] = minutes / 60  # Ultralytics fits its epochs and schedule to this
    runs = work / "runs"
    name = f"detect{len(list(runs.glob('detect*'))) + 1}" if runs.is_dir() else "detect1"
    began = time.time()
    best = train_stage(STAGE, str(work / "data" / "detect" / "data.yaml"), runs, name, device,
                       epochs=epochs or 1000, plots=False, init=init, overrides=overrides)
    shutil.copyfile(best, latest)
    onnx = export_onnx(best, STAGE.imgsz, work / "card-detector.onnx")  # the corners step cuts round its boxes
    out.mkdir(parents=True, exist_ok=True)
    for path, name_back in ((best, "card-detector.pt"), (onnx, onnx.name),
                            (best.parent.parent / "results.csv", f"{name}-results.csv")):
        shutil.copyfile(path, out / name_back)
    print(f"detector: {name} from {init}, {time.time() - began:.0f} s -> {out / onnx.name}")
    return out / onnx.name


def corners(work: Path, out: Path, minutes: float | None, scenes: int, device: str = "cpu", seed: int = 140,
            workers: int | None = None, groups: tuple[str, ...] = DEFAULT_GROUPS,
            layouts: tuple[float, ...] = SceneOptions.layouts, epochs: int = 30, lr: float = 1.5e-3) -> Path:
    """Windows round the boxes of this round's detector (the shipped one where no round trained
    one), then the corner network fine-tuned on them for ``minutes``; returns its ONNX file."""
    found = work / "card-detector.onnx"
    boxes = found if found.is_file() else MODELS / "card-detector.onnx"
    pairs = work / "corners" / f"pairs-{seed}.npz"
    began = time.time()
    if not pairs.is_file():  # written last, so a step cut short builds both again
        corner_crops.build(corner_crops.val_path(pairs), max(scenes // 20, 2), boxes, seed, "val", 0, 1, workers, groups, layouts=layouts)
        corner_crops.build(pairs, scenes, boxes, seed, "train", 1, 1, workers, groups, layouts=layouts)
    latest = work / "corners-latest.pt"
    init = start_from(latest, MODELS / "card-corners.onnx", work / "corners-shipped.pt")
    print(f"corners: windows round {boxes}'s boxes ready after {time.time() - began:.0f} s; from {init}")
    net = train_corners.train(pairs, epochs, lr=lr, init=init, device=device, minutes=minutes)
    train_corners.save_state(net, latest)
    out.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(latest, out / "corners.pt")
    onnx = train_corners.export(net, out / "card-corners.onnx")
    print(f"corners: {time.time() - began:.0f} s -> {onnx}")
    return onnx


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    steps = ap.add_subparsers(dest="step", required=True)
    for name, what in (("data", "build the detector's scenes"), ("detector", "fine-tune the detector"),
                       ("corners", "build windows and fine-tune the corner network")):
        sp = steps.add_parser(name, help=what)
        sp.add_argument("--work", type=Path, default=WORK, help="what the steps leave for each other")
        sp.add_argument("--out", type=Path, default=OUT, help="the weights and logs to bring back")
        sp.add_argument("--device", default="cpu", help="cpu, or a CUDA device (0)")
        sp.add_argument("--minutes", type=float, default=4.0, help="training time (not counting data)")
        sp.add_argument("--epochs", type=int, default=None, help="a number of epochs instead of --minutes")
        sp.add_argument("--scenes", type=int, default=None, help="data: 12000; corners: 3000")
        sp.add_argument("--seed", type=int, default=None)
        render_options(sp)
    args = ap.parse_args(argv)
    groups = parse_groups(args.packs)
    if args.step == "data":
        data(args.work, args.scenes or 12000, args.seed or 101, args.workers, groups, args.layouts)
    elif args.step == "detector":
        detector(args.work, args.out, args.minutes, args.device, workers=args.workers or 8, epochs=args.epochs)
    else:
        minutes = None if args.epochs else args.minutes
        corners(args.work, args.out, minutes, args.scenes or 3000, args.device, args.seed or 140, args.workers, groups,
                args.layouts, epochs=args.epochs or 30)


if __name__ == "__main__":
    main()
