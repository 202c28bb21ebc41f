"""The table the server keeps: one session, its store, the camera's watcher, and the viewers.

Every write goes through :meth:`TableService.record` (or the watcher, which records into the
same session): the engine validates it first (an impossible event changes nothing), the store
keeps it, and every viewer is woken with the new state version. The lock makes the camera
thread and the page's taps take turns.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any

from engine import history
from engine.events import Event
from engine.kratzen_session import KratzenSession
from engine.reasons import refused
from engine.rules import HouseRules
from engine.session import Session

from .store import Store


class TableService:
    def __init__(self, store: Store, rules: HouseRules | None = None, pin: str = "",
                 snapshots: Path | None = None, archive: Path | None = None) -> None:
        self.store = store
        self.session = store.load(rules or HouseRules())
        self.pin = pin
        self.snapshots = snapshots
        self.archive = archive or store.path.parent / "archive"
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)
        self.version = 1
        # Each server start gets its own epoch: the version counter starts again at 1, so a page that
        # saw another epoch reloads, and its writes (made against a state it no longer has) are refused.
        self.epoch = secrets.token_hex(6)
        self.notices: deque = deque(maxlen=12)
        self.watcher = None  # vision.table.watch.Watcher while a camera runs
        self.camera_jpeg: bytes | None = None  # the last annotated frame
        self.camera_raw: bytes | None = None  # the last plain frame, for calibration
        self.camera_note: tuple[str, str] | None = None  # (state, reason) the camera's own state does not tell
        self.demo = False  # the camera watches the demo's video: a rendered hand of Chratze
        self.state_cache: tuple[int, dict] | None = None  # (version, the page's state)

    # ------------------------------------------------------------------ writes
    def record(self, event: Event, source: str = "tablet") -> int:
        """Record a tapped event; raises IllegalEvent (nothing stored) when it cannot happen now."""
        event = event.with_meta(source=source, at=_now())
        with self.lock:
            if self.watcher is not None:
                pos, notices = self.watcher.tap(event)  # stored and announced through on_watcher_record
                if notices:
                    self.note(notices)
                    self.bump()
            else:
                pos = self.session.record(event)
                self.store.append(pos, event)
                self.bump()
            return pos

    def on_watcher_record(self, position: int, event: Event) -> None:
        """The watcher's callback for everything it records, taps and cards (the lock is held)."""
        self.store.append(position, event)
        self.bump()

    def start_hand(self, seats: list[str] | None, dealer: str | None) -> int:
        with self.lock:
            ev = self.session.next_hand(seats, dealer)
            return self.record(ev)

    @property
    def ruleset(self) -> str:
        return getattr(self.session, "ruleset", "chratze")

    def replace_session(self, session: Session, archive: bool = True) -> None:
        """A new evening or a reloaded history; the old record is archived first, never lost (the demo's
        replays, ``archive`` False, are not: the same rendered hand again)."""
        with self.lock:
            if self.demo and not isinstance(session, Session):
                raise refused("chratze_only", what="demo")  # the demo's video is a hand of Chratze
            if self.session.log and archive:
                self.archive.mkdir(parents=True, exist_ok=True)
                name = time.strftime("%Y%m%d-%H%M%S") + f"-{len(self.session.log)}.json"
                (self.archive / name).write_text(history.dumps(self.session), encoding="utf-8")
            self.store.reset(session.opening_rules, session.meta, session.log, session.opening_pot)
            self.session = session
            if self.watcher is not None:
                self.watcher.session = session
                self.watcher.hand_number = -1
            self.bump()

    # ------------------------------------------------------------------ viewers
    def bump(self) -> None:
        with self.changed:
            self.version += 1
            self.changed.notify_all()

    def note(self, notices) -> None:
        for n in notices:
            self.notices.append({"kind": n.kind, "text": n.text, "data": n.data, "at": _now()})  # data: the page words it

    def wait(self, version: int, timeout: float) -> int:
        """Block until the state is newer than ``version`` (or the timeout); returns the version."""
        with self.changed:
            self.changed.wait_for(lambda: self.version != version, timeout)
            return self.version

    def check_pin(self, given: str | None) -> bool:
        return not self.pin or (given or "").strip() == self.pin


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S")


def export_json(session: Session) -> str:
    return history.dumps(session)


def ledger_csv(session: Session) -> str:
    """One row per hand and player: ante, payout, penalty, and the running balance (Rappen)."""
    import csv  # noqa: PLC0415
    import io  # noqa: PLC0415

    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["hand", "player", "ante_rappen", "payout_rappen", "penalty_rappen", "balance_rappen"])
    balance: dict[str, int] = {}
    kratzen = isinstance(session, KratzenSession)  # who antes varies by hand: each hand's antes
    settlements = [h.settlement() for h in session.hands] if kratzen else session.settlements()
    for number, (hand, s) in enumerate(zip(session.hands, settlements), 1):
        for q, name in enumerate(hand.seats):
            ante = hand.paid[q] if kratzen else hand.start.ante
            pay, pen = s.payouts.get(name, 0), s.penalties.get(name, 0)
            balance[name] = balance.get(name, 0) - ante + pay - pen
            w.writerow([number, name, ante, pay, pen, balance[name]])
    return out.getvalue()


def parse_history(text: str) -> Session | KratzenSession:
    """A hand history to reload; refused whole (with every problem) if any part is broken."""
    result = history.read(text)
    if result.problems:
        raise ValueError("; ".join(str(p) for p in result.problems[:5]))
    return result.session


def dumps_state(state: dict[str, Any]) -> str:
    return json.dumps(state, ensure_ascii=False, separators=(",", ":"))

