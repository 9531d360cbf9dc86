// The table as a Mini App page: launch parameters from the URL's fragment (as Telegram's
// clients pass them), one WebSocket to the bot, the table drawn from what it pushes.
"use strict";

const SUITS = { S: "♠", C: "♣", D: "♦", H: "♥" };
const RU_RANKS = { J: "В", Q: "Д", K: "К", A: "Т" };
const WORD_KINDS = new Set(["take", "done", "pass", "accuse", "x", "s"]); // buttons under the table
const TAP_KINDS = new Set(["t", "d", "x", "s"]); // a tap on the card (and a one-card opening)
const $ = (id) => document.getElementById(id);

const launch = readLaunch();
let texts = {};
let lang = "ru";
let shown = null; // the last table pushed
let secondsAt = 0; // when its seconds were counted (ms)
let socket = null;
let ended = false; // refused for good: no reconnecting
let mode = null; // null: cards play; "mark": cards of one rank are marked; "cheat": cheats
let marked = []; // the cards marked for an opening (mode "mark")
let sheetMoves = null; // the moves the open sheet offers (null: it is closed)

function readLaunch() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const query = new URLSearchParams(location.search);
  const tg = window.Telegram && window.Telegram.WebApp;
  let theme = {};
  try {
    theme = JSON.parse(fragment.get("tgWebAppThemeParams") || "{}");
  } catch (e) {
    theme = {};
  }
  return {
    initData: (tg && tg.initData) || fragment.get("tgWebAppData") || "",
    start: fragment.get("tgWebAppStartParam") || query.get("tgWebAppStartParam")
      || query.get("startapp") || null,
    theme: (tg && tg.themeParams) || theme,
  };
}

