// The Play lab: any registered game against any agent spec (or two agents against each other),
// with the agent's search streamed live over /ws/search.
//
// The page keeps the game as a list of move labels; the server turns it into a view (POST
// /api/play/state) and the agents' moves come back in the websocket's "result" message. Each
// game's board is drawn by play_boards.js; this module runs the game, the players and the
// analysis. A resignation is the page's (the game's rules know none): it ends the game here.

import { $, el, formatNumber, getJSON, initPage, postJSON, SearchSocket, setStatus, svg } from "/static/common.js";
import {
  axesOf, boardStyle, capitalise, cellSize, goScoreLines, heapMoveTitle, hoverColumn, hoverTokens,
  renderGrid, renderHeaps,
} from "/static/play_boards.js";

initPage();

const ui = {
  game: $("game"),
  params: $("params"),
  first: $("agent-first"),
  second: $("agent-second"),
  seed: $("seed"),
  newGame: $("new-game"),
  undo: $("undo"),
  swap: $("swap"),
  pause: $("pause"),
  moves: $("moves"),
  resign: $("resign"),
  players: $("players"),
  turn: $("turn"),
  board: $("board"),
  heaps: $("heaps"),
  note: $("move-note"),
  score: $("go-score"),
  rowLabels: $("row-labels"),
  colLabels: $("col-labels"),
  actions: $("actions"),
  result: $("result"),
  text: $("state-text"),
  who: $("analysis-who"),
  algorithm: $("an-algorithm"),
  value: $("an-value"),
  depth: $("an-depth"),
  pv: $("an-pv"),
  simulations: $("an-simulations"),
  nodes: $("an-nodes"),
  elapsed: $("an-elapsed"),
  bars: $("bars"),
  iterations: $("iterations"),
};

const state = {
  games: [], // [{name, params}]
  game: null, // {name, params: defaults}
  params: {}, // the parameters that differ from the defaults
  moves: [],
  view: null,
  epoch: 0, // bumped by every new game / undo / game change: late answers of older epochs are dropped
  paused: false,
  loading: false,
  analysis: null, // the latest analysis message (or the result's) of the move being searched
  analysisMoves: null, // the view's legal moves the analysis is about
  iterationDepths: new Set(),
  resigned: null, // the player who resigned (the game is over on this page), or null
  armed: null, // Snake Go: the deadly move clicked once (a second click plays it)
  report: "", // what the last move was, for the status line ("White played D4")
};

const search = new SearchSocket({
  onQueued: () => setStatus(`${agentName(currentAgentSpec())} is waiting for a worker…`, "busy"),
  onAnalysis: (message) => {
    const view = state.view;
    if (view) setStatus(`${playerName(view.to_move)} (${currentAgentSpec()}) is thinking…`, "busy");
    showAnalysis(message);
  },
  onResult: (message) => playResult(message),
  onError: () => {
    state.paused = true;
    state.pausedByError = true;
    renderPause();
    renderTurn();
  },
  onCancelled: () => {},
});

// ---------------------------------------------------------------- players

function specOf(player) {
  return (player === 0 ? ui.first : ui.second).value.trim();
}

function isHuman(spec) {
  return spec === "" || spec.toLowerCase() === "human" || spec.toLowerCase().startsWith("human:");
}

function currentAgentSpec() {
  const view = state.view;
  if (!view || view.terminal || view.to_move === null || view.to_move === undefined) return "human";
  return specOf(view.to_move);
}

function agentName(spec) {
  return spec.split(":")[0] || spec;
}

/** What the page calls a player: "Black", "White", "First (X)", "Second". */
function playerName(player) {
  const view = state.view;
  if (player === null || player === undefined) return "nobody";
  const entry = view && view.players && view.players[player];
  return capitalise(entry ? entry.label : `player ${player}`);
}

// ---------------------------------------------------------------- game and parameters

function paramText(value) {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.map((v) => (Array.isArray(v) ? `[${v.join(",")}]` : v)).join(",");
  return String(value);
}

function buildParamsForm() {
  ui.params.replaceChildren();
  const defaults = state.game ? state.game.params || {} : {};
  for (const [name, value] of Object.entries(defaults)) {
    let input;
    if (typeof value === "boolean") {
      input = el("input", { type: "checkbox", "data-param": name });
      input.checked = value;
    } else if (typeof value === "number") {
      input = el("input", { type: "number", "data-param": name, value, step: Number.isInteger(value) ? 1 : "any" });
    } else {
      input = el("input", {
        type: "text",
        "data-param": name,
        value: paramText(value),
        placeholder: value === null ? "default" : "",
        spellcheck: "false",
      });
    }
    input.addEventListener("change", () => newGame());
    ui.params.append(el("label", { class: "field" }, el("span", {}, name), input));
  }
}

