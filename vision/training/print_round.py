"""A classifier round on other prints: the shipped classifier fine-tuned on packs printed otherwise.

    python -m vision.training.print_round runs/prints --scenes 8000 --out runs/prints/classifier.onnx
    # crops about 10 min on 2 cores (2 workers), 6 epochs about 5 min

The classifier learned the scans' and a few designs' print of each card, and misreads a pack that
prints its index elsewhere, in another face or on a plate (the held-out world's reprints, real packs).
Here generated scenes lay the training packs as printed (a quarter of the scenes), as another printer
varied them (:func:`datasets.prints.vary_print`, a quarter) and with their indices redrawn
(:func:`datasets.prints.redraw_index`, half); every box the shipped detector finds on a card is cut as
the recognizer cuts it and labelled with that card (or ``back``); half of them are learned worn, as a
webcam sees a far card (:func:`worn`). The whole classifier is fine-tuned a few epochs from the shipped
one (recovered from its ONNX), so what it knew stays the starting point; round 40 had fine-tuned on
close-ups alone and got worse on scene crops. ``--also`` learns an earlier round's crops again.

Its own scenes and styles (``SEED`` on) learn; others (``VAL_SEED``) measure, per kind of print.
Nothing here draws the held-out world's reprints (:mod:`datasets.held_out`).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import cv2
import numpy as np

from datasets.art import packs_of
from datasets.build import worker_pool
from datasets.prints import redraw_index
from datasets.scenes import SceneOptions, render_scene
from vision.recognize import CLASSIFIER, FRAME
from vision.recognize.geometry import quad_iou, rectify
from vision.recognize.recognizer import Recognizer

from .deck_finetune import _first, export
from .offline import go_offline
from .recover import onnx_weights, recovered
from .train_corners import epochs_that_fit, one_cycle, torch_device
from .train_not_card import printed_packs

SEED, STYLES = 540_000, 7  # scenes of their own (no other dataset draws these); worker k's printers: STYLES + k
VAL_SEED, VAL_STYLES = 530_000, 5  # the validation scenes, one worker
PACK_GROUPS = ("swiss", "drawn", "svg-cards", "cardsjs")  # the classifier's training packs; never the unseen one
PRINTS, REDRAWS = 3, 6  # printers per worker: varied prints, and prints with their own index
EPOCHS, LR, BATCH = 6, 5e-4, 64  # on the validation crops: v5 0.807; 3 epochs at 2e-4 0.850, 6 at 5e-4 0.868
SMOOTHING = 0.05  # label smoothing: confident misreads were the live table's worst failure
OPTIONS = dict(max_cards=6, clutter_rate=0.3, things_rate=0.2, hand_rate=0.3)
CARD_IOU, MIN_VISIBLE = 0.5, 0.35  # a box meeting a card this much, of a card showing this much, is that card
WORN = 0.5  # share of training crops seen as a webcam sees a far card: from few pixels, compressed, shaken
FAR_PX = (36, 96)  # the card's height in the frame such a crop was cut from (the scenes' crops: 58 px and up)


def printers(rng: np.random.Generator) -> list[tuple[str, dict]]:
    """The packs each scene draws from, in turn: as printed (three turns in twelve), varied, redrawn."""
    base, *varied = printed_packs(rng, PRINTS, packs_of(PACK_GROUPS))
    redrawn = [{name: redraw_index(pack, rng) for name, pack in base.items()} for _ in range(REDRAWS)]
    return [("plain", base)] * 3 + [("print", p) for p in varied] + [("redraw", p) for p in redrawn]


def crops(first_seed: int, scenes: int, style_seed: int, turn: int = 0) -> dict[str, np.ndarray]:
    """Every box the shipped recognizer finds on a card in ``scenes`` scenes, cut upright at the
    classifier's size, with its class and kind of print; the first scene takes printer ``turn``."""
    rec = Recognizer(settings=FRAME, floor=0.15, not_card=None, threads=1)
    turns, opts = printers(np.random.default_rng(style_seed)), SceneOptions(**OPTIONS)
    x, y, kind = [], [], []
    for k in range(scenes):
        name, packs = turns[(turn + k) % len(turns)]
        if k and k % 1000 == 0:
            print(f"  scenes {first_seed}+{k}: {len(y)} crops", flush=True)
        scene = render_scene(first_seed + k, packs, opts)
        found = rec.detect_cards(scene.image)
        for q in rec.refine(scene.image, [q for q, _ in found]) if found else []:
            iou, card = max(((quad_iou(q, c.quad), c) for c in scene.cards), key=lambda t: t[0], default=(0.0, None))
            if card is not None and iou >= CARD_IOU and card.visible >= MIN_VISIBLE:
                crop = rectify(scene.image, q)
                x.append(cv2.resize(crop, (rec.cls_size, rec.cls_size), interpolation=cv2.INTER_AREA))
                y.append(rec.names.index(card.code))
                kind.append(name)
    return {"x": np.stack(x), "y": np.array(y), "kind": np.array(kind)}


