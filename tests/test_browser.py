"""The tablet page in a real browser: Playwright driving Debian's Chromium (no browser download).

A whole hand is tapped through; the trick winner and the settlement appear live (by SSE, the
page is never reloaded); a card is corrected and a tap undone; the review rules a flag.
Screenshots of the table view and the review go to docs/screenshots/.
"""

import shutil
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
playwright = pytest.importorskip("playwright.sync_api", reason="pip install playwright (the test extra has it)")
if not Path(CHROMIUM).exists():
    pytest.skip("Debian's Chromium is not installed (apt-get install chromium)", allow_module_level=True)

from werkzeug.serving import make_server  # noqa: E402

from tests.reads import R  # noqa: E402
from webui import create_app  # noqa: E402

PIN = "2468"
RESTART_PIN = "1357"  # tests.test_server_restart's
SHOTS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"


@contextmanager
def serving(app):
    """``app`` served on a free port of this machine, for as long as the block runs: its address."""
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{srv.server_port}"
    finally:
        srv.shutdown()


@contextmanager
def landscape_page(browser, lang: str | None = "en", pin: str | None = None):
    """A page on a 1024x768 landscape tablet in ``lang`` (None: the page's own default), holding ``pin``."""
    ctx = browser.new_context(viewport={"width": 1024, "height": 768}, locale="de-CH" if lang == "de" else "en-GB")
    script = (f"sessionStorage.setItem('chratze-pin', '{pin}');" if pin else "") + \
        (f"localStorage.setItem('chratze-lang', '{lang}');" if lang else "")
    if script:
        ctx.add_init_script(script)
    try:
        yield ctx.new_page()
    finally:
        ctx.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    app = create_app(tmp_path_factory.mktemp("table"), pin=PIN)
    with serving(app) as url:
        yield url, app


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def page(browser, server):
    ctx = browser.new_context(viewport={"width": 1024, "height": 1366}, locale="en-GB")  # a tablet, upright
    ctx.add_init_script(f"sessionStorage.setItem('chratze-pin', '{PIN}'); localStorage.setItem('chratze-lang', 'en');")
    pg = ctx.new_page()
    yield pg
    ctx.close()


def pick(page, code):
    page.locator(f"#picker-cards [data-card='{code}']").click()


def tap_bid(page, player, bid):
    page.locator(f".bids[data-player='{player}'] button[data-bid='{bid}']").click()


def test_a_whole_hand_tapped_through_with_live_winner_settlement_correction_and_undo(page, server):
    url, app = server
    page.goto(url + "/")
    page.fill("#seats", "Anna, Beat, Cla")
    page.click("#start")
    page.wait_for_selector("#set-upcard")
    page.click("#set-upcard")
    pick(page, "Kh")
    page.wait_for_selector("#upcard[data-card='Kh']")
    tap_bid(page, "Beat", "chratze")
    tap_bid(page, "Cla", "metcho")
    tap_bid(page, "Anna", "weg")
    page.locator(".exchange button[data-count='0']").click()
    page.wait_for_selector("text=Cla exchanges")
    page.locator(".exchange button[data-count='1']").click()
    plays = [("9h",), ("Th",), ("Ah",), ("6h",), ("7s",), ("As",), ("8c",), ("9c",)]
    for k, (code,) in enumerate(plays):
        page.wait_for_selector("#play")
        page.click("#play")
        shown = code if k != 0 else "8h"  # first a misread: the 8h
        pick(page, shown)
        page.wait_for_selector(f"#app [data-card='{shown}']")  # the answer is on the page before the next tap
        if k == 0:
            page.wait_for_selector("#trick [data-card='8h']")
            page.locator("#trick [data-card='8h']").click()  # correct it to the 9h
            pick(page, "9h")
            page.wait_for_selector("#trick [data-card='9h']")
        if k == 1:
            page.wait_for_selector("#tricks .winner")
            assert page.locator("#tricks li").first.locator(".winner").inner_text() == "Cla"
        if k == 2:  # a wrong card, undone
            page.wait_for_selector("#play:has-text('Beat')")
            page.click("#play")
            pick(page, "Qs")
            page.wait_for_selector("#tricks [data-card='Qs']")  # it closed trick 2
            page.click("#undo")
            page.wait_for_selector("#app [data-card='Qs']", state="detached")
    page.wait_for_selector("#settlement")
    text = page.locator("#settlement").inner_text()
    assert "Cla gets 0.60" in text and "Beat pays 1.20" in text
    assert [w.inner_text() for w in page.locator("#tricks .winner").all()] == ["Cla", "Cla", "Beat", "Cla"]
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "table-view.png"), full_page=True)


def test_the_page_follows_a_tap_made_elsewhere_without_reloading(page, server, browser):
    url, app = server
    page.goto(url + "/")
    page.wait_for_selector("#pot")
    page.evaluate("window.__marker = 42")  # gone if the page reloads
    with app.test_client() as other:  # another tablet starts the next hand
        r = other.post("/api/hand/start", json={}, headers={"X-Table-Pin": PIN})
        assert r.status_code == 200
    page.wait_for_selector("text=Hand 2", timeout=3000)
    assert page.evaluate("window.__marker") == 42


