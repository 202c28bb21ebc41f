// The tablet page: renders /api/state, follows it live by Server-Sent Events, sends the taps.
"use strict";

const SUIT = { h: ["♥", "red"], d: ["♦", "red"], s: ["♠", "black"], c: ["♣", "black"] };
const RANK = { "6": "6", "7": "7", "8": "8", "9": "9", T: "10", J: "J", Q: "Q", K: "K", A: "A" };
const DECK = [];
for (const s of "hdsc") for (const r of "6789TJQKA") DECK.push(r + s);
const KRATZEN_DECK = DECK.filter(c => c[0] !== "6" || c === "6d");  // the William Tell pack: no Sixes but the Weli

let STATE = null;
let CALIB = { points: [], zones: {} };
const view = document.body.dataset.view;
const app = document.getElementById("app");

// ------------------------------------------------------------------ helpers
function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith("on")) { on(el, k.slice(2), v); el.dataset.h = HANDLERS.size; HANDLERS.set(el.dataset.h, el._on); }
    else if (v !== null && v !== undefined && v !== false) el.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) if (kid !== null && kid !== undefined) el.append(kid.nodeType ? kid : String(kid));
  return el;
}
// Handlers live in el._on and are called through one listener per type, so that an element the page keeps
// in place on an update (see morph) runs the handler of the newest state, not of the state it was built for.
const HANDLERS = new Map();  // data-h of an element just built -> its handlers, until morph binds them
function on(el, type, fn) {
  if (!el._on) el._on = {};
  if (!el._on[type]) el.addEventListener(type, ev => el._on[type] && el._on[type](ev));
  el._on[type] = fn;
}
// Updates change the page in place (idiomorph): a button under a finger, a field being typed in and the
// focus stay the same elements; a field a player typed into keeps the text until the page no longer shows it.
function morph(parent, kids) {
  const next = kids.filter(k => k !== null && k !== undefined).map(k => k.nodeType ? k : document.createTextNode(String(k)));
  Idiomorph.morph(parent, next, { morphStyle: "innerHTML",
                                  callbacks: { beforeNodeMorphed: old => !old._typed } });
  for (const el of parent.querySelectorAll("[data-h]")) {  // kept and newly added (cloned) elements alike
    const handlers = HANDLERS.get(el.dataset.h);
    if (handlers) for (const [type, fn] of Object.entries(handlers)) on(el, type, fn);
  }
  HANDLERS.clear();
}
document.addEventListener("input", ev => { if (ev.target.matches("input:not([type=checkbox]):not([type=file]), textarea")) ev.target._typed = true; }, true);
function money(r) {
  const sign = r < 0 ? "-" : "", a = Math.abs(r);
  return `${sign}${Math.trunc(a / 100)}.${String(a % 100).padStart(2, "0")}`;
}
// Swiss-German signs (Rosen, Schellen, Schilten, Eicheln) and ranks (Banner, Under, Ober) for a table that
// plays that pack; chosen on the setup page, kept per device. Drawn here: no font has these suits.
const GERMAN_RANK = { T: "B", J: "U", Q: "O" };
const GERMAN_SIGN = {
  h: '<circle cx="8" cy="8" r="3" fill="#f2c94c"/>' + [0, 72, 144, 216, 288].map(a =>
       `<circle cx="${8 + 4.2 * Math.cos(a * Math.PI / 180)}" cy="${8 + 4.2 * Math.sin(a * Math.PI / 180)}" r="3" fill="#c62828"/>`).join("")
     + '<circle cx="8" cy="8" r="2.2" fill="#f2c94c"/>',
  d: '<circle cx="8" cy="8" r="6.5" fill="#f2c94c" stroke="#7a5b00" stroke-width="1"/><path d="M3 9h10" stroke="#7a5b00" stroke-width="1.4"/><circle cx="8" cy="11.5" r="1.2" fill="#7a5b00"/>',
  s: '<path d="M2.5 2.5h11v5.5c0 3.5-2.6 5.6-5.5 6.8C5.1 13.6 2.5 11.5 2.5 8z" fill="#1d1d1d"/><path d="M8 2.5v12" stroke="#f2c94c" stroke-width="1.6"/>',
  c: '<ellipse cx="8" cy="9.8" rx="4.8" ry="5.6" fill="#a86a32"/><path d="M2.4 7c0-4.2 11.2-4.2 11.2 0z" fill="#5d3a12"/><path d="M8 0.8v2.6" stroke="#5d3a12" stroke-width="1.6"/>',
};
function signs() { return localStorage.getItem("chratze-signs") || "french"; }
function cardEl(code, attrs) {
  const [sym, colour] = SUIT[code[1]];
  const el = h("span", Object.assign({ class: `card ${colour}`, "data-card": code }, attrs || {}));
  if (code === "6d" && STATE && STATE.ruleset === "kratzen") {  // Kratzen's Weli, the permanent second trump
    el.classList.add("weli");
    el.title = "Weli";
    el.append("Weli");
    return el;
  }
  if (signs() === "german") {
    const icon = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    icon.setAttribute("viewBox", "0 0 16 16");
    icon.setAttribute("class", "sign");
    icon.innerHTML = GERMAN_SIGN[code[1]];
    el.classList.add("german");
    el.append(GERMAN_RANK[code[0]] || RANK[code[0]], icon);
  } else el.append(RANK[code[0]], h("small", {}, sym));
  return el;
}
function banner(text, kind) {
  const b = document.getElementById("banner");
  b.textContent = text || "";
  b.className = kind || "";
  b.hidden = !text;
}
async function send(path, body) {
  let pin = sessionStorage.getItem("chratze-pin") || "";
  if (!pin) { pin = askPin(); if (!pin) return null; }
  body = Object.assign({ expect_hand: STATE ? STATE.hands_played : undefined }, body || {});
  const res = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json", "X-Table-Pin": pin,
                                                             "X-Table-Epoch": STATE && STATE.epoch ? STATE.epoch : "" },
                                  body: JSON.stringify(body) });
  const data = await res.json().catch(() => ({ error: res.statusText }));
  if (!res.ok) {
    if (res.status === 403) sessionStorage.removeItem("chratze-pin");
    if (data.reload) { location.reload(); return null; }
    banner(errorText(data) || res.statusText, "error");
    if (data.code === "moved_on") refresh();
    return null;
  }
  banner("");
  if ("hands_played" in data) render(data);  // writes answer with the new state; /api/layout with the layout
  return data;
}
function errorText(data) {
  // the server's reason in the page's language where it gives a code this page knows; else its English.
  // A value may be a refusal itself (a correction refused for its reason), or a word the page knows (a phase).
  const key = `err_${data.code}`, text = data.code ? t(key) : key;
  if (text === key) return data.error;
  const values = Object.assign({ wait: data.wait, hand: data.hand }, data.values || {});
  return text.replace(/\{(\w+)\}/g, (_, k) => {
    const v = values[k], word = `${k}_${v}`;
    return v && typeof v === "object" ? errorText(v) : t(word) !== word ? t(word) : v;
  });
}
function askPin() {
  const pin = prompt(t("pin_prompt"));
  if (pin) sessionStorage.setItem("chratze-pin", pin.trim());
  return pin ? pin.trim() : "";
}
function pickCard(title, onPick, exclude, deck) {
  const dlg = document.getElementById("picker");
  document.getElementById("picker-title").textContent = title;
  const grid = document.getElementById("picker-cards");
  grid.replaceChildren(...(deck || DECK).map(c => cardEl(c, {
    role: "button", tabindex: "0", class: `card pick ${SUIT[c[1]][1]}${(exclude || []).includes(c) ? " used" : ""}`,
    onclick: () => { dlg.close(); onPick(c); },
  })));
  dlg.showModal();
}