def jobs(first_seed: int, scenes: int, workers: int, styles: int, one_printer: bool = False) -> list[tuple]:
    """:func:`crops`' arguments for each process: a run of scenes each, and its printers' seed."""
    share = -(-scenes // workers)
    return [(first_seed + i * share, min(share, scenes - i * share), styles + (0 if one_printer else i),
             i * share if one_printer else 0) for i in range(workers) if i * share < scenes]


def dataset(path: Path, first_seed: int, scenes: int, workers: int, styles: int,
            one_printer: bool = False) -> dict[str, np.ndarray]:
    """The crops of ``scenes`` scenes from ``first_seed``, kept at ``path`` (made once, in ``workers``
    processes, worker k with the printers of seed ``styles + k``; with ``one_printer`` all of them with
    those of ``styles``, giving the crops one process gives, however many share the work)."""
    if path.exists():
        with np.load(path) as z:
            return {k: z[k] for k in z.files}
    with worker_pool(workers) as pool:
        parts = list(pool.map(crops, *zip(*jobs(first_seed, scenes, workers, styles, one_printer))))
    out = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, **out)
    return out


def _input(x: np.ndarray, device: str = "cpu"):
    import torch  # noqa: PLC0415

    return torch.from_numpy(np.ascontiguousarray(x.transpose(0, 3, 1, 2))).to(device).float() / 255


def _device(model) -> str:
    return str(next(model.parameters()).device)


def accuracy(model, data: dict[str, np.ndarray]) -> dict[str, float]:
    """Share of crops read right, per kind of print and in all."""
    import torch  # noqa: PLC0415

    model.eval()
    device = _device(model)
    with torch.no_grad():
        read = np.concatenate([_first(model(_input(data["x"][k:k + 256], device))).cpu().numpy().argmax(1)
                               for k in range(0, len(data["x"]), 256)])
    right, kind = read == data["y"], data["kind"]
    return {**{str(k): round(float(right[kind == k].mean()), 4) for k in sorted(set(kind))},
            "all": round(float(right.mean()), 4)}


def scores(model, val: dict, val_worn: dict) -> dict[str, float]:
    """Validation crops read right, per kind of print, and all of them worn."""
    return {**accuracy(model, val), "worn": accuracy(model, val_worn)["all"]}


def worn(x: np.ndarray, rng: np.random.Generator, share: float = WORN) -> np.ndarray:
    """``share`` of the crops as a cheap webcam gives a card: cut from a card ``FAR_PX`` tall, a fifth of
    them smeared (a shaken camera), half JPEG-compressed, then blown up to the crop's size again. The
    scenes draw cards from 58 px tall, blurred and compressed lightly; a far seat's card on a webcam may
    have fewer pixels, compressed harder."""
    out, size = x.copy(), x.shape[1]
    for i in np.flatnonzero(rng.random(len(x)) < share):
        h = int(rng.integers(*FAR_PX))
        small = cv2.resize(x[i], (h * 2 // 3, h), interpolation=cv2.INTER_AREA)
        if rng.random() < 0.2:
            small = _smeared(small, float(rng.uniform(0, 180)))
        if rng.random() < 0.5:
            _, buf = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 90))])
            small = cv2.imdecode(buf, cv2.IMREAD_UNCHANGED)
        out[i] = cv2.resize(small, (size, size), interpolation=cv2.INTER_LINEAR)
    return out