def test_the_review_shows_each_flag_with_evidence_and_rules_on_it(page, server):
    url, app = server
    with app.test_client() as c:
        h = {"X-Table-Pin": PIN}
        for path, body in (("/api/upcard", {"card": "Kd"}), ("/api/bid", {"player": "Cla", "bid": "chratze"}),
                           ("/api/bid", {"player": "Anna", "bid": "metcho"}), ("/api/bid", {"player": "Beat", "bid": "weg"}),
                           ("/api/exchange", {"player": "Cla", "count": 0}), ("/api/exchange", {"player": "Anna", "count": 0}),
                           ("/api/play", {"player": "Cla", "card": "9d"}), ("/api/play", {"player": "Anna", "card": "7s"}),
                           ("/api/play", {"player": "Cla", "card": "Ac"}), ("/api/play", {"player": "Anna", "card": "Td"})):
            assert c.post(path, json=body, headers=h).status_code == 200, (path, body)
    page.goto(url + "/review")
    flag = page.locator("article.flag").first
    flag.wait_for()
    assert "Anna" in flag.inner_text() and "Evidence" in flag.inner_text()
    assert flag.locator("p.said").inner_text() == "Entered on the tablet"  # no camera read it
    flag.locator("button.dismiss").click()
    page.wait_for_selector("article.flag.dismissed")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "review.png"), full_page=True)


def test_the_page_speaks_german(page, server):
    url, _ = server
    page.add_init_script("localStorage.setItem('chratze-lang', 'de');")
    page.goto(url + "/")
    page.wait_for_selector("text=Pott")
    assert page.locator("nav a.on").inner_text() == "Tisch"


def test_setup_teaches_a_deck_card_by_card(page, server, tmp_path, monkeypatch):
    import cv2

    from datasets.art import scanned_pack
    from datasets.held_out import capture_frame

    monkeypatch.setenv("CHRATZE_DATA", str(tmp_path / "data"))
    url, app = server
    rgb = capture_frame(scanned_pack("swiss-french")["6h"], 123_460)
    app.extensions["table"].camera_raw = cv2.imencode(".jpg", rgb[..., ::-1])[1].tobytes()
    page.goto(url + "/setup")
    page.wait_for_selector("#teach h2")
    page.wait_for_function("document.getElementById('join-url').textContent.startsWith('http://')")
    assert page.evaluate("document.getElementById('join-qr').naturalWidth") > 100  # the QR code drawn
    page.fill("#deck-name", "ours")
    page.select_option("#deck-pack", "swiss-french")
    page.get_by_role("button", name="Start teaching").click()
    page.wait_for_selector("#teach-next")
    assert "Lay the 6 of hearts alone on the trump spot" in page.inner_text("#teach-next")
    feeding = threading.Event()

    def feed():  # the camera's frames: the card lying still
        while not feeding.is_set():
            app.extensions["table"].camera_raw = cv2.imencode(".jpg", rgb[..., ::-1])[1].tobytes()
            feeding.wait(0.03)

    threading.Thread(target=feed, daemon=True).start()
    try:
        page.get_by_role("button", name="Take it").click()
        page.wait_for_selector("figure[data-card='6h'] img")
    finally:
        feeding.set()
    assert "Lay the 7 of hearts" in page.inner_text("#teach-next")
    page.screenshot(path=str(SHOTS / "setup-teach.png"), full_page=False)


def test_pages_open_across_a_server_restart_reload_and_show_the_true_state(browser, tmp_path):
    import signal
    import time
    from contextlib import ExitStack

    from tests.test_server_restart import call, start

    proc, url = start(tmp_path)
    port = url.rsplit(":", 1)[1]
    call(url, "/api/hand/start", {"seats": ["Anna", "Beat", "Cla"]})
    try:
        with ExitStack() as stack:
            pages = [stack.enter_context(landscape_page(browser, pin=RESTART_PIN)) for _ in range(2)]
            for pg in pages:
                pg.goto(url + "/")
                pg.wait_for_selector("#turn")
                pg.evaluate("window.loadedBefore = true")
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            proc, url = start(tmp_path, port)  # the same table started again: a new epoch, its version from 1 again
            call(url, "/api/upcard", {"card": "Kh"})
            t0 = time.monotonic()
            for pg in pages:
                pg.wait_for_selector("#upcard[data-card='Kh']", timeout=10_000)
                assert pg.evaluate("window.loadedBefore === undefined")  # it reloaded
            print(f"both pages showed the restarted server's state {time.monotonic() - t0:.2f} s after its first write")
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()


