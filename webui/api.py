"""The JSON API the page uses. Reads are open to anyone on the network; every write needs the
table's PIN, validates its input, and answers a bad request with a 4xx and a reason, leaving
the record unchanged."""

from __future__ import annotations

import json
import time
from functools import wraps
from typing import Any, Callable

from flask import (
    Blueprint,
    Response,
    current_app,
    jsonify,
    request,
    stream_with_context,
)

from engine.cards import CardError, card
from engine.events import (
    BIDS,
    KRATZEN_BIDS,
    BidMade,
    CardsShown,
    CutShown,
    CardCorrected,
    CardPlayed,
    EventError,
    Exchanged,
    FlagRuled,
    PlayMoved,
    RulesChanged,
    TrumpSixSwapped,
    Undo,
    UpcardShown,
    event_from_dict,
)
from engine.kratzen import KratzenRules
from engine.kratzen_session import KratzenSession
from engine.reasons import IllegalEvent, refused
from engine.rules import HouseRules, RulesError
from engine.session import Session
from vision.table.watch import AnswerError

from .guard import json_body
from .kratzen_state import hand_view as kratzen_hand_view
from .kratzen_state import kratzen_state
from .state import hand_view, table_state
from .table import TableService, dumps_state, export_json, ledger_csv, parse_history

api = Blueprint("api", __name__)
NAME_MAX = 24  # characters of a player's name: what fits a seat on the page


class BadRequest(ValueError):
    """Malformed input; ``code`` and ``values`` where a page's own request can cause it (its language)."""

    def __init__(self, message: str, code: str | None = None, **values: Any) -> None:
        super().__init__(message)
        self.code, self.values = code, values

    def to_dict(self) -> dict[str, Any]:
        return {"error": str(self), **({"code": self.code, "values": self.values} if self.code else {})}


def service() -> TableService:
    return current_app.extensions["table"]


def state_now() -> dict[str, Any]:
    """The page's state, computed once per version however many viewers ask for it."""
    s = service()
    with s.lock:
        if s.state_cache is None or s.state_cache[0] != s.version:
            camera = s.watcher.status() if s.watcher is not None else None
            if s.camera_note:  # preparing the demo, or a video that has ended
                camera = {**(camera or {"asks": [], "asked": 0, "on_table": [], "pending": [], "missing": [],
                                        "covered": {}}), "state": s.camera_note[0], "reason": s.camera_note[1]}
            if isinstance(s.session, KratzenSession):
                state = kratzen_state(s.session, s.version, camera, list(s.notices))
            else:
                state = table_state(s.session, s.version, camera, list(s.notices))
            s.state_cache = (s.version, {**state, "epoch": s.epoch})
        return s.state_cache[1]


@api.errorhandler(BadRequest)
def _bad(exc):
    return jsonify(exc.to_dict()), 400


@api.errorhandler(IllegalEvent)
def _illegal(exc):
    return jsonify(exc.to_dict()), 409


def writes(fn: Callable) -> Callable:
    """PIN, a JSON object body, the page's idea of the current hand; then the state after."""
    @wraps(fn)
    def wrapper(*args, **kwargs):
        s = service()
        refused = current_app.extensions["pin_guard"].refusal(s)
        if refused:
            return refused
        epoch = request.headers.get("X-Table-Epoch")
        if epoch and epoch != s.epoch:
            return jsonify(error="the server was restarted since this page was loaded: it reloads now; "
                                 "tap again if it is still needed", reload=True, code="restarted"), 409
        body, refused = json_body()
        if refused:
            return refused
        expect = body.get("expect_hand")
        with s.lock:
            if expect is not None and expect != len(s.session.hands):
                return jsonify(code="moved_on", hand=len(s.session.hands),
                               error=f"the table has moved on to hand {len(s.session.hands)}: "
                                     "reload the page and try again"), 409
            fn(body, *args, **kwargs)
        return jsonify(state_now())
    return wrapper


def _str(body: dict, key: str) -> str:
    v = body.get(key)
    if not isinstance(v, str) or not v.strip():
        raise BadRequest(f"'{key}' must be a non-empty string")
    return v.strip()


def _int(body: dict, key: str) -> int:
    v = body.get(key)
    if not isinstance(v, int) or isinstance(v, bool):
        raise BadRequest(f"'{key}' must be an integer")
    return v


def _card(body: dict, key: str = "card"):
    try:
        return card(_str(body, key))
    except CardError as exc:
        raise BadRequest(str(exc)) from None


