"""Every event of the table, stored the moment it is recorded (SQLite, write-ahead log).

One database file per table. The session's header (house rules, meta) is a row of its own;
events are appended one per row with their raw-log position, so killing the server at any
moment loses at most the tap that was in flight, and a restart replays the same hand.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

from engine.events import Event, event_from_dict
from engine.kratzen import KratzenRules
from engine.kratzen_session import KratzenSession
from engine.rules import HouseRules
from engine.session import Session

SESSIONS = {"chratze": (Session, HouseRules.from_dict), "kratzen": (KratzenSession, KratzenRules.from_dict)}

SCHEMA = """
CREATE TABLE IF NOT EXISTS header (id INTEGER PRIMARY KEY CHECK (id = 1), rules TEXT NOT NULL, meta TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS events (position INTEGER PRIMARY KEY, event TEXT NOT NULL,
                                   stored_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')));
"""


class Store:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self.db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")  # an event acknowledged to the page is on disk
        self.db.executescript(SCHEMA)
        columns = {r[1] for r in self.db.execute("PRAGMA table_info(header)")}
        if "opening_pot" not in columns:  # a database from before carried pots: its pot started empty
            self.db.execute("ALTER TABLE header ADD COLUMN opening_pot INTEGER NOT NULL DEFAULT 0")
        if "ruleset" not in columns:  # a database from before Kratzen: an evening of Chratze
            self.db.execute("ALTER TABLE header ADD COLUMN ruleset TEXT NOT NULL DEFAULT 'chratze'")

    def load(self, default_rules: HouseRules) -> Session | KratzenSession:
        """The stored session, replayed; a new empty one (saved) if there is none."""
        row = self.db.execute("SELECT rules, meta, opening_pot, ruleset FROM header").fetchone()
        if row is None:
            self.reset(default_rules, {})
            return Session(default_rules)
        kind, rules_from = SESSIONS[row[3]]
        rules = rules_from(json.loads(row[0]))
        events = [event_from_dict(json.loads(r[0])) for r in
                  self.db.execute("SELECT event FROM events ORDER BY position")]
        return kind(rules, json.loads(row[1]), events, opening_pot=row[2])

    def append(self, position: int, event: Event) -> None:
        with self._lock:
            self.db.execute("INSERT INTO events (position, event) VALUES (?, ?)",
                            (position, json.dumps(event.to_dict(), ensure_ascii=False)))

    def reset(self, rules: HouseRules | KratzenRules, meta: dict[str, Any], events: list[Event] = (),
              opening_pot: int = 0) -> None:
        """Replace the whole session (a new evening, or a reloaded history), in one transaction; the
        rules say which game it is."""
        ruleset = "kratzen" if isinstance(rules, KratzenRules) else "chratze"
        with self._lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                self.db.execute("DELETE FROM events")
                self.db.execute("DELETE FROM header")
                self.db.execute("INSERT INTO header (id, rules, meta, opening_pot, ruleset) VALUES (1, ?, ?, ?, ?)",
                                (json.dumps(rules.to_dict()), json.dumps(meta, ensure_ascii=False), opening_pot,
                                 ruleset))
                self.db.executemany("INSERT INTO events (position, event) VALUES (?, ?)",
                                    [(i, json.dumps(e.to_dict(), ensure_ascii=False)) for i, e in enumerate(events)])
                self.db.execute("COMMIT")
            except Exception:
                self.db.execute("ROLLBACK")
                raise

    def close(self) -> None:
        self.db.close()
