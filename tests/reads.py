"""A read as the recognizer reports it, scripted by a test: the card, where it lies, how sure."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class R:
    card: str
    box: tuple
    confidence: float = 0.9
    alternatives: list = field(default_factory=list)
    corners: list = field(default_factory=list)
    detector_score: float = 1.0  # the detector's share of ``confidence`` (the rest is the classifier's)
    under: tuple = ()  # the reads lying on this card, as vision.recognize.layers finds them