def test_the_cameras_notices_and_state_speak_german(page, server):
    from engine.cards import card
    from engine.events import CardPlayed, TrumpSixSwapped
    from vision.table.watch import Notice, _describe

    url, app = server
    s = app.extensions["table"]
    events = [CardPlayed("Cla", card("9h")), TrumpSixSwapped("Beat")]  # as the watcher notes what it records
    with s.lock:
        s.note([Notice("recorded", _describe(ev), {"position": 7, "event": ev.to_dict()}) for ev in events]
               + [Notice("camera", "camera back", {"state": "ok"})])
        s.bump()
    page.add_init_script("localStorage.setItem('chratze-lang', 'de');")
    page.goto(url + "/")
    page.wait_for_selector("ul.notices")
    text = page.inner_text("ul.notices")
    assert "Cla spielt 9h" in text and "Beat hat die Trumpf-6" in text and "Kamera wieder da" in text
    assert "plays" not in text and "swapped" not in text


def _on_screen(page, selector: str, height: int = 768) -> bool:
    box = page.locator(selector).first.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def test_a_landscape_tablet_shows_the_live_state_and_the_taps_on_one_screen_through_a_hand(browser, tmp_path):
    with serving(create_app(tmp_path, pin=PIN)) as url, landscape_page(browser, pin=PIN) as page:
        page.goto(url + "/")
        page.wait_for_selector("#seats")
        page.fill("#seats", "Anna, Beat, Cla, Doris")
        page.click("#start")
        page.click("#set-upcard")
        pick(page, "Kh")
        page.wait_for_selector("#upcard[data-card='Kh']")
        assert _on_screen(page, ".bids") and _on_screen(page, "#pot")
        for p, b in (("Beat", "chratze"), ("Cla", "metcho"), ("Doris", "metcho"), ("Anna", "weg")):
            tap_bid(page, p, b)
        for _ in range(3):
            page.locator(".exchange button[data-count='0']").click()
            page.wait_for_timeout(150)
        for k, code in enumerate(["9h", "Th", "Ah", "6h", "7h", "8h", "7s", "As", "Qs", "8c", "9c", "Tc"]):
            page.wait_for_selector("#play")
            assert _on_screen(page, "#play") and _on_screen(page, "#undo") and _on_screen(page, "#trick"), k
            assert _on_screen(page, "#pot") and _on_screen(page, "#turn") and _on_screen(page, "#targets"), k
            if k == 9:
                page.screenshot(path=str(SHOTS / "table-landscape-trick4.png"))
            page.click("#play")
            pick(page, code)
            page.wait_for_selector(f"#app [data-card='{code}']")
        page.wait_for_selector("#settlement")
        assert _on_screen(page, "#settlement") and _on_screen(page, "#start") and _on_screen(page, "#tricks")
        assert page.locator("#trick").count() == 0  # no empty seats under "Trick 4" after the hand
        assert "Beat" in page.locator("#tricks .by").first.inner_text()  # who played which card
        page.screenshot(path=str(SHOTS / "table-landscape-settled.png"))


def test_names_being_typed_survive_a_tap_on_another_tablet(browser, tmp_path):
    app = create_app(tmp_path, pin=PIN)
    with serving(app) as url, landscape_page(browser, lang=None) as page:
        page.goto(url + "/")
        page.wait_for_selector("#seats")
        page.click("#seats")
        page.keyboard.type("Anna, Be")
        version = page.evaluate("STATE.version")
        s = app.extensions["table"]
        with s.lock:  # another tablet's write: every page redraws
            s.bump()
        page.wait_for_function(f"STATE.version > {version}")
        assert page.input_value("#seats") == "Anna, Be"
        assert page.evaluate("document.activeElement.id") == "seats"
        page.keyboard.type("at")
        assert page.input_value("#seats") == "Anna, Beat"


def test_an_update_changes_the_page_in_place(browser, tmp_path):
    """Elements that stay on screen are the same elements after an update; only what changed is touched."""
    app = create_app(tmp_path, pin=PIN)
    with serving(app) as url, landscape_page(browser, pin=PIN) as page:
        page.goto(url + "/")
        page.fill("#seats", "Anna, Beat, Cla")
        page.click("#start")
        page.wait_for_selector("#set-upcard")
        page.evaluate("for (const id of ['undo', 'pot', 'set-upcard']) document.getElementById(id).kept = id")
        with app.test_client() as other:  # another tablet names the upcard
            assert other.post("/api/upcard", json={"card": "Kh"}, headers={"X-Table-Pin": PIN}).status_code == 200
        page.wait_for_selector("#upcard[data-card='Kh']")
        assert page.evaluate("document.getElementById('undo').kept") == "undo"
        assert page.evaluate("document.getElementById('pot').kept") == "pot"
        assert page.locator("#set-upcard").count() == 0  # what the new state no longer has is gone
        tap_bid(page, "Beat", "chratze")  # and a kept button runs the newest state's action
        page.wait_for_selector(".bids[data-player='Cla']")


def test_a_name_typed_but_left_keeps_its_text_over_updates(browser, tmp_path):
    app = create_app(tmp_path, pin=PIN)
    with serving(app) as url, landscape_page(browser, lang=None) as page:
        page.goto(url + "/")
        page.wait_for_selector("#seats")
        page.fill("#seats", "Anna, Beat")
        page.click("#dealer")  # the player moved on to the dealer field
        version = page.evaluate("STATE.version")
        s = app.extensions["table"]
        with s.lock:
            s.bump()
        page.wait_for_function(f"STATE.version > {version}")
        assert page.input_value("#seats") == "Anna, Beat"


