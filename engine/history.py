"""The hand-history format: one JSON document per session (see docs/hand-history.md).

Reading is lenient, like a forgiving PGN reader: every broken record is reported with its
position and skipped, and everything that can be kept is kept. Parsing works on text, not
files, so the engine stays free of I/O.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any

from .events import CardCorrected, Event, EventError, HandStarted, event_from_dict
from .hand import IllegalEvent
from .kratzen import KratzenRules
from .kratzen_session import KratzenSession
from .rules import HouseRules, RulesError
from .session import Session

FORMAT = "chratze-hand-history"
VERSION = 1


class HistoryError(ValueError):
    """A history that could not be read without loss; ``problems`` lists every one."""

    def __init__(self, problems: list["Problem"]) -> None:
        self.problems = problems
        super().__init__("; ".join(str(p) for p in problems))


@dataclass(frozen=True)
class Problem:
    where: str  # e.g. "events[12]" or "line 3 column 5"
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass
class ReadResult:
    session: Session
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def dumps(session: Session) -> str:
    """Serialise a session: the raw log, corrections included, one event per line."""
    head = {"format": FORMAT, "version": VERSION, "rules": session.opening_rules.to_dict(), "meta": session.meta}
    if getattr(session, "ruleset", "chratze") != "chratze":  # Chratze's records keep their old head
        head = {"format": FORMAT, "version": VERSION, "ruleset": session.ruleset, **{k: head[k] for k in ("rules", "meta")}}
    if session.opening_pot:
        head["opening_pot"] = session.opening_pot
    lines = [json.dumps(ev.to_dict(), ensure_ascii=False) for ev in session.log]
    body = json.dumps(head, ensure_ascii=False, indent=2)[:-2]
    events = ",\n    ".join(lines)
    return f'{body},\n  "events": [\n    {events}\n  ]\n}}\n'


def to_dict(session: Session) -> dict[str, Any]:
    return json.loads(dumps(session))


def read(text: str) -> ReadResult:
    """Read a history, keeping all that can be kept; never raises for bad content."""
    problems: list[Problem] = []
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        return ReadResult(Session(), [Problem(f"line {exc.lineno} column {exc.colno}", f"not JSON: {exc.msg}")])
    if not isinstance(doc, dict):
        return ReadResult(Session(), [Problem("document", "a hand history is a JSON object")])
    _check_header(doc, problems)
    ruleset = doc.get("ruleset", "chratze")
    if ruleset not in RULESETS:
        problems.append(Problem("ruleset", f"unknown ruleset {ruleset!r}; known: {', '.join(RULESETS)}; "
                                           "read as Chratze"))
        ruleset = "chratze"
    session_class, read_rules = RULESETS[ruleset]
    rules = read_rules(doc, problems)
    meta = doc.get("meta") if isinstance(doc.get("meta"), dict) else {}
    try:
        session = session_class(rules, meta, opening_pot=doc.get("opening_pot", 0))
    except ValueError as exc:
        problems.append(Problem("opening_pot", f"{exc}; the pot starts empty"))
        session = session_class(rules, meta)
    events = doc.get("events")
    if not isinstance(events, list):
        problems.append(Problem("events", "missing or not a list"))
        return ReadResult(session, problems)
    _replay(session, events, problems)
    return ReadResult(session, problems)


def loads(text: str) -> Session:
    """Read a history strictly: any problem raises HistoryError listing all of them."""
    result = read(text)
    if result.problems:
        raise HistoryError(result.problems)
    return result.session


def _check_header(doc: dict, problems: list[Problem]) -> None:
    if doc.get("format") != FORMAT:
        problems.append(Problem("format", f"expected {FORMAT!r}, got {doc.get('format')!r}"))
    version = doc.get("version")
    if version != VERSION:
        problems.append(Problem("version", f"this reader knows version {VERSION}, got {version!r}"))


def _rules(doc: dict, problems: list[Problem]) -> HouseRules:
    try:
        raw = doc.get("rules") or {}
        if not isinstance(raw, dict):
            raise RulesError("must be an object")
        return HouseRules.from_dict(raw)
    except (RulesError, TypeError) as exc:
        problems.append(Problem("rules", f"{exc}; using the default rules"))
        return HouseRules()


def _kratzen_rules(doc: dict, problems: list[Problem]) -> KratzenRules:
    try:
        return KratzenRules.from_dict(doc.get("rules") if isinstance(doc.get("rules"), dict) else {})
    except (ValueError, TypeError) as exc:
        problems.append(Problem("rules", f"{exc}; using the default Kratzen rules"))
        return KratzenRules()


RULESETS = {"chratze": (Session, _rules), "kratzen": (KratzenSession, _kratzen_rules)}  # name -> session, rules


def _replay(session: Session, events: list[Any], problems: list[Problem]) -> None:
    kept: dict[int, int] = {}  # position in the file -> position in the rebuilt log
    for i, raw in enumerate(events):
        where = f"events[{i}]"
        hand = len(session.hands)
        if hand:
            where += f" (hand {hand})"
        try:
            ev = _remap(event_from_dict(raw), kept)
            kept[i] = _record(session, ev, where, problems)
        except (EventError, IllegalEvent) as exc:
            problems.append(Problem(where, str(exc)))


def _record(session: Session, ev: Event, where: str, problems: list[Problem]) -> int:
    """Record ``ev``; a new hand resynchronises on the pot the readable record gives, so one
    broken hand does not make every later hand unreadable (money stays conserved)."""
    try:
        return session.record(ev)
    except IllegalEvent as exc:
        if not isinstance(ev, HandStarted):
            raise
        ante = session.ante_due() if hasattr(session, "ante_due") else session.rules.ante
        fixed = replace(ev, carried=session.pot, ante=ante)
        if fixed == ev:
            raise
        position = session.record(fixed)
        problems.append(Problem(where, f"{exc}; reading on with pot {fixed.carried} and ante {fixed.ante}"))
        return position


def _remap(ev: Event, kept: dict[int, int]) -> Event:
    if not isinstance(ev, CardCorrected):
        return ev
    if ev.target not in kept:
        raise EventError(f"corrects events[{ev.target}], which was not kept")
    return replace(ev, target=kept[ev.target])