function readParams() {
  const defaults = state.game ? state.game.params || {} : {};
  const params = {};
  for (const input of ui.params.querySelectorAll("[data-param]")) {
    const name = input.dataset.param;
    const fallback = defaults[name];
    let value;
    if (input.type === "checkbox") value = input.checked;
    else if (input.type === "number") {
      if (input.value.trim() === "") continue;
      value = Number(input.value);
    } else {
      const text = input.value.trim();
      if (text === paramText(fallback)) continue;
      if (text === "") continue;
      if (Array.isArray(fallback)) {
        try {
          value = JSON.parse(`[${text}]`);
        } catch {
          value = text;
        }
      } else if (fallback === null) {
        try {
          value = JSON.parse(text);
        } catch {
          value = text;
        }
      } else value = text;
    }
    if (JSON.stringify(value) !== JSON.stringify(fallback)) params[name] = value;
  }
  return params;
}

async function loadGames() {
  state.games = await getJSON("/api/games");
  ui.game.replaceChildren(...state.games.map((g) => el("option", { value: g.name }, g.name)));
  const wanted = new URLSearchParams(location.search).get("game") || "tictactoe";
  const initial = state.games.find((g) => g.name === wanted) || state.games[0];
  if (initial) ui.game.value = initial.name;
  selectGame();
}

async function loadAgents() {
  let agents = [];
  try {
    agents = await getJSON("/api/agents");
  } catch {
    return; // the datalist is a convenience only; the error is in the status line
  }
  const examples = new Set(["human"]);
  for (const agent of agents || []) {
    if (agent.example) examples.add(agent.example);
    else if (agent.kind) examples.add(agent.kind);
  }
  for (const extra of ["mcts:time=1", "alphabeta:depth=9", "alphabeta:time=1", "random"]) examples.add(extra);
  $("agent-examples").replaceChildren(...[...examples].map((value) => el("option", { value })));
}

function selectGame() {
  state.game = state.games.find((g) => g.name === ui.game.value) || null;
  buildParamsForm();
  newGame();
}

// ---------------------------------------------------------------- the game's course

async function fetchView(moves) {
  return postJSON("/api/play/state", { game: state.game.name, params: state.params, moves });
}

async function newGame() {
  if (!state.game) return;
  search.cancel();
  const epoch = ++state.epoch;
  state.params = readParams();
  state.moves = [];
  state.lastLabel = null;
  state.lastCell = null;
  state.paused = false;
  state.pausedByError = false;
  state.resigned = null;
  state.armed = null;
  state.report = "";
  showNote("");
  clearAnalysis();
  renderPause();
  let view;
  try {
    state.loading = true;
    view = await fetchView([]);
  } catch {
    state.view = null;
    renderBoard();
    return;
  } finally {
    if (epoch === state.epoch) state.loading = false;
  }
  if (epoch !== state.epoch) return;
  state.view = view;
  state.moves = view.moves ? [...view.moves] : [];
  advance();
}

/** Whether the game is over on this page: finished by its rules, or resigned here. */
function isOver() {
  return Boolean(state.view && (state.view.terminal || state.resigned !== null));
}

/** What a person does to move in this game, for the status line. */
function howToMove(view) {
  if (view.go) return "click an intersection, or Pass";
  if (view.snake) {
    const deadly = (view.legal || []).some((m) => m.deadly);
    return `choose a move for snake ${view.snake.acting} below${deadly ? " (✗: it would kill the snake)" : ""}`;
  }
  if (view.heaps && view.heaps.kind === "nim") return "click a counter: it and those to its right are taken";
  if (view.game === "connect4") return "click a column";
  const withCell = (view.legal || []).some((m) => m.cell);
  const without = (view.legal || []).some((m) => !m.cell);
  if (withCell) return without ? "click a cell, or a move below" : "click a cell";
  return "choose a move below";
}

/** Draw the position, then start the agent to move (or wait for a person). */
function advance() {
  renderAll();
  const view = state.view;
  if (!view) return;
  if (isOver()) {
    setStatus(`game over: ${resultText() || "finished"}`, "ok");
    return;
  }
  const spec = currentAgentSpec();
  if (isHuman(spec)) {
    const before = state.report ? `${state.report}. ` : "";
    setStatus(`${before}${playerName(view.to_move)} to move: ${howToMove(view)}`, "info");
    return;
  }
  if (state.paused) {
    setStatus(`paused: ${playerName(view.to_move)} (${spec}) to move`, "info");
    return;
  }
  startSearch(spec);
}