def test_a_button_under_a_finger_is_not_replaced_until_it_lifts(browser, tmp_path):
    app = create_app(tmp_path, pin=PIN)
    with serving(app) as url, landscape_page(browser, lang=None) as page:
        page.goto(url + "/")
        page.wait_for_selector("#start")
        page.evaluate("document.getElementById('start').marked = true")
        box = page.locator("#start").bounding_box()
        page.mouse.move(box["x"] + 5, box["y"] + 5)
        page.mouse.down()
        version = page.evaluate("STATE.version")
        s = app.extensions["table"]
        with s.lock:
            s.bump()
        page.wait_for_function("PENDING !== null")  # the update came, and waits
        assert page.evaluate("document.getElementById('start').marked === true")
        page.mouse.up()
        page.wait_for_function(f"STATE.version > {version}")  # and is drawn once the finger lifts


def test_house_rules_are_switches_and_a_new_evening_takes_them_and_a_carried_pot(browser, tmp_path):
    app = create_app(tmp_path, pin=PIN)
    with serving(app) as url, landscape_page(browser, pin=PIN) as page:
        page.goto(url + "/setup")
        page.wait_for_selector("#rule-letzter")
        assert page.locator("textarea").count() == 0
        page.check("#rule-letzter")
        page.fill("#rule-ante", "50")
        page.select_option("#rule-split", "by_role")
        page.fill("#opening-pot", "340")
        page.click("#new-session")
        page.wait_for_function("STATE && STATE.pot === 340")
        rules = app.extensions["table"].session.rules
        assert rules.letzter and rules.ante == 50 and rules.split == "by_role"
        page.screenshot(path=str(SHOTS / "setup-rules.png"))


def test_the_page_warns_when_the_camera_may_have_moved(browser, tmp_path):
    from vision.table.watch import CameraCheck, Watcher

    app = create_app(tmp_path, pin=PIN)
    s = app.extensions["table"]
    s.watcher = Watcher(s.session, None)
    s.watcher.warning = CameraCheck("mat_unseen", "the mat's markers have been out of view for 6 s", {"seconds": 6})
    with serving(app) as url, landscape_page(browser) as page:
        page.goto(url + "/")
        page.wait_for_selector("#camera-warning")
        text = page.inner_text("#camera-warning")
        assert "Check the camera" in text and "out of view" in text
        assert page.locator("#camera-warning a[href='/camera']").count() == 1


def test_the_page_says_in_german_that_the_camera_moved_under_its_zones(browser, tmp_path):
    from vision.table.watch import CameraCheck, Watcher

    app = create_app(tmp_path, pin=PIN)
    s = app.extensions["table"]
    s.watcher = Watcher(s.session, None)
    s.watcher.warning = CameraCheck("moved", "the camera seems to have moved (the zones are off by 5 % ...)", {"percent": 5})
    with serving(app) as url, landscape_page(browser, lang="de") as page:
        page.goto(url + "/")
        page.wait_for_selector("#camera-warning")
        text = page.inner_text("#camera-warning")
        assert "Die Kamera scheint verschoben (die Zonen liegen 5 % daneben)" in text and "seems" not in text
        assert page.locator("#camera-warning a[href='/camera']").count() == 1


def test_a_table_playing_the_swiss_german_pack_sees_its_signs(browser, tmp_path):
    app = create_app(tmp_path, pin=PIN)
    s = app.extensions["table"]
    s.start_hand(["Anna", "Beat", "Cla"], None)
    from engine.cards import card
    from engine.events import UpcardShown

    s.record(UpcardShown(card("Th")))
    with serving(app) as url, landscape_page(browser, lang="de") as page:
        page.goto(url + "/setup")
        page.wait_for_selector("#signs")
        page.select_option("#signs", "german")
        page.goto(url + "/")
        page.wait_for_selector("#upcard")
        assert page.locator("#upcard svg.sign").count() == 1  # the Rosen sign, not the French heart
        assert page.inner_text("#upcard").strip().startswith("B")  # the Rosen Banner
        page.screenshot(path=str(SHOTS / "table-swiss-german-signs.png"))


def test_a_wrong_pin_is_told_in_german(browser, tmp_path):
    with serving(create_app(tmp_path, pin=PIN)) as url, landscape_page(browser, lang="de", pin="000000") as page:
        page.goto(url + "/")
        page.wait_for_selector("#seats")
        page.fill("#seats", "Anna, Beat, Cla")
        page.click("#start")
        page.wait_for_selector("#banner:not([hidden])")
        assert page.inner_text("#banner") == "Falsche oder fehlende PIN des Tisches"


