"""The live table referees Kratzen (docs/kratzen.md): the camera records the cards turned and the cards
played; the cut, the contracts, play or drop and the exchange are tapped. Reads are scripted here (no
networks): a card lies at a spot, and the camera reads it there frame after frame."""

from __future__ import annotations

from engine.cards import card, cards
from engine.events import BidMade, CardCorrected, CardPlayed, CutShown, Exchanged, UpcardShown
from engine.kratzen_session import KratzenSession
from tests.reads import R
from vision.table.layout import TableLayout
from vision.table.watch import Watcher

SEATS = ("Anna", "Beat", "Cla")
# where each card lies (x1, y1, x2, y2): two spots on the upcard zone and one per player
SPOT = {"upcard": (260, 200, 320, 290), "upcard2": (330, 200, 390, 290), "Anna": (100, 350, 160, 440),
        "Beat": (100, 40, 160, 130), "Cla": (520, 200, 580, 290)}
ZONES = {"upcard": (240, 180, 410, 310), "Anna": (80, 330, 180, 460), "Beat": (80, 20, 180, 150),
         "Cla": (500, 180, 600, 310)}


def zones() -> TableLayout:
    def poly(b):
        x1, y1, x2, y2 = b
        return [[x1, y1], [x2, y1], [x2, y2], [x1, y2]]
    return TableLayout.from_dict({"zones": {k: poly(v) for k, v in ZONES.items()}})


def anna_takes_every_trick_of_the_muss() -> list:
    """The first hand, a Muss dealt by Anna, in which Beat and Cla take no trick: they pay, so the next
    hand is no Muss (its contracts are chosen)."""
    s = KratzenSession()
    s.record(s.next_hand(SEATS, "Anna"))
    s.record(CutShown((card("9s"),)))
    s.record(UpcardShown(card("Kh")))
    for lead, beat, cla in (("Ah", "7s", "7c"), ("6d", "8s", "8c"), ("Kh", "9s", "9c"), ("Qh", "Ts", "Tc")):
        for p, c in zip(SEATS, (lead, beat, cla)):
            s.record(CardPlayed(p, card(c)))
    assert not s.next_is_muss
    return s.log


class Table:
    """A session of Kratzen, a watcher, and a camera clock."""

    def __init__(self, layout: TableLayout | None = None, after_muss: bool = False) -> None:
        self.session = KratzenSession(events=anna_takes_every_trick_of_the_muss() if after_muss else ())
        self.watcher = Watcher(self.session, layout)
        self.lying: dict[str, tuple] = {}  # card -> box, what the camera sees now
        self.t = 0.0
        self.notices: list = []

    def start(self) -> None:
        self.tap(self.session.next_hand(SEATS, "Anna" if not self.session.hands else None))

    def tap(self, ev) -> None:
        self.notices += self.watcher.tap(ev)[1]

    def frames(self, n: int = 8, extra: list | None = None) -> None:
        for _ in range(n):
            reads = [R(c, b) for c, b in self.lying.items()] + list(extra or [])
            self.notices += self.watcher.reads(reads, self.t)
            self.t += 0.05

    def lay(self, code: str, at: str, n: int = 8) -> None:
        self.lying[code] = SPOT[at]
        self.frames(n)

    def take(self, *codes: str) -> None:
        for c in codes:
            self.lying.pop(c)
        self.frames(16)

    @property
    def hand(self):
        return self.session.current

    def played(self) -> list[tuple[str, str]]:
        return [(self.hand.seats[p.player], p.card.code) for t in [*self.hand.tricks, self.hand.trick] for p in t]

    def to_play(self, upcard: str = "Kc", along: str = "mitgehen") -> None:
        """The hand after the Muss: Beat deals and strikes (Schlagen), Cla and Anna say ``along``, nobody buys."""
        self.start()
        self.tap(CutShown((card("9s"),)))
        self.lay(upcard, "upcard")
        self.tap(BidMade("Beat", "schlagen"))
        for p in ("Cla", "Anna"):
            self.tap(BidMade(p, "weiter"))
        for p in ("Cla", "Anna"):
            self.tap(BidMade(p, along))
        while self.hand.phase == "exchange":
            self.tap(Exchanged(self.hand.seats[self.hand.whose_turn()], 0))
        self.take(upcard)  # the dealer takes the upcard up before the play


def test_a_card_laid_before_the_cut_waits_for_the_cut():
    t = Table()
    t.start()
    t.lay("Kh", "upcard")
    assert t.hand.upcards == [] and "tap in the cut" in t.watcher.status()["reason"]
    t.tap(CutShown((card("9s"),)))
    assert t.hand.upcards == [card("Kh")]


def test_the_card_turned_after_the_cut_is_the_upcard_and_the_muss_is_played_at_once():
    t = Table()
    t.start()
    t.tap(CutShown((card("9s"),)))
    t.lay("Kh", "upcard")
    assert t.hand.upcards == [card("Kh")] and t.hand.phase == "play"
    assert t.hand.events[-1].meta["source"] == "camera"