// The camera's notices in the page's language, from their data; the server's English where none fits.
function noticeText(n) {
  const d = n.data || {}, ev = d.event || {};
  const fill = (key, vars) => t(key).replace(/\{(\w+)\}/g, (_, k) => vars[k]);
  if (n.kind === "recorded") {
    if (ev.type === "play") return fill("n_plays", { p: ev.player, c: ev.card });
    if (ev.type === "upcard") return fill("n_upcard", { c: ev.card });
    if (ev.type === "hand_started") return fill("n_hand", { p: ev.dealer });
    if (ev.type === "correct_card") return fill("n_corrected", { n: ev.target, c: ev.card });
    if (ev.type === "trump_six_swap") return fill("n_swapped", { p: ev.player });
    if (ev.type === "bid") return `${ev.player} ${t("says")} ${t("bid_" + ev.bid)}`;
    if (ev.type === "exchange") return `${ev.player} ${t("exchange")} ${ev.count}`;
  }
  if (n.kind === "gathered" && d.winner) return fill("n_gathered", { n: d.trick, p: d.winner });
  if (n.kind === "no_card" && d.read) return fill("n_no_card", { c: d.read });
  if (n.kind === "camera" && d.state) return t({ lost: "camera_lost", closer: "camera_closer" }[d.state] || "camera_back");
  return n.text;
}

// ------------------------------------------------------------------ live updates
async function refresh() {
  const res = await fetch("/api/state");
  render(await res.json());
}
function follow() {
  const live = document.getElementById("live");
  const es = new EventSource("/api/events");
  es.addEventListener("state", ev => { live.className = "dot on"; render(JSON.parse(ev.data)); });
  es.onerror = () => { live.className = "dot off"; };  // EventSource reconnects by itself
}
// An update waits while a finger is on the screen: the button under it may change or go with the new state.
let POINTER_DOWN = false, PENDING = null;
document.addEventListener("pointerdown", () => { POINTER_DOWN = true; }, true);
for (const type of ["pointerup", "pointercancel"]) document.addEventListener(type, () => {
  POINTER_DOWN = false;
  if (PENDING) { const p = PENDING; PENDING = null; setTimeout(() => render(p), 0); }  // after the click
}, true);
function render(state) {
  if (state && STATE && state.epoch && STATE.epoch && state.epoch !== STATE.epoch) { location.reload(); return; }  // a restarted server
  if (POINTER_DOWN && state) { PENDING = state; return; }
  if (!state || (STATE && state.version < STATE.version && state.hands_played === STATE.hands_played)) return;
  STATE = state;
  const fn = { table: renderTable, review: renderReview, ledger: renderLedger, camera: renderCamera, setup: renderSetup,
               advise: renderAdvise }[view];
  if (fn) fn(state);
  document.querySelectorAll("[data-t]").forEach(el => { el.textContent = t(el.dataset.t); });
}

