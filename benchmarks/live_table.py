"""End to end on the virtual table: rendered hands refereed from their video.

    python benchmarks/live_table.py --hands 20            # the shipped model, the tuning world
    python benchmarks/live_table.py --world held-out --hands 40 --mix   # held-out: report figures
    python benchmarks/live_table.py --hands 20 --reader truth   # perfect detector, 10 % misreads
    python benchmarks/live_table.py --ruleset kratzen --world held-out --hands 20   # hands of Kratzen
    python benchmarks/live_table.py --prints --mix --hands 20   # tuning world, each pack another print
    python benchmarks/live_table.py --world held-out --hands 40 --mix --workers 8   # hands side by side

Each hand is a random simulated hand (3-6 players, some illegal plays), rendered with a Swiss
pack (French and German in turn) in a world of :mod:`datasets.held_out`: the tuning world (640x480,
20 fps, tilt 0-35 degrees, the scans as they are) or the held-out one (other cloths, sizes, frame
rates, tilts to 40 degrees, webcam JPEG and blur, the pack reprinted); its seeds start at
``HELD_OUT_SEED``. The taps (bids, exchanges) are entered at their moments; the camera's asks are
answered at once (a person would take a second or two): *which card lies there?* with the card rendered
at the question's box, as a person looking answers it; the others from the true record
(:class:`vision.table.virtual.SeenAnswers`). ``--mix``: every
other pair of hands is played into a pile in the middle. ``--ruleset kratzen``: each hand is the second of a
simulated evening of Kratzen (so mostly not a Muss: contracts, Oder, play or drop, the exchange tapped),
played by the heuristic bot and random players in turn, with the 33 cards of the Tell pack read off a
Swiss pack; the camera joins the evening after its first hand. Prints, per hand and in all: whether the
refereed result (trick winners, flags, pot, payouts) equals the record's, wrong card events,
missed events, cards recorded wrong and corrected later (by the camera's own re-read, or by the
table's answer to a question asked after the card was recorded: either way the record held a wrong
card or seat until then), processed frames per second, and the time from a card lying still to its right event (the frames it took,
plus the time to process one frame; a corrected card counts from its correction; a card carried only
a short way is often named before the renderer lays it exactly still, and counts negative).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import fields, replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from chratze.options import model_options, recognizer_from  # noqa: E402
from datasets.art import BACK, SCANNED_PACKS, scanned_pack  # noqa: E402
from datasets.fetched import load as load_fetched  # noqa: E402
from datasets.held_out import HELD_OUT_SEED, TUNING, WORLDS, World  # noqa: E402
from datasets.prints import vary_print  # noqa: E402
from datasets.virtual_table import render_hand, table_events  # noqa: E402
from engine.events import CardCorrected, CardPlayed, UpcardShown  # noqa: E402
from engine.kratzen_hand import KratzenHand  # noqa: E402
from engine.kratzen_session import KratzenSession  # noqa: E402
from engine.kratzen_simulate import simulate_kratzen_session  # noqa: E402
from engine.session import Session, resolve  # noqa: E402
from engine.simulate import simulate_hand  # noqa: E402
from vision.table.answers import RecordAnswers  # noqa: E402
from vision.table.check import check_hand, visible_events  # noqa: E402
from vision.table.layout import TableLayout  # noqa: E402
from vision.table.live import LiveTable, run  # noqa: E402
from vision.table.sources import Frame  # noqa: E402
from vision.table.settings import TABLE, TrackerSettings  # noqa: E402
from vision.table.stable import Stabilizer  # noqa: E402
from vision.table.virtual import SeenAnswers, TruthCamera  # noqa: E402
from vision.table.watch import Watcher  # noqa: E402

# Seconds the camera keeps looking at the empty table after a hand's video ends. A rendered hand ends
# 1.6 s after its last trick is gathered, before a trick gathered short can be asked about (its cards
# gone, then ask_after); at a table the camera never stops at the last gather.
AFTER = 3.0


def lingering(frames, seconds: float = AFTER):
    """The frames, then the last one again for ``seconds``, at the video's own rate."""
    prev = last = None
    for frame in frames:
        prev, last = last, frame
        yield frame
    if last is None or prev is None:
        return
    step = last.t - prev.t
    for k in range(1, int(round(seconds / step)) + 1):
        yield Frame(last.image, last.t + k * step, last.index + k)