function startSearch(spec) {
  const view = state.view;
  const seed = Math.max(0, Math.trunc(Number(ui.seed.value) || 0)) + state.moves.length;
  clearAnalysis();
  state.analysisMoves = view.legal;
  state.analysisPly = state.moves.length;
  ui.who.textContent = `— ${playerName(view.to_move)}, ${spec}`;
  setStatus(`${playerName(view.to_move)} (${spec}) is thinking…`, "busy");
  search.start({
    game: state.game.name,
    params: state.params,
    moves: state.moves,
    agent: spec,
    seed,
  });
  renderTurn();
}

function playResult(message) {
  if (message.analysis) showAnalysis(message.analysis);
  const previous = state.analysis || {};
  const final = {
    ...previous,
    algorithm: previous.algorithm || (message.stats && message.stats.algorithm) || null,
    // The compiled tier reports the root's statistics with its move only.
    moves: message.moves && message.moves.length ? message.moves : previous.moves || [],
    value: message.value ?? (state.analysis ? state.analysis.value : null),
    pv: message.pv && message.pv.length ? message.pv : state.analysis ? state.analysis.pv : null,
  };
  if (message.stats) {
    if (message.stats.tier && final.algorithm) final.algorithm = `${final.algorithm} (${message.stats.tier} tier)`;
    for (const key of ["depth", "nodes", "simulations", "elapsed"]) {
      if (message.stats[key] !== undefined && message.stats[key] !== null) final[key] = message.stats[key];
    }
  }
  if (message.stats && message.stats.is_proven && message.stats.outcome) final.proven = message.stats.outcome;
  showAnalysis(final, { keep: true });
  const view = message.view;
  if (!view) return;
  const mover = state.view ? state.view.to_move : null;
  noteMove(state.view, message.label);
  state.view = view;
  state.moves = view.moves ? [...view.moves] : [...state.moves, message.label];
  state.report = `${playerName(mover)} played ${message.label}`;
  // A note the server adds to the move (such as a budget it capped) stays until the next move.
  showNote(message.note || (message.stats && message.stats.note) || "");
  const epoch = state.epoch;
  if (view.terminal || isHuman(currentAgentSpec())) {
    advance();
    return;
  }
  // Two agents: let people see the move (and the final analysis) before the next search starts.
  renderAll();
  setStatus(state.report, "info");
  setTimeout(() => {
    if (epoch === state.epoch && state.view === view) advance();
  }, 250);
}

async function playHuman(action) {
  const view = state.view;
  if (!view || isOver() || state.loading || search.busy) return;
  if (!isHuman(currentAgentSpec())) return;
  state.armed = null;
  const epoch = state.epoch;
  const moves = [...state.moves, action.label];
  state.loading = true;
  let next;
  try {
    next = await fetchView(moves);
  } catch {
    return;
  } finally {
    state.loading = false;
  }
  if (epoch !== state.epoch) return;
  noteMove(state.view, action.label);
  state.report = "";
  showNote("");
  state.view = next;
  state.moves = next.moves ? [...next.moves] : moves;
  clearAnalysis();
  advance();
}

/** A person resigns: the game is over on this page (Undo takes the resignation back). */
function resign() {
  const view = state.view;
  if (!view || isOver() || !isHuman(currentAgentSpec())) return;
  search.cancel();
  state.epoch++;
  state.resigned = view.to_move;
  state.armed = null;
  showNote("");
  advance();
}

/** The result line: the rules' result, or who resigned. */
function resultText() {
  const view = state.view;
  if (!view) return "";
  if (state.resigned !== null) {
    return `${playerName(state.resigned)} resigns: ${playerName(1 - state.resigned)} wins`;
  }
  return view.terminal ? capitalise(view.result || "game over") : "";
}

function showNote(text) {
  ui.note.textContent = text;
}

async function undo() {
  if (state.resigned !== null) {
    state.resigned = null; // the resignation is taken back first
    advance();
    return;
  }
  if (!state.game || state.moves.length === 0) return;
  search.cancel();
  const epoch = ++state.epoch;
  const anyHuman = isHuman(specOf(0)) || isHuman(specOf(1));
  if (!anyHuman) state.paused = true; // two agents: stop so that the position can be looked at
  let moves = state.moves.slice(0, -1);
  let view;
  try {
    state.loading = true;
    view = await fetchView(moves);
    // Back to a position where a person is to move (the agent's reply is undone with it).
    while (anyHuman && moves.length > 0 && !view.terminal && !isHuman(specOf(view.to_move))) {
      moves = moves.slice(0, -1);
      view = await fetchView(moves);
    }
  } catch {
    return;
  } finally {
    if (epoch === state.epoch) state.loading = false;
  }
  if (epoch !== state.epoch) return;
  state.view = view;
  state.moves = view.moves ? [...view.moves] : moves;
  state.lastLabel = state.moves.length ? state.moves[state.moves.length - 1] : null;
  state.lastCell = null;
  state.armed = null;
  state.report = "";
  showNote("");
  clearAnalysis();
  renderPause();
  advance();
}

