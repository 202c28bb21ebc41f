"""Did the live table record the hand the cards really made? (tests and benchmarks)"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.events import CardPlayed, Event, UpcardShown
from engine.hand import Hand
from engine.kratzen_hand import KratzenHand
from engine.kratzen_session import KratzenSession
from engine.rules import HouseRules
from engine.session import Session
from engine.settlement import settle


@dataclass
class Check:
    same_result: bool  # trick winners, flags and pot as the record's
    wrong_card_events: int  # camera events naming a card or player the record does not have there
    missed: int  # visible events of the record never recorded
    details: list[str] = field(default_factory=list)


def outcome(hand: Hand | KratzenHand) -> dict:
    if isinstance(hand, KratzenHand):
        s = hand.settlement()
        return {"winners": [hand.seats[w] for w in hand.winners()], "flags": sorted(hand.flags.items()),
                "pot": s.carried_out, "payouts": dict(s.payouts), "penalties": dict(s.penalties),
                "result": hand.result}
    s = settle(hand)
    return {"winners": [hand.seats[t.winner] for t in hand.tricks],
            "flags": sorted((f.rule, f.player, f.trick, f.card, f.status)
                            for f in hand.flags.values()),
            "pot": s.carried_out, "payouts": dict(s.payouts), "penalties": dict(s.penalties),
            "result": hand.result}


def visible_events(events: list[Event]) -> list[tuple[str, str | None, str]]:
    return [(ev.type, getattr(ev, "player", None), ev.card.code)
            for ev in events if isinstance(ev, (UpcardShown, CardPlayed))]


def true_session(events: list[Event], rules: HouseRules | None = None) -> Session:
    """A fresh evening holding the one hand ``events`` (``HandStarted`` first), ante and pot as a fresh
    table has them."""
    session = Session(rules)
    start = events[0]
    session.record(session.next_hand(start.seats, start.dealer))
    for ev in events[1:]:
        session.record(ev)
    return session


def check_hand(record: list[Event], session: Session | KratzenSession, rules=None) -> Check:
    """Compare the hand the watcher recorded (the session's last hand) with the true record. A hand of
    Kratzen is compared within its evening: the hands before it say whether it is a Muss, and its pot."""
    if isinstance(session, KratzenSession):
        before = [ev for h in session.hands[:-1] for ev in h.events]
        want = KratzenSession(rules or session.rules, events=[*before, *record], opening_pot=session.opening_pot).current
    else:
        want = true_session(record, rules or session.rules).current
    got = session.current
    if got is None:
        return Check(False, 0, len(visible_events(want.events)), ["nothing was recorded"])
    w_ev, g_ev = visible_events(want.events), visible_events(got.events)
    wrong = sum(1 for a, b in zip(w_ev, g_ev) if a != b) + max(0, len(g_ev) - len(w_ev))
    details = [f"event {i}: recorded {b}, true {a}" for i, (a, b) in enumerate(zip(w_ev, g_ev)) if a != b]
    ow, og = outcome(want), outcome(got)
    details += [f"{k}: recorded {og[k]}, true {ow[k]}" for k in ow if ow[k] != og[k]]
    return Check(ow == og, wrong, max(0, len(w_ev) - len(g_ev)), details)