// ------------------------------------------------------------------ table view
function renderTable(s) {
  if (s.ruleset === "kratzen") { renderKratzen(s); return; }
  const hand = s.hand;
  const top = h("section", { class: "top" },
    h("div", { class: "big pot" }, h("label", {}, t("pot")), h("b", { id: "pot" }, money(s.pot))),
    hand ? h("div", { class: "big trump" }, h("label", {}, t("trump")),
      hand.upcards.length ? cardEl(hand.upcards[hand.upcards.length - 1], { id: "upcard" }) : h("b", {}, "–")) : null,
    hand ? h("div", { class: "big turn" }, h("label", {}, t("turn")), h("b", { id: "turn" }, hand.turn || "–")) : null);
  // Two columns on a landscape tablet (the live state left; the targets, settlement and taps right), one
  // column upright: the whole live state and the tap controls on one screen through a whole hand.
  const live = [top], side = [];
  if (!hand) live.push(h("p", { class: "muted" }, t("no_hand")));
  else {
    live.push(h("p", { class: "line" }, `${t("hand")} ${hand.hand} · ${t("dealer")} ${hand.dealer} · `,
      h("span", { id: "phase" }, t("phase_" + hand.phase)),
      hand.chratzer ? ` · Chratzer ${hand.chratzer}` : "", hand.blind ? ` · ${t("bid_" + hand.blind)}` : ""));
    if (hand.held_up) live.push(heldUpPanel(hand.held_up));
    live.push(trickPanel(hand));
    side.push(targetsPanel(hand));
    if (hand.phase === "done") side.push(settlementPanel(hand.settlement));
  }
  if (s.camera) live.push(...askPanel(s.camera), cameraPanel(s.camera));
  side.push(controls(s));
  if (s.notices.length) side.push(h("ul", { class: "notices" }, s.notices.slice(-4).reverse().map(n => h("li", { class: n.kind }, noticeText(n)))));
  app.className = "table-grid";
  morph(app, [h("div", { class: "live" }, live), h("div", { class: "side" }, side)]);
}
function trickPanel(hand) {
  const cur = hand.current_trick;
  const seats = h("div", { class: "seats", id: "trick" }, hand.seats.map(name => {
    const play = cur ? cur.cards.find(c => c.player === name) : null;
    const active = hand.active.includes(name) || hand.phase === "deal" || hand.phase === "auction";
    return h("div", { class: `seat${hand.turn === name ? " turn" : ""}${active ? "" : " out"}` },
      h("div", { class: "name" }, name),
      play ? cardEl(play.card, { role: "button", title: t("correct"), onclick: () => correct(play) }) : h("span", { class: "card empty" }, ""));
  }));
  const done = trickList(hand.tricks, c => ({ role: "button", onclick: () => correct({ card: c.card, position: hand.play_positions[c.card] }) }));
  if (hand.phase === "done") return h("section", { class: "trick" }, h("h2", {}, t("tricks")), done);  // no empty seats after the hand
  return h("section", { class: "trick" }, h("h2", {}, `${t("trick")} ${cur ? cur.number : hand.tricks.length || ""}`), seats, done);
}
function trickList(tricks, attrs) {
  // each trick played: its cards with who laid them, and its winner (``attrs``: a card's, e.g. tap to correct)
  return h("ul", { class: "tricks", id: "tricks" }, tricks.map(tr =>
    h("li", {}, `${t("trick")} ${tr.number}: `, tr.cards.map(c => h("span", { class: "played" },
      cardEl(c.card, attrs ? attrs(c) : undefined), h("small", { class: "by" }, c.player))),
      " → ", h("b", { class: "winner" }, tr.winner))));
}
function heldUpPanel(x) {
  // the hand waits for a card the player laid early: say which, and offer to take it as played now
  const fill = key => t(key).replace(/\{(\w+)\}/g, (_, k) => ({ p: x.player, c: x.card, n: x.laid_in, m: x.trick })[k]);
  return h("section", { class: "ask held-up", id: "held-up" }, h("h2", {}, fill("held_title")), h("p", {}, fill("held_why")),
    h("button", { class: "primary", id: "take-early", onclick: () => send("/api/move", { position: x.position }) },
      fill("held_take")));
}
function targetsPanel(hand) {
  return h("section", { class: "targets" }, h("table", { id: "targets" }, hand.targets.filter(x => x.active).map(x =>
    h("tr", { class: x.made ? "made" : "" }, h("td", {}, x.player), h("td", {}, `${x.won} / ${x.target}`),
      h("td", {}, x.made ? "✓" : "")))));
}
function settlementPanel(st, outcome = chratzeOutcome(st)) {
  // who gets and who pays, how the hand ended where it was not played out (``outcome``), the next pot
  const rows = [];
  for (const [p, v] of Object.entries(st.payouts)) rows.push(h("li", {}, `${p} ${t("gets")} ${money(v)}`));
  for (const [p, v] of Object.entries(st.penalties)) rows.push(h("li", { class: "pays" }, `${p} ${t("pays")} ${money(v)}`));
  if (outcome) rows.push(h("li", {}, outcome));
  rows.push(h("li", { class: "next" }, `${t("next_pot")}: ${money(st.carried_out)}`));
  return h("section", { class: "settlement", id: "settlement" }, h("h2", {}, t("settlement")), h("ul", {}, rows));
}
function chratzeOutcome(st) {
  return st.outcome === "susi" ? `${t("susi")}: ${st.susi}` : st.outcome === "passed_out" ? t("passed_out") : "";
}
function cameraPanel(cam) {
  const kind = cam.state === "watching" ? "ok" : cam.state;
  const label = { camera_lost: t("camera_lost"), out_of_sync: t("out_of_sync"), waiting: t("waiting"),
    asking: t("asking"), preparing: t("cam_preparing"), ended: t("cam_ended"), stopped: t("cam_stopped") }[cam.state] || t("camera");
  return h("section", { class: `camera-state ${kind}`, id: "camera-state" }, h("b", {}, label), cam.reason ? ` – ${cam.reason}` : "",
    cam.warning ? h("p", { class: "warning", id: "camera-warning" }, `${t("camera_check")}: ${warningText(cam)} `,
      h("a", { href: "/camera" }, t("calibrate"))) : null,
    cam.missing.map(c => h("button", { onclick: () => send("/api/camera/excuse", { card: c }) }, `${t("excuse")} `, cardEl(c))),
    Object.entries(cam.covered || {}).map(([c, over]) => h("span", { class: "covered" }, " ", cardEl(c), ` ${t("under")} `, cardEl(over))));
}
function warningText(cam) {
  // the camera check in the page's language where it knows the code; else the server's English
  const key = `warn_${cam.warning_code}`, values = cam.warning_values || {};
  return t(key) !== key ? t(key).replace(/\{(\w+)\}/g, (_, k) => values[k]) : cam.warning;
}
const ASK_PANELS = { missed: missedPanel, gathered: gatheredPanel, upcard: upcardPanel, vanished: vanishedPanel,
  again: againPanel, laid_on: laidOnPanel };
