"""The fetched poker pattern (svg-cards): fetched once at data-build time, checked, all or nothing.

A tarball made here stands in for the npm registry's, so these tests need no network."""

import base64
import hashlib
import io
import tarfile

import numpy as np
import pytest
from PIL import Image

from datasets import svg_cards
from datasets.art import CLASS_NAMES, packs_of
from datasets.scenes import choose_pack


def _fake_tarball(tmp_path):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for k, name in enumerate(svg_cards.wanted_files() + ["LICENSE"]):
            if name == "LICENSE":
                data, member = b"LGPL-2.1", "package/LICENSE"
            else:
                png = io.BytesIO()
                Image.new("RGBA", (34, 49), (k, 255 - k, 7, 255)).save(png, "PNG")
                data, member = png.getvalue(), f"package/png/2x/{name}.png"
            info = tarfile.TarInfo(member)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    blob = buf.getvalue()
    path = tmp_path / "svg-cards.tgz"
    path.write_bytes(blob)
    return path.as_uri(), base64.b64encode(hashlib.sha512(blob).digest()).decode()


def test_the_fetched_pack_has_36_different_faces_and_a_back(tmp_path):
    url, sha = _fake_tarball(tmp_path)
    folder = svg_cards.fetch(tmp_path / "cache" / "svg", url=url, sha512=sha)
    pack = svg_cards.svg_pack(folder)
    assert set(pack) == set(CLASS_NAMES) | {"back"}
    assert len({pack[c].tobytes() for c in CLASS_NAMES}) == 36
    assert all(img.ndim == 3 and img.shape[2] == 3 and img.dtype == np.uint8 for img in pack.values())
    assert (folder / "LICENSE").read_bytes() == b"LGPL-2.1"


def test_a_tarball_with_the_wrong_hash_is_refused_and_nothing_is_unpacked(tmp_path):
    url, _ = _fake_tarball(tmp_path)
    dest = tmp_path / "cache" / "svg"
    with pytest.raises(ValueError, match="SHA-512"):
        svg_cards.fetch(dest, url=url, sha512="not-the-hash")
    assert not (tmp_path / "cache").exists()


def test_a_missing_pack_says_how_to_fetch_it(tmp_path):
    with pytest.raises(FileNotFoundError, match="python -m datasets.svg_cards"):
        svg_cards.svg_pack(tmp_path / "nowhere")


def test_an_unknown_pack_group_is_named_in_the_error():
    with pytest.raises(ValueError, match="bicycle"):
        packs_of(("swiss", "bicycle"))


def test_a_fetched_pattern_is_drawn_as_often_as_all_drawn_designs_together():
    packs = {n: {} for n in ["swiss-french", "swiss-german"] + [f"drawn-french-{s}" for s in range(6)]
             + ["svg-cards"]}
    rng = np.random.default_rng(0)
    picks = [choose_pack(rng, packs) for _ in range(4000)]
    swiss = sum(p.startswith("swiss") for p in picks) / 4000
    svg = picks.count("svg-cards") / 4000
    drawn = sum(p.startswith("drawn") for p in picks) / 4000
    assert 0.57 < swiss < 0.63 and 0.17 < svg < 0.23 and 0.17 < drawn < 0.23
