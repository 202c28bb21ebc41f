"""Real poker patterns fetched once at data-build time: checked, all or nothing, never at run time.

A tarball made here stands in for the npm registry's, so these tests need no network."""

import base64
import dataclasses
import hashlib
import io
import tarfile

import numpy as np
import pytest
from PIL import Image

from datasets import fetched
from datasets.art import CLASS_NAMES, packs_of
from datasets.scenes import choose_pack


def _png(k: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGBA", (34, 49), (k, 255 - k, 7, 255)).save(out, "PNG")
    return out.getvalue()


def _svg(k: int) -> bytes:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="50" height="70">'
            f'<rect x="5" y="5" width="40" height="60" fill="rgb({k},{255 - k},7)"/></svg>').encode()


def _fake(tmp_path, name: str):
    """The pack ``name`` pointed at a tarball of distinct dummy faces, and that tarball's URL."""
    pack = fetched.PACKS[name]
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        files = {m: (_svg(k) if m.endswith(".svg") else _png(k)) for k, m in enumerate(pack.members.values())}
        files[pack.licence] = b"LGPL"
        for member, data in files.items():
            info = tarfile.TarInfo(member)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    blob = buf.getvalue()
    path = tmp_path / f"{name}.tgz"
    path.write_bytes(blob)
    sha = base64.b64encode(hashlib.sha512(blob).digest()).decode()
    return dataclasses.replace(pack, sha512=sha), path.as_uri()


@pytest.mark.parametrize("name", ["svg-cards", "cardsjs"])
def test_a_fetched_pack_has_36_different_faces_and_a_back(tmp_path, name):
    pack, url = _fake(tmp_path, name)
    folder = fetched.fetch(pack, tmp_path / "cache" / name, url=url)
    faces = fetched.load(name, folder)
    assert set(faces) == set(CLASS_NAMES) | {"back"}
    assert len({faces[c].tobytes() for c in CLASS_NAMES}) == 36
    assert all(img.ndim == 3 and img.shape[2] == 3 and img.dtype == np.uint8 for img in faces.values())
    assert (folder / "LICENSE").read_bytes() == b"LGPL"


def test_svg_faces_are_rendered_at_the_drawn_designs_height(tmp_path):
    pack, url = _fake(tmp_path, "cardsjs")
    faces = fetched.load("cardsjs", fetched.fetch(pack, tmp_path / "c", url=url))
    assert faces["Kh"].shape[0] == fetched.CARD_H


def test_a_tarball_with_the_wrong_hash_is_refused_and_nothing_is_unpacked(tmp_path):
    pack, url = _fake(tmp_path, "svg-cards")
    with pytest.raises(ValueError, match="SHA-512"):
        fetched.fetch(dataclasses.replace(pack, sha512="not-the-hash"), tmp_path / "cache" / "svg", url=url)
    assert not (tmp_path / "cache").exists()


def test_a_missing_pack_says_how_to_fetch_it(tmp_path):
    with pytest.raises(FileNotFoundError, match="python -m datasets.fetched"):
        fetched.load("svg-cards", tmp_path / "nowhere")


def test_an_unknown_pack_group_is_named_in_the_error():
    with pytest.raises(ValueError, match="bicycle"):
        packs_of(("swiss", "bicycle"))


def test_each_fetched_pattern_is_drawn_as_often_as_all_drawn_designs_together():
    names = ["swiss-french", "swiss-german"] + [f"drawn-french-{s}" for s in range(6)] + ["svg-cards", "cardsjs"]
    rng = np.random.default_rng(0)
    picks = [choose_pack(rng, {n: {} for n in names}) for _ in range(6000)]
    share = {g: sum(p.startswith(g) for p in picks) / len(picks) for g in ("swiss", "drawn", "svg-cards", "cardsjs")}
    assert 0.57 < share["swiss"] < 0.63
    assert all(0.11 < share[g] < 0.16 for g in ("drawn", "svg-cards", "cardsjs"))


def _react_bundle(components: dict[str, int]) -> bytes:
    """A bundle as SVGR writes one: each component a createElement tree (a card a coloured rect)."""
    parts = []
    for name, k in components.items():
        parts.append(f'''const {name} = _ref => {{
  let {{
    title,
    titleId,
    ...props
  }} = _ref;
  return /*#__PURE__*/React.createElement("svg", _extends({{
    xmlns: "http://www.w3.org/2000/svg",
    height: 70,
    viewBox: "0 0 50 70",
    width: 50,
    "aria-labelledby": titleId
  }}, props), title ? /*#__PURE__*/React.createElement("title", {{
    id: titleId
  }}, title) : null, /*#__PURE__*/React.createElement("rect", {{
    x: 5,
    y: 5,
    width: 40,
    height: 60,
    strokeWidth: 2,
    fill: "rgb({k},{255 - k},7)"
  }}));
}};
''')
    return "\n".join(parts).encode()


def test_react_components_are_read_back_as_svg_without_running_them():
    from datasets.react_svg import components

    svg = components(_react_bundle({"SvgHA": 10}).decode())["SvgHA"]
    assert svg.startswith("<svg") and 'viewBox="0 0 50 70"' in svg and 'stroke-width="2"' in svg
    assert "titleId" not in svg and "aria" not in svg


def test_the_unseen_pack_unpacks_from_its_react_bundle(tmp_path):
    pack = fetched.UNSEEN["kennard"]
    bundle = _react_bundle({m: k for k, m in enumerate(pack.members.values())})
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for member, data in ((pack.bundle, bundle), (pack.licence, b"CC0")):
            info = tarfile.TarInfo(member)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    blob = buf.getvalue()
    (tmp_path / "k.tgz").write_bytes(blob)
    fake = dataclasses.replace(pack, sha512=base64.b64encode(hashlib.sha512(blob).digest()).decode())
    dest = fetched.fetch(fake, tmp_path / "out", (tmp_path / "k.tgz").as_uri())
    faces = fetched.load.__wrapped__("kennard", dest)
    assert len({f.tobytes() for f in faces.values()}) == 37


def test_the_unseen_pack_is_in_no_training_set():
    from datasets.art import PACK_GROUPS

    assert "kennard" not in PACK_GROUPS and "kennard" not in fetched.PACKS
    with pytest.raises(ValueError, match="unknown pack group"):
        packs_of(("kennard",))
    assert fetched.UNSEEN["kennard"].url.endswith("/@letele/playing-cards/-/playing-cards-0.1.0.tgz")