def test_the_referees_refusal_is_told_in_german(browser, tmp_path):
    app = create_app(tmp_path, pin=PIN)
    with serving(app) as url, landscape_page(browser, lang="de", pin=PIN) as page:
        page.goto(url + "/")
        page.fill("#seats", "Anna, Beat, Cla")
        page.click("#start")
        page.click("#set-upcard")
        pick(page, "Kh")
        page.wait_for_selector("#upcard[data-card='Kh']")
        page.evaluate("send('/api/bid', { player: 'Anna', bid: 'chratze' })")  # a stale tablet's tap, out of turn
        page.wait_for_selector("#banner:not([hidden])")
        assert page.inner_text("#banner") == "Beat ist mit Bieten an der Reihe"
        page.evaluate("send('/api/play', { player: 'Beat', card: '9h' })")  # a phase named in German too
        page.wait_for_function("document.getElementById('banner').textContent.includes('Bieten')"
                               " && !document.getElementById('banner').textContent.includes('Reihe')")
        assert page.inner_text("#banner") == "Während «Bieten» wird keine Karte gespielt"


def test_the_review_rules_on_a_flag_of_an_earlier_hand(browser, tmp_path):
    from engine.rules import HouseRules
    from tests.test_webui_later import revoke_hand

    app = create_app(tmp_path, pin="4711", rules=HouseRules(revoke_penalty=True))
    with app.test_client() as client:
        revoke_hand(client)
        client.post("/api/hand/start", json={}, headers={"X-Table-Pin": "4711"})  # the evening moved on
    with serving(app) as url, landscape_page(browser, pin="4711") as page:
        page.goto(url + "/review")
        page.wait_for_selector("#review-hand")
        page.select_option("#review-hand", "1")
        page.wait_for_selector("article.flag.open")
        assert "Cla" in page.inner_text("article.flag header") and "Cla pays" in page.inner_text("#settlement")
        page.click("article.flag .dismiss")
        page.wait_for_selector("article.flag.dismissed")
        page.wait_for_selector("#settlement:has-text('Cla gets')")  # Cla's share, now the revoke is dismissed
        assert app.extensions["table"].session.hands[0].flags.popitem()[1].status == "dismissed"


def test_setup_changes_house_rules_from_the_next_hand(browser, tmp_path):
    app = create_app(tmp_path, pin=PIN)
    with serving(app) as url, landscape_page(browser, pin=PIN) as page:
        page.goto(url + "/setup")
        page.fill("#rule-ante", "50")
        page.click("#rules-next-hand")
        page.wait_for_selector("#banner.ok")
        assert app.extensions["table"].session.rules.ante == 50
        assert app.extensions["table"].session.log[-1].type == "rules_changed"


def test_the_page_says_which_early_card_holds_the_hand_up_and_takes_it_now(browser, tmp_path):
    from tests.test_webui_later import held_hand

    app = create_app(tmp_path, pin="4711")
    with app.test_client() as client:
        held_hand(client)
    with serving(app) as url, landscape_page(browser, pin="4711", lang="de") as page:
        page.goto(url + "/")
        page.wait_for_selector("#held-up")
        text = page.inner_text("#held-up")
        assert "Cla hat 8c gelegt, bevor Stich 2 fertig war" in text
        page.click("#take-early")
        page.wait_for_selector("#held-up", state="detached")
        assert page.locator("#tricks li").nth(2).locator("[data-card='8c']").count() == 1
        assert app.extensions["table"].session.log[-1].type == "move_play"


def test_a_player_asks_the_advisor_on_a_phone(browser, tmp_path):
    app = create_app(tmp_path, pin=PIN)
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-CH")
    ctx.add_init_script("localStorage.setItem('chratze-lang', 'de');")
    page = ctx.new_page()
    try:
        with serving(app) as url:
            page.goto(url + "/advise")
            page.click("#adv-trump-pick")
            pick(page, "Kh")
            page.click("#adv-hand-pick")
            for code in ("As", "9s", "Jh", "7c"):
                page.locator(f"#picker-cards [data-card='{code}']").click()
                page.wait_for_timeout(100)
            page.select_option("#adv-seat", "2")
            assert page.locator("#adv-hand [data-card]").count() == 4
            page.click("#adv-ask")
            page.wait_for_selector("#adv-table [data-say='metcho']", timeout=20000)
            assert "Stiche" in page.inner_text("#adv-table") and "Am besten" in page.inner_text("#adv-best")
            assert page.locator("#adv-table .best").count() == 1
            assert app.extensions["table"].session.log == []  # nothing recorded at the table
            page.screenshot(path=str(SHOTS / "advise-phone.png"), full_page=True)
    finally:
        ctx.close()


def caught_up(page, app, done: int) -> None:
    """Wait for the tap to be recorded (the log longer than ``done``) and the page to show that state."""
    import time

    service, deadline = app.extensions["table"], time.time() + 10
    while len(service.session.log) <= done:
        assert time.time() < deadline, f"the tap was not recorded; the page says: {page.inner_text('#banner')!r}"
        time.sleep(0.02)
    with service.lock:  # the log grows before the version is bumped, both under the lock
        version = service.version
    page.wait_for_function(f"STATE && STATE.version >= {version}")


