"""A real poker pattern for training: the PNG renderings of the npm package ``svg-cards`` 4.0.2
(David Bellot's SVG cards, French-pattern courts, LGPL-2.1).

The drawn designs in :mod:`datasets.art` have corner indices and pips like a poker pack, but
their courts are cartoons, and a classifier trained on them reads real kings as jacks. These
courts are real drawings. The package is fetched once, at data-build time, from the npm
registry (the tarball is checked against the registry's SHA-512), kept in a cache outside the
repo and never committed; nothing at run time needs it.

``python -m datasets.svg_cards`` fetches it; ``python -m datasets.build ... --svg-cards`` uses it.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import shutil
import tarfile
import tempfile
import urllib.request
from functools import lru_cache
from pathlib import Path

import numpy as np
from PIL import Image

from engine.cards import DECK

VERSION = "4.0.2"
URL = f"https://registry.npmjs.org/svg-cards/-/svg-cards-{VERSION}.tgz"
SHA512 = "YQVC0+bVQtvGbKoQZAHPgVSrKUymPK+aG9NQjJul9jp/a+lFcm8aWKh7YmKVinSjpaBTbogTLKAPi5YQEFRYLg=="
PACK_NAME = "svg-cards"
RANK_FILE = {"6": "6", "7": "7", "8": "8", "9": "9", "T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "1"}
SUIT_FILE = {"h": "heart", "d": "diamond", "s": "spade", "c": "club"}
BACK_FILE = "back-red"


def cache_dir() -> Path:
    """Where the fetched PNGs live: ``$CHRATZE_CACHE`` or ``~/.cache/chratze``."""
    root = os.environ.get("CHRATZE_CACHE") or Path.home() / ".cache" / "chratze"
    return Path(root) / f"svg-cards-{VERSION}"


def file_name(code: str) -> str:
    return BACK_FILE if code == "back" else f"{SUIT_FILE[code[1]]}_{RANK_FILE[code[0]]}"


def wanted_files() -> list[str]:
    return [file_name(c.code) for c in DECK] + [file_name("back")]


def fetch(dest: Path | None = None, url: str = URL, sha512: str = SHA512) -> Path:
    """Download, verify and unpack the 37 PNGs we use (and the licence) into ``dest``; a folder
    already complete is left as it is. A tarball with the wrong hash is refused, unpacked nowhere."""
    dest = dest or cache_dir()
    if all((dest / f"{n}.png").is_file() for n in wanted_files()):
        return dest
    with urllib.request.urlopen(url, timeout=60) as resp:  # noqa: S310 - a fixed registry URL
        blob = resp.read()
    got = base64.b64encode(hashlib.sha512(blob).digest()).decode()
    if got != sha512:
        raise ValueError(f"svg-cards tarball from {url} has SHA-512 {got}, expected {sha512}: not used")
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".svg-cards-", dir=dest.parent))
    try:
        with tarfile.open(fileobj=io.BytesIO(blob), mode="r:gz") as tar:
            for name in wanted_files():
                _extract(tar, f"package/png/2x/{name}.png", tmp / f"{name}.png")
            _extract(tar, "package/LICENSE", tmp / "LICENSE")
        shutil.rmtree(dest, ignore_errors=True)
        tmp.rename(dest)  # all or nothing: a half-unpacked folder never looks complete
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return dest


def _extract(tar: tarfile.TarFile, member: str, to: Path) -> None:
    src = tar.extractfile(member)
    if src is None:
        raise ValueError(f"svg-cards tarball has no file {member}")
    to.write_bytes(src.read())


@lru_cache(maxsize=None)
def svg_pack(folder: Path | None = None) -> dict[str, np.ndarray]:
    """Card code (and ``back``) -> RGB image, on white paper (the PNGs' corners are transparent;
    the scene's rounded mask cuts the corners anyway)."""
    folder = folder or cache_dir()
    missing = [n for n in wanted_files() if not (folder / f"{n}.png").is_file()]
    if missing:
        raise FileNotFoundError(f"svg-cards not found at {folder} ({len(missing)} files missing): "
                                "run `python -m datasets.svg_cards` once (needs the npm registry)")
    out = {}
    for c in [d.code for d in DECK] + ["back"]:
        rgba = Image.open(folder / f"{file_name(c)}.png").convert("RGBA")
        paper = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        out[c] = np.asarray(Image.alpha_composite(paper, rgba).convert("RGB"))
    return out


def main() -> None:
    print(f"svg-cards {VERSION} -> {fetch()}")


if __name__ == "__main__":
    main()