def one_hand(seed: int, reader: str, recognizer, zones: bool, pile: bool = False, world: World = TUNING,
             tracker: dict | None = None, pack: str | None = None, swap_tap_after: float | None = None,
             ruleset: str = "chratze", prints: bool = False) -> dict:
    """One hand; ``pack``: a fetched pack (datasets.fetched) played as it is, not reprinted: a table's own.
    ``prints``: the pack as another printer made it (datasets.prints, the training side's generic
    variation, not the held-out reprints): a tuning world whose faces the networks were not fitted to.
    ``swap_tap_after``: the table taps who swapped the trump 6 only this long after the cards changed (the
    camera may see it first); None: as the swap happens."""
    if ruleset == "kratzen":
        players = 3 + seed % 4
        evening = simulate_kratzen_session(random.Random(seed), 2, players, KratzenSession(),
                                           bots=("hr" * players)[:players])
        record, rules, muss = table_events(evening.hands[-1].events), evening.rules, evening.hands[-1].muss
        before, truth = evening.hands[0].events, [h.events for h in evening.hands]
    else:
        sim = simulate_hand(random.Random(seed), players=3 + seed % 4, illegal_rate=0.1)
        record, rules, muss, before, truth = table_events(sim.events), None, False, [], [table_events(sim.events)]
    draw = world.draw(seed) if world.held_out else None
    if pack:
        faces = load_fetched(pack)
        draw = replace(draw, reprint=False) if draw else None
    else:
        pack = SCANNED_PACKS[seed % 2]
        faces = scanned_pack(pack)
    if prints:  # one print for the whole pack: every card drawn with the same stream
        faces = {code: face if code == BACK else vary_print(face, np.random.default_rng((seed, 91)))
                 for code, face in faces.items()}
    vh = render_hand(record, faces, seed=seed, pile=pile, draw=draw, rules=rules, muss=muss)
    frames = vh.frames()  # rendered as they are read; only processing is timed
    session = KratzenSession(rules, events=before) if ruleset == "kratzen" else Session()
    watcher = Watcher(session, TableLayout.from_dict({"zones": vh.zones}) if zones else None, Stabilizer(**(tracker or {})))
    camera = TruthCamera(frames, np.random.default_rng(seed))
    table = LiveTable(watcher, recognizer if reader == "model" else camera.read)
    answers = SeenAnswers(camera, RecordAnswers(truth))  # a card asked about: the one rendered there
    asks: list = []
    taps = [(tap.t, tap.event) for tap in vh.taps]
    if swap_tap_after is not None:
        swapped = next((v.t for v in vh.visuals if v.kind == "swap"), 0.0)
        taps = [((swapped + swap_tap_after) if ev.type == "trump_six_swap" else t, ev) for t, ev in taps]
        taps.sort(key=lambda tap: tap[0])
    left = run(table, lingering(camera.frames()), taps,
               on_notice=lambda n: asks.append(n.data) if n.kind == "ask" else None,
               answer=_noting(answers, asks))
    check = check_hand(record, session)
    per_frame = table.timing.busy / max(1, table.timing.frames)
    still = {(v.kind, v.card): v.t for v in vh.visuals if v.kind in ("upcard", "play")}
    lat = [t - still[key] + per_frame for key, t in camera_named(session.log).values() if key in still]
    corrected = _corrections(session.log)
    asked_wrong = sum(map(_read_wrong, asks))
    missed_asks = sum(a["kind"] == "missed" for a in asks)
    missed_real = sum(a["kind"] == "missed" and a.get("answer") not in (None, "none") for a in asks)
    return {"seed": seed, "players": len(record[0].seats), "pack": pack, "same": check.same_result,
            "kind": _kind(session.current),
            "asks": len(asks), "asked_wrong": asked_wrong, "causes": Counter(map(_cause, asks)),
            "causes_wrong": Counter(_cause(a) for a in asks if _read_wrong(a)), "missed_asks": missed_asks,
            "missed_real": missed_real, "size": vh.size, "fps_source": vh.fps,
            "pile": pile,
            "events": _event_rows(record, session) + [_ask_row(a) for a in asks] + _correction_rows(corrected),
            "wrong": check.wrong_card_events, "missed": check.missed, "fps": 1 / per_frame if per_frame else 0,
            "latency": lat, "corrected": len(corrected["camera"]),
            "answered": len(corrected["table"]), "left": left, "details": check.details,
            "state": watcher.status()["state"], "swap": _swap_row(record, session), "closer": table.closer_since}


