// The sandbox page: one WebSocket to the server; it pushes the chats of the person this
// page acts as, and this page sends what that person types and presses.
"use strict";

const TEXTS = {
  ru: {
    title: "Песочница «Дурака»", people: "Кто вы", chats: "Чаты", start: "Запустить",
    startHint: "Бот сможет писать вам, когда вы нажмёте «Запустить».",
    message: "Сообщение", send: "Отправить", edited: "изменено", only_you: "видно только вам",
    offline: "Нет связи с песочницей. Переподключаюсь…",
    stale_button: "Этой кнопки уже нет.", bad_text: "Сообщение пустое или длиннее 4096 знаков.",
    no_chat: "В этом чате вас нет.", no_person: "Такого человека в песочнице нет.",
    bad_link: "Ссылка не подходит для «Запустить».", bad_request: "Песочница не поняла запрос.",
    empty_group: "Здесь пока тихо. Напишите /durak, чтобы открыть стол для игры.",
    close_app: "Закрыть",
  },
  en: {
    title: "Durak sandbox", people: "Who you are", chats: "Chats", start: "Start",
    startHint: "The bot can write to you once you press Start.",
    message: "Message", send: "Send", edited: "edited", only_you: "only you see this",
    offline: "Lost the sandbox. Reconnecting…",
    stale_button: "That button is gone.", bad_text: "The message is empty or over 4096 characters.",
    no_chat: "You are not in that chat.", no_person: "No such person in the sandbox.",
    bad_link: "That link cannot be started.", bad_request: "The sandbox did not understand.",
    empty_group: "Nothing here yet. Type /durak to open a table.",
    close_app: "Close",
  },
};
// Telegram's HTML tags, drawn as these elements; anything else is kept as its text.
const TAGS = {
  b: "b", strong: "b", i: "i", em: "i", u: "u", ins: "u", s: "s", strike: "s", del: "s",
  code: "code", pre: "pre", blockquote: "blockquote", a: "a", span: "span",
  "tg-spoiler": "span", "tg-emoji": "span",
};

let state = null; // the last pushed snapshot
let socket = null;
let me = Number(new URLSearchParams(location.hash.slice(1)).get("as")) || null;
let openChat = null; // the chat shown on a narrow screen
const startPayload = new Map(); // person -> payload of the deep link they opened
const $ = (id) => document.getElementById(id);
const text = (key) => (TEXTS[state?.lang] || TEXTS.ru)[key];

function connect() {
  const url = new URL("/ws", location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  if (me) url.searchParams.set("as", me);
  socket = new WebSocket(url);
  socket.onopen = () => { $("offline").hidden = true; };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = () => {
    $("offline").textContent = text("offline");
    $("offline").hidden = false;
    setTimeout(connect, 1000);
  };
}

function send(request) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(request));
}

function receive(data) {
  if (data.type === "state") {
    state = data;
    me = data.me;
    render();
  } else if (data.type === "answer") {
    for (const b of document.querySelectorAll(`article[data-id="${data.message}"] [aria-busy]`)) {
      b.removeAttribute("aria-busy");
    }
    if (data.url) openLink(data.url);
    else if (data.text && data.alert) showAlert(data.text);
    else if (data.text) toast(data.text);
  } else if (data.type === "app") {
    openApp(data.url);
  } else if (data.type === "refused") {
    toast(text(data.code) || data.code);
  }
}

function render() {
  document.documentElement.lang = state.lang;
  document.title = text("title");
  $("title").textContent = text("title");
  $("people").setAttribute("aria-label", text("people"));
  $("tabs").setAttribute("aria-label", text("chats"));
  renderPeople();
  if (!state.chats.some((c) => c.id === openChat)) {
    // Another person: their private chat (whose id is theirs) if one was open, where
    // their cards are; else the first chat.
    openChat = openChat > 0 && state.chats.some((c) => c.id === me) ? me : state.chats[0]?.id;
  }
  renderTabs();
  const main = $("chats");
  const keep = new Set(state.chats.map((c) => `chat${c.id}`));
  for (const section of [...main.children]) if (!keep.has(section.id)) section.remove();
  state.chats.forEach((chat, index) => {
    let section = $(`chat${chat.id}`);
    if (!section) section = newSection(chat);
    if (main.children[index] !== section) main.insertBefore(section, main.children[index] || null);
    fillSection(section, chat);
  });
}

// Redraws ``box`` only when ``key`` changed since its last drawing.
function changed(box, key) {
  if (box.dataset.key === key) return false;
  box.dataset.key = key;
  return true;
}