function askPanel(cam, deck) {
  // each of the camera's questions, in the panel of its kind (a card it is not sure of by default)
  return (cam.asks || []).map(a => (ASK_PANELS[a.kind] || cardPanel)(a, deck));
}
function askCrop(a) {
  // where the card asked about lies, cut from the frame it was asked on
  return a.snapshot ? h("img", { class: "ask-crop", alt: a.read, src: `/camera/asks/${a.id}.jpg` }) : "";
}
function answerTo(a, player) {
  // names a card for question a (and, for a trick gathered short, whose it was)
  return c => send("/api/camera/answer", { ask: a.id, card: c, player });
}
function cardPanel(a, deck) {
  // the camera is not sure of a card: show where it lies and the likely cards; a tap names it, or says none
  // lies there (the cloth, a hand or a shadow read as a card); or it is the card of a seat with one recorded in
  // the trick, laid before the cards thrown onto it: the plays from that seat's on move a seat on
  const answer = answerTo(a);
  const before = (a.plays || []).length ? h("div", { class: "laid-before" }, h("p", {}, t("ask_laid_before").replace("{p}", a.player)),
    a.plays.map(([p, c]) => h("button", { class: "seat-before", "data-player": p,
      onclick: () => pickCard(t("ask_which").replace("{p}", p), answerTo(a, p), [], deck) }, p, " ", t("ask_recorded"), " ",
      cardEl(c)))) : "";
  return h("section", { class: "ask", id: `ask-${a.id}` },
    h("h2", {}, a.player ? t("ask_which").replace("{p}", a.player) : t("ask_which_upcard")),
    askCrop(a),
    h("p", {}, `${t("ask_reads")} ${a.read} – ${a.why}`),
    a.choices.map(c => h("button", { class: "choice", onclick: () => answer(c) }, cardEl(c))),
    h("button", { onclick: () => pickCard(t("ask_other"), answer, [], deck) }, t("ask_other")),
    h("button", { class: "no-card", onclick: () => answer("none") }, t("ask_no_card")), before);
}
function missedPanel(a, deck) {
  // a card lies at another's place while it is a.player's turn: was a.player's card missed?
  const answer = answerTo(a);
  return h("section", { class: "ask", id: `ask-${a.id}` },
    h("h2", {}, t("ask_missed").replace("{p}", a.player)), h("p", {}, a.why),
    h("button", { class: "choice", onclick: () => pickCard(t("ask_which").replace("{p}", a.player), answer, [], deck) },
      t("ask_name_card").replace("{p}", a.player)),
    h("button", { onclick: () => answer("none") }, t("ask_out_of_turn").replace("{p}", a.place)));
}
function upcardPanel(a, deck) {
  // play began at a player's place, but the camera never saw the upcard turned: which is it
  const answer = answerTo(a);
  return h("section", { class: "ask", id: `ask-${a.id}` }, h("h2", {}, t("ask_unseen_upcard")), askCrop(a),
    h("p", {}, a.why),
    h("button", { class: "choice", onclick: () => pickCard(t("ask_which_upcard"), answer, [], deck) }, t("ask_pick_upcard")));
}
function vanishedPanel(a) {
  // a card of the trick went out of sight while the rest lies: is it still there, under a card?
  const fill = k => t(k).replace("{c}", a.read).replace("{p}", a.player);
  return h("section", { class: "ask vanished", id: `ask-${a.id}` }, h("h2", {}, fill("ask_vanished")), h("p", {}, a.why),
    askCrop(a),
    h("button", { class: "choice still-lies", onclick: () => answerTo(a)(a.read) },
      fill("ask_still_lies")), h("p", {}, t("ask_put_back")));
}
function againPanel(a, deck) {
  // the table named a.read for another play, but the camera recorded it as a.player's card of a.trick:
  // which card was that? (the camera's read kept: the review rules on the card played twice)
  const answer = answerTo(a), fill = k => t(k).replace(/\{c\}/g, a.read).replace(/\{p\}/g, a.player).replace("{n}", a.trick);
  return h("section", { class: "ask again", id: `ask-${a.id}` }, h("h2", {}, fill("ask_again")), askCrop(a),
    h("p", {}, a.why),
    a.choices.filter(c => c !== a.read).map(c => h("button", { class: "choice", onclick: () => answer(c) }, cardEl(c))),
    h("button", { class: "choice other", onclick: () => pickCard(fill("ask_which"), answer, [], deck) }, t("ask_other")),
    h("button", { class: "keep", onclick: () => answer(a.read) }, fill("ask_keep")));
}
function laidOnPanel(a, deck) {
  // the pile's top card, recorded as a.read for a.player, now reads as another: misread, or the next player's
  // card laid squarely on it? (a.plays[0]: that card and its player)
  const [next, card] = a.plays[0], answer = answerTo(a);
  const fill = k => t(k).replace(/\{c\}/g, a.read).replace(/\{p\}/g, a.player).replace(/\{q\}/g, next)
    .replace(/\{d\}/g, card);
  return h("section", { class: "ask laid-on", id: `ask-${a.id}` }, h("h2", {}, fill("ask_laid_on")), askCrop(a),
    h("p", {}, a.why),
    h("button", { class: "choice keep", onclick: () => answer(a.read) }, fill("ask_laid_on_new")),
    h("button", { class: "choice misread", onclick: () => answer(card) }, fill("ask_laid_on_misread")),
    h("button", { class: "choice other", onclick: () => pickCard(fill("ask_which"), answer, [], deck) }, t("ask_other")));
}
function gatheredPanel(a, deck) {
  // the trick was gathered before the camera saw every card: which did it miss, and whose was it? A seat
  // with a card recorded means each play recorded after it was the next seat's (a.late: a chain begun
  // seat by seat, which asks for a.player's card alone)
  const pick = p => pickCard(t("ask_which").replace("{p}", p), answerTo(a, p), [], deck);
  if (a.late) return h("section", { class: "ask", id: `ask-${a.id}` },
    h("h2", {}, t("ask_late").replace("{c}", a.late).replaceAll("{p}", a.player)), h("p", {}, a.why),
    h("button", { class: "choice", onclick: () => pick(a.player) }, t("ask_pick_card").replace("{p}", a.player)));
  const seats = [...(a.plays || []), [a.player, null]];
  return h("section", { class: "ask gathered", id: `ask-${a.id}` },
    h("h2", {}, t("ask_gathered").replace("{n}", a.trick)), h("p", {}, a.why),
    seats.map(([p, c]) => h("button", { class: "choice missed-at", "data-player": p, onclick: () => pick(p) }, p, " ",
      c ? [t("ask_recorded"), " ", cardEl(c)] : t("ask_to_play"))));
}
function correct(play) {
  if (play.position === undefined) return;
  pickCard(`${t("correct")}: ${play.card}`, c => send("/api/correct", { position: play.position, card: c }));
}
function startControls(s, box) {
  const hand = s.hand;
  const last = hand ? hand.seats.join(", ") : "";
  const seats = h("input", { id: "seats", value: last, placeholder: "Anna, Beat, Cla, Doris" });
  const dealer = h("input", { id: "dealer", value: s.next_dealer || "", placeholder: t("dealer") });
  box.append(h("label", {}, t("seats"), seats), h("label", {}, t("dealer"), dealer),
    h("button", { class: "primary", id: "start", onclick: () => {
      const value = id => document.getElementById(id).value;  // the field on the page (this one may be a copy)
      const names = value("seats").split(",").map(x => x.trim()).filter(Boolean);
      const body = names.length ? { seats: names } : {};
      if (value("dealer").trim()) body.dealer = value("dealer").trim();
      send("/api/hand/start", body);
    } }, hand ? t("next_hand") : t("start_hand")));
}
function bidButtons(player, bids) {
  return h("div", { class: "bids", "data-player": player }, h("span", {}, `${player} ${t("says")}:`),
    bids.map(b => h("button", { class: `bid ${b}`, "data-bid": b, onclick: () => send("/api/bid", { player, bid: b }) }, t("bid_" + b))));
}
function exchangeButtons(ex, says) {
  return h("div", { class: "exchange" }, h("span", {}, `${ex.player} ${says}:`),
    [...Array(ex.max + 1).keys()].map(n => h("button", { "data-count": n, onclick: () => send("/api/exchange", { player: ex.player, count: n }) }, n)));
}
function controls(s) {
  const hand = s.hand, box = h("section", { class: "controls", id: "controls" });
  if (!hand || hand.phase === "done") {
    startControls(s, box);
  } else {
    const acts = hand.actions;
    if (hand.phase === "deal")
      box.append(h("button", { class: "primary", id: "set-upcard", onclick: () => pickCard(t("set_upcard"),
        c => send("/api/upcard", { card: c }), hand.upcards) }, t("set_upcard")));
    for (const [player, bids] of Object.entries(acts.bids || {})) box.append(bidButtons(player, bids));
    if (acts.exchange) box.append(exchangeButtons(acts.exchange, t("exchange")));
    if (acts.swap && acts.swap.length)
      box.append(h("div", { class: "swap" }, h("span", {}, `${t("swap")}:`),
        acts.swap.map(p => h("button", { onclick: () => send("/api/swap", { player: p }) }, p))));
    if ((hand.phase === "play" || (hand.phase === "exchange" && !acts.exchange)) && hand.turn)
      box.append(h("button", { class: "primary", id: "play", onclick: () => pickCard(`${t("play_card")} ${hand.turn}`,
        c => send("/api/play", { player: hand.turn, card: c }), Object.keys(hand.play_positions)) }, `${t("play_card")} ${hand.turn}`));
  }
  box.append(h("button", { id: "undo", class: "undo", onclick: () => send("/api/undo") }, t("undo")));
  return box;
}