def _kind(hand) -> str:
    """Kratzen: the Muss or the contract played, and how the hand ended; Chratze: how it ended."""
    if isinstance(hand, KratzenHand):
        return f"{'muss' if hand.muss else hand.contract or 'no contract'}/{hand.result}"
    return str(hand.result) if hand is not None else "-"


def _swap_row(record: list, session: Session) -> dict | None:
    """Who swapped the trump 6, and who the record says, from the camera or a tap (None: no swap)."""
    truth = next((ev.player for ev in record if ev.type == "trump_six_swap"), None)
    if truth is None or session.current is None:
        return None
    got = next((ev for ev in session.current.events if ev.type == "trump_six_swap"), None)
    return {"by": truth, "recorded": got.player if got else None,
            "camera": bool(got and (got.meta or {}).get("source") == "camera")}


def _noting(answers: RecordAnswers, asks: list):
    """The record's answer, noted beside the ask it answers (was the camera's read right?)."""
    def answer(watcher, ask):
        code = answers(watcher, ask)
        for a in asks:
            if a["id"] == ask.id:
                a["answer"] = code
        return code
    return answer


def _event_rows(record: list, session: Session) -> list[dict]:
    """Each card event the camera recorded on its own, with how sure it was and whether it was right."""
    got = session.current
    if got is None:
        return []
    truth, seen = visible_events(record), visible_events(got.events)
    mine = [ev for ev in got.events if isinstance(ev, (UpcardShown, CardPlayed))]  # in the order of ``seen``
    return [{"kind": "recorded", "support": (ev.meta or {}).get("support"), "confidence": (ev.meta or {}).get("confidence"),
             "right": i < len(truth) and truth[i] == seen[i], "read": str(seen[i]),
             "truth": str(truth[i]) if i < len(truth) else None,
             "meta": {k: v for k, v in (ev.meta or {}).items() if k not in ("snapshot", "at")}}
            for i, ev in enumerate(mine) if (ev.meta or {}).get("source") == "camera"]


def _corrections(log: list) -> dict[str, list[tuple[CardCorrected, object]]]:
    """The log's corrections, each with the event it corrected, by whose word: ``camera`` (its own re-read)
    or ``table`` (an answer to a question asked after the card was recorded, or a card the table named)."""
    out: dict[str, list] = {"camera": [], "table": []}
    for ev in log:
        if isinstance(ev, CardCorrected):
            by = "camera" if (ev.meta or {}).get("source") == "camera" else "table"
            out[by].append((ev, log[ev.target]))
    return out


def _correction_rows(corrected: dict[str, list]) -> list[dict]:
    return [{"kind": "corrected", "by": by, "was": str(getattr(target, "card", None)),
             "was_player": getattr(target, "player", None), "now": str(ev.card), "t": (ev.meta or {}).get("t"),
             "was_source": (target.meta or {}).get("source")}
            for by, pairs in corrected.items() for ev, target in pairs]


