// The Baloot web table (issue 32): one seat's live view of a table, drawn from the server's
// "state" frames (baloot/web/frames.py), and taps sent back as "act" frames. The page never
// decides a rule: the server sends exactly this seat's cards and legal actions.
//
// In Discord (an Activity, ?frame_id=... in the URL) it signs in first with the Embedded App
// SDK: authorize -> the bot exchanges the code (POST /api/token) -> authenticate.

import { DiscordSDK, DiscordSDKMock } from "@discord/embedded-app-sdk";
import { signIn } from "./activity.js";
import { el, clear, richText } from "./dom.js";

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };

const app = document.getElementById("app");
let state = null;
let words = {};
let link = null;
let socket = null;
let sessionQuery = "";
let retry = 0;
let timer = null;
const params = new URLSearchParams(location.search);
let lang = params.get("lang") || localStorage.getItem("baloot-lang") || "";

function w(key, values) {
  let text = words[key] || key;
  for (const [k, v] of Object.entries(values || {})) text = text.replace(`{${k}}`, v);
  return text;
}

function send(obj) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(obj));
}

function connect() {
  const query = new URLSearchParams(sessionQuery);
  if (lang) query.set("lang", lang);
  const key = params.get("key");
  if (key) query.set("key", key);
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws?${query}`);
  socket.addEventListener("open", () => { retry = 0; });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", (event) => {
    if (event.code === 1008 || event.code === 1003 || event.code === 1009) {
      toast(event.reason || "closed");
      return; // the server refused a frame: do not loop
    }
    status(w("disconnected"));
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, 500 * retry);
  });
}

function receive(frame) {
  if (frame.type === "error") { toast(frame.message); return; }
  if (frame.type !== "state") return;
  if (frame.labels) words = frame.labels;
  if (frame.link) link = frame.link;
  state = frame;
  document.documentElement.lang = frame.locale;
  document.documentElement.dir = frame.dir;
  draw();
}

function status(text) {
  const line = document.getElementById("status");
  if (line) line.textContent = text;
}

let toastTimer = null;
function toast(text) {
  const box = document.getElementById("toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, 4000);
}

function seatName(seat) {
  const info = state.seats[seat];
  if (!info) return "—";
  return info.name; // the server names bots in the viewer's language
}

function cardFace(card, options = {}) {
  const symbol = SUITS[card.code[1]];
  const rank = card.label.replace(symbol, "").trim();
  const face = el(options.button ? "button" : "div", {
    class: `card ${card.red ? "red" : "black"}${options.legal ? " legal" : ""}${options.illegal ? " illegal" : ""}`,
    "data-card": card.code,
    "aria-label": card.label,
  }, [el("span", { class: "rank" }, [rank]), el("span", { class: "suit" }, [symbol])]);
  if (options.button) face.disabled = !options.legal;
  return face;
}

function relative(seat) {
  const me = state.seat === null || state.seat === undefined ? 0 : state.seat;
  return ["bottom", "right", "top", "left"][(seat - me + 4) % 4];
}

function countdown() {
  clearInterval(timer);
  const line = document.getElementById("clock");
  if (!line || !state.deadline || state.to_move === null || state.to_move === undefined) return;
  const tick = () => {
    const left = Math.max(0, Math.round(state.deadline - Date.now() / 1000));
    line.textContent = `${left} ${w("seconds")}`;
  };
  tick();
  timer = setInterval(tick, 1000);
}

function turnText() {
  if (state.phase === "finished") return w("hand_over");
  if (state.status === "finished" || state.status === "abandoned") return w("match_over");
  if (state.to_move === null || state.to_move === undefined) return "";
  if (state.to_move === state.seat) return w("your_turn");
  return w("waiting_for", { name: seatName(state.to_move) });
}

function drawLobby() {
  const box = el("section", { class: "lobby" });
  if (state.seat === null || state.seat === undefined) {
    const name = el("input", { id: "name", maxlength: "32", placeholder: w("your_name"), autocomplete: "nickname" });
    name.value = localStorage.getItem("baloot-name") || "";
    const sit = el("button", { id: "sit", class: "primary" }, [w("sit")]);
    sit.addEventListener("click", () => {
      localStorage.setItem("baloot-name", name.value);
      send({ type: "sit", name: name.value });
    });
    box.append(el("label", {}, [w("your_name"), name]), sit);
  } else if (state.status === "open") {
    const start = el("button", { id: "start", class: "primary" }, [w("start")]);
    start.addEventListener("click", () => send({ type: "start" }));
    box.append(el("p", {}, [w("waiting_players")]), start);
  }
  if (link && state.status !== "playing") {
    box.append(el("p", { class: "link" }, [w("table_link"), " ", el("code", { dir: "ltr" }, [link])]));
  }
  return box;
}

function drawTable() {
  const table = el("section", { class: "table", dir: "ltr" });
  for (let seat = 0; seat < 4; seat++) {
    const classes = ["seat", relative(seat)];
    if (state.to_move === seat) classes.push("to-move");
    if (seat % 2 === (state.seat ?? 0) % 2) classes.push("us");
    const plate = el("div", { class: classes.join(" "), "data-seat": String(seat) }, [
      el("span", { class: "name", dir: "auto" }, [seatName(seat)]),
    ]);
    if (state.dealer === seat) plate.append(el("span", { class: "dealer", title: w("dealer") }, ["D"]));
    if (state.to_move === seat) plate.append(el("span", { id: "clock", class: "clock" }));
    table.append(plate);
  }
  const middle = el("div", { class: "middle" });
  if (state.up_card) middle.append(el("div", { class: "up" }, [cardFace(state.up_card)]));
  const trick = state.trick && state.trick.cards.length ? state.trick : (state.phase === "finished" ? null : null);
  for (const played of (trick ? trick.cards : [])) {
    middle.append(el("div", { class: `played ${relative(played.seat)}` }, [cardFace(played.card)]));
  }
  table.append(middle);
  return table;
}

function drawFacts() {
  const facts = el("section", { class: "facts" });
  const rows = [
    ["contract", state.contract], ["doubling", state.doubling], ["bids", state.bids],
    ["projects", state.projects], ["result", state.result],
  ];
  for (const [key, value] of rows) {
    if (value) facts.append(el("div", { class: `fact ${key}`, dir: "auto" }, richText(value)));
  }
  if (state.match_score) {
    const mine = (state.seat ?? 0) % 2;
    const total = (team) => state.match_score[team] + (state.hand_score ? state.hand_score[team] : 0);
    const score = el("div", { class: "fact score" }, [
      `${w("score")}: ${w("us")} ${total(mine)} · ${w("them")} ${total(1 - mine)}`,
    ]);
    if (state.phase === "playing" || state.phase === "finished") {
      score.append(el("br"), `${w("tricks")}: ${w("us")} ${state.tricks_won[mine]} · ${w("them")} ${state.tricks_won[1 - mine]}`);
    }
    facts.append(score);
  }
  if (state.goal) facts.append(el("div", { class: "fact goal", dir: "auto" }, [state.goal]));
  if (state.last_trick) {
    const last = el("div", { class: "fact last" }, [`${w("last_trick")}: `]);
    for (const played of state.last_trick.cards) last.append(cardFace(played.card, { mini: true }));
    facts.append(last);
  }
  return facts;
}

function drawHand() {
  const hand = el("section", { class: "hand", "aria-label": w("your_cards") });
  const actions = el("div", { class: "actions" });
  for (const action of state.actions) {
    const button = el("button", { class: `action ${action.type}`, "data-action": action.type }, [action.label]);
    button.addEventListener("click", () => send({ type: "act", action: action.action, version: state.version }));
    actions.append(button);
  }
  hand.append(actions);
  const cards = el("div", { class: "cards" });
  const myTurn = state.to_move === state.seat;
  for (const card of state.hand) {
    const face = cardFace(card, { button: true, legal: card.legal, illegal: myTurn && !card.legal });
    face.addEventListener("click", () => {
      if (!card.legal) return;
      send({ type: "act", action: { seat: state.seat, type: "play", card: card.code }, version: state.version });
    });
    cards.append(face);
  }
  hand.append(cards);
  return hand;
}

function draw() {
  clear(app);
  // the state drawn, for tests and tools that read the page: which version of the table it shows
  app.dataset.version = state.version ? state.version.join(".") : "";
  const switcher = el("button", { id: "lang", class: "lang" }, [w("language")]);
  switcher.addEventListener("click", () => {
    lang = state.locale === "ar" ? "en" : "ar";
    localStorage.setItem("baloot-lang", lang);
    words = {};
    socket.close(1000);
  });
  app.append(el("header", {}, [el("h1", {}, [w("title")]), el("p", { id: "status" }, [turnText()]), switcher]));
  if (state.status !== "playing" && state.status !== "finished") app.append(drawLobby());
  if (state.version) {
    app.append(drawTable(), drawFacts(), drawHand());
  } else {
    app.append(drawTable());
  }
  if (state.seat === null && state.status === "playing") app.append(el("p", { class: "watching" }, [w("watching")]));
  countdown();
}

async function main() {
  if (params.has("frame_id")) {
    status("…");
    const clientId = document.querySelector('meta[name="baloot-client-id"]').content;
    const sdk = params.get("sdk") === "mock"
      ? new DiscordSDKMock(clientId, null, null, null)
      : new DiscordSDK(clientId);
    try {
      sessionQuery = `session=${encodeURIComponent(await signIn(sdk, clientId))}`;
    } catch (error) {
      toast(String(error.message || error));
      return;
    }
  }
  connect();
}

main();
