"""Train the corner stage (:mod:`vision.recognize.corners`) with plain PyTorch and export it to ONNX.

``python -m vision.training.train_corners --data runs/corners/pairs.npz --out models/card-corners.onnx``
reads the pairs :mod:`datasets.corner_crops` wrote (and the ``-val.npz`` beside them). The
network is small (0.77 M weights, about 30 M multiply-adds per window): five stride-2 stages and
two dense layers that give each corner's offset from the box's own corner. Ultralytics has no
task for four free corners (its oriented boxes are rectangles), so this stage is not trained
through it.

Windows are flipped left-right and upside down in training, the corners relabelled to match:
unlike a card's name, where its corners are does not change in a mirror.
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

import numpy as np

from datasets.corner_crops import val_path
from vision.recognize.corners import BASE, GROW, SIZE
from vision.recognize.geometry import quad_iou

# Corner order after a mirror: left-right swaps TL/TR and BR/BL; upside down swaps TL/BL and TR/BR.
MIRROR_X = [1, 0, 3, 2]
MIRROR_Y = [3, 2, 1, 0]


def stage(i: int, o: int):
    """Two 3x3 convolutions, the first of stride 2: the building block of the small plain-PyTorch
    networks (this one and :mod:`vision.training.train_index`)."""
    from torch import nn  # noqa: PLC0415

    return nn.Sequential(nn.Conv2d(i, o, 3, 2, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True),
                         nn.Conv2d(o, o, 3, 1, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True))


def light_and_noise(x):
    """Each picture of the batch lighter or darker, more or less contrasty, and a little noisy."""
    import torch  # noqa: PLC0415

    n = len(x)
    gain = torch.empty(n, 1, 1, 1).uniform_(0.7, 1.3)
    shift = torch.empty(n, 1, 1, 1).uniform_(-0.15, 0.15)
    return ((x - 0.5) * gain + 0.5 + shift + torch.randn_like(x) * 0.02).clamp(0, 1)


def corner_net():
    """Window (N x 3 x SIZE x SIZE, RGB / 255) -> corners (N x 4 x 2, fractions of the window)."""
    import torch  # noqa: PLC0415
    from torch import nn  # noqa: PLC0415

    class CornerNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            side = SIZE // 32
            self.features = nn.Sequential(stage(3, 16), stage(16, 32), stage(32, 64), stage(64, 96), stage(96, 128))
            self.head = nn.Sequential(nn.Flatten(), nn.Linear(128 * side * side, 256), nn.ReLU(inplace=True),
                                      nn.Linear(256, 8))
            self.register_buffer("base", torch.from_numpy(BASE.reshape(1, 4, 2).copy()))

        def forward(self, x):
            return self.base + self.head(self.features(x)).view(-1, 4, 2) * 0.1

    return CornerNet()


def augment(x, y, rng: np.random.Generator):
    """Mirrors (corners relabelled) and light, contrast and noise changes, per batch."""
    import torch  # noqa: PLC0415

    if rng.random() < 0.5:
        x, y = x.flip(3), y[:, MIRROR_X] * torch.tensor([-1.0, 1.0]) + torch.tensor([1.0, 0.0])
    if rng.random() < 0.5:
        x, y = x.flip(2), y[:, MIRROR_Y] * torch.tensor([1.0, -1.0]) + torch.tensor([0.0, 1.0])
    return light_and_noise(x), y


def batches(windows: np.ndarray, corners: np.ndarray, size: int, rng: np.random.Generator | None):
    import torch  # noqa: PLC0415

    order = rng.permutation(len(windows)) if rng is not None else np.arange(len(windows))
    for k in range(0, len(order), size):
        idx = np.sort(order[k:k + size])
        x = torch.from_numpy(windows[idx]).permute(0, 3, 1, 2).float() / 255.0
        yield x, torch.from_numpy(corners[idx])


def evaluate(net, windows: np.ndarray, corners: np.ndarray, device: str = "cpu") -> dict[str, float]:
    """Mean corner error (window pixels) and mean outline IoU with the truth, against the box's."""
    import torch  # noqa: PLC0415


    net.eval()
    with torch.no_grad():
        pred = np.concatenate([net(x.to(device)).cpu().numpy() for x, _ in batches(windows, corners, 256, None)])
    err = np.linalg.norm(pred - corners, axis=2).mean() * SIZE
    iou = np.mean([quad_iou(p, t) for p, t in zip(pred, corners)])
    box = np.mean([quad_iou(BASE, t) for t in corners])
    return {"corner_px": float(err), "iou": float(iou), "box_iou": float(box)}


