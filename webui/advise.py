"""The advisor for a player's own phone: their cards in, the odds of each choice out. Nothing of it is
stored or sent to the table's page (no state, no event): it is a question, not a record."""

from __future__ import annotations

import threading

from flask import Blueprint, current_app, jsonify, request

from engine.advisor import advise
from engine.cards import CardError, card
from engine.hand import MAX_PLAYERS, MIN_PLAYERS

advisor = Blueprint("advisor", __name__)
_ONE_AT_A_TIME = threading.Lock()  # an answer takes most of a core for a second


@advisor.get("/api/advise")
def answer():
    """``?trump=Kh&hand=As,9s,Jh,7c&seat=2&players=4[&pot=120]``, under the table's house rules."""
    a = request.args
    try:
        hand = [card(c) for c in a.get("hand", "").replace(",", " ").split()]
        up = card(a.get("trump", ""))
        players, seat, pot = int(a.get("players", "4")), int(a.get("seat", "")), int(a.get("pot") or 0)
    except (CardError, ValueError) as exc:
        return jsonify(error=f"ask as ?trump=Kh&hand=As,9s,Jh,7c&seat=2&players=4: {exc}", code="advise_bad"), 400
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        return jsonify(error=f"{MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}", code="advise_bad"), 400
    rules = current_app.extensions["table"].session.rules
    try:
        with _ONE_AT_A_TIME:
            advice = advise(hand, up, seat, players, max(0, pot - rules.ante * players), rules)
    except ValueError as exc:
        return jsonify(error=str(exc), code="advise_bad"), 400
    return jsonify(advice.to_dict())
