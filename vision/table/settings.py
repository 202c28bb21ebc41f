"""How reads become stable card events: every threshold of the tracker, with why it has its value.

Counts are in frames of a 20 fps source (``REFERENCE_FPS``); :meth:`TrackerSettings.at_fps` turns them
into the same spans of time at another frame rate, so a card is named as soon at 10 fps as at 30.
How each value was chosen: ``docs/model-history.md`` ("On the virtual table").
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from vision.recognize.settings import setting

REFERENCE_FPS = 20.0  # the frame rate the counts below were chosen at


@dataclass(frozen=True)
class TrackerSettings:
    window: int = setting(6, "recent frames a track's hits are counted over; so many sure reads rename a card")
    min_hits: int = setting(4, "frames of the window a card must be seen in before it is named")
    min_conf: float = setting(0.5, "reads less confident than this are ignored (a glare or a hand's edge), but for "
                                   "a card read whole at whole_conf where no surer card lies (Stabilizer.counts)")
    min_support: float = setting(0.7, "share of the possible votes the named card needs: a clear majority")
    min_share: float = setting(0.1, "share of all votes, impossible cards included, the named card needs")
    sure_conf: float = setting(0.7, "a card is named once its votes weigh as much as min_hits reads this sure: "
                                    "a card half under the hand carrying it in is read timidly")
    timid_factor: int = setting(3, "timid reads rename a card only after this many windows of them")
    alternative_weight: float = setting(0.5, "a next-best read votes with this share of its probability")
    match_iou: float = setting(0.3, "a read matches a track at this box IoU or more")
    match_cover: float = setting(0.8, "a read this much within a track's box is that card, partly covered")
    part_within: float = setting(0.95, "a timid read whose outline lies this much within the outline of a "
                                       "sure read of its frame, nothing on that card, is a part of that card "
                                       "boxed again: a card thrown on top lies so only squarely over it, hiding "
                                       "it (a card turned 5 degrees on another lies 0.956 within it)")
    still_iou: float = setting(0.8, "a box meeting its earlier self at this IoU or more lies still")
    covered: float = setting(0.35, "a card laid since covers another where this share of the other's box lies "
                                   "under it (the watcher) or of its own box lies over the other's (a card "
                                   "thrown onto that spot would have hidden that part of it): what still shows "
                                   "of the covered card reads no better than it did whole, so its place read "
                                   "anew is that card misread, not a card thrown onto it; a vanished card so "
                                   "far under is covered, not taken away (its upright box takes in cloth: a "
                                   "rendered pile card hidden past reading had 0.47 of its box under)")
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

    swap_reads: int = setting(2, "reads of the upcard at one player's place, after it left its spot, that say "
                                 "who took it when the trump 6 lies there instead; seen at two places, or fewer "
                                 "times, the table is asked who swapped")
    deck_weak: float = setting(0.97, "a taught deck's card its own check views read right less often than "
                                     "this, and the look-alike it was taken for, make a pair the deck confuses")
    deck_alike_share: float = setting(0.05, "a card of such a pair is asked of the table when the other card of "
                                            "the pair has at least this share of its votes: the confusion is "
                                            "there (both set before any held-out hand ran)")
    ask_after: float = setting(1.5, "seconds a card may lie still without a clear, sure read before it is "
                                    "named for the table to confirm (it is asked, never recorded as read)")
    lost_after: float = setting(3.0, "seconds a card of the trick may be out of sight, while others of the trick "
                                     "still lie, before the table is asked whether it lies there still (hidden "
                                     "under a card the camera did not take to cover it); a hand over the pile "
                                     "hides it for a moment")
    cover_rest: float = setting(0.5, "seconds something read only timidly must lie still on a card of the trick "
                                     "that went out of sight under it before it is asked as the card thrown on it; "
                                     "so long too before the next card thrown covers it, to be a card of its own")
    ask_support: float = setting(0.85, "a card named with less of the possible votes than this is asked of the "
                                       "table, not recorded: its reads disagreed")
    ask_conf: float = setting(0.6, "a card whose reads naming it were on average less sure than this is asked: "
                                   "votes pile up, so a card read timidly for long enough is named all the same")
    whole_conf: float = setting(0.9, "a card read timidly is recorded all the same where the classifier named it "
                                     "this surely on average off its whole face, and its last min_hits reads in a "
                                     "row saw it whole, nothing on it: on a pile the detector doubts the box, not "
                                     "the card (right timid asks of the tuning hands: 0.92-0.98); such a read "
                                     "counts however low its box")
    firm_for: float = setting(0.3, "seconds a card named only timidly is read on, while it lies in view, before "
                                   "it is asked: a card thrown onto the pile is named from its landing's "
                                   "blurred reads, and those of it lying still are surer")

    def __post_init__(self) -> None:
        if self.min_hits > self.window:
            raise ValueError(f"min_hits ({self.min_hits}) cannot exceed the window ({self.window})")

    def at_fps(self, fps: float) -> TrackerSettings:
        """The same spans of time in frames of a ``fps`` source (a card is seen for 0.2 s, not 4 frames)."""
        if fps <= 0:
            raise ValueError(f"a frame rate must be positive, not {fps}")
        k = fps / REFERENCE_FPS
        scaled = {name: max(low, round(getattr(self, name) * k)) for name, low in _FRAME_COUNTS.items()}
        scaled["min_hits"] = min(scaled["min_hits"], scaled["window"])
        return replace(self, **scaled)


_FRAME_COUNTS = {"window": 2, "min_hits": 2, "edge_hits": 2, "gone_after": 3, "gap_frames": 1}  # field -> fewest frames


TABLE = TrackerSettings()


@dataclass(frozen=True)
class DriftSettings:
    """When zones drawn on a camera picture stop fitting it: the camera was moved or bumped."""

    width: int = setting(320, "pixels across the frame is shrunk to before it is compared: the table's "
                              "edges and objects, not the cards' prints")
    every: float = setting(0.5, "seconds between two comparisons with the picture the zones fit")
    features: int = setting(600, "ORB keypoints looked for in each picture")
    min_inliers: int = setting(25, "matches the fitted move needs before it says anything; a plain cloth "
                                   "with fewer says nothing (no warning, never a false one)")
    min_ratio: float = setting(0.7, "share of the matches the fitted move must explain before it says "
                                    "anything: a camera moved takes the whole table along (a median of 0.89 on "
                                    "the tuning hands); a few cards slid together explain about 0.6")
    keep_ratio: float = setting(0.9, "share of the matches explained before a picture is kept to compare with: "
                                     "a kept picture's move is carried into every later one")
    renew_inliers: int = setting(60, "matches with which a picture that still fits is kept to compare with: "
                                     "the cards laid since then match it")
    keep_every: float = setting(2.0, "seconds at least between two pictures kept")
    keep: int = setting(8, "pictures kept besides the first (the newest): about a trick's worth of scenes")
    moved: float = setting(0.03, "a zone corner moved by this share of the frame's diagonal or more is off: "
                                 "about a third of a card's width at the usual distance")
    persist: int = setting(3, "comparisons in a row that must find the move: a hand or a card lifted over "
                              "the table for a moment is no moved camera")


DRIFT = DriftSettings()

