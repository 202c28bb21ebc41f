"""Where things lie on the table: the upcard's spot and each seat's spot.

Two ways, both saved per table as JSON:

* **zones** drawn on a snapshot: polygons in image pixels (``"upcard"``, and a player's name or
  a seat number ``"1"``… in play order);
* a printed **mat** with four ArUco markers at its corners (``chratze mat``): the zones are
  then in mat millimetres, and each frame's markers give the homography from the picture to the
  mat, so the camera may move.

Without a layout, the live table assigns cards by the order they appear in.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

UPCARD = "upcard"
LAYOUT_VERSION = 1

# The printed mat (millimetres, A3 landscape) and its markers: ids 0..3 clockwise from top left.
MAT_W, MAT_H = 420.0, 297.0
MARKER_MM = 40.0
MARKER_MARGIN = 12.0
ARUCO_DICT = cv2.aruco.DICT_4X4_50


class LayoutError(ValueError):
    pass


@dataclass
class TableLayout:
    zones: dict[str, np.ndarray] = field(default_factory=dict)  # place -> polygon (N x 2)
    space: str = "image"  # "image": pixels of the camera picture; "mat": millimetres on the printed mat
    frame: tuple[int, int] | None = None  # the snapshot's size, for zones in image pixels

    def place(self, point: tuple[float, float], seats: tuple[str, ...] = (),
              to_mat: np.ndarray | None = None) -> str | None:
        """``"upcard"``, a player's name, or None (outside every zone) for a point in the picture."""
        if self.space == "mat":
            if to_mat is None:
                return None
            point = tuple(cv2.perspectiveTransform(np.array([[point]], np.float32), to_mat)[0, 0])
        for name, poly in self.zones.items():
            if cv2.pointPolygonTest(poly.astype(np.float32), (float(point[0]), float(point[1])), False) >= 0:
                return self._player(name, seats)
        return None

    def bounds(self, name: str, to_mat: np.ndarray | None = None) -> tuple[float, float, float, float] | None:
        """Zone ``name``'s upright box in picture pixels (the inverse of :meth:`place`): what the page cuts
        from a frame to show where a card was looked for. None without that zone, or on a mat not yet seen."""
        poly = self.zones.get(name)
        if poly is None or (self.space == "mat" and to_mat is None):
            return None
        if self.space == "mat":
            poly = cv2.perspectiveTransform(poly.reshape(-1, 1, 2).astype(np.float64), np.linalg.inv(to_mat))
            poly = poly.reshape(-1, 2)
        (x1, y1), (x2, y2) = poly.min(axis=0), poly.max(axis=0)
        return float(x1), float(y1), float(x2), float(y2)

    @staticmethod
    def _player(name: str, seats: tuple[str, ...]) -> str | None:
        if name == UPCARD or name in seats:
            return name
        if name.isdigit() and 1 <= int(name) <= len(seats):
            return seats[int(name) - 1]
        return None  # a seat nobody sits at in this hand

    # -------------------------------------------------------------- JSON
    def to_dict(self) -> dict:
        out = {"version": LAYOUT_VERSION, "space": self.space,
               "zones": {k: np.round(v, 1).tolist() for k, v in self.zones.items()}}
        if self.frame:
            out["frame"] = list(self.frame)
        return out

    @classmethod
    def from_dict(cls, data: dict) -> "TableLayout":
        if not isinstance(data, dict) or not isinstance(data.get("zones"), dict):
            raise LayoutError("a table layout is an object with a 'zones' object")
        if not data["zones"]:  # nothing to watch: a saved empty layout would leave the camera blind
            raise LayoutError("a table layout needs at least one zone (the upcard's, the players')")
        space = data.get("space", "image")
        if space not in ("image", "mat"):
            raise LayoutError(f"layout space must be 'image' or 'mat', not {space!r}")
        zones = {}
        for name, poly in data["zones"].items():
            arr = _points(poly)
            if arr is None or arr.ndim != 2 or arr.shape[1] != 2 or len(arr) < 3 or not np.all(np.isfinite(arr)):
                raise LayoutError(f"zone {name!r} must be a polygon: a list of at least 3 [x, y] points")
            zones[str(name)] = arr
        frame = data.get("frame")
        return cls(zones, space, tuple(frame) if frame else None)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), indent=1) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> "TableLayout":
        try:
            data = json.loads(Path(path).read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise LayoutError(f"cannot read table layout {path}: {exc}") from None
        return cls.from_dict(data)


# ------------------------------------------------------------------ the printed mat
def marker_corners_mm() -> dict[int, np.ndarray]:
    """Each marker's corners on the mat (mm), in ArUco's order (clockwise from its top left)."""
    m, s = MARKER_MARGIN, MARKER_MM
    tops = {0: (m, m), 1: (MAT_W - m - s, m), 2: (MAT_W - m - s, MAT_H - m - s), 3: (m, MAT_H - m - s)}
    return {k: np.array([[x, y], [x + s, y], [x + s, y + s], [x, y + s]], np.float32) for k, (x, y) in tops.items()}


def mat_layout(players: int) -> TableLayout:
    """The zones printed on the mat: the upcard in the middle, seat spots round an oval."""
    cx, cy = MAT_W / 2, MAT_H / 2
    zones = {UPCARD: _rect_mm(cx, cy, 110, 75)}
    for i in range(players):
        a = math.pi / 2 + 2 * math.pi * i / players  # seat 1 at the bottom edge, then clockwise
        zones[str(i + 1)] = _rect_mm(cx + 160 * math.cos(a), cy + 90 * math.sin(a), 70, 95)  # a card fits
    return TableLayout(zones, "mat")


def _rect_mm(cx: float, cy: float, w: float, h: float) -> np.ndarray:
    return np.array([[cx - w / 2, cy - h / 2], [cx + w / 2, cy - h / 2], [cx + w / 2, cy + h / 2],
                     [cx - w / 2, cy + h / 2]])


def render_mat(players: int, path: str | Path, dpi: int = 150) -> Path:
    """A printable mat (PNG, or PDF by the file's suffix) with markers and labelled spots."""
    from PIL import Image, ImageDraw, ImageFont  # noqa: PLC0415

    if not 2 <= players <= 7:
        raise LayoutError("a mat has 2 to 7 seats")
    px = dpi / 25.4
    img = Image.new("RGB", (round(MAT_W * px), round(MAT_H * px)), "white")
    draw = ImageDraw.Draw(img)
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICT)
    for k, corners in marker_corners_mm().items():
        side = round(MARKER_MM * px)
        marker = cv2.aruco.generateImageMarker(dictionary, k, side)
        img.paste(Image.fromarray(marker).convert("RGB"), tuple(int(v) for v in np.round(corners[0] * px)))
    font = ImageFont.load_default(size=max(12, round(8 * px)))
    for name, poly in mat_layout(players).zones.items():
        pts = [tuple(p) for p in np.round(poly * px)]
        draw.polygon(pts, outline=(90, 90, 90), width=max(1, round(0.6 * px)))
        label = "upcard / Trumpf" if name == UPCARD else f"seat {name}"
        x, y = np.mean(poly, axis=0) * px
        draw.text((x, y), label, fill=(120, 120, 120), font=font, anchor="mm")
    path = Path(path)
    if path.suffix.lower() == ".pdf":
        img.save(path, "PDF", resolution=dpi)
    else:
        img.save(path)
    return path