// ------------------------------------------------------------------ Kratzen (tapped in, or the camera's cards turned and played)
function renderKratzen(s) {
  const hand = s.hand, acts = hand ? hand.actions : {};
  const turn = acts.bid ? acts.bid.player : acts.exchange ? acts.exchange.player : acts.show ? acts.show.player : acts.play;
  const top = h("section", { class: "top" },
    h("div", { class: "big pot" }, h("label", {}, t("pot")), h("b", { id: "pot" }, money(hand ? hand.pot : s.pot))),
    hand ? h("div", { class: "big trump" }, h("label", {}, t("trump")), hand.upcards.length
      ? cardEl(hand.upcards[hand.upcards.length - 1], { id: "upcard" }) : h("b", {}, "–"),
      hand.trump_name ? h("small", {}, ` ${hand.trump_name}`) : null) : null,
    hand ? h("div", { class: "big turn" }, h("label", {}, t("turn")), h("b", { id: "turn" }, turn || "–")) : null);
  const live = [top], side = [];
  if (!hand) live.push(h("p", { class: "muted" }, t("no_hand")));
  else {
    live.push(h("p", { class: "line" }, `Kratzen · ${t("hand")} ${hand.number} · ${t("dealer")} ${hand.dealer} · `,
      h("span", { id: "phase" }, t("k_phase_" + hand.phase)), hand.muss ? ` · ${t("k_muss")}` : "",
      hand.seven_muss ? ` · ${t("k_seven_muss")}` : "", hand.contract ? ` · ${t("bid_" + hand.contract)}` : "",
      hand.striker ? ` · ${t("k_striker")} ${hand.striker}` : ""));
    live.push(kratzenTricks(hand));
    if (hand.flags.length) live.push(h("ul", { class: "notices", id: "k-flags" },
      hand.flags.map(f => h("li", { class: "flag" }, `${t("k_flag")} (${t("trick")} ${f.trick}): ${f.text}`))));
    side.push(h("section", { class: "targets" }, h("table", { id: "targets" }, hand.targets.map(x =>
      h("tr", { class: x.won >= x.target ? "made" : "" }, h("td", {}, x.player), h("td", {}, `${x.won} / ${x.target}`))))));
    if (hand.phase === "done") side.push(kratzenSettlement(hand));
  }
  if (s.camera) live.push(...askPanel(s.camera, KRATZEN_DECK), cameraPanel(s.camera));
  side.push(kratzenControls(s));
  if (s.notices.length) side.push(h("ul", { class: "notices" }, s.notices.slice(-4).reverse().map(n => h("li", { class: n.kind }, noticeText(n)))));
  app.className = "table-grid";
  morph(app, [h("div", { class: "live" }, live), h("div", { class: "side" }, side)]);
}
function kratzenTricks(hand) {
  const cur = hand.current_trick;
  const seats = cur ? h("div", { class: "seats", id: "trick" }, hand.seats.map(name => {
    const play = cur.cards.find(c => c.player === name);
    return h("div", { class: `seat${hand.actions.play === name ? " turn" : ""}${hand.active.includes(name) ? "" : " out"}` },
      h("div", { class: "name" }, name), play ? cardEl(play.card) : h("span", { class: "card empty" }, ""));
  })) : null;
  const done = trickList(hand.tricks);
  return h("section", { class: "trick" }, h("h2", {}, cur ? `${t("trick")} ${cur.number}` : t("tricks")), seats, done);
}
function kratzenSettlement(hand) {
  return settlementPanel(hand.settlement, { passed: t("k_passed"), alone: t("k_alone") }[hand.result] || "");
}
function pickCards(title, count, onPick, first) {
  // several cards one after the other (a cut's second card, the cards bought face up)
  const got = first ? [first] : [];
  const more = () => pickCard(`${title} ${got.length + 1}/${count}`, c => {
    got.push(c); if (got.length < count) setTimeout(more, 0); else onPick(got); }, got, KRATZEN_DECK);
  more();
}
function kratzenControls(s) {
  const hand = s.hand, box = h("section", { class: "controls", id: "controls" });
  if (!hand || hand.phase === "done") startControls(s, box);
  else {
    const acts = hand.actions;
    if (acts.cut) box.append(h("button", { class: "primary", id: "k-cut", onclick: () => pickCard(t("k_cut"), c => {
      // a Seven, a Sau or the Weli cut: the lower packet's bottom card is shown too
      if (c[0] === "7" || c[0] === "A" || c === "6d") pickCard(t("k_cut_lower"), d => send("/api/cut", { cards: [c, d] }), [c], KRATZEN_DECK);
      else send("/api/cut", { cards: [c] });
    }, [], KRATZEN_DECK) }, t("k_cut")));
    if (acts.upcard) box.append(h("button", { class: "primary", id: "set-upcard", onclick: () => pickCard(t("set_upcard"),
      c => send("/api/upcard", { card: c }), hand.upcards, KRATZEN_DECK) }, t("set_upcard")));
    if (acts.bid) box.append(bidButtons(acts.bid.player, acts.bid.choices));
    if (acts.exchange) box.append(exchangeButtons(acts.exchange, t("k_buys")));
    if (acts.show) box.append(h("button", { class: "primary", id: "k-show", onclick: () => pickCards(`${acts.show.player} ${t("k_shows")}`,
      acts.show.count, cards => send("/api/shown", { player: acts.show.player, cards })) }, `${acts.show.player} ${t("k_shows")}`));
    if (acts.play) box.append(h("button", { class: "primary", id: "play", onclick: () => pickCard(`${t("play_card")} ${acts.play}`,
      c => send("/api/play", { player: acts.play, card: c }), hand.tricks.flatMap(tr => tr.cards.map(x => x.card)), KRATZEN_DECK) },
      `${t("play_card")} ${acts.play}`));
  }
  box.append(h("button", { id: "undo", class: "undo", onclick: () => send("/api/undo") }, t("undo")));
  return box;
}
function renderKratzenReview(s) {
  const hand = s.hand;
  if (!hand) { morph(app, [h("p", { class: "muted" }, t("no_hand"))]); return; }
  const flags = hand.flags.length ? hand.flags.map(f => h("article", { class: "flag open" },
    h("header", {}, `${t("trick")} ${f.trick} · ${f.player} · ${f.text}`)))
    : [h("p", { class: "muted", id: "no-flags" }, t("no_flags"))];
  morph(app, [h("h2", {}, `Kratzen · ${t("review_hand")} ${hand.number}: ${t("flags")}`), h("div", { id: "flags" }, flags),
    kratzenTricks(hand), hand.phase === "done" ? kratzenSettlement(hand) : null]);
}