def _cause(ask: dict) -> str:
    """What made the camera ask: the doubting rule for a card it read (``vision.table.watch.DOUBTS``), else
    the ask's kind (a turn passed, a trick gathered short, a card vanished, an upcard never seen)."""
    return ask.get("cause") or ask["kind"]


def _read_wrong(ask: dict) -> bool:
    """An ask about which card lies there, answered with another card than the camera's read (or none lies there)."""
    return ask["kind"] == "card" and ask.get("answer") not in (None, ask["read"])


def _cause_list(causes: Counter) -> str:
    return "; " + " ".join(f"{c} {n}" for c, n in sorted(causes.items())) if causes else ""


def _ask_row(ask: dict) -> dict:
    return {"kind": "asked", "support": ask["shares"][0] if ask["shares"] else None,
            "right": ask.get("answer") == ask["read"], "ask": ask["kind"], "cause": _cause(ask), "read": ask["read"],
            "answer": ask.get("answer"), "why": ask["why"], "t": ask["t"], "player": ask["player"]}


def camera_named(log: list) -> dict[int, tuple[tuple[str, str], float]]:
    """Log position of each upcard and play the camera recorded that is in effect -> ((kind, card),
    when the record first named it rightly as far as the camera goes): a card first misread and
    then corrected by a re-read counts from the correction, so a misread is no faster than waiting.
    The kind tells the upcard from the same card played later by the player who took it up."""
    fixed_at = {ev.target: ev.meta["t"] for ev in log if isinstance(ev, CardCorrected) and ev.meta and "t" in ev.meta}
    return {e.position: (("upcard" if isinstance(e.event, UpcardShown) else "play", e.event.card.code),
                         fixed_at.get(e.position, e.event.meta["t"])) for e in resolve(log)
            if isinstance(e.event, (UpcardShown, CardPlayed)) and e.event.meta and "t" in e.event.meta}


_WORKER: dict = {}