function swapSides() {
  const first = ui.first.value;
  ui.first.value = ui.second.value;
  ui.second.value = first;
  playersChanged();
}

function playersChanged() {
  if (state.pausedByError) {
    // The spec that failed was changed: try again.
    state.paused = false;
    state.pausedByError = false;
    renderPause();
  }
  search.cancel();
  // A position still loading (a new game, a person's move) goes on: it starts whoever is to
  // move now when it arrives.
  if (state.loading) return;
  state.epoch++;
  renderTurn();
  if (state.view) advance();
}

function togglePause() {
  state.paused = !state.paused;
  state.pausedByError = false;
  renderPause();
  if (state.paused) {
    if (search.busy) {
      search.cancel();
      state.epoch++;
    }
    advance();
  } else advance();
}

// ---------------------------------------------------------------- drawing: board

/** Coordinates beside the board, found once per game and board size. */
function renderAxes(view, shape, size) {
  if (!view) {
    ui.rowLabels.replaceChildren();
    ui.colLabels.replaceChildren();
    delete ui.rowLabels.dataset.key;
    return;
  }
  if (state.axesShape !== shape || !state.axes) {
    const axes = axesOf(view);
    if (state.axesShape !== shape || axes) {
      state.axes = axes;
      state.axesShape = shape;
    }
  }
  const axes = state.axes;
  const key = `${shape}:${size}:${axes ? "1" : "0"}`;
  if (ui.rowLabels.dataset.key === key) return;
  ui.rowLabels.dataset.key = key;
  ui.rowLabels.replaceChildren(...(axes ? axes.rows.map((t) => el("span", {}, t)) : []));
  ui.colLabels.replaceChildren(...(axes ? axes.cols.map((t) => el("span", {}, t)) : []));
}

/** The legal move a click on cell (row, col) plays, or null. */
function moveAtCell(row, col) {
  const view = state.view;
  if (!view) return null;
  const legal = view.legal || [];
  const exact = legal.find((m) => m.cell && m.cell[0] === row && m.cell[1] === col);
  if (exact) return exact;
  // A move played from several cells (Connect Four: the whole column).
  const many = legal.find((m) => Array.isArray(m.cells) && m.cells.some(([r, c]) => r === row && c === col));
  if (many) return many;
  // Connect Four: every cell of a column drops into it.
  if (view.game === "connect4") return legal.find((m) => m.cell && m.cell[1] === col) || null;
  return null;
}

function humanToMove() {
  const view = state.view;
  return Boolean(view && !isOver() && isHuman(currentAgentSpec()) && !state.loading && !search.busy);
}

function onBoardClick(event) {
  const cell = event.target.closest("[data-cell]");
  if (!cell || !ui.board.contains(cell) || !humanToMove()) return;
  const [row, col] = cell.dataset.cell.split(",").map(Number);
  const move = moveAtCell(row, col);
  if (move) playHuman(move);
}

function onBoardHover(event) {
  const cell = event.target.closest ? event.target.closest("[data-cell]") : null;
  const col = cell && ui.board.contains(cell) ? Number(cell.dataset.cell.split(",")[1]) : null;
  hoverColumn(ui.board, state.view, col, humanToMove());
}

function onActionClick(event) {
  const button = event.target.closest("[data-action-label]");
  if (!button || !humanToMove()) return;
  const move = (state.view.legal || []).find((m) => m.label === button.dataset.actionLabel && !m.cell);
  if (!move) return;
  if (move.deadly && state.armed !== move.label) {
    // Snake Go: a move that kills the acting snake is played only when clicked twice.
    state.armed = move.label;
    showNote(`${move.label} would kill snake ${state.view.snake.acting} (off the board, into a wall `
      + "or a snake): click it again to play it anyway, or choose another move.");
    renderActions(true);
    return;
  }
  playHuman(move);
}

function onHeapClick(event) {
  const token = event.target.closest("[data-label]");
  if (!token || !humanToMove()) return;
  const move = (state.view.legal || []).find((m) => m.label === token.dataset.label);
  if (move) playHuman(move);
}

/** Draw the position: the board (a grid of cells, or heaps), the moves without a cell, the
 * players and what the game counts. */
