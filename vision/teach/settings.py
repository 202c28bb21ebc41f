"""How a deck is taught: each number with why it has its value (as vision.recognize.settings does)."""

from __future__ import annotations

from dataclasses import dataclass

from vision.recognize.settings import setting


@dataclass(frozen=True)
class TeachSettings:
    detector_score: float = setting(0.35, "a box scoring this is a card in a capture: the photo preset's conf")
    margin: float = setting(0.25, "share of the card's size kept round it in a capture, so its views can be cut "
                                  "with the outline moved as the corner fit moves it")
    max_card_px: int = setting(320, "a capture is shrunk to this card height: three times the classifier's "
                                    "crop, so every view is cut from a sharper picture than it shows")
    min_card_px: int = setting(60, "a card shorter than this teaches too little of its print")
    min_brightness: float = setting(45.0, "mean grey of the upright card under which it is too dark to teach")
    min_sharpness: float = setting(25.0, "Laplacian variance of the upright card (120x180) under which it is "
                                         "blurred; sharp rendered and photographed cards give hundreds")
    views: int = setting(160, "views learned from per capture: scale, slant, blur, light and JPEG drawn anew")
    check_views: int = setting(40, "views per capture, drawn apart, on which the profile and the shipped "
                                   "network are compared")
    min_view_px: float = setting(26.0, "the smallest card height a view shrinks to: a far seat at 640x480")
    corner_error: float = setting(0.025, "spread of each corner, as a share of the card's height: the corner "
                                         "fit's error at the table")
    steps: int = setting(400, "full-batch steps of the last layer's learning")
    rate: float = setting(0.01, "Adam's step size for the last layer")
    pull: float = setting(1e-3, "weight of the pull toward the shipped last layer, so rarely seen looks "
                                "keep what the shipped network learned")
    seed: int = setting(41, "views and learning are drawn from this: a deck taught twice learns the same")


TEACH = TeachSettings()
