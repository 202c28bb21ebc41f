"""Keep Ultralytics off the network. Import this module before ``ultralytics``.

Ultralytics reaches the network for an online check at import, telemetry and update checks,
automatic pip installs, settings synced to the home folder, a font (Arial.ttf) for plots and
dataset checks, and weights named without a local file. Each is switched off here; the tests
import Ultralytics with the network blocked and train a tiny model to prove it stays off.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

FONT_NAMES = ("Arial.ttf", "Arial.Unicode.ttf")


def config_dir() -> Path:
    base = os.environ.get("CHRATZE_YOLO_DIR")
    return Path(base) if base else Path(tempfile.gettempdir()) / "chratze-yolo"


def _local_font() -> Path | None:
    """A TTF that ships with an installed package (matplotlib's DejaVu, Pillow's test fonts)."""
    for mod, rel in (("matplotlib", "mpl-data/fonts/ttf/DejaVuSans.ttf"),):
        try:
            m = __import__(mod)
        except ImportError:
            continue
        p = Path(m.__file__).parent / rel
        if p.is_file():
            return p
    return None


def go_offline() -> Path:
    """Set every switch before Ultralytics is imported; returns its config folder."""
    cfg = config_dir()
    (cfg / "Ultralytics").mkdir(parents=True, exist_ok=True)
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ["YOLO_AUTOINSTALL"] = "0"
    os.environ["YOLO_CONFIG_DIR"] = str(cfg)
    os.environ.setdefault("MPLCONFIGDIR", str(cfg / "matplotlib"))
    os.environ["WANDB_DISABLED"] = "true"
    os.environ["HF_HUB_OFFLINE"] = "1"
    font = _local_font()
    for name in FONT_NAMES:
        target = cfg / "Ultralytics" / name
        if font is not None and not target.exists():
            shutil.copyfile(font, target)
    return cfg


def settings_offline() -> None:
    """After import: no sync, no hub, no MLflow/Comet/W&B callbacks."""
    from ultralytics import settings  # noqa: PLC0415 - must come after go_offline()

    off = {"sync": False, "hub": False, "mlflow": False, "comet": False, "wandb": False, "clearml": False,
           "dvc": False, "neptune": False, "raytune": False, "tensorboard": False, "vscode_msg": False}
    settings.update({k: v for k, v in off.items() if k in settings})


go_offline()