def test_an_evening_of_kratzen_is_chosen_in_setup_and_tapped_through_on_the_page(browser, tmp_path):
    """Two hands of a simulated Kratzen evening tapped on the page: the Muss (cut, cards turned, play),
    then a hand with contracts, play or drop and buying; each ends in the referee's settlement."""
    import random

    from engine.kratzen_session import KratzenSession
    from engine.kratzen_simulate import simulate_kratzen_session

    evening = simulate_kratzen_session(random.Random(11), 2, 4, KratzenSession(), bots="hhhh")
    app = create_app(tmp_path, pin=PIN)
    with serving(app) as url, landscape_page(browser, pin=PIN) as page:
        page.goto(url + "/setup")
        page.wait_for_selector("#ruleset")
        page.select_option("#ruleset", "kratzen")
        page.click("#new-session")
        page.wait_for_function("STATE && STATE.ruleset === 'kratzen'")
        page.goto(url + "/")
        for n, hand in enumerate(evening.hands):
            if n == 0:
                page.fill("#seats", ", ".join(hand.seats))
            page.wait_for_selector("#start")
            page.click("#start")
            page.wait_for_function(f"STATE && STATE.hand && STATE.hand.number === {n + 1}")
            for ev in hand.events[1:]:
                done = len(app.extensions["table"].session.log)
                if ev.type == "cut":
                    page.click("#k-cut")
                    for c in ev.cards:
                        pick(page, c.code)
                elif ev.type == "upcard":
                    page.click("#set-upcard")
                    pick(page, ev.card.code)
                elif ev.type == "bid":
                    tap_bid(page, ev.player, ev.bid)
                elif ev.type == "exchange":
                    page.locator(f".exchange button[data-count='{ev.count}']").click()
                elif ev.type == "shown":
                    page.click("#k-show")
                    for c in ev.cards:
                        pick(page, c.code)
                elif ev.type == "play":
                    page.click("#play")
                    page.wait_for_selector(f"#picker[open] #picker-title:has-text('{ev.player}')")
                    pick(page, ev.card.code)
                else:
                    continue  # the hands are never said at the table
                caught_up(page, app, done)
            page.wait_for_selector("#settlement")
            session = app.extensions["table"].session
            assert session.hands[n].events[1:] == [e for e in hand.events[1:] if e.type != "hands_known"]
        assert session.balances == evening.balances
        page.click("#undo")  # back into the last trick: the picker shows the Tell pack, the Weli by name
        page.wait_for_selector("#play")
        page.click("#play")
        assert page.locator("#picker-cards [data-card]").count() == 33
        assert page.locator("#picker-cards [data-card='6d']").inner_text() == "Weli"
        page.keyboard.press("Escape")
        page.screenshot(path=str(SHOTS / "kratzen.png"))


def watch_zones(service, seat: str) -> None:
    """A camera watcher on the table's session, with a zone for ``seat`` (the frame's top left) and the
    upcard spot beside it."""
    from vision.table.layout import TableLayout
    from vision.table.watch import Watcher

    layout = TableLayout.from_dict({"zones": {seat: [[0, 0], [200, 0], [200, 200], [0, 200]],
                                              "upcard": [[300, 0], [500, 0], [500, 200], [300, 200]]}})
    service.watcher = Watcher(service.session, layout, on_record=service.on_watcher_record)


def two_seconds_of(service, read) -> None:
    """Two seconds of camera frames (20 a second) that each show ``read``, then the page woken."""
    with service.lock:
        for k in range(40):
            service.watcher.reads([read], 0.05 * k)
        service.bump()


def table_of(app, play):
    """The live table's test double (tests.test_live_table.Table) on the app's session and camera watcher,
    ``play`` played on it, and the page woken."""
    from tests.test_live_table import Table
    from vision.table.watch import Watcher

    s = app.extensions["table"]
    t = Table()
    t.session, t.watcher = s.session, Watcher(s.session, on_record=s.on_watcher_record)
    s.watcher = t.watcher
    with s.lock:
        play(t)
        s.bump()
    return t


def test_the_page_asks_for_an_upcard_the_camera_never_saw_and_a_pick_records_it(browser, tmp_path):
    """A card lies at Beat's place, but the camera never saw the upcard turned: the page asks which card
    was turned up, and a pick in the card picker records it."""
    app = create_app(tmp_path, pin=PIN)
    s = app.extensions["table"]
    watch_zones(s, "Beat")
    s.start_hand(["Anna", "Beat", "Cla"], "Anna")
    two_seconds_of(s, R("9h", (50, 50, 110, 140)))  # a card at Beat's place, nothing on the upcard spot
    with serving(app) as url, landscape_page(browser, pin=PIN) as page:
        page.goto(url + "/")
        page.wait_for_selector("section.ask")
        assert "upcard" in page.inner_text("section.ask h2")
        page.locator("section.ask button.choice").click()
        pick(page, "Kh")
        page.wait_for_function("STATE && STATE.hand && STATE.hand.upcards.length === 1")
        assert [c.code for c in s.session.current.upcards] == ["Kh"]
        assert page.locator("section.ask").count() == 0