def train(data: Path | list[Path], epochs: int = 12, batch: int = 128, lr: float = 3e-3, seed: int = 0,
          init: Path | None = None, val: Path | None = None, log=print, device: str = "cpu",
          minutes: float | None = None):
    """Train on the pairs in ``data`` (one file or several), validating on ``val`` (default: the
    first file's ``-val.npz``, where there is one); returns the network (on the CPU). With
    ``minutes``, fewer epochs are run where the first ones show that ``epochs`` would not fit, the
    rate's schedule shrunk to end with them (as Ultralytics' ``time`` does): a leased GPU machine
    runs a command for ten minutes at most (docs/gpu-round.md)."""
    import torch  # noqa: PLC0415


    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    files = [data] if isinstance(data, Path) else list(data)
    sets = [np.load(f) for f in files]
    windows = np.concatenate([s["windows"] for s in sets])
    corners = np.concatenate([s["corners"] for s in sets]).astype(np.float32)
    val = val or val_path(files[0])
    val = np.load(val) if val.is_file() else None
    net = corner_net()
    if init:
        net.load_state_dict(torch.load(init, map_location="cpu"))
    device = torch_device(device)
    net.to(device)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    per_epoch = (len(windows) + batch - 1) // batch
    sched = one_cycle(opt, lr, epochs * per_epoch)
    loss_fn = torch.nn.SmoothL1Loss(beta=1.0 / SIZE)
    began, epoch = time.time(), 0
    while epoch < epochs:
        net.train()
        start, total = time.time(), 0.0
        for x, y in batches(windows, corners, batch, rng):
            x, y = augment(x, y, rng)
            loss = loss_fn(net(x.to(device)), y.to(device))
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(x)
        epoch += 1
        line = f"epoch {epoch}/{epochs}  loss {total / len(windows):.5f}  {time.time() - start:.0f} s"
        if val is not None:
            m = evaluate(net, val["windows"], val["corners"].astype(np.float32), device)
            line += f"  val corner error {m['corner_px']:.2f} px, IoU {m['iou']:.3f} (box {m['box_iou']:.3f})"
        log(line)
        if minutes is not None:
            fit = epochs_that_fit(epoch, time.time() - began, minutes * 60)
            if fit < epochs:
                log(f"{fit} epochs of {epochs} fit in {minutes:g} min")
                epochs = fit
                if epoch < epochs:  # more to go, on a schedule that ends with them
                    sched = one_cycle(opt, lr, epochs * per_epoch, done=epoch * per_epoch)
    return net.cpu()


def torch_device(name: str) -> str:
    """A GPU named as Ultralytics names it (``0``) as PyTorch names it (``cuda:0``)."""
    first = name.split(",")[0].strip()
    return f"cuda:{first}" if first.isdigit() else name


def epochs_that_fit(done: int, seconds: float, budget: float) -> int:
    """How many epochs in all fit ``budget`` seconds, ``done`` of them having taken ``seconds``."""
    return max(done, int(budget / (seconds / done)))


def one_cycle(opt, lr: float, steps: int, done: int = 0):
    """The one-cycle schedule over ``steps`` steps, already ``done`` of them along."""
    import torch  # noqa: PLC0415

    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=max(steps, 1), pct_start=0.1)
    with warnings.catch_warnings():  # stepping the schedule alone, to catch up, is meant here
        warnings.simplefilter("ignore", UserWarning)
        for _ in range(min(done, steps - 1)):
            sched.step()
    return sched


def export(net, out: Path) -> Path:
    """ONNX with a free batch size; the window's geometry goes in the metadata, checked at load."""
    import onnx  # noqa: PLC0415
    import torch  # noqa: PLC0415

    net.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(net, torch.zeros(1, 3, SIZE, SIZE), str(out), input_names=["windows"], output_names=["corners"],
                      dynamic_axes={"windows": {0: "n"}, "corners": {0: "n"}}, opset_version=17, dynamo=False)
    model = onnx.load(str(out))
    for key, value in (("size", SIZE), ("grow", GROW)):
        model.metadata_props.add(key=key, value=str(value))
    onnx.save(model, str(out))
    return out


def training_options(ap: argparse.ArgumentParser, what: str, source: str, out: str, epochs: int, state: str) -> None:
    """The options both small networks train with (this one and :mod:`vision.training.train_index`)."""
    ap.add_argument("--data", type=Path, nargs="+", required=True, help=f"{what} from {source}")
    ap.add_argument("--val", type=Path, default=None, help=f"validation {what} (default: the first --data's -val.npz)")
    ap.add_argument("--out", type=Path, default=Path(out))
    ap.add_argument("--epochs", type=int, default=epochs)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--state", type=Path, default=Path(state), help="where the trained weights go")
    ap.add_argument("--init", type=Path, default=None, help="a .pt state to go on from (the same network)")
    ap.add_argument("--threads", type=int, default=2)


def save_state(net, path: Path) -> None:
    import torch  # noqa: PLC0415

    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save(net.state_dict(), path)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    training_options(ap, "pairs", "datasets.corner_crops", "models/card-corners.onnx", 12, "runs/corners/last.pt")
    args = ap.parse_args(argv)
    import torch  # noqa: PLC0415

    torch.set_num_threads(args.threads)
    net = train(args.data, args.epochs, args.batch, args.lr, init=args.init, val=args.val)
    save_state(net, args.state)
    print(f"wrote {export(net, args.out)} and {args.state}")


if __name__ == "__main__":
    main()