def _cards(body: dict, key: str = "cards") -> tuple:
    v = body.get(key)
    if not isinstance(v, list) or not v or not all(isinstance(x, str) for x in v):
        raise BadRequest(f"'{key}' must be a list of card codes")
    try:
        return tuple(card(x) for x in v)
    except CardError as exc:
        raise BadRequest(str(exc)) from None


def chratze_only(what: str) -> None:
    """Refuse what only Chratze has (a trump-6 swap, a flag's ruling, house rules, moves) at a Kratzen table."""
    if isinstance(service().session, KratzenSession):
        raise refused("chratze_only", what=what)


# ------------------------------------------------------------------ reads
@api.get("/state")
def get_state():
    return jsonify(state_now())


@api.get("/events")
def events():
    """Server-Sent Events: the whole state each time it changes (and a heartbeat)."""
    s = service()
    once = request.args.get("once") == "1"  # tests read one message

    def stream():
        version = -1
        yield "retry: 1000\n\n"  # a page reconnects within a second of a server restart
        while True:
            new = s.wait(version, 15.0)
            if new == version:
                yield ": heartbeat\n\n"
                continue
            version = new
            yield f"id: {version}\nevent: state\ndata: {dumps_state(state_now())}\n\n"
            if once:
                return

    return Response(stream_with_context(stream()), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@api.get("/hand/<int:number>")
def get_hand(number: int):
    """One hand of the evening as the review shows it (an earlier hand's flags are ruled on there)."""
    s = service()
    with s.lock:
        if not 1 <= number <= len(s.session.hands):
            return jsonify(error=f"no hand {number}: {len(s.session.hands)} played so far"), 404
        if isinstance(s.session, KratzenSession):
            return jsonify(kratzen_hand_view(s.session.hands[number - 1], number))
        return jsonify(hand_view(s.session, s.session.hands[number - 1]))


@api.get("/export.json")
def export():
    return _download(export_json, "application/json", "chratze-{}.json")


@api.get("/ledger.csv")
def ledger():
    return _download(ledger_csv, "text/csv", "chratze-ledger-{}.csv")


def _download(render: Callable[[Session], str], mimetype: str, name: str) -> Response:
    s = service()
    with s.lock:
        text = render(s.session)
    return Response(text, mimetype=mimetype,
                    headers={"Content-Disposition": f"attachment; filename={name.format(time.strftime('%Y%m%d'))}"})


# ------------------------------------------------------------------ writes
@api.post("/hand/start")
@writes
def start_hand(body):
    seats = body.get("seats")
    if seats is not None and (not isinstance(seats, list) or not seats
                              or not all(isinstance(x, str) and x.strip() for x in seats)):
        raise BadRequest("'seats' must be a list of player names, in play order")
    if seats and any(len(x.strip()) > NAME_MAX for x in seats):
        raise BadRequest(f"a player's name is at most {NAME_MAX} characters", "name_long", max=NAME_MAX)
    dealer = body.get("dealer")
    if dealer is not None and (not isinstance(dealer, str) or not dealer.strip()):
        raise BadRequest("'dealer' must be a player's name")
    service().start_hand([x.strip() for x in seats] if seats else None, dealer)


@api.post("/bid")
@writes
def bid(body):
    b = _str(body, "bid").lower().replace(" ", "_")
    known = KRATZEN_BIDS if isinstance(service().session, KratzenSession) else BIDS
    if b not in known:
        raise BadRequest(f"unknown bid {b!r}; known: {', '.join(known)}")
    service().record(BidMade(_str(body, "player"), b))


@api.post("/exchange")
@writes
def exchange(body):
    service().record(Exchanged(_str(body, "player"), _int(body, "count")))


@api.post("/upcard")
@writes
def upcard(body):
    service().record(UpcardShown(_card(body)))


@api.post("/play")
@writes
def play(body):
    s = service()
    player = body.get("player")
    if player is None:  # whoever is to play
        hand = s.session.current
        turn = hand.whose_turn() if hand else None
        if turn is None:
            raise refused("nobody_to_play")
        player = hand.seats[turn]
    elif not isinstance(player, str) or not player.strip():
        raise BadRequest("'player' must be a player's name")
    s.record(CardPlayed(player.strip(), _card(body)))


@api.post("/cut")
@writes
def cut(body):
    """Kratzen: the card cut (and the lower packet's bottom card after a Seven, a Sau or the Weli)."""
    service().record(CutShown(_cards(body)))


@api.post("/shown")
@writes
def shown(body):
    """Kratzen: the cards a player drew beyond the third in the exchange, shown face up."""
    service().record(CardsShown(_str(body, "player"), _cards(body)))


@api.post("/swap")
@writes
def swap(body):
    chratze_only("swap")
    service().record(TrumpSixSwapped(_str(body, "player")))


@api.post("/correct")
@writes
def correct(body):
    service().record(CardCorrected(_int(body, "position"), _card(body)))


@api.post("/move")
@writes
def move_play(body):
    """Take an earlier play (a card laid before the trick in front was complete) as made now."""
    chratze_only("move")
    position = body.get("position")
    if not isinstance(position, int) or isinstance(position, bool):
        raise BadRequest("'position' must be the play's position in the record")
    service().record(PlayMoved(position))


@api.post("/undo")
@writes
def undo(body):
    service().record(Undo())


@api.post("/flag")
@writes
def rule_flag(body):
    chratze_only("flag")
    upheld = body.get("upheld")
    if not isinstance(upheld, bool):
        raise BadRequest("'upheld' must be true or false")
    hand = body.get("hand")  # an earlier hand's flag; none: the current hand's
    if hand is not None and (not isinstance(hand, int) or isinstance(hand, bool) or hand < 1):
        raise BadRequest("'hand' must be a hand's number, from 1")
    service().record(FlagRuled(_str(body, "flag"), upheld, hand))


@api.post("/rules")
@writes
def change_rules(body):
    """House rules from the next hand on (between hands only); the hands played keep theirs."""
    chratze_only("rules")
    try:
        rules = HouseRules.from_dict(body.get("rules"))
    except (RulesError, TypeError) as exc:
        raise BadRequest(f"house rules: {exc}", "rules_bad", detail=str(exc)) from None
    service().record(RulesChanged(rules))


@api.post("/event")
@writes
def any_event(body):
    """Any event in the hand-history form (for tools; the page uses the endpoints above)."""
    try:
        ev = event_from_dict(body.get("event"))
    except EventError as exc:
        raise BadRequest(str(exc)) from None
    service().record(ev)


@api.post("/camera/excuse")
@writes
def excuse(body):
    s = service()
    if s.watcher is None:
        raise BadRequest("no camera is running", "no_camera")
    s.note(s.watcher.excuse(_card(body).code))
    s.bump()


@api.post("/camera/answer")
@writes
def answer(body):
    """The table names the card the camera asked about; it is recorded as named. To "did Anna lay a card
    the camera missed?" the answer is her card, or ``none``, as it is to "which card lies there?" where no
    card does; to "which card of trick 3 did the camera miss?" it is the card and, in ``player``, whose; and so
    to "which card lies there?" for a card laid before the ones recorded on it since (a seat with one recorded)."""
    s = service()
    if s.watcher is None:
        raise BadRequest("no camera is running", "no_camera")
    ask = body.get("ask")
    if not isinstance(ask, int) or isinstance(ask, bool):
        raise BadRequest("'ask' must be the number of the question")
    player = body.get("player")
    if player is not None and not isinstance(player, str):
        raise BadRequest("'player' must be a player's name")
    code = "none" if body.get("card") == "none" else _card(body).code  # none: no card missed, or none lies there
    try:
        s.note(s.watcher.answer(ask, code, player))
    except AnswerError as exc:
        raise BadRequest(str(exc)) from None
    s.bump()


@api.post("/session/new")
@writes
def new_session(body):
    """A new evening: Chratze with its house rules, or Kratzen (``"ruleset": "kratzen"``) with its own."""
    ruleset = body.get("ruleset", "chratze")
    if ruleset not in ("chratze", "kratzen"):
        raise BadRequest(f"unknown ruleset {ruleset!r}; known: chratze, kratzen")
    try:
        rules = (KratzenRules if ruleset == "kratzen" else HouseRules).from_dict(body.get("rules") or {})
    except (RulesError, TypeError, ValueError) as exc:
        raise BadRequest(f"house rules: {exc}", "rules_bad", detail=str(exc)) from None
    meta = body.get("meta") or {}
    if not isinstance(meta, dict):
        raise BadRequest("'meta' must be an object")
    try:
        kind = KratzenSession if ruleset == "kratzen" else Session
        session = kind(rules, meta, opening_pot=body.get("opening_pot", 0))
    except ValueError as exc:
        raise BadRequest(str(exc), "opening_pot_bad") from None
    service().replace_session(session)


@api.post("/session/load")
@writes
def load_session(body):
    doc = body.get("history")
    if not isinstance(doc, (dict, str)):
        raise BadRequest("'history' must be a hand history (the JSON that export writes)", "history_bad", detail="")
    try:
        session = parse_history(doc if isinstance(doc, str) else json.dumps(doc))
    except ValueError as exc:
        raise BadRequest(f"that hand history cannot be loaded: {exc}", "history_bad", detail=str(exc)) from None
    service().replace_session(session)
