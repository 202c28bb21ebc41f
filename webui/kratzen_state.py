"""What the page shows of an evening of Kratzen, computed from its session, as ``state.py`` does for
Chratze: the phase and whose turn it is, what may be tapped now, the tricks, the pot and the money.
Kratzen is tapped in: the camera referees Chratze only."""

from __future__ import annotations

from typing import Any

from engine.cards import SUITS
from engine.kratzen import TELL_SUIT_NAMES
from engine.kratzen_hand import KratzenHand
from engine.kratzen_session import KratzenSession
from engine.reasons import IllegalEvent


def kratzen_state(session: KratzenSession, version: int, camera: dict[str, Any] | None = None,
                  notices: list | None = None) -> dict[str, Any]:
    hand = session.current
    return {
        "version": version,
        "ruleset": "kratzen",
        "hands_played": len(session.hands),
        "pot": session.pot,
        "next_is_muss": session.next_is_muss,
        "rules": session.rules.to_dict(),
        "balances": session.balances,
        "settle_up": [p.to_dict() for p in session.settle_up()],
        "next_dealer": _next_dealer(session),
        "hand": hand_view(hand, len(session.hands)) if hand else None,
        "camera": camera,
        "notices": list(notices or []),
    }


def _next_dealer(session: KratzenSession) -> str | None:
    try:
        return session.next_hand().dealer
    except IllegalEvent:  # no hand yet: the first dealer is the first seat given
        return None


def hand_view(hand: KratzenHand, number: int) -> dict[str, Any]:
    trump = SUITS[hand.trump] if hand.trump is not None else None
    done = hand.phase == "done"
    s = hand.settlement() if done else None
    return {
        "number": number,
        "seats": list(hand.seats),
        "dealer": hand.seats[hand.dealer],
        "muss": hand.muss,
        "phase": hand.phase,
        "pot": hand.pot,
        "paid": dict(zip(hand.seats, hand.paid)),
        "upcards": [c.code for c in hand.upcards],
        "trump": trump,
        "trump_name": TELL_SUIT_NAMES[trump] if trump else None,
        "seven_muss": hand.seven_muss,
        "contract": hand.contract,
        "striker": hand.seats[hand.striker] if hand.striker is not None else None,
        "active": [hand.seats[q] for q in range(hand.n) if hand.active[q]],
        "stock": hand.stock,
        "tricks": [_trick(hand, t, k + 1, w) for k, (t, w) in enumerate(zip(hand.tricks, hand.winners()))],
        "current_trick": _trick(hand, hand.trick, len(hand.tricks) + 1) if hand.phase == "play" else None,
        "targets": _targets(hand),
        "flags": [{"player": hand.seats[p], "trick": t, "text": text} for (p, t), text in hand.flags.items()],
        "result": hand.result,
        "settlement": {"payouts": s.payouts, "penalties": s.penalties, "carried_out": s.carried_out} if s else None,
        "actions": _actions(hand),
    }


def _trick(hand: KratzenHand, plays: list, number: int, winner: int | None = None) -> dict[str, Any]:
    """A trick's cards and, once it is played out, its winner (None for the trick in progress)."""
    cards = [{"player": hand.seats[x.player], "card": x.card.code} for x in plays]
    return {"number": number, "cards": cards, "winner": hand.seats[winner] if winner is not None else None}


def _targets(hand: KratzenHand) -> list[dict[str, Any]]:
    """Tricks needed: the striker two, everyone else who plays one (everyone one in a Siebenermuss)."""
    out = []
    for q in range(hand.n):
        if not hand.active[q]:
            continue
        target = 2 if q == hand.striker and not hand.seven_muss else 1
        out.append({"player": hand.seats[q], "won": hand.tricks_won[q], "target": target})
    return out


def _actions(hand: KratzenHand) -> dict[str, Any]:
    """What the page may tap now, and for whom (the engine still refuses what cannot happen)."""
    phase, seats = hand.phase, hand.seats
    if phase == "cut":
        return {"cut": True}
    if phase in ("deal", "oder", "weiter_oder"):
        return {"upcard": hand.stock > 0}
    turn = hand.whose_turn()
    if phase == "contract":
        return {"bid": {"player": seats[turn], "choices": [*reversed(hand.outbidding()), "weiter"]}}
    if phase == "join":
        return {"bid": {"player": seats[turn], "choices": ["mitgehen", "verzichten"]}}
    if phase == "exchange" and hand.shown_by:
        return {"show": {"player": seats[turn], "count": hand.shown_by[turn]}}
    if phase == "exchange":
        return {"exchange": {"player": seats[turn], "max": min(4, hand.stock)}}
    if phase == "play":
        return {"play": seats[turn] if turn is not None else None}
    return {}
