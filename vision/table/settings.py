"""How reads become stable card events: every threshold of the tracker, with why it has its value.

Counts are in frames of the live table's source. How each value was chosen: ``docs/model-history.md``
("On the virtual table").
"""

from __future__ import annotations

from dataclasses import dataclass

from vision.recognize.settings import setting


@dataclass(frozen=True)
class TrackerSettings:
    window: int = setting(6, "recent frames a track's hits are counted over; so many sure reads rename a card")
    min_hits: int = setting(4, "frames of the window a card must be seen in before it is named")
    min_conf: float = setting(0.5, "reads less confident than this are ignored: a glare or a hand's edge")
    min_support: float = setting(0.7, "share of the possible votes the named card needs: a clear majority")
    min_share: float = setting(0.1, "share of all votes, impossible cards included, the named card needs")
    sure_conf: float = setting(0.7, "a card is named once its votes weigh as much as min_hits reads this sure: "
                                    "a card half under the hand carrying it in is read timidly")
    timid_factor: int = setting(3, "timid reads rename a card only after this many windows of them")
    alternative_weight: float = setting(0.5, "a next-best read votes with this share of its probability")
    match_iou: float = setting(0.3, "a read matches a track at this box IoU or more")
    match_cover: float = setting(0.8, "a read this much within a track's box is that card, partly covered")
    still_iou: float = setting(0.8, "a box meeting its earlier self at this IoU or more lies still")
    edge_hits: int = setting(12, "frames a card cut by the picture's edge must lie still: its clipped box "
                                 "hardly changes while it slides in")
    gone_after: int = setting(12, "frames without a card before it counts as taken away")
    gap_frames: int = setting(3, "missing this long, a named card may have been taken away and another laid")
    same_outline: float = setting(0.6, "a re-read lies at least this much (outline IoU) where the card was named")
    still_shown: float = setting(0.5, "a card whose free sides show this much still lies under the one on it")
    carried_for: float = setting(3.0, "seconds a card seen coming explains a spot read anew")
    carried_near: float = setting(1.5, "box diagonals within which a card seen coming explains a spot")
    carried_ahead: float = setting(2.0, "steps further along its way a card lost while carried counts as near")
    carried_memory: int = setting(32, "cards lost while carried in that are remembered")
    ahead_frames: int = setting(3, "a carried card lost fewer frames than this is looked for where its last "
                                   "step takes it")
    ahead_trust: float = setting(0.9, "a read's IoU with where a track is expected counts this much against "
                                      "where one is seen")

    def __post_init__(self) -> None:
        if self.min_hits > self.window:
            raise ValueError(f"min_hits ({self.min_hits}) cannot exceed the window ({self.window})")


TABLE = TrackerSettings()