function renderPeople() {
  const nav = $("people");
  if (!changed(nav, JSON.stringify([me, state.people]))) return;
  nav.replaceChildren(...state.people.map((person) => {
    const button = element("button", { type: "button" }, person.name);
    button.setAttribute("aria-pressed", String(person.id === me));
    button.onclick = () => {
      location.hash = `as=${person.id}`;
      send({ op: "as", user: person.id });
    };
    return button;
  }));
}

function renderTabs() {
  const titles = state.chats.map((c) => [c.id, c.title]);
  if (!changed($("tabs"), JSON.stringify([openChat, titles]))) return;
  $("tabs").replaceChildren(...state.chats.map((chat) => {
    const button = element("button", { type: "button" }, chat.title);
    button.setAttribute("aria-pressed", String(chat.id === openChat));
    button.setAttribute("aria-controls", `chat${chat.id}`);
    button.onclick = () => { openChat = chat.id; render(); };
    return button;
  }));
}

function newSection(chat) {
  const section = element("section", { id: `chat${chat.id}`, className: "chat" });
  const title = element("h2", { id: `chat${chat.id}-title` });
  section.setAttribute("aria-labelledby", title.id);
  const log = element("div", { className: "log", role: "log" });
  log.setAttribute("aria-label", chat.title);
  section.append(title, log, element("div", { className: "bottom" }));
  return section;
}

function fillSection(section, chat) {
  // A hidden chat (a tab on a narrow screen) has no scroll position: opened, it shows
  // its newest message, as Telegram does.
  const opened = !section.classList.contains("open") && chat.id === openChat;
  section.classList.toggle("open", chat.id === openChat);
  section.querySelector("h2").textContent = chat.title;
  const log = section.querySelector(".log");
  const atBottom = opened || log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  const keep = new Set(chat.messages.map((m) => String(m.id)));
  for (const article of [...log.children]) if (!keep.has(article.dataset.id)) article.remove();
  let added = false;
  chat.messages.forEach((message, index) => {
    const signature = JSON.stringify(message) + state.lang;
    let article = log.querySelector(`article[data-id="${message.id}"]`);
    if (!article) {
      article = element("article");
      article.dataset.id = message.id;
      added = true;
    }
    if (article.dataset.signature !== signature) {
      article.dataset.signature = signature;
      fillArticle(article, chat, message);
    }
    if (log.children[index] !== article) log.insertBefore(article, log.children[index] || null);
  });
  if (!chat.messages.length && !chat.private) {
    log.append(element("p", { className: "empty" }, text("empty_group")));
  }
  fillBottom(section.querySelector(".bottom"), chat); // first: it takes from the log's height
  if (atBottom || added) log.scrollTop = log.scrollHeight;
}

function fillArticle(article, chat, message) {
  article.className = message.mine ? "mine" : "";
  const bubble = element("div", { className: "bubble" });
  if (!message.mine) bubble.append(element("p", { className: "from" }, message.from));
  const body = element("div", { className: "text" });
  body.append(richText(message.html));
  if (message.edited) body.append(element("small", { className: "edited" }, text("edited")));
  if (message.ephemeral) body.append(element("small", { className: "edited" }, text("only_you")));
  bubble.append(body);
  article.replaceChildren(bubble);
  article.classList.toggle("keyed", message.keyboard.length > 0);
  if (message.keyboard.length) article.append(keyboard(chat, message));
}

function keyboard(chat, message) {
  const box = element("div", { className: "keyboard", role: "group" });
  for (const row of message.keyboard) {
    const line = element("div", { className: "row" });
    for (const b of row) {
      const button = element("button", { type: "button", title: b.text }, b.text);
      if (b.style) button.dataset.style = b.style;
      if (b.web_app) {
        button.classList.add("link", "app");
        button.onclick = () => openLink(b.web_app.url);
      } else if (b.url) {
        button.classList.add("link");
        if (appStart(b.url)) button.classList.add("app");
        button.onclick = () => openLink(b.url);
      } else {
        button.onclick = () => {
          button.setAttribute("aria-busy", "true");
          send({ op: "press", chat: chat.id, message: message.id, data: b.callback_data });
        };
      }
      line.append(button);
    }
    box.append(line);
  }
  return box;
}