// ------------------------------------------------------------------ review
// The current hand's flags, or an earlier hand's (a dispute settled later in the evening), chosen in a list.
let REVIEW_HAND = null;  // the hand's number, or null: the current hand
async function renderReview(s) {
  if (s.ruleset === "kratzen") { renderKratzenReview(s); return; }
  let hand = s.hand;
  const earlier = (s.flagged_hands || []).filter(x => !hand || x.hand !== hand.hand);
  if (REVIEW_HAND && hand && REVIEW_HAND !== hand.hand) {
    const res = await fetch(`/api/hand/${REVIEW_HAND}`);
    if (res.ok) hand = await res.json(); else REVIEW_HAND = null;
  }
  if (!hand) { morph(app, [h("p", { class: "muted" }, t("no_hand"))]); return; }
  const choose = earlier.length ? h("label", { class: "review-hand" }, `${t("review_hand")} `,
    h("select", { id: "review-hand", onchange: ev => { REVIEW_HAND = parseInt(ev.target.value, 10) || null; render(Object.assign({}, STATE, { version: STATE.version })); } },
      h("option", { value: "", selected: hand.hand === s.hand.hand }, `${s.hand.hand} (${t("current")})`),
      earlier.map(x => h("option", { value: x.hand, selected: hand.hand === x.hand },
        `${x.hand} · ${x.flags} ${t("flags")}${x.open ? ` · ${x.open} ${t("open")}` : ""}`)))) : null;
  const past = hand.hand !== s.hand.hand ? hand.hand : null;
  const flags = hand.flags.length ? hand.flags.map(f => flagCard(hand, f, past)) : [h("p", { class: "muted", id: "no-flags" }, t("no_flags"))];
  morph(app, [choose, h("h2", {}, `${t("review_hand")} ${hand.hand}: ${t("flags")}`), h("div", { id: "flags" }, flags),
    h("h2", {}, t("tricks")), trickPanel(hand).querySelector("ul"), settlementPanel(hand.settlement)]);
}
// the play's record rests on a person's word, not the camera's alone: the review says whose
function saidLine(said) {
  if (!said) return "";
  const parts = [];
  if (said.by) parts.push(t(said.by === "tablet" ? "said_tablet" : "said_table"));
  if (said.turn) parts.push(t("said_turn").replace("{p}", said.turn));
  return h("p", { class: "said" }, parts.join("; "));
}
function flagCard(hand, f, past) {
  const snaps = [];
  const playSnap = hand.snapshots[f.card];
  const proofSnap = hand.proof_snapshots[f.id];
  if (playSnap) snaps.push(h("figure", {}, h("img", { src: `/snapshots/${playSnap}`, alt: t("the_play") }), h("figcaption", {}, t("the_play"))));
  if (proofSnap && proofSnap !== playSnap) snaps.push(h("figure", {}, h("img", { src: `/snapshots/${proofSnap}`, alt: t("the_proof") }), h("figcaption", {}, t("the_proof"))));
  return h("article", { class: `flag ${f.status}`, "data-flag": f.id },
    h("header", {}, `${t("trick")} ${f.trick} · ${f.player} · `, cardEl(f.card), ` · ${f.text}`),
    h("p", {}, h("b", {}, `${t("evidence")}: `), f.evidence.join("; ") || "–"),
    saidLine((hand.said || {})[f.card]),
    h("div", { class: "snaps" }, snaps),
    h("div", { class: "ruling" }, h("span", { class: "status" }, t(f.status)),
      h("button", { class: "uphold", onclick: () => send("/api/flag", { flag: f.id, upheld: true, hand: past }) }, t("uphold")),
      h("button", { class: "dismiss", onclick: () => send("/api/flag", { flag: f.id, upheld: false, hand: past }) }, t("dismiss"))));
}

// ------------------------------------------------------------------ ledger
function renderLedger(s) {
  const bal = Object.entries(s.balances);
  const file = h("input", { type: "file", accept: "application/json,.json", id: "load-file", onchange: async ev => {
    const text = await ev.target.files[0].text();
    send("/api/session/load", { history: text });
  } });
  morph(app, [
    h("p", {}, `${t("hands_played")}: ${s.hands_played} · ${t("pot")}: ${money(s.pot)}`),
    h("h2", {}, t("balances")), h("table", { id: "balances" }, bal.map(([p, v]) => h("tr", {}, h("td", {}, p), h("td", { class: v < 0 ? "neg" : "" }, money(v))))),
    h("h2", {}, t("settle_up")), h("ul", { id: "settle-up" }, s.settle_up.map(p => h("li", {}, `${p.payer} → ${p.payee}: ${money(p.amount)}`))),
    h("p", {}, h("a", { href: "/api/export.json", class: "button" }, t("export_json")), " ", h("a", { href: "/api/ledger.csv", class: "button" }, t("export_csv"))),
    h("label", {}, t("load"), file)]);
}