function renderBoard() {
  const view = state.view;
  if (!view) {
    ui.board.replaceChildren();
    ui.board.className = "board hidden";
    ui.board.dataset.shape = "";
    renderAxes(null, "", 0);
    renderHeaps(ui.heaps, null, false);
    ui.actions.replaceChildren();
    ui.actions.dataset.labels = "";
    ui.text.textContent = "";
    ui.players.replaceChildren();
    ui.score.replaceChildren();
    return;
  }
  ui.text.textContent = view.text || "";
  const human = humanToMove();
  if (view.grid && view.grid.rows > 0 && view.grid.cols > 0) {
    const { rows, cols } = view.grid;
    // The board fits its column (less the row labels and the board's own padding).
    const width = ui.board.parentElement.parentElement.clientWidth - 48;
    const size = cellSize(rows, cols, width);
    ui.board.parentElement.style.setProperty("--cell", `${size}px`);
    renderGrid(ui.board, view, { human, moveAt: moveAtCell, last: lastMoveCell(), size });
    renderAxes(view, `${view.game}:${rows}x${cols}`, size);
    ui.board.parentElement.classList.toggle("goban-frame", boardStyle(view) === "goban");
  } else {
    renderAxes(null, "", 0);
    ui.board.replaceChildren();
    ui.board.dataset.shape = "";
    ui.board.className = "board hidden";
  }
  ui.board.classList.toggle("over", isOver());
  renderHeaps(ui.heaps, view, human);
  renderActions(human);
  renderPlayers();
  ui.score.replaceChildren(...goScoreLines(view).map((line) => el("p", {}, line)));
  renderHeat();
}

/** The moves without a cell, as buttons (pass, Nim's takes, Snake Go's moves). */
function renderActions(human) {
  const view = state.view;
  const cellLess = (view.legal || []).filter((m) => !m.cell);
  const labels = cellLess.map((m) => `${m.label}${m.deadly ? "!" : ""}`).join("\n");
  if (ui.actions.dataset.labels !== labels) {
    ui.actions.replaceChildren(...cellLess.map((m) => {
      const button = el("button", { type: "button", "data-action-label": m.label }, m.label);
      if (m.deadly) {
        button.classList.add("deadly");
        button.dataset.deadly = "true";
        button.title = `${m.label} would kill snake ${view.snake.acting}`;
        button.append(el("span", { class: "deadly-mark", "aria-hidden": "true" }, "✗"));
      } else if (m.leaves) button.title = heapMoveTitle(m);
      if (m.label === "pass") button.classList.add("pass");
      return button;
    }));
    ui.actions.dataset.labels = labels;
  }
  for (const button of ui.actions.children) {
    button.disabled = !human;
    button.classList.toggle("armed", button.dataset.actionLabel === state.armed);
  }
  ui.resign.disabled = !human;
}

/** Both players: their piece, name, agent (or "you") and what the game counts for them. */
function renderPlayers() {
  const view = state.view;
  const counts = view.counts;
  const style = boardStyle(view);
  const entries = [0, 1].map((player) => {
    const spec = specOf(player);
    const who = isHuman(spec) ? "you" : spec;
    const toMove = !isOver() && view.to_move === player;
    const mark = view.players[player].mark;
    const lettered = style === "letters";
    const piece = lettered && mark.length !== 1 ? null // no piece of its own (Nim)
      : el("span", { class: `piece-icon ${style} p${player}`, "data-piece": mark, "aria-hidden": "true" },
        lettered ? mark : "");
    const count = counts ? el("span", { class: "count", "data-testid": `count-${player}` },
      `${counts.what} ${counts.values[player]}`) : null;
    return el("div", { class: `player${toMove ? " to-move" : ""}`, "data-player": player },
      piece, el("span", { class: "name" }, playerName(player)), el("span", { class: "who", title: who }, who), count);
  });
  ui.players.replaceChildren(...entries);
  ui.players.className = `players ${view.game}`;
}

function lastMoveCell() {
  // Go: the view's own last move. Else the square the last move was played on: the cell the
  // position before it gave that move (Connect Four: where the disc landed); else the label
  // looked up among the squares seen.
  const view = state.view;
  if (view && view.go) return view.go.last;
  const label = state.lastLabel;
  if (!label) return null;
  if (state.lastCell && state.lastCellLabel === label) return state.lastCell;
  return (state.cellOfLabel && state.cellOfLabel.get(label)) || null;
}

/** Remember where `label` was played from `view` (the position before the move). */
function noteMove(view, label) {
  const move = view && (view.legal || []).find((m) => m.label === label);
  state.lastLabel = label;
  state.lastCell = move && move.cell ? move.cell : null;
  state.lastCellLabel = label;
}

function rememberCells() {
  // Labels seen with a cell, for marking the last move (square games keep label -> cell fixed).
  const view = state.view;
  if (!view || !state.game || state.game.name === "connect4") {
    state.cellOfLabel = null;
    return;
  }
  if (!state.cellOfLabel || state.cellGame !== state.game.name) {
    state.cellOfLabel = new Map();
    state.cellGame = state.game.name;
  }
  for (const move of view.legal || []) if (move.cell) state.cellOfLabel.set(move.label, move.cell);
}

