"""A trainable Ultralytics checkpoint from a shipped ONNX model, to fine-tune it again.

Only the ONNX files ship (``models/``); the ``.pt`` a round was trained to stays in that machine's
``runs/``. Export fused each convolution with its batch norm, so the ONNX holds ``W`` and ``b`` of
``W x + b``. Here each is unfused again: the convolution keeps ``W`` and its batch norm is set to
the mean ``m`` and variance ``v`` the convolution's outputs have on training-like images, with
scale ``sqrt(v + eps)`` and shift ``m + b``. In eval mode that is ``W x + b`` exactly; in training,
where a batch norm uses each batch's own statistics, it is close to it from the first step, so a
fine-tuning starts from the shipped model rather than from a disturbed one.

``python -m vision.training.recover models/card-detector.onnx runs/det-v2.pt`` (the classifier likewise).
The two small plain-PyTorch networks (``card-index.onnx``, ``card-corners.onnx``) are recovered the
same way into a state dict that their trainers' ``--init`` takes (:func:`recover_plain`).
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

import numpy as np

from datasets.art import all_packs
from datasets.scenes import render_scene
from vision.recognize import corners, index
from vision.recognize.corners import cut_window
from vision.recognize.geometry import rectify
from vision.recognize.index import corner_patches
from vision.recognize.recognizer import letterbox

from . import offline  # noqa: F401 - must precede ultralytics
from .train_corners import corner_net
from .train_index import index_net

YAMLS = {"obb": "yolo11n-obb.yaml", "classify": "yolo11n-cls.yaml"}


def onnx_weights(path: Path) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    """The initializers of an exported model, by name, and its metadata."""
    import onnx  # noqa: PLC0415
    from onnx import numpy_helper  # noqa: PLC0415

    model = onnx.load(str(path))
    weights = {t.name: numpy_helper.to_array(t).copy() for t in model.graph.initializer}
    return weights, {p.key: p.value for p in model.metadata_props}


def build_model(meta: dict[str, str]):
    """The untrained network the ONNX was exported from (its task, classes and input size)."""
    offline.settings_offline()
    from ultralytics.nn.tasks import ClassificationModel, OBBModel  # noqa: PLC0415

    names = ast.literal_eval(meta["names"])
    task = meta["task"]
    if task not in YAMLS:
        raise ValueError(f"cannot recover a {task!r} model (only {', '.join(YAMLS)})")
    cls = OBBModel if task == "obb" else ClassificationModel
    model = cls(YAMLS[task], nc=len(names), verbose=False)
    model.names = names
    return model, task, ast.literal_eval(meta["imgsz"])[0]


def load_fused(model, weights: dict[str, np.ndarray]) -> list:
    """Put the fused weights in; each batch norm passes ``x + b`` for now. Returns the batch norms'
    convolutions (Ultralytics ``Conv`` modules) for the calibration."""
    import torch  # noqa: PLC0415

    convs, used, norms = [], set(), []
    state = model.state_dict()
    for name, module in model.named_modules():
        if hasattr(module, "conv") and hasattr(module, "bn") and isinstance(module.bn, torch.nn.BatchNorm2d):
            w, b = weights[f"{name}.conv.weight"], weights[f"{name}.conv.bias"]
            used |= {f"{name}.conv.weight", f"{name}.conv.bias"}
            with torch.no_grad():
                module.conv.weight.copy_(torch.from_numpy(w))
                module.bn.weight.fill_(1.0)
                module.bn.bias.copy_(torch.from_numpy(b))
                module.bn.running_mean.zero_()
                module.bn.running_var.fill_(1.0 - module.bn.eps)
            convs.append(module)
            norms.append(f"{name}.bn.")
    with torch.no_grad():
        for key, value in weights.items():
            if key in used or key not in state:
                continue
            if tuple(state[key].shape) != value.shape:
                raise ValueError(f"{key}: shape {value.shape} in the ONNX, {tuple(state[key].shape)} in the network")
            state[key].copy_(torch.from_numpy(value))
            used.add(key)
    missing = [k for k in state if k not in used and not k.startswith(tuple(norms)) and ".dfl." not in k]
    if missing:
        raise ValueError(f"weights the ONNX does not hold: {', '.join(missing[:5])}")
    return convs


def calibrate(model, convs: list, images: np.ndarray) -> None:
    """Set each batch norm to the statistics of its convolution's outputs on ``images`` (N×3×S×S,
    0..1), keeping every output as it was (see the module's docstring). Expects the batch norms
    as :func:`load_fused` left them."""
    import torch  # noqa: PLC0415

    stats: dict[int, list] = {}

    def hook(module, _inputs, out):
        x = out.detach().double()
        stats.setdefault(id(module), []).append((x.mean(dim=(0, 2, 3)), (x * x).mean(dim=(0, 2, 3))))

    handles = [c.conv.register_forward_hook(hook) for c in convs]
    model.eval()
    with torch.no_grad():
        for batch in np.array_split(images, max(1, len(images) // 16)):
            model(torch.from_numpy(batch))
    for h in handles:
        h.remove()
    with torch.no_grad():
        for c in convs:
            first, second = (torch.stack(v).mean(0) for v in zip(*stats[id(c.conv)]))
            var = (second - first * first).clamp_min(1e-6)
            c.bn.running_mean.copy_(first.float())
            c.bn.running_var.copy_(var.float())
            c.bn.weight.copy_(torch.sqrt(var + c.bn.eps).float())
            c.bn.bias.add_(first.float())  # it held the fused bias b (load_fused): now mean + b


def scene_images(n: int, size: int, task: str, seed: int = 424_242) -> np.ndarray:
    """Training-like inputs: generated scenes letterboxed (detector, ``obb``), card crops
    (classifier), the cards' corner patches (``index``) or windows round them (``corners``); the
    last two come in their networks' own size."""
    packs, out = all_packs(), []
    i = 0
    while len(out) < n:
        scene = render_scene(seed + i, packs)
        i += 1
        if task == "obb":
            out.append(letterbox(scene.image, size)[0])
        elif task == "index":
            out += [p for c in scene.labelled() for p in corner_patches(scene.image, c.quad)]
        elif task == "corners":
            out += [cut_window(scene.image, c.quad) for c in scene.labelled()]
        else:
            out += [rectify(scene.image, c.quad, (size, size)) for c in scene.labelled()]
    return np.stack(out[:n]).transpose(0, 3, 1, 2).astype(np.float32) / 255.0


def plain_layers(model) -> list[list[np.ndarray]]:
    """The weights of each Conv and Gemm node of an exported plain network (an ``onnx`` model), in
    the graph's order (the names torch gives fused convolutions say nothing of the module they came
    from)."""
    from onnx import numpy_helper  # noqa: PLC0415

    inits = {t.name: numpy_helper.to_array(t).copy() for t in model.graph.initializer}
    return [[inits[i] for i in node.input[1:] if i in inits] for node in model.graph.node
            if node.op_type in ("Conv", "Gemm")]


def load_plain(net, layers: list[list[np.ndarray]]) -> list:
    """Put fused layers into ``net`` in module order: each Conv2d with the BatchNorm2d after it
    takes a fused convolution, each Linear a Gemm. Returns (conv, bn) pairs for :func:`calibrate`."""
    from types import SimpleNamespace  # noqa: PLC0415

    import torch  # noqa: PLC0415
    from torch import nn  # noqa: PLC0415

    modules = [m for m in net.modules() if isinstance(m, (nn.Conv2d, nn.BatchNorm2d, nn.Linear))]
    weighted = sum(not isinstance(m, nn.BatchNorm2d) for m in modules)
    if weighted != len(layers):
        raise ValueError(f"the ONNX has {len(layers)} weighted layers, the network {weighted}")
    pairs, fused = [], iter(layers)
    with torch.no_grad():
        for module, after in zip(modules, modules[1:] + [None]):
            if isinstance(module, nn.BatchNorm2d):
                continue
            w, *b = next(fused)
            if tuple(module.weight.shape) != w.shape:
                raise ValueError(f"a layer of shape {w.shape} in the ONNX, {tuple(module.weight.shape)} in the network")
            module.weight.copy_(torch.from_numpy(w))
            if isinstance(after, nn.BatchNorm2d):
                after.weight.fill_(1.0)
                after.bias.copy_(torch.from_numpy(b[0]))
                after.running_mean.zero_()
                after.running_var.fill_(1.0 - after.eps)
                pairs.append(SimpleNamespace(conv=module, bn=after))
            elif b:
                module.bias.copy_(torch.from_numpy(b[0]))
    return pairs


def recover_plain(onnx_path: Path, out: Path, samples: int = 256) -> Path:
    """Write the state dict of the small network ``onnx_path`` was exported from (the index
    reader where its metadata names classes, else the corner fit), for ``--init``."""
    import onnx  # noqa: PLC0415
    import torch  # noqa: PLC0415


    model = onnx.load(str(onnx_path))
    meta = {p.key: p.value for p in model.metadata_props}
    if "names" in meta:

        net, kind, size = index_net(len(ast.literal_eval(meta["names"]))), "index", index.SIZE
    else:

        net, kind, size = corner_net(), "corners", corners.SIZE
    calibrate(net, load_plain(net, plain_layers(model)), scene_images(samples, size, kind))
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save(net.state_dict(), out)
    return out


def recovered(weights: dict[str, np.ndarray], meta: dict[str, str], samples: int = 128):
    """The Ultralytics network an exported ONNX's ``weights`` and ``meta`` came from, unfused and
    calibrated on ``samples`` training-like inputs: (model, task, input size)."""
    model, task, size = build_model(meta)
    calibrate(model, load_fused(model, weights), scene_images(samples, size, task))
    return model, task, size


def recover(onnx_path: Path, out: Path, samples: int = 128) -> Path:
    """Write an Ultralytics checkpoint that computes what ``onnx_path`` computes (a state dict
    for the small plain networks, which Ultralytics did not train)."""
    import torch  # noqa: PLC0415

    weights, meta = onnx_weights(onnx_path)
    if "task" not in meta:
        return recover_plain(onnx_path, out, samples)
    model, task, size = recovered(weights, meta, samples)
    model.args = {"imgsz": size, "task": task}
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"model": model, "train_args": {"imgsz": size, "task": task}, "epoch": -1,
                "date": meta.get("date"), "version": meta.get("version"),
                "recovered_from": str(onnx_path)}, out)
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("onnx", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--samples", type=int, default=128, help="images the batch norms are calibrated on")
    args = ap.parse_args(argv)
    print(recover(args.onnx, args.out, args.samples))


if __name__ == "__main__":
    main()
