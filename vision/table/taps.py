"""Timed table entries (bids, exchanges, the hand's start) for a video run: the file ``chratze
virtual-table`` writes and ``chratze watch --taps`` reads. Format: ``docs/live-table.md``."""

from __future__ import annotations

import json
from pathlib import Path

from engine.events import Event, EventError, event_from_dict

FORMAT, VERSION = "chratze-taps", 1


class TapsError(ValueError):
    """A taps file that cannot be read, with the reason."""

def load_taps(path: str | Path) -> list[tuple[float, Event]]:
    """(seconds into the video, event) for each entry of a taps file."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
        return [(float(t["t"]), event_from_dict(t["event"])) for t in doc["taps"]]
    except (OSError, ValueError, KeyError, TypeError, EventError) as exc:
        raise TapsError(f"cannot read taps {path}: {exc}") from None


def taps_doc(taps) -> dict:
    """The file's JSON for ``taps`` (objects with ``t`` and ``event``)."""
    return {"format": FORMAT, "version": VERSION,
            "taps": [{"t": round(tap.t, 3), "event": tap.event.to_dict()} for tap in taps]}