/** What the page waits for, on the board as data-turn: human | agent | paused | over | none. */
function turnState() {
  const view = state.view;
  if (!view) return "none";
  if (isOver()) return "over";
  if (isHuman(currentAgentSpec())) return "human";
  return state.paused ? "paused" : "agent";
}

function renderTurn() {
  const view = state.view;
  ui.board.dataset.turn = turnState();
  ui.turn.classList.remove("thinking");
  if (!view) {
    ui.turn.textContent = "";
    return;
  }
  if (isOver()) {
    ui.turn.textContent = "game over";
    return;
  }
  const spec = currentAgentSpec();
  const acting = view.snake ? `, snake ${view.snake.acting}` : "";
  if (isHuman(spec)) ui.turn.textContent = `${playerName(view.to_move)} to move${acting} (you)`;
  else {
    ui.turn.textContent = `${playerName(view.to_move)} to move${acting}: ${spec}${state.paused ? " (paused)" : ""}`;
    if (search.busy) ui.turn.classList.add("thinking");
  }
}

function renderResult() {
  const text = resultText();
  ui.result.textContent = text;
  ui.result.className = `result${/draw/i.test(text) ? " draw" : /wins/i.test(text) ? " win" : ""}`;
}

function renderMoves() {
  if (state.moves.length === 0) {
    ui.moves.textContent = "–";
    return;
  }
  const parts = [];
  for (let i = 0; i < state.moves.length; i++) parts.push(`${i + 1}.\u00a0${state.moves[i]}`);
  ui.moves.textContent = parts.join("  ");
}

function renderPause() {
  ui.pause.textContent = state.paused ? "Resume" : "Pause";
  ui.pause.setAttribute("aria-pressed", state.paused ? "true" : "false");
}

function renderAll() {
  rememberCells();
  renderBoard();
  renderTurn();
  renderResult();
  renderMoves();
  renderPause();
  ui.undo.disabled = state.moves.length === 0 && state.resigned === null;
}

// ---------------------------------------------------------------- drawing: analysis

function clearAnalysis() {
  state.analysis = null;
  state.analysisMoves = null;
  state.analysisPly = null;
  state.iterationDepths = new Set();
  ui.iterations.replaceChildren();
  for (const node of [ui.algorithm, ui.value, ui.depth, ui.pv, ui.simulations, ui.nodes, ui.elapsed]) {
    node.textContent = "–";
  }
  ui.who.textContent = "";
  ui.bars.replaceChildren();
  ui.bars.setAttribute("viewBox", "0 0 340 10");
  ui.bars.setAttribute("height", "10");
  renderHeat();
}

function moveShares(analysis) {
  const moves = (analysis && analysis.moves) || [];
  const total = moves.reduce((sum, m) => sum + (m.visits || 0), 0);
  return moves.map((m) => ({
    ...m,
    share: m.share !== undefined && m.share !== null ? m.share : total > 0 ? (m.visits || 0) / total : null,
  }));
}

function showAnalysis(message, { keep = false } = {}) {
  state.analysis = message;
  ui.algorithm.textContent = message.algorithm || (state.analysis && state.analysis.algorithm) || "–";
  ui.value.textContent = `${formatNumber(message.value, 3)}${message.proven ? ` (proven: ${message.proven})` : ""}`;
  ui.depth.textContent = formatNumber(message.depth, 0);
  ui.pv.textContent = message.pv && message.pv.length ? message.pv.join(" ") : "–";
  ui.simulations.textContent = formatNumber(message.simulations, 0);
  ui.nodes.textContent = formatNumber(message.nodes, 0);
  ui.elapsed.textContent = message.elapsed !== undefined && message.elapsed !== null ? `${Number(message.elapsed).toFixed(2)} s` : "–";
  if (!keep && message.depth !== undefined && message.depth !== null && !state.iterationDepths.has(message.depth)
      && (!message.moves || message.moves.every((m) => !m.visits))) {
    // Alpha-beta: one line per completed iteration of the deepening.
    state.iterationDepths.add(message.depth);
    const pv = message.pv && message.pv.length ? message.pv.join(" ") : "";
    ui.iterations.append(
      el("li", {}, `depth ${message.depth}: value ${formatNumber(message.value, 3)}${pv ? `, pv ${pv}` : ""}`
        + `${message.nodes ? `, ${formatNumber(message.nodes, 0)} nodes` : ""}`),
    );
  }
  renderBars(message);
  renderHeat();
}