class MatFinder:
    """Finds the mat's markers in a frame: the homography from the picture to mat millimetres."""

    def __init__(self) -> None:
        params = cv2.aruco.DetectorParameters()
        self.detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(ARUCO_DICT), params)
        self.known = marker_corners_mm()
        self.last: np.ndarray | None = None
        self.found = False  # whether the last picture showed the markers (else ``last`` stands in)

    def __call__(self, rgb: np.ndarray) -> np.ndarray | None:
        """The homography (image -> mat), the last one found when markers are covered, else None."""
        grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
        corners, ids, _ = self.detector.detectMarkers(grey)
        self.found = False
        if ids is None:
            return self.last
        src, dst = [], []
        for c, i in zip(corners, ids.reshape(-1)):
            if int(i) in self.known:
                src.append(c.reshape(4, 2))
                dst.append(self.known[int(i)])
        if len(src) < 2:  # two markers give eight points: enough for a homography
            return self.last
        hom, _ = cv2.findHomography(np.concatenate(src), np.concatenate(dst), cv2.RANSAC, 5.0)
        if hom is not None:
            self.last, self.found = hom, True
        return self.last


def _points(poly) -> np.ndarray | None:
    """A zone's points as numbers, or None where they are not (a point given as text, a ragged list)."""
    if not isinstance(poly, list) or not all(isinstance(p, list) and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in p) for p in poly):
        return None
    try:
        return np.asarray(poly, dtype=np.float64)
    except ValueError:
        return None