// ------------------------------------------------------------------ camera and calibration
function renderCamera(s) {
  if (app.dataset.built) { app.querySelector("#cam-state").textContent = s.camera ? `${t("cam_" + s.camera.state)} ${s.camera.reason}` : "–"; return; }
  app.dataset.built = "1";
  const canvas = h("canvas", { id: "calib", width: 640, height: 480 });
  const img = new Image();
  const draw = () => {
    const g = canvas.getContext("2d");
    if (img.complete && img.naturalWidth) { canvas.width = img.naturalWidth; canvas.height = img.naturalHeight; g.drawImage(img, 0, 0); }
    g.strokeStyle = "#3cf"; g.lineWidth = 2; g.fillStyle = "#3cf"; g.font = "14px sans-serif";
    for (const [name, poly] of Object.entries(CALIB.zones)) {
      g.beginPath(); poly.forEach(([x, y], i) => i ? g.lineTo(x, y) : g.moveTo(x, y)); g.closePath(); g.stroke();
      g.fillText(name, poly[0][0] + 4, poly[0][1] + 16);
    }
    CALIB.points.forEach(([x, y]) => g.fillRect(x - 3, y - 3, 6, 6));
  };
  img.onload = draw;
  canvas.addEventListener("click", ev => {
    const r = canvas.getBoundingClientRect();
    CALIB.points.push([(ev.clientX - r.left) * canvas.width / r.width, (ev.clientY - r.top) * canvas.height / r.height]);
    draw();
  });
  fetch("/api/layout").then(r => r.json()).then(l => { if (l.space === "image") CALIB.zones = l.zones || {}; draw(); });
  app.replaceChildren(
    h("p", {}, h("b", {}, `${t("camera")}: `), h("span", { id: "cam-state" }, s.camera ? `${t("cam_" + s.camera.state)} ${s.camera.reason}` : "–")),
    h("img", { src: "/camera.mjpg", class: "mjpeg", alt: "camera",  // a stream that ended (no picture yet) is asked again
               onerror: ev => setTimeout(() => { ev.target.src = "/camera.mjpg?" + Date.now(); }, 3000) }),
    h("h2", {}, t("calibrate")),
    h("p", {}, h("button", { onclick: () => { img.src = "/camera/frame.jpg?" + Date.now(); } }, "Snapshot"),
      h("button", { onclick: () => { const name = prompt(t("zone_name")); if (name && CALIB.points.length >= 3) { CALIB.zones[name] = CALIB.points; } CALIB.points = []; draw(); } }, "+ Zone"),
      h("button", { onclick: () => send("/api/layout", { zones: CALIB.zones, space: "image" }) }, t("save_zones")),
      h("button", { onclick: () => { const n = parseInt(prompt("Seats / Plätze", "4"), 10); if (n) send("/api/layout", { mat: n }).then(r => r && r.mat_in_view === false && banner("ArUco ✗", "error")); } }, t("use_mat"))),
    canvas);
}

// ------------------------------------------------------------------ advise (a player's own phone)
// The cards are tapped in here and asked of the server; nothing is stored or shown on the table's page.
const ADVISE = { hand: [], trump: null };
function renderAdvise(s) {
  if (app.dataset.built) return;
  app.dataset.built = "1";
  const players = h("select", { id: "adv-players" }, [2, 3, 4, 5, 6, 7].map(n => h("option", { value: n, selected: n === 4 }, n)));
  const seat = h("select", { id: "adv-seat" }, [1, 2, 3, 4, 5, 6, 7].map(n => h("option", { value: n }, n)));
  const shown = () => {
    document.getElementById("adv-trump").replaceChildren(ADVISE.trump ? cardEl(ADVISE.trump) : t("adv_pick"));
    document.getElementById("adv-hand").replaceChildren(...(ADVISE.hand.length ? ADVISE.hand.map(c => cardEl(c)) : [t("adv_pick")]));
  };
  const pickHand = () => { ADVISE.hand = []; const more = () => pickCard(`${t("adv_hand")} ${ADVISE.hand.length + 1}/4`, c => {
    ADVISE.hand.push(c); shown(); if (ADVISE.hand.length < 4) setTimeout(more, 0); }, [...ADVISE.hand, ADVISE.trump]); more(); };
  app.replaceChildren(h("h2", {}, t("adv_title")), h("p", { class: "muted" }, t("adv_private")),
    h("label", {}, t("adv_players"), " ", players), " ", h("label", {}, t("adv_seat"), " ", seat),
    h("p", {}, h("button", { id: "adv-trump-pick", onclick: () => pickCard(t("adv_trump"), c => { ADVISE.trump = c; shown(); }, ADVISE.hand) }, t("adv_trump")),
      " ", h("span", { id: "adv-trump" })),
    h("p", {}, h("button", { id: "adv-hand-pick", onclick: pickHand }, t("adv_hand")), " ", h("span", { id: "adv-hand" })),
    h("button", { class: "primary", id: "adv-ask", onclick: askAdvice }, t("adv_ask")), h("div", { id: "adv-answer" }));
  shown();
}
async function askAdvice() {
  const out = document.getElementById("adv-answer");
  if (!ADVISE.trump || ADVISE.hand.length !== 4) { out.replaceChildren(h("p", { class: "error" }, t("adv_need"))); return; }
  out.replaceChildren(h("p", { class: "muted" }, t("adv_thinking")));
  const q = new URLSearchParams({ trump: ADVISE.trump, hand: ADVISE.hand.join(","), seat: document.getElementById("adv-seat").value,
                                  players: document.getElementById("adv-players").value });
  const res = await fetch(`/api/advise?${q}`);
  const data = await res.json();
  if (!res.ok) { out.replaceChildren(h("p", { class: "error" }, errorText(data))); return; }
  const pct = (x, d) => `${(100 * x).toFixed(d)}`;
  out.replaceChildren(h("div", { id: "adv-table" }, data.choices.map(c => h("section", { class: `adv-choice${c.say === data.best ? " best" : ""}`, "data-say": c.say },
    h("h3", {}, t("bid_" + c.say)),
    c.say === "weg" ? h("p", {}, t("adv_weg")) : [
      h("p", {}, h("b", {}, `${pct(c.made, 1)} %`), ` ± ${pct(c.made_half, 1)} · ${t(c.say === "chratze" ? "adv_two" : "adv_one")}`),
      h("p", {}, h("b", {}, `${c.rappen >= 0 ? "+" : ""}${c.rappen.toFixed(1)} Rp.`), ` ± ${c.rappen_half.toFixed(1)}`),
      h("p", {}, `${t("adv_lay")}: `, c.lay.length ? c.lay.map(x => cardEl(x)) : "–")]))),
    h("p", { id: "adv-best" }, h("b", {}, `${t("adv_best")}: ${t("bid_" + data.best)}`)));
}