function renderBars(analysis) {
  const moves = moveShares(analysis).filter((m) => m.visits !== 0 && (m.share !== null || m.value !== null));
  ui.bars.replaceChildren();
  if (moves.length === 0) {
    ui.bars.setAttribute("viewBox", "0 0 340 10");
    ui.bars.setAttribute("height", "10");
    return;
  }
  const byShare = moves.some((m) => m.share !== null);
  moves.sort((a, b) => (byShare ? (b.share || 0) - (a.share || 0) : (b.value || 0) - (a.value || 0)));
  const shown = moves.slice(0, 16);
  // Drawn at the panel's own width, so the text keeps its size (1 SVG unit = 1 CSS pixel).
  const width = Math.max(240, Math.round(ui.bars.getBoundingClientRect().width) || 340);
  const rowHeight = 20;
  const labelWidth = Math.min(80, Math.max(44, 10 + 7 * Math.max(...shown.map((m) => String(m.label).length))));
  const barWidth = width - labelWidth - 118;
  const top = 16;
  const height = top + shown.length * rowHeight + 4;
  ui.bars.setAttribute("viewBox", `0 0 ${width} ${height}`);
  ui.bars.setAttribute("height", String(height));
  ui.bars.append(
    svg("text", { x: 0, y: 11, class: "value" }, "move"),
    svg("text", { x: labelWidth, y: 11, class: "value" }, byShare ? "visit share" : "value"),
    svg("text", { x: width - 4, y: 11, class: "value", "text-anchor": "end" }, byShare ? "visits · value" : ""),
  );
  const maxShare = Math.max(...shown.map((m) => m.share || 0), 1e-9);
  shown.forEach((move, i) => {
    const y = top + i * rowHeight;
    const fraction = byShare ? (move.share || 0) / maxShare : 0.5 + 0.5 * Math.max(-1, Math.min(1, move.value || 0));
    const value = move.value;
    const hue = value === null || value === undefined ? 215 : Math.round(60 + 60 * Math.max(-1, Math.min(1, value)));
    const group = svg("g", { "data-move": move.label });
    group.append(
      svg("text", { x: 0, y: y + 14, class: "label" }, move.label),
      svg("rect", { x: labelWidth, y: y + 3, width: barWidth, height: rowHeight - 6, fill: "#eef1f5", rx: 2 }),
      svg("rect", {
        x: labelWidth,
        y: y + 3,
        width: Math.max(1, barWidth * fraction),
        height: rowHeight - 6,
        fill: `hsl(${hue}, 60%, 48%)`,
        rx: 2,
      }),
      svg("text", fraction > 0.3
        ? { x: labelWidth + 4, y: y + 14, style: "fill:#fff;font-size:10px" }
        : { x: labelWidth + Math.max(1, barWidth * fraction) + 4, y: y + 14, style: "font-size:10px" },
      byShare && move.share !== null ? `${(100 * move.share).toFixed(1)}%` : ""),
      svg("text", { x: width - 4, y: y + 14, "text-anchor": "end" },
        `${move.visits !== undefined && move.visits !== null ? formatNumber(move.visits, 0) : ""}`
        + `${value !== undefined && value !== null ? ` · ${value >= 0 ? "+" : ""}${value.toFixed(2)}` : ""}`),
      svg("title", {}, `${move.label}: ${move.visits ?? "–"} visits, value ${value ?? "–"}`),
    );
    ui.bars.append(group);
  });
}

function compact(n) {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e4) return `${Math.round(n / 1e3)}k`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return String(n);
}

