// The Play lab's boards: each game drawn as it is played, from the server's view of the
// position (POST /api/play/state, searchlab/web/views.py).
//
//   Go and Gomoku      a wooden board, stones on the intersections (Go: star points, GTP
//                      letters without I, the last move and the ko point marked; at the end
//                      the dead stones and each point's owner of the library's count)
//   Othello            a green board with discs; a person's legal moves marked (view.hints)
//   Connect Four       a blue frame; a column is clicked, the disc falls to its cell
//   tic-tac-toe, mnk   a grid of X and O
//   Snake Go           heads, bodies, walls and items; the acting snake's head ringed
//   Nim, heap games    the heaps as rows of counters (Nim: a click takes a counter and those
//                      to its right)
//
// The board is a grid of cells (one per square or intersection, data-cell="row,col", the
// move it plays in data-label), kept while the position changes so that nothing flickers;
// play.js adds the heat map and the principal variation to the same cells.

import { el } from "/static/common.js";

/** The board's look: its class names on the board element ("goban", "discs othello", ...). */
export function boardStyle(view) {
  const game = view.game;
  if (view.go || game === "gomoku") return "goban";
  if (game === "snakego") return "snakego";
  if (game === "connect4" || game === "othello") return `discs ${game}`;
  return "letters";
}

function snakeClass(ch) {
  if (/^[A-H]$/.test(ch)) return "p0";
  if (/^[a-h]$/.test(ch)) return "p1";
  return { o: "body0", x: "body1", "#": "wall0", "%": "wall1", "+": "item", "*": "item" }[ch] || "";
}

function sameCell(a, b) {
  return Boolean(a && b && a[0] === b[0] && a[1] === b[1]);
}

/** The coordinates beside the board: {cols, rows} (labels, left to right and top to bottom),
 * or null when the game has none that the moves agree on. */
export function axesOf(view) {
  const { rows, cols } = view.grid;
  if (view.go) {
    return {
      cols: view.go.columns.split(""),
      rows: Array.from({ length: rows }, (_, r) => String(rows - r)),
    };
  }
  if (view.game === "connect4") {
    return { cols: Array.from({ length: cols }, (_, c) => String(c + 1)), rows: Array(rows).fill("") };
  }
  // Square games: read off labels like "b2" (when every legal cell agrees).
  const rowNums = [];
  for (const move of view.legal) {
    if (!move.cell) continue;
    const match = /^([a-z])(\d+)$/.exec(move.label);
    if (!match) return null;
    const [r, c] = move.cell;
    if (match[1].charCodeAt(0) - 97 !== c) return null;
    rowNums.push([r, Number(match[2])]);
  }
  if (rowNums.length < 2) return null;
  const descending = rowNums.every(([r, n]) => n === rows - r);
  const ascending = rowNums.every(([r, n]) => n === r + 1);
  if (!descending && !ascending) return null;
  return {
    cols: Array.from({ length: cols }, (_, c) => String.fromCharCode(97 + c)),
    rows: Array.from({ length: rows }, (_, r) => String(descending ? rows - r : r + 1)),
  };
}

/** The size of a cell in pixels for a board of rows x cols that may be `width` pixels wide. */
export function cellSize(rows, cols, width = 560) {
  const most = Math.max(200, Math.min(560, width));
  return Math.max(18, Math.min(72, Math.floor(Math.min(most / cols, 560 / rows))));
}

/**
 * Draw the grid of `view` into `board` (cells updated in place while the shape stays).
 *
 * options: human (a person is to move and may click), moveAt(row, col) (the legal move a click
 * on the cell plays, or null), last ([row, col] of the last move, or null).
 */