// ------------------------------------------------------------------ setup
function renderSetup(s) {
  if (app.dataset.built) return;
  app.dataset.built = "1";
  // House rules as switches, number fields and lists, one per rule, built from the rules themselves.
  const fields = Object.entries(s.rules).map(([name, value]) => {
    const id = `rule-${name}`, label = t(`rule_${name}`) === `rule_${name}` ? name : t(`rule_${name}`);
    let input;
    if (typeof value === "boolean") input = h("input", { id, type: "checkbox", checked: value, "data-rule": name });
    else if (typeof value === "number") input = h("input", { id, type: "number", min: "0", value, "data-rule": name });
    else input = h("select", { id, "data-rule": name }, ((s.rule_choices || {})[name] || [value]).map(v =>
      h("option", { value: v, selected: v === value }, t(`rule_${name}_${v}`) === `rule_${name}_${v}` ? v : t(`rule_${name}_${v}`))));
    return h("label", { class: `rule ${typeof value}` }, input, " ", label);
  });
  const rules = () => Object.fromEntries([...app.querySelectorAll("[data-rule]")].map(el =>
    [el.dataset.rule, el.type === "checkbox" ? el.checked : el.type === "number" ? parseInt(el.value || "0", 10) : el.value]));
  const pot = h("input", { id: "opening-pot", type: "number", min: "0", step: "10", value: "0" });
  const current = s.ruleset || "chratze";
  const ruleset = h("select", { id: "ruleset" }, ["chratze", "kratzen"].map(v =>
    h("option", { value: v, selected: v === current }, t(`ruleset_${v}`))));
  const newEvening = () => {  // the rules shown are the current game's: another game starts with its own defaults
    const body = { ruleset: ruleset.value, opening_pot: parseInt(pot.value || "0", 10) };
    if (ruleset.value === current) body.rules = rules();
    send("/api/session/new", body);
  };
  app.replaceChildren(h("h2", {}, t("new_session")), h("p", {}, h("label", {}, t("ruleset"), " ", ruleset)),
    h("fieldset", { id: "rules", class: "rules" }, h("legend", {}, t("house_rules")), fields),
    h("label", {}, t("opening_pot"), pot),
    h("label", {}, t("signs"), " ", h("select", { id: "signs", onchange: ev => { localStorage.setItem("chratze-signs", ev.target.value); } },
      ["french", "german"].map(v => h("option", { value: v, selected: signs() === v }, t(`signs_${v}`))))),
    h("button", { class: "primary", id: "new-session", onclick: newEvening }, t("new_session")),
    " ", h("button", { id: "rules-next-hand", onclick: () => send("/api/rules", { rules: rules() })
      .then(r => r && banner(t("rules_changed"), "ok")) }, t("rules_next_hand")),
    h("p", { class: "muted" }, "PIN: ", h("button", { onclick: askPin }, t("pin"))),
    h("section", { id: "join" }, h("h2", {}, t("join")), h("img", { src: "/join.svg", alt: "QR", width: "200", id: "join-qr" }),
      h("p", { id: "join-url" })),
    h("section", { id: "teach" }));
  fetch("/api/join").then(r => r.json()).then(j => { document.getElementById("join-url").textContent = j.url; });
  loadTeach();
}

// ------------------------------------------------------------------ setup: teach a deck
async function loadTeach() {
  const res = await fetch("/api/teach");
  if (res.ok) renderTeach(await res.json());
}
async function teachSend(path, body) {
  const data = await send(path, body);
  if (data) renderTeach(data); else loadTeach();
}
function renderTeach(d) {
  const box = document.getElementById("teach");
  if (!box) return;
  const cur = d.current;
  const decks = h("ul", { class: "decks" }, d.decks.map(k => h("li", {},
    h("b", {}, k.name), ` · ${k.pack || "?"} · `,
    k.learned ? `${t("teach_reads")} ${(100 * k.right).toFixed(1)} % (${t("teach_shipped")} ${(100 * k.shipped_right).toFixed(1)} %) `
              : t("teach_not_learned") + " ",
    k.learned ? h("button", { onclick: () => teachSend("/api/teach/use", { name: k.name }), disabled: d.in_use === k.name },
                  d.in_use === k.name ? t("teach_in_use") : t("teach_use")) : null,
    h("button", { onclick: () => teachSend("/api/teach/start", { name: k.name }) }, t("teach_continue")))));
  const name = h("input", { id: "deck-name", placeholder: t("teach_name"), maxlength: "40" });
  const pack = h("select", { id: "deck-pack" }, d.packs.map(p => h("option", { value: p.name }, p.title)));
  const parts = [h("h2", {}, t("teach_title")), decks,
    d.in_use ? h("button", { onclick: () => teachSend("/api/teach/use", { name: null }) }, t("teach_shipped_only")) : null,
    h("div", { class: "row" }, name, pack,
      h("button", { onclick: () => teachSend("/api/teach/start", {
        name: document.getElementById("deck-name").value, pack: document.getElementById("deck-pack").value }) }, t("teach_start")))];
  if (cur) {
    const next = cur.cards.find(c => c.code === cur.next);
    parts.push(h("h3", {}, `${cur.name} · ${cur.title}`));
    if (next) parts.push(h("p", { class: "big", id: "teach-next" }, t("teach_lay").replace("{c}", next.name)),
      h("button", { class: "primary", onclick: () => teachSend("/api/teach/capture", { code: next.code }) }, t("teach_take")));
    if (cur.problem) parts.push(h("p", { class: "error", id: "teach-problem" }, cur.problem));
    parts.push(h("div", { class: "cards-grid teach" }, cur.cards.map(c => h("figure", { "data-card": c.code },
      c.captured ? h("img", { src: `/api/teach/${encodeURIComponent(cur.name)}/${c.code}.jpg?${Date.now()}`, alt: c.name, width: "60" })
                 : cardEl(c.code),
      h("figcaption", {}, c.name),
      c.captured ? h("button", { onclick: () => teachSend("/api/teach/capture", { code: c.code }) }, t("teach_retake")) : null))));
    if (cur.learning) {
      parts.push(h("p", {}, t("teach_learning"), " ", h("progress", { max: cur.learning.of, value: cur.learning.done })));
      setTimeout(loadTeach, 1000);
    } else if (!next) {
      parts.push(h("button", { class: "primary", onclick: () => teachSend("/api/teach/learn", {}) }, t("teach_learn")));
    }
    if (cur.outcome) parts.push(teachFigures(cur.outcome));
  }
  morph(box, parts);
}
function teachFigures(o) {
  const f = o.figures;
  const out = [h("p", { class: o.kept ? "" : "error" }, o.kept ? t("teach_kept") : o.error)];
  if (f) {
    out.push(h("p", {}, `${t("teach_reads")} ${(100 * f.profile_right).toFixed(1)} % · ${t("teach_shipped")} ${(100 * f.shipped_right).toFixed(1)} %`));
    out.push(h("table", { class: "confusable" }, h("tr", {}, h("th", {}, t("teach_card")), h("th", {}, t("teach_right")), h("th", {}, t("teach_look_alike"))),
      Object.entries(f.cards).sort((a, b) => a[1].right - b[1].right).slice(0, 12).map(([code, c]) =>
        h("tr", { class: c.right < 0.95 ? "weak" : "" }, h("td", {}, cardEl(code)), h("td", {}, `${(100 * c.right).toFixed(0)} %`),
          h("td", {}, cardEl(c.look_alike), ` ${(100 * c.taken_for_it).toFixed(1)} %`)))));
  }
  return h("div", { id: "teach-outcome" }, out);
}

// ------------------------------------------------------------------ start
document.getElementById("lang").addEventListener("click", () => {
  LANG = LANG === "de" ? "en" : "de";
  localStorage.setItem("chratze-lang", LANG);
  delete app.dataset.built;
  render(Object.assign({}, STATE, { version: STATE ? STATE.version : 0 }));
});
document.getElementById("pin").addEventListener("click", askPin);
if (view !== "missing") { refresh().then(follow); }