function applyTheme(theme) {
  const names = ["bg_color", "text_color", "hint_color", "button_color", "button_text_color",
    "secondary_bg_color"];
  for (const name of names) {
    if (typeof theme[name] === "string" && /^#[0-9a-fA-F]{3,8}$/.test(theme[name])) {
      document.documentElement.style.setProperty("--tg-" + name.replace(/_color$/, "")
        .replace(/_/g, "-"), theme[name]);
    }
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(scheme + "//" + location.host + "/app/ws");
  socket.onopen = () => socket.send(JSON.stringify({
    type: "hello", init_data: launch.initData, start: launch.start,
  }));
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = () => {
    if (ended) return;
    if (texts.lost) status(texts.lost);
    setTimeout(connect, 1500);
  };
}

function receive(message) {
  if (message.type === "hello") {
    texts = message.texts;
    lang = message.lang;
    document.documentElement.lang = lang;
    document.title = texts.title;
    status(texts.connecting);
  } else if (message.type === "lobby") {
    shown = null;
    document.body.dataset.state = "lobby";
    closeSheet();
    draw(null);
    status(message.status);
  } else if (message.type === "table") {
    shown = message;
    secondsAt = Date.now();
    document.body.dataset.state = message.over ? "over" : "table";
    document.body.dataset.version = message.version;
    keepChoices();
    draw(message);
  } else if (message.type === "refused") {
    if (message.reason.startsWith("auth.")) {
      ended = true;
      status(message.text);
    } else {
      toast(message.text);
    }
  }
}

function cardLabel(card) {
  const rank = card.slice(0, -1);
  return (lang === "ru" ? RU_RANKS[rank] || rank : rank);
}

function cardElement(card, extra) {
  const suit = card.slice(-1);
  const el = document.createElement("div");
  el.className = "card" + (suit === "D" || suit === "H" ? " red" : "") + (extra ? " " + extra : "");
  el.dataset.card = card;
  const corner = document.createElement("span");
  corner.className = "corner";
  corner.append(cardLabel(card), document.createElement("br"), SUITS[suit]);
  const pip = document.createElement("span");
  pip.className = "pip";
  pip.textContent = SUITS[suit];
  el.append(corner, pip);
  el.setAttribute("aria-label", cardLabel(card) + SUITS[suit]);
  return el;
}

function draw(table) {
  $("players").replaceChildren(...(table ? table.players.map(playerElement) : []));
  drawDeck(table);
  $("table").replaceChildren(...(table ? table.table.map(pairElement) : []));
  drawLog(table);
  drawWords(table);
  drawHand(table);
  if (table) status(hint(table));
}

function playerElement(p) {
  const el = document.createElement("div");
  el.className = "player" + (p.turn ? " turn" : "") + (p.me ? " me" : "")
    + (p.role === "out" ? " out" : "");
  const name = document.createElement("div");
  name.className = "name";
  name.textContent = p.name;
  const info = document.createElement("div");
  info.className = "info";
  const cards = document.createElement("span");
  cards.className = "cards";
  cards.textContent = p.cards;
  const role = document.createElement("span");
  role.className = "role";
  role.textContent = p.label;
  info.append(cards, role);
  el.append(name, info);
  return el;
}

function drawDeck(table) {
  const stock = $("stock");
  const slot = stock.querySelector(".trump-slot");
  slot.replaceChildren(...(table ? [cardElement(table.trump, "trump")] : []));
  stock.classList.toggle("empty", !table || table.stock <= 1);
  stock.querySelector(".count").textContent = table ? texts.stock + ": " + table.stock : "";
  const discard = $("discard");
  discard.classList.toggle("empty", !table || table.discard === 0);
  discard.querySelector(".count").textContent =
    table && table.discard ? texts.discard + ": " + table.discard : "";
  slot.hidden = !table || table.stock === 0;
}

function pairElement([attack, defence]) {
  const el = document.createElement("div");
  el.className = "pair";
  el.append(cardElement(attack));
  if (defence) el.append(cardElement(defence, "cover"));
  return el;
}

// What still holds after a push: a mode with nothing left to do in it ends, marks that
// can no longer open are dropped, a sheet whose moves are not all offered now closes.
function keepChoices() {
  const can = markable();
  marked = marked.filter((c) => can.has(c));
  if (mode === "mark" && !can.size) mode = null;
  if (mode === "cheat" && !shown.cheats.length) mode = null;
  if (sheetMoves && !sheetMoves.every((m) => offered(m))) closeSheet();
}

// The move as the newest table offers it (null: not offered any more).
function offered(move) {
  if (!shown) return null;
  const list = move.cheat ? shown.cheats : shown.moves;
  const found = list.find((m) => m.text === move.text);
  return found ? Object.assign({ cheat: !!move.cheat }, found) : null;
}

function markable() {
  const cards = new Set();
  if (!shown) return cards;
  for (const m of shown.moves) {
    if (m.kind === "a" && m.cards.length > 1) m.cards.forEach((c) => cards.add(c));
  }
  return cards;
}

function hint(table) {
  if (table.seat === null && !table.over) return texts.spectator + " " + table.status;
  if (mode === "mark") return texts.mark_hint;
  if (mode === "cheat") return texts.cheat_hint;
  return table.status;
}

function drawLog(table) {
  const lines = table ? table.log : [];
  $("log").hidden = !lines.length;
  $("log").setAttribute("aria-label", texts.last_moves || "");
  $("log").replaceChildren(...lines.map((line) => {
    const el = document.createElement("li");
    el.textContent = line;
    return el;
  }));
}

function button(text, onclick, extra) {
  const el = document.createElement("button");
  el.textContent = text;
  if (extra) el.className = extra;
  el.onclick = onclick;
  return el;
}

function moveButton(move, extra) {
  const el = button(move.label, () => send(move), extra);
  el.dataset.move = move.text;
  return el;
}

function drawWords(table) {
  const buttons = [];
  if (table && table.idle) buttons.push(button(texts.back, () => send({ text: "back" }), "back"));
  if (table && mode === "mark") {
    const chosen = opening(marked);
    if (chosen) {
      const go = moveButton(chosen, "go");
      go.textContent = texts.several_go + " (" + chosen.cards.length + ")";
      buttons.push(go);
    }
    buttons.push(button(texts.cancel, () => setMode(null), "secondary"));
  } else if (table && mode === "cheat") {
    buttons.push(button(texts.cancel, () => setMode(null), "secondary"));
  } else if (table) {
    for (const move of table.moves.filter((m) => WORD_KINDS.has(m.kind))) {
      buttons.push(moveButton(move));
    }
    if (markable().size) buttons.push(button(texts.several, () => setMode("mark"), "several"));
    if (table.cheats.length) buttons.push(button(texts.cheat, () => setMode("cheat"), "cheat"));
    if (table.playing) buttons.push(button(texts.surrender, confirmSurrender, "secondary quit"));
  }
  $("words").replaceChildren(...buttons);
}

function setMode(next) {
  mode = next;
  marked = [];
  if (shown) draw(shown);
}

// The legal opening with exactly these cards, if there is one.
function opening(cards) {
  if (!shown || !cards.length) return null;
  const wanted = [...cards].sort().join(" ");
  return shown.moves.find((m) => m.kind === "a" && [...m.cards].sort().join(" ") === wanted)
    || null;
}

function drawHand(table) {
  const hand = $("hand");
  if (!table) {
    hand.replaceChildren();
    return;
  }
  const can = markable();
  hand.replaceChildren(...table.hand.map((card) => {
    let moves, look;
    if (mode === "mark") {
      moves = [];
      look = marked.includes(card) ? "marked" : (can.has(card) ? "playable" : "dim");
    } else if (mode === "cheat") {
      moves = table.cheats.filter((m) => m.cards[0] === card).map((m) => ({ ...m, cheat: true }));
      look = moves.length ? "playable cheat" : "dim";
    } else {
      moves = table.moves.filter((m) => m.cards[0] === card
        && (TAP_KINDS.has(m.kind) || (m.kind === "a" && m.cards.length === 1)));
      look = moves.length ? "playable" : (table.moves.length ? "dim" : "");
    }
    const el = cardElement(card, look);
    el.onclick = () => (mode === "mark" ? mark(card) : tap(moves));
    return el;
  }));
}

// A tap in mode "mark": the card marked or unmarked; a card of another rank starts again.
function mark(card) {
  if (!markable().has(card)) return;
  if (marked.includes(card)) {
    marked = marked.filter((c) => c !== card);
  } else {
    marked = [...marked.filter((c) => c.slice(0, -1) === card.slice(0, -1)), card];
  }
  draw(shown);
}

function tap(moves) {
  if (moves.length === 1) {
    send(moves[0]);
  } else if (moves.length > 1) {
    choose(mode === "cheat" ? texts.cheat_choose : texts.choose, moves);
  }
}

function confirmSurrender() {
  choose(texts.surrender_confirm, [], button(texts.surrender_yes, () => {
    closeSheet();
    send({ text: "quit" });
  }, "danger"));
}

function choose(title, moves, ...extra) {
  const sheet = $("sheet");
  sheet.querySelector(".title").textContent = title;
  const buttons = moves.map((move) => {
    const el = moveButton(move);
    el.onclick = () => {
      closeSheet();
      send(move);
    };
    return el;
  });
  const cancel = button(texts.cancel, closeSheet, "cancel");
  sheet.querySelector(".choices").replaceChildren(...buttons, ...extra, cancel);
  sheetMoves = moves;
  sheet.hidden = false;
}

function closeSheet() {
  $("sheet").hidden = true;
  sheetMoves = null;
}

// A move goes with the version and game of the table that offers it now: a move of an
// older table that the newest no longer offers is not sent (the page says the game moved).
function send(move) {
  if (!shown || !socket || socket.readyState !== WebSocket.OPEN) return;
  const always = move.text === "quit" || move.text === "back";
  const current = always ? move : offered(move);
  if (!current) {
    toast(texts.moved_on);
    return;
  }
  socket.send(JSON.stringify({
    type: "move", text: current.text, version: shown.version, seat: shown.seat,
    game: shown.game, cheat: !!current.cheat,
  }));
  if (mode) {
    mode = null;
    marked = [];
  }
}

function status(text) {
  const el = $("status");
  el.textContent = text || "";
  const left = secondsLeft();
  if (left !== null) {
    const seconds = document.createElement("span");
    seconds.className = "seconds";
    seconds.textContent = "⏳ " + left + " " + texts.seconds_unit;
    el.prepend(seconds);
  }
}

function secondsLeft() {
  if (!shown || shown.seconds === null) return null;
  return Math.max(0, shown.seconds - Math.floor((Date.now() - secondsAt) / 1000));
}

let toastTimer = 0;
function toast(text) {
  const el = $("toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 3000);
}

applyTheme(launch.theme);
if (window.Telegram && window.Telegram.WebApp) window.Telegram.WebApp.ready();
setInterval(() => { if (shown) status(hint(shown)); }, 1000);
connect();
