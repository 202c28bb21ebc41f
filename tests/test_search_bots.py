"""The search bots (engine.search for Chratze, engine.kratzen_search for Kratzen): they start from the
heuristic bot's choice, leave it only for one that played out better, and their hands are refereed
like anyone's. Whether they are better is measured by benchmarks/bots.py, not here."""

import math
import random

import numpy as np

from engine.cards import card
from engine.bot_evening import play_session
from engine.kratzen_search import SearchPlayer
from engine.kratzen_play import HeuristicPlayer
from engine.kratzen_simulate import simulate_kratzen
from engine.search import candidates, choose
from engine.rules import HouseRules
from engine.session import Session
from engine.simulate import NAMES


def idx(codes: str) -> tuple[int, ...]:
    return tuple(card(c).index for c in codes.split())


def test_the_heuristic_bots_choice_is_the_first_candidate_and_every_plain_lay_follows():
    cands = candidates(idx("Ah Kh 7s 6c"), card("9h").index)
    assert cands[0] == (True, True, idx("7s 6c"))  # two trumps, one high: chratze, come along, lay the low ones
    assert len(cands) == 4 * 4 and len(set(cands)) == len(cands)  # (bid, join) x the 4 lays of 7s and 6c


def test_the_search_bot_keeps_the_heuristic_choice_unless_another_did_better_by_z_standard_errors():
    cards, up = idx("6s 7s 6c 7c"), card("9h").index
    rng = np.random.default_rng(3)
    assert choose(cards, up, 1, 4, HouseRules(), rng, tries=200, z=math.inf) == candidates(cards, up)[0]


def test_a_table_with_the_chratze_search_bot_is_refereed_and_conserves_money():
    session = play_session(np.random.default_rng(2), 6, Session(), NAMES[:4], "shhr")
    assert len(session.hands) == 6 and not any(h.flags for h in session.hands)
    assert sum(session.balances.values()) + session.pot == 0


def test_the_chratze_search_bot_sits_at_one_seat_at_most():
    try:
        play_session(np.random.default_rng(2), 1, Session(), NAMES[:4], "sshh")
    except ValueError as exc:
        assert "one seat at most" in str(exc)
    else:
        raise AssertionError("two search bots were seated")


def test_kratzen_search_bot_hands_are_refereed_without_a_flag():
    for i in range(12):
        n = 3 + i % 4
        who = [SearchPlayer(tries=8, seed=i) if q == i % n else HeuristicPlayer() for q in range(n)]
        h, _ = simulate_kratzen(random.Random(i), players=n, carried=40, bots=who)
        assert not h.flags and h.phase == "done"


def test_kratzen_search_bot_with_an_endless_z_plays_as_the_heuristic_bot():
    for i in range(6):
        searched, _ = simulate_kratzen(random.Random(i), 4, carried=40,
                                       bots=[SearchPlayer(tries=6, z=math.inf), *[HeuristicPlayer()] * 3])
        plain, _ = simulate_kratzen(random.Random(i), 4, carried=40, bots="hhhh")
        assert searched.events == plain.events


def test_kratzen_search_bot_never_sees_the_table_dice():
    """Its play-outs draw on its own generator: the deals it is dealt are those the table would deal."""
    a, _ = simulate_kratzen(random.Random(7), 4, carried=40, bots=[SearchPlayer(tries=6), *[HeuristicPlayer()] * 3])
    b, _ = simulate_kratzen(random.Random(7), 4, carried=40, bots="hhhh")
    first_bid = next(i for i, ev in enumerate(b.events) if ev.type == "bid")
    assert a.events[:first_bid] == b.events[:first_bid]  # the cut and the cards turned, up to its first choice


def test_simulate_seats_a_search_bot_in_either_game(tmp_path):
    from chratze.cli import main
    from engine import history

    for args in (["--bots", "shhr"], ["--ruleset", "kratzen", "--bots", "shh"]):
        out = tmp_path / "evening.json"
        assert main(["simulate", *args, "--hands", "2", "--out", str(out)]) == 0
        session = history.loads(out.read_text(encoding="utf-8"))
        assert len(session.hands) == 2 and sum(session.balances.values()) + session.pot == 0