def test_the_page_asks_whose_card_a_trick_gathered_short_missed_and_one_pick_sets_the_trick_right(browser, tmp_path):
    """Cla's Th landed on Beat's lead unseen, so Anna's Jh was recorded as Cla's, and the trick was gathered
    with Anna to play: the page lists the trick's seats with their recorded cards; Cla's seat and the Th
    in the picker record the trick as played."""
    from tests.test_live_table import _gathered_a_seat_late

    app = create_app(tmp_path, pin=PIN)
    t = table_of(app, _gathered_a_seat_late)
    with serving(app) as url, landscape_page(browser, pin=PIN) as page:
        page.goto(url + "/")
        page.wait_for_selector("section.ask.gathered")
        seats = page.locator("section.ask button.missed-at")
        assert [seats.nth(k).get_attribute("data-player") for k in range(seats.count())] == ["Beat", "Cla", "Anna"]
        page.screenshot(path=str(SHOTS / "camera-ask-gathered.png"))
        page.locator("section.ask button.missed-at[data-player='Cla']").click()
        pick(page, "Th")
        page.wait_for_function("STATE && STATE.camera && STATE.camera.asks.length === 0")
        assert t.played() == [("Beat", "9h"), ("Cla", "Th"), ("Anna", "Jh")]


def test_the_page_offers_the_seats_of_the_trick_for_a_card_laid_before_the_ones_on_it(browser, tmp_path):
    """Cla's 8h lay under Anna's Th before the camera read it, and the Th was recorded as Cla's: asked about
    as Anna's card, the page also lists the trick's seats with their cards; Cla's seat and the 8h in the
    picker record the trick as played."""
    from tests.test_live_table import _strip_of_a_card_thrown_before_the_top_one

    app = create_app(tmp_path, pin=PIN)
    t = table_of(app, _strip_of_a_card_thrown_before_the_top_one)
    with serving(app) as url, landscape_page(browser, pin=PIN) as page:
        page.goto(url + "/")
        page.wait_for_selector("section.ask button.seat-before")
        seats = page.locator("section.ask button.seat-before")
        assert [seats.nth(k).get_attribute("data-player") for k in range(seats.count())] == ["Beat", "Cla"]
        page.screenshot(path=str(SHOTS / "camera-ask-seat-before.png"))
        page.locator("section.ask button.seat-before[data-player='Cla']").click()
        pick(page, "8h")
        page.wait_for_function("STATE && STATE.camera && STATE.camera.asks.length === 0")
        assert t.played() == [("Beat", "9h"), ("Cla", "8h"), ("Anna", "Th")]


def test_the_page_asks_again_for_a_play_whose_card_the_table_named_for_another_and_a_pick_corrects_it(browser, tmp_path):
    """The table named Anna's 8d for a trick gathered short, but the camera recorded the 8d as Beat's lead
    of trick 1: the page asks which card Beat played, and the card picker corrects the play."""
    from tests.test_live_table import _8d_named_for_anna

    app = create_app(tmp_path, pin=PIN)
    t = table_of(app, _8d_named_for_anna)
    with serving(app) as url, landscape_page(browser, pin=PIN) as page:
        page.goto(url + "/")
        page.wait_for_selector("section.ask.again")
        heading = page.inner_text("section.ask.again h2")
        assert "8d" in heading and "Beat" in heading and "trick 1" in heading
        page.locator("section.ask.again button.other").click()
        pick(page, "8c")
        page.wait_for_function("STATE && STATE.camera && !STATE.camera.asks.some(a => a.kind === 'again')")
        assert t.played()[0] == ("Beat", "8c")


def test_the_page_asks_whether_the_next_player_laid_a_card_on_the_piles_top_card_and_a_tap_records_it(browser, tmp_path):
    """Cla's Ts, the pile's top card, now reads Kd where it lies: the page asks whether Anna laid the Kd on it,
    and "yes" keeps Cla's Ts and records Anna's Kd."""
    from tests.test_live_table import _ts_read_as_kd_on_the_pile

    app = create_app(tmp_path, pin=PIN)
    t = table_of(app, _ts_read_as_kd_on_the_pile)
    with serving(app) as url, landscape_page(browser, pin=PIN) as page:
        page.goto(url + "/")
        page.wait_for_selector("section.ask.laid-on")
        heading = page.inner_text("section.ask.laid-on h2")
        assert "Ts" in heading and "Cla" in heading and "Anna" in heading and "Kd" in heading
        page.locator("section.ask.laid-on button.keep").click()
        page.wait_for_function("STATE && STATE.camera && !STATE.camera.asks.some(a => a.kind === 'laid_on')")
        assert t.played() == [("Beat", "9s"), ("Cla", "Ts"), ("Anna", "Kd")]