def _setting(text: str) -> tuple[str, float | int]:
    """``NAME=VALUE`` of a tracker setting, checked against :class:`TrackerSettings` and of its type (a
    count of frames stays a whole number)."""
    name, _, value = text.partition("=")
    if name not in {f.name for f in fields(TrackerSettings)}:
        raise argparse.ArgumentTypeError(f"no tracker setting {name!r}")
    kind = type(getattr(TABLE, name))
    try:
        return name, kind(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{name} is a whole number of frames, not {value!r}" if kind is int else f"{name} is a number, not {value!r}") from None


def _hand(args, recognizer, seed: int, pile: bool) -> dict:
    tracker = {k: v for k, v in (("ask_support", args.ask_support), ("min_conf", args.min_conf)) if v is not None}
    tracker.update(args.tracker)
    return one_hand(seed, args.reader, recognizer, not (args.no_zones or pile), pile, WORLDS[args.world], tracker,
                    args.pack, ruleset=args.ruleset, prints=args.prints)


def _start_worker(args) -> None:
    _WORKER["args"] = args
    _WORKER["recognizer"] = recognizer_from(args, reuse_frames=args.reuse) if args.reader == "model" else None


def _worker_hand(job: tuple[int, bool]) -> dict:
    return _hand(_WORKER["args"], _WORKER["recognizer"], *job)


def _hands(args, recognizer, jobs: list[tuple[int, bool]]):
    """Each hand's row, in seed order; ``--workers`` hands at a time in processes of their own (each hand
    depends only on its seed, so the rows are the same as one at a time)."""
    if args.workers <= 1:
        yield from (_hand(args, recognizer, seed, pile) for seed, pile in jobs)
        return
    ctx = multiprocessing.get_context("spawn")  # ONNX Runtime's sessions do not survive a fork
    with ctx.Pool(args.workers, initializer=_start_worker, initargs=(args,)) as pool:
        yield from pool.imap(_worker_hand, jobs)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--reader", choices=["model", "truth"], default="model")
    ap.add_argument("--no-zones", action="store_true", help="assign cards by play order instead of zones")
    ap.add_argument("--pile", action="store_true",
                    help="each trick played into one pile in the middle, at any angle (implies --no-zones)")
    ap.add_argument("--world", choices=sorted(WORLDS), default="tuning",
                    help="tuning: choose thresholds here; held-out: report here, choose nothing")
    ap.add_argument("--mix", action="store_true", help="every other pair of hands played into a pile")
    ap.add_argument("--ask-support", type=float, help="the tracker's ask_support (tuning world only: what to ask)")
    ap.add_argument("--min-conf", type=float, help="the tracker's min_conf (tuning world only: the reads it counts)")
    ap.add_argument("--tracker", type=_setting, action="append", default=[], metavar="NAME=VALUE",
                    help="any other tracker setting (vision.table.settings), tuning world only; repeatable")
    ap.add_argument("--dump", help="write each camera event and ask (how sure, whether right) to this JSONL file")
    ap.add_argument("--reuse", type=int, default=2, help="frames a still card keeps its class (0: classify every frame)")
    ap.add_argument("--pack", help="play every hand with this fetched pack as it is (e.g. kennard, which no network "
                                   "saw: python -m datasets.fetched); default: the Swiss scans, reprinted in held-out")
    ap.add_argument("--ruleset", choices=["chratze", "kratzen"], default="chratze",
                    help="the game played (kratzen: the second hand of a simulated evening)")
    ap.add_argument("--prints", action="store_true",
                    help="tuning world only: each hand's pack as another printer made it (datasets.prints), so "
                         "the tuning world has misreads to choose what to ask on")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--workers", type=int, default=1,
                    help="hands played at a time, each in a process of its own (same rows; frames per second "
                         "and latency then measure a share of the machine)")
    model_options(ap)
    args = ap.parse_args(argv)
    recognizer = None
    if args.reader == "model" and args.workers <= 1:
        recognizer = recognizer_from(args, reuse_frames=args.reuse)
    world = WORLDS[args.world]
    if (args.tracker or args.ask_support is not None or args.min_conf is not None) and world.held_out:
        ap.error("tracker settings are chosen in the tuning world; the held-out world runs the shipped ones")
    if args.prints and world.held_out:
        ap.error("--prints varies the tuning world's faces; the held-out world reprints its own")
    first = args.first_seed + (HELD_OUT_SEED if world.held_out else 0)
    rows = []
    t0 = time.time()
    dump = open(args.dump, "w") if args.dump else None
    jobs = [(seed, args.pile or (args.mix and (seed - first) // 2 % 2 == 1)) for seed in range(first, first + args.hands)]
    for r in _hands(args, recognizer, jobs):
        rows.append(r)
        seed, pile = r["seed"], r["pile"]
        if dump:
            for e in r["events"]:
                dump.write(json.dumps({"seed": seed, "world": world.name, "pile": pile, **e}) + "\n")
            dump.flush()
        lat = r["latency"]
        closer = "" if r["closer"] is None else f"  looked closer from {r['closer']:.1f} s"
        print(f"hand seed {seed:3d}  {r['players']} players  {r['kind']:14s}  {r['pack']:12s}  {r['size'][0]}x{r['size'][1]}@"
              f"{r['fps_source']:.0f}{' pile' if pile else ''}  same result: {str(r['same']):5s}  "
              f"wrong events: {r['wrong']}  asks: {r['asks']} ({r['asked_wrong']} read wrong, {r['missed_asks']} "
              f"turns passed, {r['missed_real']} of them a card missed{_cause_list(r['causes'])})  "
              f"missed: {r['missed']:2d}  corrected: re-read {r['corrected']}, answer {r['answered']}  "
              f"{r['fps']:5.1f} frames/s  "
              f"latency median {statistics.median(lat) * 1000 if lat else float('nan'):5.0f} ms  "
              f"end state: {r['state']}{closer}", flush=True)
        if args.verbose:
            for d in r["details"] + r["left"]:
                print(f"    {d}")
    if args.workers > 1:
        print(f"(hands run {args.workers} at a time: frames per second and latency are each hand's share of the "
              "machine, not a table's own figures)")
    lat = [x for r in rows for x in r["latency"]]
    same = sum(r["same"] for r in rows)
    print(f"\nruleset: {args.ruleset}; world: {world.name}; pack: {args.pack or 'the Swiss scans'}; deck: {args.deck or 'none'}; "
          f"reader: {args.reader}; zones: {not (args.no_zones or args.pile)}; pile: "
          f"{'half' if args.mix else args.pile}; reuse: {args.reuse}; {len(rows)} hands in {time.time() - t0:.0f} s")
    print(f"same result as the record: {same}/{len(rows)}")
    print(f"hands with a wrong card event: {sum(r['wrong'] > 0 for r in rows)}  (bar: 0); "
          f"wrong card events in all: {sum(r['wrong'] for r in rows)}; missed events: {sum(r['missed'] for r in rows)}")
    asks = sum(r["asks"] for r in rows)
    print(f"asks: {asks} in all, {asks / max(1, len(rows)):.2f} per hand (bar: <= 1); of the asks which card lay "
          f"there, the camera's read was wrong in {sum(r['asked_wrong'] for r in rows)} (wrong events a guess would "
          f"have recorded); {sum(r['missed_asks'] for r in rows)} asked whether a player whose turn passed laid a "
          f"card, {sum(r['missed_real'] for r in rows)} of them a card the camera had missed")
    causes, wrong = sum((r["causes"] for r in rows), Counter()), sum((r["causes_wrong"] for r in rows), Counter())
    print("asks by cause (of them, the camera's read wrong): "
          + (", ".join(f"{c} {n} ({wrong[c]})" for c, n in causes.most_common()) or "none"))
    print(f"card events recorded wrong and corrected later, counted as right above (the page showed the wrong "
          f"card or seat until the correction): by the camera's re-read {sum(r['corrected'] for r in rows)} in "
          f"{sum(r['corrected'] > 0 for r in rows)} hands; by the table's answer to a later question "
          f"{sum(r['answered'] for r in rows)} in {sum(r['answered'] > 0 for r in rows)} hands")
    closer = [r for r in rows if r["closer"] is not None]
    print(f"hands in which the camera looked closer (it never saw the upcard or a trick's card): {len(closer)}"
          + (f", {sum(r['same'] for r in closer)} of them right" if closer else ""))
    fps = [r["fps"] for r in rows]
    print(f"processed frames per second: median {statistics.median(fps):.1f}, slowest hand {min(fps):.1f}  (bar: >= 20)")
    if lat:
        q = np.percentile(lat, [50, 90]) * 1000
        print(f"card lying still -> event: median {q[0]:.0f} ms, p90 {q[1]:.0f} ms, max {max(lat) * 1000:.0f} ms "
              f"over {len(lat)} events  (bar: <= 300 ms)")
    for fps in sorted({r["fps_source"] for r in rows}):
        at = [x for r in rows if r["fps_source"] == fps for x in r["latency"]]
        if at and len({r["fps_source"] for r in rows}) > 1:
            print(f"  at {fps:.0f} fps: median {statistics.median(at) * 1000:.0f} ms over {len(at)} events")
    sizes = sorted({tuple(r["size"]) for r in rows})
    for size in sizes if len(sizes) > 1 else []:
        at = [r for r in rows if tuple(r["size"]) == size]
        print(f"  {size[0]}x{size[1]}: {sum(r['same'] for r in at)}/{len(at)} right, "
              f"{sum(r['wrong'] for r in at)} wrong card events, {sum(r['asks'] for r in at)} asks")


if __name__ == "__main__":
    main()
