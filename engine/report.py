"""What a session's record says, hand by hand: the data behind ``chratze replay`` and the page."""

from __future__ import annotations

from typing import Any

from .cards import FRENCH_SUIT_NAMES, SUITS
from .hand import Hand
from .kratzen import TELL_SUIT_NAMES
from .kratzen_hand import KratzenHand
from .kratzen_session import KratzenSession
from .session import Session
from .settlement import Settlement


def hand_summary(hand: Hand, settlement: Settlement) -> dict[str, Any]:
    name = hand.seats
    return {
        "hand": hand.number,
        "seats": list(name),
        "dealer": name[hand.dealer],
        "upcards": [c.code for c in hand.upcards],
        "trump": SUITS[hand.trump] if hand.trump is not None else None,
        "blind": hand.blind,
        "chratzer": name[hand.chratzer] if hand.chratzer is not None else None,
        "active": [name[q] for q in range(hand.n) if hand.active[q]],
        "phase": hand.phase,
        "result": hand.result,
        "tricks": [
            {"number": t.number, "leader": name[t.leader],
             "cards": [{"player": name[x.player], "card": x.card.code} for x in t.plays],
             "winner": name[t.winner] if t.winner is not None else None}
            for t in hand.tricks
        ],
        "tricks_won": {name[q]: hand.tricks_won[q] for q in range(hand.n) if hand.active[q]},
        "flags": [f.to_dict() for f in hand.flags.values()],
        "settlement": settlement.to_dict(),
    }


def kratzen_hand_summary(hand: KratzenHand, number: int) -> dict[str, Any]:
    name, s = hand.seats, hand.settlement()
    return {
        "ruleset": "kratzen", "hand": number, "seats": list(name), "dealer": name[hand.dealer], "muss": hand.muss,
        "upcards": [c.code for c in hand.upcards], "trump": SUITS[hand.trump] if hand.trump is not None else None,
        "contract": hand.contract, "striker": name[hand.striker] if hand.striker is not None else None,
        "seven_muss": hand.seven_muss, "active": [name[q] for q in range(hand.n) if hand.active[q]],
        "phase": hand.phase, "result": hand.result,
        "tricks": [{"number": k + 1, "cards": [{"player": name[x.player], "card": x.card.code} for x in t],
                    "winner": name[w]} for k, (t, w) in enumerate(zip(hand.tricks, hand.winners()))],
        "tricks_won": {name[q]: hand.tricks_won[q] for q in range(hand.n) if hand.active[q]},
        "flags": list(hand.flags.values()),
        "settlement": {"pot": hand.pot, "antes": {name[q]: v for q, v in enumerate(hand.paid) if v},
                       "payouts": s.payouts, "penalties": s.penalties, "carried_out": s.carried_out},
    }


def session_summary(session: Session | KratzenSession) -> dict[str, Any]:
    if isinstance(session, KratzenSession):
        return {"ruleset": "kratzen", "rules": session.rules.to_dict(),
                "hands": [kratzen_hand_summary(h, k + 1) for k, h in enumerate(session.hands)],
                "pot": session.pot, "next_ante": session.rules.ante, "next_muss": session.next_is_muss,
                "balances": session.balances, "settle_up": [p.to_dict() for p in session.settle_up()]}
    hands = [hand_summary(h, s) for h, s in zip(session.hands, session.settlements())]
    return {
        "rules": session.rules.to_dict(),
        "hands": hands,
        "pot": session.pot,
        "next_ante": session.ante_due(),
        "balances": session.balances,
        "settle_up": [p.to_dict() for p in session.settle_up()],
    }


def money(rappen: int) -> str:
    """Francs with two decimals from integer Rappen, e.g. 220 -> '2.20'."""
    sign = "-" if rappen < 0 else ""
    return f"{sign}{abs(rappen) // 100}.{abs(rappen) % 100:02d}"


