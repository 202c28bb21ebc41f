"""How a picture is read: every threshold of the recognizer, with why it has its value.

A setting is a field of a frozen dataclass, its reason in the field's metadata (``why``), so the
command line builds its options and help from them (:func:`why`). Two presets: ``FRAME`` for
camera frames (one detector look, speed first: the live table sees each card over many frames)
and ``PHOTO`` for a still picture (two looks and every refinement: it has one chance).
``VIDEO`` is ``FRAME`` with a still card's read kept for a few frames. How each value was chosen
and on which scenes: ``docs/model-history.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any


def setting(default: Any, why: str) -> Any:
    """A dataclass field with its reason."""
    return field(default=default, metadata={"why": why})


@dataclass(frozen=True)
class RecognizerSettings:
    views: int = setting(1, "detector looks per picture: 2 = as it is and turned a quarter, boxes fused; "
                            "a second look doubles the detector's time")
    conf: float = setting(0.3, "detector score a box needs; one view scores lower at the frame's own shape, "
                               "and 0.3 there finds what 0.35 found at the square")
    floor: float | None = setting(None, "boxes scoring from this up to conf are cards where read at read_sure "
                                        "or more (None: no box under conf is read)")
    read_sure: float = setting(0.8, "how sure the read of a box under conf must be for it to count")
    nms_iou: float = setting(0.5, "rotated NMS drops a box meeting a bolder one at this IoU or more; at 0.7 "
                                  "a covered card's strip on the live pile was read as a card never laid")
    same_read: float = setting(0.5, "two fitted outlines read as the same card meeting at this IoU are one "
                                    "card: a pack has each card once (above 1: never)")
    cross_cover: float = setting(0.6, "a box lying crosswise this much inside a surer read's box is that card "
                                      "boxed across, not a card (above 1: never)")
    not_card_from: float = setting(0.3, "a box the classifier's not-a-card class holds at least this likely holds no "
                                        "card and is left out (vision.recognize.not_card); of 0.1-0.99, the most "
                                        "cards named right less false boxes on the real photos' tune half")
    second_look: float = setting(0.9, "a read less sure than this is averaged with the crop turned half round: "
                                      "which end is up is ambiguous in the detector's box")
    index_unsure: float = setting(0.999, "a read less sure than this is also read from its four corners' "
                                         "indices; surer ones gained nothing from it")
    sideways_below: float = setting(1.4, "an outline less than this many times longer than wide may be a card "
                                         "tilted away along its length, and is read both ways round")
    reread_moved: float = setting(1.0, "a covered card the table's plane moved more than this (pixels) is read "
                                       "again from its completed outline, the surer read kept")
    corner_passes: int = setting(2, "looks of the corner network, each around the corners the last found")
    snap_edges: bool = setting(False, "move each fitted side onto the card's edge the picture shows (about 3 "
                                      "ms a frame); the live table decides nothing by a pixel of outline")
    plane: bool = setting(False, "complete covered cards' hidden corners in the table's plane (about 20 ms); "
                                 "the live table decides nothing by where a covered card ends")
    fit_input: bool = setting(True, "run the detector at the picture's own shape, not its exported square: "
                                    "256x320 for 640x480, a fifth less work (one view only)")
    short_side: int = setting(240, "with fit_input, a frame's short side reaches the detector at least this long "
                                   "(a 16:9 frame at 448x256, not 320x192): its cards as large to the network as a "
                                   "4:3 frame's, at whose 256x320 every threshold was chosen")
    closer_side: int = setting(480, "the short side the detector looks at once the table named an upcard the "
                                    "camera never saw, lying alone in plain view: a busy cloth hides cards at "
                                    "short_side. Twice it each way, so about 3.5 times the detector's work")
    halve_large: bool = setting(True, "a picture at least 4 times the detector's input each way is halved before "
                                      "it is resized to it: a 1920x1080 frame's resize took a fifth of its time")
    top_k: int = setting(3, "reads kept per card, best first: the live table falls back on the next best "
                            "where the best is impossible")
    reuse_frames: int = setting(0, "on video, a card whose box has not moved keeps its read this many frames: "
                                   "most cards on a table lie still")
    reuse_iou: float = setting(0.9, "a box meeting last frame's at this IoU or more has not moved")
    edge_margin: float = setting(2.0, "an outline this near the picture's edge (pixels) is cut by it")

    def __post_init__(self) -> None:
        if self.views not in (1, 2):
            raise ValueError(f"views must be 1 or 2, not {self.views}")
        if self.fit_input and self.views != 1:
            raise ValueError("a photo's two views turn the detector's square input: fit_input needs views=1")

    @property
    def low(self) -> float:
        """The lowest detector score a box is read at."""
        return min(self.conf if self.floor is None else self.floor, self.conf)


FRAME = RecognizerSettings()
PHOTO = RecognizerSettings(views=2, conf=0.35, floor=0.15, nms_iou=0.7, snap_edges=True, plane=True,
                           fit_input=False, halve_large=False)
VIDEO = replace(FRAME, reuse_frames=2)
PRESETS = {"frame": FRAME, "photo": PHOTO, "video": VIDEO}


def preset_for(views: int) -> RecognizerSettings:
    """The preset a number of detector looks stands for: one for camera frames, two for photos."""
    return PHOTO if views == 2 else FRAME


def with_overrides(base: RecognizerSettings | None = None, **overrides: Any) -> RecognizerSettings:
    """``base`` (else the preset ``views`` stands for) with ``overrides``; None leaves a field as it is."""
    given = {k: v for k, v in overrides.items() if v is not None}
    unknown = set(given) - {f.name for f in fields(RecognizerSettings)}
    if unknown:
        raise TypeError(f"unknown recognizer settings: {', '.join(sorted(unknown))}")
    start = base if base is not None else preset_for(given.get("views", 1))
    return replace(start, **given)


def why(name: str) -> str:
    """A setting's reason, for help texts."""
    return next(f.metadata["why"] for f in fields(RecognizerSettings) if f.name == name)