def _smeared(img: np.ndarray, angle: float, length: int = 5) -> np.ndarray:
    """``img`` blurred along a line at ``angle`` degrees, ``length`` pixels long."""
    line = np.zeros((length, length), np.float32)
    line[length // 2] = 1
    c = (length - 1) / 2
    line = cv2.warpAffine(line, cv2.getRotationMatrix2D((c, c), angle, 1.0), (length, length))
    return cv2.filter2D(img, -1, line / max(float(line.sum()), 1e-6))


def finetune(train: dict, val: dict, epochs: int = EPOCHS, lr: float = LR, seed: int = 0, wear: float = WORN,
             device: str = "cpu", minutes: float | None = None):
    """The shipped classifier fine-tuned on ``train``: every weight, AdamW with one cycle of ``lr``,
    crops turned half round at random (a card is read either way up), lit a little otherwise and
    ``wear`` of them :func:`worn`. With ``minutes``, the epochs are cut after the first to those that fit
    (a leased GPU machine runs a command ten minutes at most), and the cycle ends with them, as
    :func:`.train_corners.train` does."""
    import torch  # noqa: PLC0415

    device = torch_device(device)
    torch.set_num_threads(2 if device == "cpu" else 8)
    model, _, size = recovered(*onnx_weights(CLASSIFIER))
    model.to(device)
    val_worn = {**val, "x": worn(val["x"], np.random.default_rng(1), 1.0)}
    figures = {"shipped": scores(model, val, val_worn)}
    print("shipped, validation crops:", figures["shipped"], flush=True)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    per_epoch = -(-len(train["y"]) // BATCH)
    schedule = one_cycle(opt, lr, epochs * per_epoch)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=SMOOTHING)
    rng, began, epoch = np.random.default_rng(seed), time.time(), 0
    while epoch < epochs:
        model.train()
        start = time.time()
        for idx in np.array_split(rng.permutation(len(train["y"])), per_epoch):
            x = worn(train["x"][idx], rng, wear)
            turn = rng.random(len(idx)) < 0.5
            x[turn] = x[turn][:, ::-1, ::-1]
            light = torch.from_numpy(rng.uniform(0.8, 1.15, (len(idx), 3, 1, 1)).astype(np.float32)).to(device)
            target = torch.from_numpy(train["y"][idx]).to(device)
            loss = loss_fn(_first(model((_input(x, device) * light).clamp(0, 1))), target)
            opt.zero_grad()
            loss.backward()
            opt.step()
            schedule.step()
        epoch += 1
        figures[f"epoch {epoch}"] = scores(model, val, val_worn)
        print(f"epoch {epoch} ({time.time() - start:.0f} s), validation crops:", figures[f"epoch {epoch}"], flush=True)
        fit = epochs_that_fit(epoch, time.time() - began, minutes * 60) if minutes else epochs
        if fit < epochs:
            print(f"{fit} epochs of {epochs} fit in {minutes:g} min", flush=True)
            epochs = fit
            if epoch < epochs:  # more to go, on a schedule that ends with them
                schedule = one_cycle(opt, lr, epochs * per_epoch, done=epoch * per_epoch)
    return model.cpu(), size, figures


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("work", type=Path, help="where the crops are kept (made once)")
    p.add_argument("--scenes", type=int, default=8000)
    p.add_argument("--val-scenes", type=int, default=800)
    p.add_argument("--workers", type=int, default=2, help="processes making the training crops (each its own printers)")
    p.add_argument("--epochs", type=int, default=EPOCHS)
    p.add_argument("--lr", type=float, default=LR)
    p.add_argument("--seed", type=int, default=SEED, help="first training scene: a later round learns new scenes")
    p.add_argument("--styles", type=int, default=STYLES, help="worker k's printers' seed: a later round, new printers")
    p.add_argument("--also", type=Path, nargs="*", default=[], help="crops of earlier rounds, learned again")
    p.add_argument("--wear", type=float, default=WORN, help="share of crops worn as a far webcam card")
    p.add_argument("--device", default="cpu", help="cpu, or a CUDA device (0 or cuda:0)")
    p.add_argument("--minutes", type=float, help="fine-tune for at most about this long (epochs cut after the first)")
    p.add_argument("--out", type=Path, required=True, help="the fine-tuned classifier (ONNX)")
    args = p.parse_args(argv)
    go_offline()
    train = dataset(args.work / f"train-{args.seed}-{args.scenes}-{args.workers}-{args.styles}.npz", args.seed,
                    args.scenes, args.workers, args.styles)
    val = dataset(args.work / f"val-{VAL_SEED}-{args.val_scenes}.npz", VAL_SEED, args.val_scenes, args.workers,
                  VAL_STYLES, one_printer=True)
    for path in args.also:
        with np.load(path) as z:
            train = {k: np.concatenate([train[k], z[k]]) for k in train}
    print(f"{len(train['y'])} training crops, {len(val['y'])} validation crops", flush=True)
    model, size, figures = finetune(train, val, args.epochs, args.lr, wear=args.wear, device=args.device,
                                    minutes=args.minutes)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(export(model, size, stamp=("print_round", json.dumps(figures))))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