def format_text(summary: dict[str, Any]) -> str:
    out: list[str] = []
    for h in summary["hands"]:
        out.extend(_hand_lines(h))
        out.append("")
    if summary.get("ruleset") == "kratzen":
        nxt = ("a Muss: everyone antes " + money(summary["next_ante"]) + ", the dealer double") \
            if summary["next_muss"] else f"the dealer antes {money(summary['next_ante'])}"
        out.append(f"Pot now: {money(summary['pot'])} (next hand {nxt})")
    else:
        out.append(f"Pot now: {money(summary['pot'])} (next ante {money(summary['next_ante'])} each)")
    out.append("Balances: " + ", ".join(f"{k} {money(v)}" for k, v in summary["balances"].items()))
    if summary["settle_up"]:
        out.append("Settle-up: " + "; ".join(
            f"{p['payer']} pays {p['payee']} {money(p['amount'])}" for p in summary["settle_up"]))
    return "\n".join(out)


def _kratzen_lines(h: dict[str, Any]) -> list[str]:
    s = h["settlement"]
    trump = TELL_SUIT_NAMES.get(h["trump"], "-") if h["trump"] else "-"
    kind = "Muss" if h["muss"] else ("Siebenermuss" if h["seven_muss"] else (h["contract"] or "no contract"))
    lines = [f"Hand {h['hand']} (Kratzen, {kind}): dealer {h['dealer']}, upcard {' '.join(h['upcards']) or '-'} "
             f"(trump {trump}), pot {money(s['pot'])}"]
    if h["striker"]:
        lines.append(f"  Striker {h['striker']}; playing: {', '.join(h['active'])}")
    lines += _trick_lines(h)
    for f in h["flags"]:
        lines.append(f"  FLAG {f}")
    lines.append(f"  Result: {h['result'] or h['phase']}")
    return lines + _money_lines(s)


def _hand_lines(h: dict[str, Any]) -> list[str]:
    if h.get("ruleset") == "kratzen":
        return _kratzen_lines(h)
    s = h["settlement"]
    trump = FRENCH_SUIT_NAMES.get(h["trump"], "-") if h["trump"] else "-"
    lines = [f"Hand {h['hand']}: dealer {h['dealer']}, upcard {' '.join(h['upcards']) or '-'} "
             f"(trump {trump}), pot {money(s['pot'])}"]
    if h["chratzer"]:
        blind = f" ({h['blind'].replace('_', ' ')})" if h["blind"] else ""
        lines.append(f"  Chratzer {h['chratzer']}{blind}; playing: {', '.join(h['active'])}")
    lines += _trick_lines(h)
    if h["tricks"]:
        lines.append("  Tricks: " + ", ".join(f"{k} {v}" for k, v in h["tricks_won"].items()))
    for f in h["flags"]:
        lines.append(f"  FLAG trick {f['trick']} {f['player']} {f['card']}: {f['rule']} ({f['text']}); "
                     f"evidence: {'; '.join(f['evidence'])} [{f['status']}]")
    lines.append(f"  Result: {_outcome(h, s)}")
    return lines + _money_lines(s)


def _trick_lines(h: dict[str, Any]) -> list[str]:
    """Each trick of a hand, either game: who played which card, and who took it."""
    return [f"  Trick {t['number']}: " + " ".join(f"{c['player']}:{c['card']}" for c in t["cards"])
            + f" -> {t['winner']}" for t in h["tricks"]]


def _money_lines(s: dict[str, Any]) -> list[str]:
    """A hand's payouts, penalties and the pot it leaves, either game."""
    lines = []
    if s["payouts"]:
        lines.append("  Payouts: " + ", ".join(f"{k} {money(v)}" for k, v in s["payouts"].items()))
    if s["penalties"]:
        lines.append("  Penalties: " + ", ".join(f"{k} {money(v)}" for k, v in s["penalties"].items()))
    return lines + [f"  Pot carried out: {money(s['carried_out'])}"]


def _outcome(h: dict[str, Any], s: dict[str, Any]) -> str:
    if s["outcome"] == "susi":
        return f"nobody came along: {h['chratzer']} takes the pot ({s['susi']} is the Susi)"
    if s["outcome"] == "passed_out":
        return "nobody chratzed: the pot stays and the dealer deals again"
    if s["outcome"] in ("open", "abandoned"):
        return f"hand {s['outcome']} ({h['phase']})"
    made = ", ".join(s["winners"]) or "nobody"
    return f"made their tricks: {made}; failed: {', '.join(s['failed']) or 'nobody'}"
