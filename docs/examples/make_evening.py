"""Writes docs/examples/evening.json: a hand-written evening (run from the repo root)."""
from engine import *
from engine import history
S = ("Anna", "Beat", "Cla", "Doris", "Erich")
s = Session(HouseRules(), meta={"table": "Stammtisch Löwen", "date": "2026-11-20"})
def bids(*pairs):
    for p in pairs:
        n, b = p.split(); s.record(BidMade(n, b))
def plays(txt):
    out=[]
    for part in txt.split():
        n, c = part.split(":"); out.append(s.record(CardPlayed(n, card(c))))
    return out
# Hand 1: the worked example of RULES.md §4 (Beat chratzes, makes 1; Cla, Doris make theirs; Erich none)
s.record(s.next_hand(S, "Anna", at="2026-11-20T19:30:00"))
s.record(UpcardShown(card("Kc")))
bids("Beat chratze", "Cla metcho", "Doris metcho", "Erich metcho", "Anna weg")
for n, k in [("Beat", 2), ("Cla", 1), ("Doris", 4), ("Erich", 0)]: s.record(Exchanged(n, k))
plays("Beat:Ah Cla:9h Doris:6h Erich:Th")          # Beat wins
plays("Beat:Ks Cla:7s Doris:Qc Erich:8s")          # Doris trumps
plays("Doris:Ad Erich:Kd Beat:7d Cla:Jd")          # Doris
plays("Doris:9d Erich:Td Beat:8d Cla:Ac")          # Cla trumps -> Cla 1, Doris 2, Beat 1, Erich 0
# Hand 2: nobody chratzes twice, then Cla chratzes on the third upcard; a misread card corrected;
# Erich revokes (proven later)
s.record(s.next_hand())
s.record(UpcardShown(card("7d"))); bids("Cla weg", "Doris weg", "Erich weg", "Anna weg", "Beat weg")
s.record(UpcardShown(card("Jh"))); bids("Cla weg", "Doris weg", "Erich weg", "Anna weg", "Beat weg")
s.record(UpcardShown(card("9s"))); bids("Cla chratze", "Doris weg", "Erich metcho", "Anna metcho", "Beat weg")
for n, k in [("Cla", 3), ("Erich", 1), ("Anna", 0)]: s.record(Exchanged(n, k))
s.record(TrumpSixSwapped("Anna"))
p = plays("Cla:Ac Erich:Kd Anna:8c")                # Erich does not follow clubs
s.record(CardCorrected(p[2], card("9c")))           # the camera read 8c, it was 9c
plays("Cla:As Erich:Ts Anna:9s")                    # trump lead: Cla's ace
plays("Cla:Qh Erich:Jc Anna:Kh")                    # Erich plays a club: proves the revoke of trick 1
plays("Anna:7c Cla:Qc Erich:6h")
# Hand 3: Susi: Doris chratzes, nobody comes along
s.record(s.next_hand())
s.record(UpcardShown(card("Ad"))); bids("Doris chratze", "Erich weg", "Anna weg", "Beat weg", "Cla weg")
# Hand 4: Doris (dealer) plays blind; a mistaken tap undone
s.record(s.next_hand())
s.record(UpcardShown(card("Ah")))
s.record(BidMade("Doris", "blind"))
bids("Erich metcho", "Anna weg")
s.undo()
bids("Anna metcho", "Beat weg", "Cla weg")
for n, k in [("Doris", 2), ("Erich", 1), ("Anna", 4)]: s.record(Exchanged(n, k))
plays("Doris:Kh Erich:6h Anna:9h")
plays("Doris:Ac Erich:Tc Anna:7c")
plays("Doris:Qs Erich:Ks Anna:6s")
plays("Erich:Kd Anna:Qd Doris:8d")
open("docs/examples/evening.json","w").write(history.dumps(s))
from engine.report import *
print(format_text(session_summary(s)))
