"""Real poker patterns for training, fetched once at data-build time from the npm registry.

The drawn designs in :mod:`datasets.art` have corner indices and pips like a poker pack, but
their courts are cartoons, and a classifier trained on them reads real kings as jacks (and on
an unseen real pattern named only 35 % of the cards). These packs are real drawings:

- ``svg-cards`` 4.0.2 (David Bellot's SVG cards, French-pattern courts, LGPL-2.1; its PNGs),
- ``cardsjs`` 1.1.1 (Chris Aguilar's Vector Playing Cards, English-pattern courts as on most
  poker packs, LGPL-3.0; its SVGs, rendered here with resvg).

One more is kept out of every training set (:data:`UNSEEN`): ``kennard``, Adrian Kennard's cards
(CC0) from ``@letele/playing-cards`` 0.1.0, where they come as React components
(:mod:`datasets.react_svg`). It is the pack none of the networks saw, on which teaching a deck
is measured (``benchmarks/teach_deck.py``).

Each tarball is checked against the registry's SHA-512 and unpacked, all or nothing, into a
cache outside the repo (the art is never committed). Nothing at run time needs them.

``python -m datasets.fetched`` fetches both; ``python -m datasets.build ... --packs
swiss,drawn,svg-cards,cardsjs`` uses them.
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
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
from PIL import Image

from engine.cards import DECK

from .react_svg import components
from vision.recognize import BACK

CODES = [c.code for c in DECK] + [BACK]
CARD_H = 336  # SVGs are rendered at the drawn designs' height


@dataclass(frozen=True)
class FetchedPack:
    """One npm package and where each of our 36 cards (and a back) lies in its tarball."""

    name: str  # the pack's name in scenes and ``--packs``
    package: str
    version: str
    sha512: str  # the registry's dist.integrity, without the "sha512-" prefix
    members: dict[str, str]  # card code -> tarball member (PNG or SVG)
    licence: str  # tarball member of the licence text, kept beside the images
    bundle: str | None = None  # a member holding React components; ``members`` then names components

    @property
    def url(self) -> str:
        base = self.package.rsplit("/", 1)[-1]  # a scoped package's tarball drops its scope
        return f"https://registry.npmjs.org/{self.package}/-/{base}-{self.version}.tgz"

    def cache(self) -> Path:
        """``$CHRATZE_CACHE`` or ``~/.cache/chratze``, one folder per package version."""
        root = os.environ.get("CHRATZE_CACHE") or Path.home() / ".cache" / "chratze"
        return Path(root) / f"{self.package.replace('/', '-')}-{self.version}"


def _members(pattern: str, ranks: dict[str, str], suits: dict[str, str], back: str) -> dict[str, str]:
    out = {c.code: pattern.format(rank=ranks.get(c.code[0], c.code[0]), suit=suits[c.code[1]]) for c in DECK}
    out[BACK] = back
    return out


PACKS = {p.name: p for p in (
    FetchedPack("svg-cards", "svg-cards", "4.0.2",
                "YQVC0+bVQtvGbKoQZAHPgVSrKUymPK+aG9NQjJul9jp/a+lFcm8aWKh7YmKVinSjpaBTbogTLKAPi5YQEFRYLg==",
                _members("package/png/2x/{suit}_{rank}.png",
                         {"T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "1"},
                         {"h": "heart", "d": "diamond", "s": "spade", "c": "club"},
                         "package/png/2x/back-red.png"),
                "package/LICENSE"),
    FetchedPack("cardsjs", "cardsJS", "1.1.1",
                "S8J1GsZp9Wimj1jBu6jhH8pHNuOvkA7uryP7YeeaMP8o02g86rdTkXes0rAb/y8ShdCx5JDwg116/hMEGtAuJw==",
                _members("package/cards/{rank}{suit}.svg", {"T": "10"},
                         {"h": "H", "d": "D", "s": "S", "c": "C"}, "package/cards/Red_Back.svg"),
                "package/cards/COPYING.LESSER.txt"),
)}
UNSEEN = {p.name: p for p in (  # fetched only to measure teaching: never in a training set
    FetchedPack("kennard", "@letele/playing-cards", "0.1.0",
                "56Ga/sznspARugv/PS4X4HdFuq1at8dSkmI3veU2pV2PJ4mKviqImqOGkBgoSQE5rA+IgbKyBBhhJ6IjZLOXWg==",
                _members("Svg{suit}{rank}", {"T": "10"}, {"h": "H", "d": "D", "s": "S", "c": "C"}, "SvgB2"),
                "package/LICENSE", bundle="package/dist/index.esm.js"),
)}


def fetch(pack: FetchedPack, dest: Path | None = None, url: str | None = None) -> Path:
    """Download, verify and unpack ``pack`` as ``<code>.png`` files (and the licence) into
    ``dest``; a complete folder is left as it is. A tarball with the wrong hash is refused and
    nothing is unpacked."""
    dest = dest or pack.cache()
    if _complete(dest):
        return dest
    url = url or pack.url
    with urllib.request.urlopen(url, timeout=60) as resp:  # noqa: S310 - the registry, or a test's file
        blob = resp.read()
    got = base64.b64encode(hashlib.sha512(blob).digest()).decode()
    if got != pack.sha512:
        raise ValueError(f"{pack.package} tarball from {url} has SHA-512 {got}, expected {pack.sha512}: not used")
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{pack.name}-", dir=dest.parent))
    try:
        with tarfile.open(fileobj=io.BytesIO(blob), mode="r:gz") as tar:
            svgs = components(_read(tar, pack.bundle).decode("utf-8")) if pack.bundle else {}
            for code, member in pack.members.items():
                if pack.bundle:
                    (tmp / f"{code}.png").write_bytes(_svg_png(svgs[member]))
                else:
                    (tmp / f"{code}.png").write_bytes(_as_png(_read(tar, member), member))
            (tmp / "LICENSE").write_bytes(_read(tar, pack.licence))
        shutil.rmtree(dest, ignore_errors=True)
        tmp.rename(dest)  # all or nothing: a half-unpacked folder never looks complete
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return dest


def _complete(folder: Path) -> bool:
    return all((folder / f"{c}.png").is_file() for c in CODES)


def _read(tar: tarfile.TarFile, member: str) -> bytes:
    try:
        src = tar.extractfile(member)
    except KeyError:
        src = None
    if src is None:
        raise ValueError(f"tarball has no file {member}")
    return src.read()


def _as_png(data: bytes, member: str) -> bytes:
    if not member.endswith(".svg"):
        return data
    return _svg_png(data.decode("utf-8"))


def _svg_png(svg: str) -> bytes:
    import resvg_py  # noqa: PLC0415 - only for SVG packs, at build time

    return bytes(resvg_py.svg_to_bytes(svg_string=svg, height=CARD_H, skip_system_fonts=True))


@lru_cache(maxsize=None)
def load(name: str, folder: Path | None = None) -> dict[str, np.ndarray]:
    """Card code (and ``back``) -> RGB image on white paper (the transparent corners are cut by
    the scene's rounded mask anyway)."""
    pack = PACKS.get(name) or UNSEEN[name]
    folder = folder or pack.cache()
    if not _complete(folder):
        raise FileNotFoundError(f"{name} not found at {folder}: run `python -m datasets.fetched` once "
                                "(needs the npm registry)")
    out = {}
    for c in CODES:
        rgba = Image.open(folder / f"{c}.png").convert("RGBA")
        paper = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        out[c] = np.asarray(Image.alpha_composite(paper, rgba).convert("RGB"))
    return out


def main() -> None:
    for pack in (*PACKS.values(), *UNSEEN.values()):
        print(f"{pack.package} {pack.version} -> {fetch(pack)}")


if __name__ == "__main__":
    main()
