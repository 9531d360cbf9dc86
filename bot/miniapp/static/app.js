// The table as a Mini App page: launch parameters from the URL's fragment (as Telegram's
// clients pass them), one WebSocket to the bot, the table drawn from what it pushes.
"use strict";

const SUITS = { S: "♠", C: "♣", D: "♦", H: "♥" };
const RU_RANKS = { J: "В", Q: "Д", K: "К", A: "Т" };
const WORD_KINDS = new Set(["take", "done", "pass", "quit", "back", "accuse"]);
const $ = (id) => document.getElementById(id);

const launch = readLaunch();
let texts = {};
let lang = "ru";
let shown = null; // the last table pushed
let secondsAt = 0; // when its seconds were counted (ms)
let socket = null;
let ended = false; // refused for good: no reconnecting

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
    draw(null);
    status(message.status);
  } else if (message.type === "table") {
    shown = message;
    secondsAt = Date.now();
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
  drawWords(table);
  drawHand(table);
  if (table) status(table.status);
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

function drawWords(table) {
  const words = table ? table.moves.filter((m) => WORD_KINDS.has(m.kind)) : [];
  $("words").replaceChildren(...words.map((move) => {
    const button = document.createElement("button");
    button.textContent = move.label;
    button.dataset.move = move.text;
    button.onclick = () => send(move);
    return button;
  }));
}

function drawHand(table) {
  const hand = $("hand");
  if (!table) {
    hand.replaceChildren();
    return;
  }
  const moves = table.moves.filter((m) => !WORD_KINDS.has(m.kind));
  hand.replaceChildren(...table.hand.map((card) => {
    const mine = moves.filter((m) => m.cards.includes(card));
    const el = cardElement(card, mine.length ? "playable" : (moves.length ? "dim" : ""));
    el.onclick = () => tap(card, mine);
    return el;
  }));
}

function tap(card, moves) {
  if (moves.length === 1) {
    send(moves[0]);
  } else if (moves.length > 1) {
    choose(moves);
  }
}

function choose(moves) {
  const sheet = $("sheet");
  sheet.querySelector(".title").textContent = texts.choose;
  const buttons = moves.map((move) => {
    const button = document.createElement("button");
    button.textContent = move.label;
    button.dataset.move = move.text;
    button.onclick = () => {
      sheet.hidden = true;
      send(move);
    };
    return button;
  });
  const cancel = document.createElement("button");
  cancel.className = "cancel";
  cancel.textContent = texts.cancel;
  cancel.onclick = () => { sheet.hidden = true; };
  sheet.querySelector(".choices").replaceChildren(...buttons, cancel);
  sheet.hidden = false;
}

function send(move) {
  if (!shown || !socket || socket.readyState !== WebSocket.OPEN) return;
  socket.send(JSON.stringify({
    type: "move", text: move.text, version: shown.version, seat: shown.seat,
  }));
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
setInterval(() => { if (shown) status(shown.status); }, 1000);
connect();