def test_the_page_asks_whether_a_card_out_of_sight_lies_there_still_and_a_tap_brings_the_table_back(browser, tmp_path):
    """Beat's 9h went out of sight while Cla's Th lies: the page asks whether it lies there still, under a
    card; the tap says so and the table is back in step."""
    from tests.test_live_table import _9h_lost_under_the_pile

    app = create_app(tmp_path, pin=PIN)
    t = table_of(app, _9h_lost_under_the_pile)
    with serving(app) as url, landscape_page(browser, pin=PIN) as page:
        page.goto(url + "/")
        page.wait_for_selector("section.ask.vanished")
        assert "9h" in page.inner_text("section.ask h2") and "Beat" in page.inner_text("section.ask h2")
        page.screenshot(path=str(SHOTS / "camera-ask-vanished.png"))
        page.locator("section.ask button.still-lies").click()
        page.wait_for_function("STATE && STATE.camera && STATE.camera.asks.length === 0")
        assert t.watcher.status()["state"] == "watching" and t.played() == [("Beat", "9h"), ("Cla", "Th")]


def test_the_page_lets_the_table_say_no_card_lies_where_the_camera_read_one_and_nothing_is_recorded(browser, tmp_path):
    """The cloth at Beat's place reads as a card, now the 8h, now the 8d: the page asks which card Beat laid,
    and a tap on "no card lies there" closes the question with nothing recorded."""
    from engine.cards import card
    from engine.events import BidMade, Exchanged, UpcardShown

    app = create_app(tmp_path, pin=PIN)
    s = app.extensions["table"]
    watch_zones(s, "Beat")
    s.start_hand(["Anna", "Beat", "Cla"], "Anna")
    for ev in (UpcardShown(card("Kh")), BidMade("Beat", "chratze"), BidMade("Cla", "metcho"), BidMade("Anna", "weg")):
        s.record(ev)
    for p in s.session.current.exchange_order:
        s.record(Exchanged(s.session.current.seats[p], 0))
    box = (50, 50, 110, 140)
    with s.lock:
        for k in range(40):
            s.watcher.reads([R("8h", box, 0.9, [("8d", 0.3)]) if k % 4 else R("8d", box, 0.6)], 0.05 * k)
        s.bump()
    with serving(app) as url, landscape_page(browser, pin=PIN) as page:
        page.goto(url + "/")
        page.wait_for_selector("section.ask")
        assert "Beat" in page.inner_text("section.ask h2")
        page.locator("section.ask button.no-card").click()
        page.wait_for_function("STATE && STATE.camera && STATE.camera.asks.length === 0")
        assert [e for e in s.session.current.events if e.type == "play"] == []
        assert "8h" in page.inner_text("ul.notices li.no_card")  # said on the page, in its language


def test_on_an_evening_of_kratzen_the_page_asks_the_cameras_question_and_a_tap_answers_it(browser, tmp_path):
    """The camera reads a Six the Tell pack does not hold at Anna's place: the page shows the question in
    the Kratzen view with the likely cards, and a tap on the Weli records Anna's play."""
    from engine.cards import card
    from engine.events import CutShown, UpcardShown
    from engine.kratzen_session import KratzenSession

    app = create_app(tmp_path, pin=PIN)
    s = app.extensions["table"]
    s.replace_session(KratzenSession())
    watch_zones(s, "Anna")
    s.start_hand(["Anna", "Beat", "Cla"], "Anna")
    for ev in (CutShown((card("9s"),)), UpcardShown(card("Kh"))):
        s.record(ev)
    two_seconds_of(s, R("6h", (50, 50, 110, 140), alternatives=[("6d", 0.3)]))  # at Anna's place, read as the 6h
    with serving(app) as url, landscape_page(browser, pin=PIN) as page:
        page.goto(url + "/")
        page.wait_for_selector("section.ask")
        assert "Anna" in page.inner_text("section.ask h2")
        page.screenshot(path=str(SHOTS / "kratzen-camera-ask.png"))
        page.locator("section.ask button.choice").first.click()
        page.wait_for_function("STATE && STATE.hand && STATE.hand.current_trick "
                               "&& STATE.hand.current_trick.cards.length === 1")
        assert [(e.player, e.card.code) for e in s.session.current.events if e.type == "play"] == [("Anna", "6d")]
        assert page.locator("section.ask").count() == 0


def test_a_bid_on_an_upcard_the_camera_never_saw_asks_for_it_with_the_frame_and_goes_on(browser, tmp_path):
    from tests.stepped import SteppedCamera

    app = create_app(tmp_path, pin=PIN)
    s = app.extensions["table"]
    camera = SteppedCamera(s)  # it sees no card at all
    s.start_hand(["Anna", "Beat", "Cla"], None)
    camera.frames(5)
    with serving(app) as url, landscape_page(browser, pin=PIN) as page:
        page.goto(url + "/")
        with app.test_client() as other:  # a tap the record refuses: no upcard yet
            r = other.post("/api/bid", json={"player": "Beat", "bid": "chratze"}, headers={"X-Table-Pin": PIN})
            assert r.status_code == 409
        camera.frames(40)
        page.wait_for_selector("section.ask img.ask-crop")
        assert "never saw the upcard" in page.inner_text("section.ask")
        page.locator("section.ask button.choice").click()
        pick(page, "Kh")
        page.wait_for_selector("#upcard[data-card='Kh']")
        assert page.locator("section.ask").count() == 0
