"""``chratze watch``, ``mat``, ``virtual-table`` and ``demo``: the live table from the command line."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from engine import history
from engine.events import HandStarted
from engine.kratzen import KratzenRules
from engine.kratzen_session import KratzenSession
from engine.report import format_text, session_summary
from engine.rules import HouseRules, RulesError
from engine.session import Session
from vision.recognize import VIDEO
from vision.table.check import check_hand
from vision.table.taps import TapsError, load_taps

from .options import model_options, recognizer_from


# ------------------------------------------------------------------ helpers
def write_atomic(path: Path, text: str) -> None:
    """Write by rename, so a crash never leaves half a record."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def _taps(path: str) -> list:
    try:
        return load_taps(path)
    except TapsError as exc:
        raise SystemExit(f"chratze: {exc}") from None


def _session_from(record: Path | None, pot: int = 0, ante: int | None = None, ruleset: str | None = None):
    """The session to continue: the record file if it exists (a restart loses nothing; its own game);
    else a new evening of ``ruleset`` (default Chratze) with ``pot`` Rappen already in the pot and the
    ante ``ante`` (else the rules' default)."""
    if record is None or not record.exists():
        if ruleset == "kratzen":
            return KratzenSession(KratzenRules(ante=ante) if ante is not None else None, opening_pot=pot)
        return Session(HouseRules(ante=ante) if ante is not None else None, opening_pot=pot)
    result = history.read(record.read_text(encoding="utf-8"))
    for p in result.problems:
        print(f"{record}: {p}", file=sys.stderr)
    kept = getattr(result.session, "ruleset", "chratze")
    if ruleset is not None and ruleset != kept:
        raise SystemExit(f"chratze: {record} is an evening of {kept.capitalize()}, not {ruleset.capitalize()}; "
                         "record to another file")
    return result.session


def _printer(t0: list[float]):
    def show(n) -> None:
        print(f"[{t0[0]:7.2f}s] {n.kind:11s} {n.text}", flush=True)
    return show


# ------------------------------------------------------------------ watch
def _watch(args: argparse.Namespace) -> int:
    from vision.recognize.recognizer import ModelMissing
    from vision.table.answers import RecordAnswers
    from vision.table.layout import LayoutError, TableLayout
    from vision.table.live import LiveTable, run
    from vision.table.sources import Resilient, SourceError, open_source
    from vision.table.watch import Watcher

    try:
        layout = TableLayout.load(args.layout) if args.layout else None
        recognizer = recognizer_from(args, VIDEO)
        answers = RecordAnswers.load(Path(args.answers)) if args.answers else None
    except (LayoutError, ModelMissing, OSError, ValueError) as exc:  # ValueError: a history or text that is none
        print(f"chratze watch: {exc}", file=sys.stderr)
        return 2
    record = Path(args.record) if args.record else None
    if record is not None and record.exists() and (args.pot or args.ante is not None):
        print(f"chratze watch: {record} goes on with its own pot and ante; --pot and --ante start a new record",
              file=sys.stderr)
        return 2
    try:
        session = _session_from(record, args.pot, args.ante, args.ruleset)
    except (ValueError, RulesError) as exc:
        print(f"chratze watch: {exc}", file=sys.stderr)
        return 2
    save = (lambda pos, ev: write_atomic(record, history.dumps(session))) if record else None
    watcher = Watcher(session, layout, on_record=save)
    table = LiveTable(watcher, recognizer, Path(args.snapshots) if args.snapshots else None,
                      keep_annotated=bool(args.annotate or args.show))
    taps = _taps(args.taps) if args.taps else []
    if args.seats:
        seats = tuple(s.strip() for s in args.seats.split(","))
        taps.insert(0, (0.0, HandStarted(seats, args.dealer or seats[0], 0, 0)))
    try:
        opened = [open_source(args.source)]  # a bad source is an error now; a lost one is retried later
    except SourceError as exc:
        print(f"chratze watch: {exc}", file=sys.stderr)
        return 2
    source = Resilient(lambda: opened.pop() if opened else open_source(args.source))
    clock = [0.0]
    writer = _annotated_writer(args, table)
    left = run(table, _timed(source.frames(), clock), taps, _printer(clock), writer, answer=answers)
    for text in left:
        print(f"never taken: {text}", file=sys.stderr)
    for ask in watcher.asks.values():
        print(f"never answered: question {ask.id}, {ask.why}", file=sys.stderr)
    print(f"{table.timing.frames} frames, {table.timing.frames / max(table.timing.busy, 1e-9):.1f} processed/s; "
          f"{watcher.asked} question(s) asked; state: {watcher.status()['state']}")
    return 0


def _timed(frames, clock: list[float]):
    for f in frames:
        if f is not None:
            clock[0] = f.t
        yield f


def _annotated_writer(args, table):
    if not (args.annotate or args.show):
        return None
    import cv2

    state: dict = {}

    def write(frame) -> None:
        img = table.annotated[..., ::-1]
        if args.show:
            try:
                cv2.imshow("chratze", img)
                cv2.waitKey(1)
            except cv2.error:
                raise SystemExit("chratze watch --show: this OpenCV has no window support; "
                                 "use --annotate FILE.avi") from None
        if args.annotate:
            if "out" not in state:
                h, w = img.shape[:2]
                state["out"] = cv2.VideoWriter(args.annotate, cv2.VideoWriter_fourcc(*"MJPG"), 20.0, (w, h))
            state["out"].write(img)
    return write