def test_a_weli_turned_is_the_dealers_and_the_next_card_turned_decides_the_trump():
    t = Table()
    t.start()
    t.tap(CutShown((card("9s"),)))
    t.lay("6d", "upcard")
    t.lay("Ac", "upcard2")
    assert t.hand.upcards == cards("6d Ac") and t.hand.trump == card("Ac").suit


def test_a_card_laid_during_the_contracts_waits_for_them():
    t = Table(zones(), after_muss=True)
    t.start()
    t.tap(CutShown((card("9s"),)))
    t.lay("Kc", "upcard")
    assert t.hand.phase == "contract"
    t.lay("9c", "Cla")
    assert "tap in the contracts" in t.watcher.status()["reason"] and t.hand.trick == []


def test_the_cards_oder_turns_are_upcards_until_one_of_another_suit():
    t = Table(zones(), after_muss=True)
    t.start()
    t.tap(CutShown((card("9s"),)))
    t.lay("Kc", "upcard")
    t.tap(BidMade("Beat", "oder"))
    t.tap(BidMade("Cla", "weiter"))
    t.tap(BidMade("Anna", "weiter"))
    t.lay("7c", "upcard2")  # the same suit: Oder turns on
    assert t.hand.phase == "oder"
    t.take("Kc")
    t.lay("Jh", "upcard")
    assert t.hand.upcards == cards("Kc 7c Jh") and t.hand.trump == card("Jh").suit and t.hand.phase == "join"


def test_with_zones_a_card_is_played_by_the_player_at_whose_place_it_lies():
    t = Table(zones(), after_muss=True)
    t.to_play()
    t.lay("9h", "Beat")  # the striker leads
    t.lay("Th", "Cla")
    assert t.played() == [("Beat", "9h"), ("Cla", "Th")]


def test_without_zones_a_card_belongs_to_whoever_is_to_play_and_a_player_who_dropped_plays_none():
    t = Table(after_muss=True)
    t.start()
    t.tap(CutShown((card("9s"),)))
    t.lay("Kc", "upcard")
    for p, b in (("Beat", "schlagen"), ("Cla", "weiter"), ("Anna", "weiter"), ("Cla", "verzichten"),
                 ("Anna", "mitgehen")):
        t.tap(BidMade(p, b))
    t.tap(Exchanged("Beat", 0))
    t.tap(Exchanged("Anna", 0))
    t.take("Kc")
    t.lay("9h", "Beat")
    t.lay("Th", "Cla")  # lies in front of Cla, who dropped: Anna is the next to play
    assert t.played() == [("Beat", "9h"), ("Anna", "Th")]


def test_a_six_other_than_the_weli_is_no_card_of_the_pack_and_is_asked_not_recorded():
    t = Table(zones())
    t.start()
    t.tap(CutShown((card("9s"),)))
    t.lay("Kh", "upcard")
    six = R("6h", SPOT["Anna"], alternatives=[("6d", 0.3)])  # read as a Six the Tell pack does not hold
    t.frames(40, extra=[six])
    assert t.played() == []
    (ask,) = t.watcher.asks.values()
    assert ask.player == "Anna" and ask.choices[0][0] == "6d"
    assert ask.why == "it was read as 6h, which cannot be new here (no card of this pack); 6d is only its next read"
    t.watcher.answer(ask.id, "6d")
    assert t.played() == [("Anna", "6d")]


def test_a_turned_card_seen_again_before_the_play_is_no_new_card():
    t = Table(zones(), after_muss=True)
    t.start()
    t.tap(CutShown((card("9s"),)))
    t.lay("Kc", "upcard")
    t.take("Kc")  # a hand passes over it: the camera loses it ...
    t.lay("Kc", "upcard")  # ... and finds it again, a new track
    assert t.hand.upcards == [card("Kc")] and t.watcher.status()["state"] == "watching"


def test_a_card_on_the_upcard_spot_during_the_play_is_no_play():
    t = Table(zones(), after_muss=True)
    t.to_play()
    t.lay("Qc", "upcard")
    assert t.played() == [] and "upcard spot" in t.watcher.status()["reason"]


def test_a_trick_is_gathered_by_the_player_the_kratzen_rules_make_its_winner():
    t = Table(zones(), after_muss=True)
    t.to_play(upcard="Kc")  # clubs are trump
    t.lay("As", "Beat")
    t.lay("6d", "Cla")  # the Weli: always a trump, below the trump Sau only
    t.lay("Ks", "Anna")
    t.take("As", "6d", "Ks")
    gathered = [n for n in t.notices if n.kind == "gathered"]
    assert [n.data["winner"] for n in gathered] == ["Cla"]


def test_a_play_read_anew_as_another_card_corrects_the_play_and_is_no_second_play():
    t = Table(zones(), after_muss=True)
    t.to_play()
    t.lay("9h", "Beat")
    t.lying.pop("9h")
    t.lying["8h"] = SPOT["Beat"]  # the same card lying still, now read as the 8h in every frame
    t.frames(60)
    assert t.played() == [("Beat", "8h")]
    assert any(isinstance(ev, CardCorrected) for ev in t.session.log)


def test_a_camera_joining_after_the_muss_does_not_announce_its_tricks_again():
    t = Table(zones(), after_muss=True)
    t.frames(4)
    assert [n for n in t.notices if n.kind == "gathered"] == []