/** The heat map: each analysed move's share of the visits shades its cell(s) on the board. */
function renderHeat() {
  for (const node of ui.board.querySelectorAll(".heat-label")) node.remove();
  for (const node of ui.board.querySelectorAll(".heat")) node.style.removeProperty("--a");
  for (const node of ui.board.querySelectorAll(".heated")) node.classList.remove("heated");
  for (const node of ui.actions.querySelectorAll(".heat-label")) node.remove();
  for (const node of ui.board.querySelectorAll(".pv-badge")) node.remove();
  const analysis = state.analysis;
  if (!analysis || !state.view) return;
  renderPrincipalVariation(analysis);
  const moves = moveShares(analysis);
  if (moves.length === 0) return;
  const legal = state.analysisMoves || (state.view ? state.view.legal : []) || [];
  const byAction = new Map(legal.map((m) => [m.action, m]));
  const byLabel = new Map(legal.map((m) => [m.label, m]));
  const maxShare = Math.max(...moves.map((m) => m.share || 0), 1e-9);
  const best = analysis.pv && analysis.pv.length ? analysis.pv[0] : null;
  // A large board (Go, Gomoku) writes the numbers of its most visited moves only; every
  // searched cell is shaded and titled.
  const grid = state.view.grid;
  const written = grid && grid.rows * grid.cols > 30
    ? new Set([...moves].sort((a, b) => (b.visits || 0) - (a.visits || 0)).slice(0, 6).map((m) => m.label))
    : null;
  for (const move of moves) {
    if (move.visits === 0) continue; // not searched: no shade, no label
    const legalMove = byAction.get(move.action) || byLabel.get(move.label);
    const share = move.share;
    const visits = move.visits;
    const value = move.value;
    const valueText = value !== null && value !== undefined ? `${value >= 0 ? "+" : ""}${value.toFixed(2)}` : "";
    const text = `${visits ? compact(visits) : ""}${visits && valueText ? " " : ""}${valueText}`;
    if (legalMove && legalMove.cell) {
      const [r, c] = landingCell(legalMove.cell);
      const cell = ui.board.querySelector(`[data-cell="${r},${c}"]`);
      if (!cell) continue;
      const alpha = share !== null ? 0.08 + 0.72 * (share / maxShare) : move.label === best ? 0.6 : 0.15;
      cell.querySelector(".heat").style.setProperty("--a", alpha.toFixed(3));
      cell.classList.add("heated");
      if (!written || written.has(move.label)) {
        cell.append(el("span", { class: `heat-label${alpha > 0.5 ? " strong" : ""}` },
          visits ? el("span", {}, compact(visits)) : null, valueText ? el("span", { class: "v" }, valueText) : null));
      }
      cell.title = `${legalMove.label}: ${visits ?? "–"} visits, value ${valueText || "–"}`;
    } else {
      const button = ui.actions.querySelector(`[data-action-label="${CSS.escape(move.label)}"]`);
      if (button) button.append(el("span", { class: "heat-label" }, share !== null ? `${(100 * share).toFixed(0)}%` : text));
    }
  }
}

/** The square named by a label like "c6" on the board's coordinates, or null. */
function cellOfSquare(label) {
  const axes = state.axes;
  const match = /^([a-z])(\d+)$/.exec(label);
  if (!axes || !match || state.game.name === "connect4") return null;
  const col = match[1].charCodeAt(0) - 97;
  const row = axes.rows.indexOf(match[2]);
  return row >= 0 && col < axes.cols.length ? [row, col] : null;
}

/** The principal variation's moves numbered on the board's empty squares (square games). */
function renderPrincipalVariation(analysis) {
  const view = state.view;
  // After the agent's move, the rest of its variation is the continuation it expects.
  const offset = state.moves.length - (state.analysisPly ?? -99);
  if (!view || view.terminal || !view.grid || !state.cellOfLabel || offset < 0 || offset > 1) return;
  const pv = (analysis.pv || []).slice(offset);
  pv.slice(0, 9).forEach((label, i) => {
    const cell = cellOfSquare(label) || state.cellOfLabel.get(label);
    if (!cell) return;
    const node = ui.board.querySelector(`[data-cell="${cell[0]},${cell[1]}"]`);
    if (!node || node.classList.contains("occupied") || node.querySelector(".pv-badge")) return;
    node.append(el("span", { class: `pv-badge ${i % 2 ? "reply" : "own"}`, title: `principal variation, move ${i + 1}` }, String(i + 1)));
  });
}

/** Connect Four: the cell where the disc lands (the lowest empty one of the column). */
function landingCell(cell) {
  const view = state.view;
  if (!view || !view.grid || !state.game || state.game.name !== "connect4") return cell;
  const col = cell[1];
  for (let r = view.grid.rows - 1; r >= 0; r--) {
    if ((view.grid.cells[r][col] ?? ".") === ".") return [r, col];
  }
  return cell;
}

// ---------------------------------------------------------------- wiring

ui.game.addEventListener("change", selectGame);
ui.board.addEventListener("click", onBoardClick);
ui.board.addEventListener("mouseover", onBoardHover);
ui.board.addEventListener("mouseleave", () => hoverColumn(ui.board, state.view, null, false));
ui.actions.addEventListener("click", onActionClick);
ui.heaps.addEventListener("click", onHeapClick);
ui.heaps.addEventListener("mouseover", (event) => hoverTokens(ui.heaps, event.target.closest(".token")));
ui.heaps.addEventListener("mouseleave", () => hoverTokens(ui.heaps, null));
ui.resign.addEventListener("click", resign);
ui.newGame.addEventListener("click", newGame);
ui.undo.addEventListener("click", undo);
ui.swap.addEventListener("click", swapSides);
ui.pause.addEventListener("click", togglePause);
ui.first.addEventListener("change", playersChanged);
ui.second.addEventListener("change", playersChanged);
window.addEventListener("beforeunload", () => search.cancel());

loadAgents();
loadGames().catch(() => {});