# ------------------------------------------------------------------ mat
def _mat(args: argparse.Namespace) -> int:
    from vision.table.layout import LayoutError, mat_layout, render_mat

    try:
        path = render_mat(args.players, args.out)
    except (LayoutError, OSError, ValueError) as exc:
        print(f"chratze mat: {exc}", file=sys.stderr)
        return 2
    layout_path = path.with_suffix(".layout.json")
    mat_layout(args.players).save(layout_path)
    print(f"mat: {path}\nlayout (use with --layout): {layout_path}")
    return 0


# ------------------------------------------------------------------ virtual table
def _virtual_table(args: argparse.Namespace) -> int:
    from vision.table.virtual import write_virtual_table

    vh, events, rules, before = _rendered(Path(args.record), args.hand, args.seed, args.pack)
    write_virtual_table(vh, Path(args.out), events, rules, before)
    return 0


def _rendered(record: Path, hand_no: int, seed: int, pack: str | None = None):
    from vision.table.virtual import RecordError, render_record_hand

    try:
        return render_record_hand(record, hand_no, seed, pack)
    except RecordError as exc:
        raise SystemExit(f"chratze: {exc}") from None


# ------------------------------------------------------------------ demo
def _demo(args: argparse.Namespace) -> int:
    """Render a hand of the bundled evening and referee it from the video, as at a table."""
    from vision.table.virtual import EXAMPLE, write_virtual_table

    out = Path(args.out)
    print(f"rendering hand {args.hand} of {EXAMPLE.name} as a webcam video (no camera attached) ...", flush=True)
    vh, record, rules, _ = _rendered(EXAMPLE, args.hand, args.seed)
    write_virtual_table(vh, out, record, rules)
    # `watch` on the rendered video, with this command's model options as they are (every one of them); the
    # camera's asks answered from the true hand, as the players at the table would answer them
    ns = argparse.Namespace(**{**vars(args), "source": str(out / "table.avi"), "layout": str(out / "layout.json"),
                               "taps": str(out / "taps.json"), "record": str(out / "record.json"),
                               "answers": str(out / "answers.json"),
                               "snapshots": str(out / "snapshots"), "annotate": str(out / "annotated.avi"),
                               "show": False, "seats": None, "dealer": None, "ruleset": None})
    if (out / "record.json").exists():
        (out / "record.json").unlink()
    rc = _watch(ns)
    if rc:
        return rc
    session = _session_from(out / "record.json")
    check = check_hand(record, session, rules)
    if session.current is not None:
        print(format_text(session_summary(session)))
    print(f"same result as the record: {check.same_result}; wrong card events: {check.wrong_card_events}; "
          f"missed: {check.missed}")
    for d in check.details:
        print(f"  {d}")
    print(f"files: {out}/ (annotated.avi, record.json, snapshots/)")
    return 0


def add_commands(sub) -> None:
    p = sub.add_parser("watch", help="referee from a camera, video, image folder or stream")
    p.add_argument("--source", required=True, help="webcam index (0), video file, image folder, or http/rtsp URL")
    p.add_argument("--layout", help="table layout JSON (zones, or a mat's layout from `chratze mat`)")
    p.add_argument("--record", help="hand-history file to write as it goes (continued if it exists)")
    p.add_argument("--taps", help="timed table entries (bids, exchanges) as written by `chratze virtual-table`")
    p.add_argument("--seats", help="start a hand with these players, in play order: Anna,Beat,Cla")
    p.add_argument("--dealer")
    p.add_argument("--pot", type=int, default=0, help="Rappen already in the pot when this record starts "
                                                       "(a table that starts recording mid-evening)")
    p.add_argument("--ante", type=int, help="the ante in Rappen each player pays into the pot per hand "
                                            "(default: the house rules')")
    p.add_argument("--ruleset", choices=["chratze", "kratzen"],
                   help="the game of a new record (default chratze; a record continued keeps its own game). Kratzen: "
                        "the camera records the cards turned and played; the cut, contracts and exchanges are tapped")
    p.add_argument("--answers", help="a hand history of the true hands (the format `replay` reads): the camera's "
                                     "questions about unsure cards are answered from it, for offline runs; without "
                                     "it they stay open and the record waits, as at a table nobody answers")
    p.add_argument("--snapshots", help="folder for a picture of every recorded card")
    p.add_argument("--annotate", help="write the annotated video here (.avi)")
    p.add_argument("--show", action="store_true", help="show the annotated picture in a window")
    model_options(p)
    p.set_defaults(run=_watch)

    p = sub.add_parser("mat", help="write a printable table mat with ArUco markers (PDF or PNG)")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--out", default="chratze-mat.pdf")
    p.set_defaults(run=_mat)

    p = sub.add_parser("virtual-table", help="render a hand of a hand history as a webcam video")
    p.add_argument("record")
    p.add_argument("--hand", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--pack", choices=["swiss-french", "swiss-german"])
    p.add_argument("--out", default="runs/virtual-table")
    p.set_defaults(run=_virtual_table)

    p = sub.add_parser("demo", help="the live table on a rendered video of the bundled evening (no camera)")
    p.add_argument("--hand", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default="runs/demo")
    model_options(p)
    p.set_defaults(run=_demo)