export function renderGrid(board, view, { human, moveAt, last, size }) {
  const { rows, cols, cells } = view.grid;
  const shape = `${view.game}:${rows}x${cols}`;
  if (board.dataset.shape !== shape) {
    board.replaceChildren();
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        board.append(el("div", { class: "cell", "data-cell": `${r},${c}` },
          el("span", { class: "heat" }), el("span", { class: "mark" }), el("span", { class: "piece" })));
      }
    }
    board.dataset.shape = shape;
  }
  const style = boardStyle(view);
  board.className = `board ${style}`;
  board.classList.toggle("compact", size < 44);
  if (view.to_move !== null && view.to_move !== undefined) board.classList.add(`mover-${view.to_move}`);
  board.style.setProperty("--n", cols);
  const go = view.go;
  const end = go && go.end;
  const stars = new Set(((go && go.stars) || []).map(([r, c]) => `${r},${c}`));
  const dead = new Map(((end && end.dead) || []).map((d) => [`${d.cell[0]},${d.cell[1]}`, d]));
  const hintsShown = Boolean(view.hints && human);
  const head = view.snake ? view.snake.head : null;
  const children = board.children;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const cell = children[r * cols + c];
      const key = `${r},${c}`;
      const ch = String(cells[r][c] ?? ".");
      const move = moveAt(r, c);
      const classes = ["cell"];
      if (ch !== "." && ch !== " ") classes.push("occupied");
      if (view.game === "snakego") {
        const extra = snakeClass(ch);
        if (extra) classes.push(extra);
        if (sameCell(head, [r, c])) classes.push("acting");
      }
      if (style === "goban") {
        if (r === 0) classes.push("edge-t");
        if (r === rows - 1) classes.push("edge-b");
        if (c === 0) classes.push("edge-l");
        if (c === cols - 1) classes.push("edge-r");
        if (stars.has(key)) classes.push("star");
      }
      if (move && human) classes.push("legal");
      if (hintsShown && move && sameCell(move.cell, [r, c])) classes.push("hint");
      if (sameCell(last, [r, c])) classes.push("last");
      if (go && sameCell(go.ko, [r, c])) classes.push("ko");
      if (dead.has(key)) classes.push("dead");
      if (end) {
        const owner = end.owners[r][c];
        if (owner !== "." && (ch === "." || dead.has(key))) classes.push(`owner-${owner}`);
      }
      const piece = cell.querySelector(".piece");
      const before = piece.dataset.piece;
      if (before !== ch) {
        // A Connect Four disc that has just appeared falls from the top of its column.
        cell.dataset.drop = view.game === "connect4" && before === "." && ch !== "." ? String(r + 1) : "";
        piece.dataset.piece = ch;
        piece.textContent = ch;
      }
      if (cell.dataset.drop) {
        classes.push("drop");
        cell.style.setProperty("--fall", cell.dataset.drop);
      }
      cell.className = classes.join(" ");
      if (move) {
        cell.setAttribute("title", move.label); // the heat map adds its visits and value
        cell.dataset.label = move.label; // the move a click plays
        cell.setAttribute("role", "button");
      } else {
        if (dead.has(key)) cell.setAttribute("title", `${dead.get(key).label}: dead`);
        else cell.removeAttribute("title");
        delete cell.dataset.label;
        cell.removeAttribute("role");
      }
    }
  }
}

/** Connect Four: mark the column under the pointer (and where its disc would land). */
export function hoverColumn(board, view, col, human) {
  const grid = view && view.grid;
  for (const node of board.querySelectorAll(".col-hover, .ghost")) node.classList.remove("col-hover", "ghost");
  if (!grid || !human || col === null || view.game !== "connect4") return;
  const move = (view.legal || []).find((m) => m.cell && m.cell[1] === col);
  if (!move) return;
  for (let r = 0; r < grid.rows; r++) board.children[r * grid.cols + col].classList.add("col-hover");
  board.children[move.cell[0] * grid.cols + col].classList.add("ghost");
}

/**
 * The heaps of Nim and the heap games, as rows of counters. In Nim a counter is clickable when
 * a person is to move: it and those to its right are taken (data-label: the move it plays).
 */
export function renderHeaps(container, view, human) {
  const heaps = view && view.heaps;
  if (!heaps) {
    container.replaceChildren();
    container.hidden = true;
    return;
  }
  container.hidden = false;
  const nim = heaps.kind === "nim";
  const moves = new Map();
  for (const move of view.legal || []) if (nim) moves.set(`${move.heap}:${move.take}`, move);
  const rows = heaps.sizes.map((size, h) => {
    const tokens = [];
    for (let i = 0; i < size; i++) {
      const move = moves.get(`${h}:${size - i}`);
      const attrs = { class: `token${move && human ? " legal" : ""}`, "data-heap": h, "data-index": i };
      if (move) {
        attrs["data-label"] = move.label;
        attrs.title = `take ${size - i} from ${nim ? "pile" : "heap"} ${h + 1} (${move.label})`;
      }
      tokens.push(el("span", attrs));
    }
    return el("div", { class: "heap", "data-heap": h },
      el("span", { class: "heap-name" }, `${nim ? "pile" : "heap"} ${h + 1}`),
      el("span", { class: "tokens" }, tokens),
      el("span", { class: "heap-size" }, String(size)));
  });
  container.replaceChildren(...rows);
  container.classList.toggle("clickable", nim && human);
}

/** Nim: while the pointer is on a counter, mark it and those to its right (the take). */
export function hoverTokens(container, token) {
  for (const node of container.querySelectorAll(".token.taking")) node.classList.remove("taking");
  if (!token || !token.classList.contains("legal")) return;
  let node = token;
  while (node) {
    node.classList.add("taking");
    node = node.nextElementSibling;
  }
}

/** A heap game's move described by what it leaves ("heap 1 → 2 + 7"). */
export function heapMoveTitle(move) {
  if (!move || !Array.isArray(move.leaves)) return "";
  const left = move.leaves.length ? move.leaves.join(" + ") : "nothing";
  return `heap ${move.heap + 1} → ${left}`;
}

/** Go's final count in words: the score, the area of each side, the dead stones. */
export function goScoreLines(view) {
  const end = view && view.go && view.go.end;
  if (!end) return [];
  const names = view.players.map((p) => capitalise(p.name));
  const dead = [0, 1].map((colour) => end.dead.filter((d) => d.colour === colour).map((d) => d.label));
  return [
    `Game over (${end.why}): ${end.result}. Area scoring (Tromp-Taylor): ${names[0]} ${end.area[0]}, `
      + `${names[1]} ${end.area[1]}, komi ${view.go.komi}.`,
    `Dead stones (settled by ${end.settled_by}): ${names[0]} ${dead[0].join(" ") || "none"}; `
      + `${names[1]} ${dead[1].join(" ") || "none"}.`,
  ];
}

export function capitalise(text) {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}