function fillBottom(bottom, chat) {
  const payload = chat.private ? startPayload.get(me) : undefined;
  const mode = chat.private && (!chat.started || payload !== undefined) ? "start" : "compose";
  const key = JSON.stringify([mode, payload, state.lang, chat.started, chat.commands]);
  if (!changed(bottom, key)) return; // keeps what is being typed
  if (mode === "start") {
    const button = element("button", { type: "button" }, text("start"));
    button.onclick = () => {
      startPayload.delete(me);
      send({ op: "start", payload: payload || "" });
    };
    const hint = chat.started ? [] : [element("p", { className: "hint" }, text("startHint"))];
    bottom.className = "bottom start";
    bottom.replaceChildren(...hint, button);
    return;
  }
  const list = element("datalist", { id: `commands${chat.id}` });
  for (const c of chat.commands) {
    list.append(element("option", { value: `/${c.command}`, label: c.description }));
  }
  const input = element("input", { type: "text", maxLength: 4096, autocomplete: "off" });
  input.setAttribute("list", list.id);
  input.setAttribute("aria-label", text("message"));
  input.placeholder = text("message");
  const form = element("form", { className: "compose" });
  form.append(input, list, element("button", { type: "submit" }, text("send")));
  form.onsubmit = (event) => {
    event.preventDefault();
    if (input.value.trim()) send({ op: "send", chat: chat.id, text: input.value });
    input.value = "";
  };
  bottom.className = "bottom";
  bottom.replaceChildren(form);
}

// The table's token in a link that opens the bot's Mini App: its direct link
// (t.me/<bot>/<app>?startapp=) or the page's own URL (a web_app button's).
function appStart(url) {
  const direct = /^https:\/\/t\.me\/([A-Za-z0-9_]+)\/[A-Za-z0-9_]+\?startapp=([A-Za-z0-9_-]{1,64})$/
    .exec(url);
  if (direct) return direct[1] === state.bot ? direct[2] : null;
  const page = /^https?:\/\/[^/]+\/app\?startapp=([A-Za-z0-9_-]{1,64})$/.exec(url);
  return page && new URL(url).host === location.host ? page[1] : null;
}

// The Mini App in a panel beside the chats, as Telegram opens it over the chat.
function openApp(url) {
  const panel = $("miniapp");
  panel.querySelector("iframe").src = url;
  panel.querySelector("button").textContent = text("close_app");
  if (!panel.open) panel.show();
}

function closeApp() {
  const panel = $("miniapp");
  panel.querySelector("iframe").src = "about:blank";
  panel.close();
}

// A deep link to this bot opens the private chat with «Запустить»; the Mini App's, the
// panel (signed by the server for this person); others a new tab.
function openLink(url) {
  const start = appStart(url);
  if (start) {
    send({ op: "app", start });
    return;
  }
  const link = /^https:\/\/t\.me\/([A-Za-z0-9_]+)\?start=([A-Za-z0-9_-]{1,64})$/.exec(url);
  if (!link || link[1] !== state.bot) {
    window.open(url, "_blank", "noopener");
    return;
  }
  startPayload.set(me, link[2]);
  openChat = me; // a private chat's id is its person's id
  render();
  $(`chat${me}`).querySelector(".start button").focus();
}

document.addEventListener("click", (event) => {
  const a = event.target.closest(".text a[href]");
  if (!a) return;
  event.preventDefault();
  openLink(a.href);
});

function richText(html) {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, "text/html");
  const out = document.createDocumentFragment();
  copyNodes(doc.body, out);
  return out;
}

function copyNodes(from, to) {
  for (const node of from.childNodes) {
    if (node.nodeType === Node.TEXT_NODE) {
      to.append(node.textContent);
    } else if (node.nodeType === Node.ELEMENT_NODE) {
      const tag = TAGS[node.localName];
      if (!tag) { copyNodes(node, to); continue; }
      const el = document.createElement(tag);
      const href = node.getAttribute("href") || "";
      if (tag === "a" && /^(https?:|tg:)/.test(href)) el.href = href;
      if (node.localName === "tg-spoiler" || node.classList.contains("tg-spoiler")) {
        el.className = "spoiler";
        el.tabIndex = 0;
      }
      copyNodes(node, el);
      to.append(el);
    }
  }
}

let toastTimer = 0;
function toast(message) {
  const box = $("toast");
  box.textContent = message;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, 2500);
}

function showAlert(message) {
  $("alert-text").textContent = message;
  if (!$("alert").open) $("alert").showModal();
}

function element(tag, props = {}, content) {
  const { role, ...rest } = props;
  const el = Object.assign(document.createElement(tag), rest);
  if (role) el.setAttribute("role", role);
  if (content !== undefined) el.textContent = content;
  return el;
}

connect();
$("miniapp").querySelector(".bar button").onclick = closeApp;
