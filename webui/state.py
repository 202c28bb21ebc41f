"""What the page shows, as one JSON document computed from the session (and the camera).

The page never works anything out itself: whose turn, which bids may be tapped, how many tricks
each player still needs, the provisional settlement, all come from the engine here.
"""

from __future__ import annotations

from typing import Any

from engine.cards import FRENCH_SUIT_NAMES, SUITS
from engine.events import BidMade, CardCorrected, Exchanged, TrumpSixSwapped
from engine.hand import Hand
from engine.report import hand_summary
from engine.rules import NO_BID_PROCEDURES, SPLITS
from engine.session import Session

BID_ORDER = ("chratze", "metcho", "weg", "blind", "double_blind")


def table_state(session: Session, version: int, camera: dict[str, Any] | None = None,
                notices: list | None = None) -> dict[str, Any]:
    hand = session.current
    return {
        "version": version,
        "hands_played": len(session.hands),
        "pot": session.pot,
        "next_ante": session.ante_due(),
        "rules": session.rules.to_dict(),
        "rule_choices": {"split": list(SPLITS), "no_bid": list(NO_BID_PROCEDURES)},  # the setup page's lists
        "balances": session.balances,
        "settle_up": [p.to_dict() for p in session.settle_up()],
        "next_dealer": session.next_dealer(),
        "hand": hand_view(session, hand) if hand else None,
        "flagged_hands": [{"hand": h.number, "flags": len(h.flags),
                           "open": sum(f.status == "open" for f in h.flags.values())}
                          for h in session.hands if h.flags],  # the review's list; each read at /api/hand/N
        "camera": camera,
        "notices": list(notices or []),
    }


def hand_view(session: Session, hand: Hand) -> dict[str, Any]:
    s = session.settlements()[hand.number - 1]  # an earlier hand's as closed (abandoned, or ruled on since)
    view = hand_summary(hand, s)
    positions = session.positions[hand.number - 1]
    turn = hand.whose_turn()
    view.update({
        "trump_name": FRENCH_SUIT_NAMES[SUITS[hand.trump]] if hand.trump is not None else None,
        "turn": hand.seats[turn] if turn is not None and hand.phase != "done" else None,
        "current_trick": _trick(hand, positions),
        "targets": [{"player": hand.seats[q], "won": hand.tricks_won[q], "target": hand.target(q),
                     "active": hand.active[q], "made": hand.made_contract(q)} for q in range(hand.n)],
        "upcard_positions": [positions[i] for i, ev in enumerate(hand.events) if ev.type == "upcard"],
        "actions": _actions(hand, turn),
        "play_positions": {p.card.code: positions[p.position] for p in
                           [x for t in hand.tricks for x in t.plays] + (hand.trick.plays if hand.trick else [])},
        "snapshots": {ev.card.code: ev.meta["snapshot"] for ev in hand.events
                      if ev.type == "play" and ev.meta and ev.meta.get("snapshot")},
        "proof_snapshots": {f.id: shot for f in hand.flags.values() if (shot := _snapshot(hand, f.raised_at))},
        "said": _said(session, hand, positions),
        "held_up": _held_up(hand, positions),
    })
    return view


def _held_up(hand: Hand, positions: list[int]) -> dict[str, Any] | None:
    """The early card the hand waits on, and its log position for the page's "take it now" (a move)."""
    play = hand.held_up()
    if play is None:
        return None
    return {"player": hand.seats[play.player], "card": play.card.code, "laid_in": play.trick,
            "trick": hand.trick.number if hand.trick else 1, "position": positions[play.position]}


def _said(session: Session, hand: Hand, positions: list[int]) -> dict[str, dict[str, str]]:
    """Each play whose record rests on a person's word, not the camera's alone, for the review's evidence:
    ``by`` table (named in answer to the camera's question) or tablet (tapped or corrected by hand), from its
    latest correction where it has one; ``turn``: the player the table said had laid no card, so this one was
    played out of turn."""
    fixes = {ev.target: ev for ev in session.log if isinstance(ev, CardCorrected)}  # the latest of each
    out: dict[str, dict[str, str]] = {}
    for ev, pos in zip(hand.events, positions):
        if ev.type != "play":
            continue
        said: dict[str, str] = {}
        source = ((fixes.get(pos) or ev).meta or {}).get("source")
        if source in ("table", "camera+table", "tablet"):
            said["by"] = "tablet" if source == "tablet" else "table"
        told = (ev.meta or {}).get("out_of_turn")
        if isinstance(told, dict) and told.get("turn"):
            said["turn"] = str(told["turn"])
        if said:
            out[ev.card.code] = said
    return out


def _snapshot(hand: Hand, position: int) -> str | None:
    """The camera picture of the event at ``position`` in the hand (the play that proved a flag)."""
    if not 0 <= position < len(hand.events):
        return None
    meta = hand.events[position].meta or {}
    return meta.get("snapshot")


def _trick(hand: Hand, positions: list[int]) -> dict[str, Any] | None:
    trick = hand.trick
    if trick is None:
        return None
    return {"number": trick.number, "leader": hand.seats[trick.leader],
            "expected": [hand.seats[q] for q in trick.expected],
            "cards": [{"player": hand.seats[p.player], "card": p.card.code, "position": positions[p.position]}
                      for p in trick.plays]}


def _actions(hand: Hand, turn: int | None) -> dict[str, Any]:
    """What can be tapped now, asked of the engine (a refused event names its reason)."""
    out: dict[str, Any] = {"bids": {}, "exchange": None}
    if hand.phase == "done":
        return out
    candidates = {hand.seats[hand.dealer]} | ({hand.seats[turn]} if turn is not None else set())
    for name in candidates:
        allowed = [b for b in BID_ORDER if hand.refusal(BidMade(name, b)) is None]
        if allowed:
            out["bids"][name] = allowed
    if hand.phase == "exchange" and turn is not None and hand.exchange_pos < len(hand.exchange_order):
        out["exchange"] = {"player": hand.seats[turn], "max": hand.held[turn]}
        if hand.refusal(Exchanged(hand.seats[turn], 0)) is not None:
            out["exchange"] = None
    out["swap"] = [name for q, name in enumerate(hand.seats)
                   if hand.active[q] and hand.refusal(TrumpSixSwapped(name)) is None]
    return out
