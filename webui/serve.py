"""``chratze serve``: the page, and the camera (or the built-in demo) feeding it."""

from __future__ import annotations

import argparse
import json
import sys
import threading
from pathlib import Path

from werkzeug.serving import make_server

from engine.rules import HouseRules, RulesError
from engine.session import Session
from vision.recognize import VIDEO
from vision.recognize.deck import DeckError, load_deck
from vision.recognize.recognizer import ModelMissing, Recognizer
from vision.table.answers import RecordAnswers, Unhurried
from vision.table.layout import LayoutError, TableLayout
from vision.table.sources import SourceError, open_source
from vision.table.taps import TapsError, load_taps
from vision.table.virtual import EXAMPLE, render_record_hand, write_virtual_table

from . import create_app
from .camera import CameraRunner
from .join import lan_address


def serve(args: argparse.Namespace) -> int:
    try:
        rules = HouseRules.from_dict(_rules_arg(args.rules)) if args.rules else None
    except (RulesError, ValueError, OSError) as exc:
        print(f"chratze serve: house rules: {exc}", file=sys.stderr)
        return 2
    if args.source == "auto":  # a webcam if one is attached, else the built-in demo
        args.source, args.demo = (None, True) if not _webcam_present() else ("0", args.demo)
    if args.pin is not None and not args.pin.strip():
        print("chratze serve: an empty --pin would let anyone change the record; say --no-pin to mean that",
              file=sys.stderr)
        return 2
    app = create_app(args.data, rules, "" if getattr(args, "no_pin", False) else args.pin,
                     hosts=getattr(args, "allow_host", None) or ())
    service = app.extensions["table"]
    if args.demo or args.source:
        rc = _start_camera(app, args)
        if rc:
            return rc
    try:
        server = make_server(args.host, args.port, app, threaded=True)
    except OSError as exc:
        print(f"chratze serve: cannot listen on {args.host}:{args.port}: {exc.strerror}", file=sys.stderr)
        return 2
    host = lan_address() if args.host in ("0.0.0.0", "::") else args.host
    print(f"Chratze table page: http://{host}:{server.server_port}/   (this machine: http://127.0.0.1:{server.server_port}/)")
    print(f"Table PIN for changes: {service.pin}" if service.pin else
          "No PIN (--no-pin): anyone who reaches this page can change the record", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


def _webcam_present() -> bool:
    import cv2


    level = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)  # "no camera" is not an error here
    try:
        cam = open_source("0")
        ok = cam.read() is not None
        cam.close()
        return ok
    except SourceError:
        return False
    finally:
        cv2.utils.logging.setLogLevel(level)


def _rules_arg(value: str) -> dict:
    path = Path(value)
    text = path.read_text(encoding="utf-8") if path.is_file() else value
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("house rules must be a JSON object")
    return data


DEMO_ANSWER_AFTER = 4.0  # seconds the demo's question stays on the page before "the table" answers it


def _start_camera(app, args) -> int:
    if args.demo:
        out = Path(args.data) / "demo"
        if not ((out / "taps.json").exists() and (out / "answers.json").exists()):  # taps.json is written last
            # Rendered once, beside the page: the page is served at once and says what the camera is doing.
            service = app.extensions["table"]
            service.camera_note = ("preparing", "rendering the demo table video (once, about 40 s)")
            print("rendering the demo table video (once); the page is up meanwhile ...", flush=True)
            threading.Thread(target=_render_then_start, args=(app, args, out), name="demo-render", daemon=True).start()
            return 0
    return _run_camera(app, args)


def _render_then_start(app, args, out: Path) -> None:
    service = app.extensions["table"]
    try:
        vh, events, rules, _ = render_record_hand(EXAMPLE, 1, 1)
        write_virtual_table(vh, out, events, rules)  # answers.json too: the demo answers its own asks
    except Exception as exc:  # noqa: BLE001 - the page must say the demo failed, not spin for ever
        service.camera_note = ("camera_lost", f"the demo video could not be rendered: {exc}")
    else:
        service.camera_note = None
        if _run_camera(app, args):
            service.camera_note = ("camera_lost", "the demo could not start (see the server's output)")
    with service.lock:
        service.bump()


def _run_camera(app, args) -> int:
    taps, answer = [], None
    source, layout_path = args.source, args.layout
    if args.demo:
        out = Path(args.data) / "demo"
        source, layout_path = str(out / "table.avi"), str(out / "layout.json")
        try:
            taps = load_taps(out / "taps.json")
            if (out / "answers.json").exists():  # the demo's stand-in for players answering the camera's asks
                answer = Unhurried(RecordAnswers.load(out / "answers.json"), DEMO_ANSWER_AFTER)
        except (TapsError, OSError, ValueError) as exc:
            print(f"chratze serve: demo: {exc}", file=sys.stderr)
            return 2
        service = app.extensions["table"]
        if service.session.log or not isinstance(service.session, Session):  # a fresh evening; the old one archived
            chratze = isinstance(service.session, Session)
            service.replace_session(Session(service.session.rules if chratze else HouseRules()))
        service.demo = True
    try:
        layout = TableLayout.load(layout_path) if layout_path else None
        # the demo plays the shipped Swiss scans: a deck chosen for the table's own pack is not for it
        deck_name = getattr(args, "deck", None) or (None if args.demo else app.extensions["teach"].in_use())
        recognizer = Recognizer(settings=VIDEO, deck=load_deck(deck_name) if deck_name else None)
    except (LayoutError, ModelMissing, DeckError) as exc:
        print(f"chratze serve: {exc}", file=sys.stderr)
        return 2
    runner = CameraRunner(app.extensions["table"], source, layout, recognizer, taps, realtime=args.demo or
                          not source.isdigit() and not source.startswith(("http", "rtsp")) and not Path(source).is_dir(),
                          answer=answer, loop=bool(args.demo))
    app.extensions["camera_runner"] = runner.start()
    return 0
