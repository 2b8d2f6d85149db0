// The Path lab: grid path finding animated from the search's events (POST /api/path), one
// algorithm or two side by side on the same map.
//
// Drawing: the map and the search overlay are images with one pixel per cell, scaled without
// smoothing, so a 512x512 Moving AI map costs one putImageData per frame however many events
// that frame applies. The map fits its view at first; the wheel, the zoom buttons and a drag
// (in pan mode, or with Shift or the middle button) zoom and pan it (grid_camera.js), both
// views alike. A server map starts with two far-apart cells as its start and goal, so the
// first run shows a long path.

import { mountAStarExercise } from "/static/astar_exercise.js";
import { Camera } from "/static/grid_camera.js";
import { $, elementsById, formatNumber, getJSON, initPage, postJSON, setStatus } from "/static/common.js";

initPage();

// The algorithms ({name, title, options}) from the server's registry (the page's
// data-algorithms), in its order: the names `searchlab path --algorithm` takes.
const ALGORITHMS = JSON.parse($("path-main").dataset.algorithms);
const EMPTY_SIZES = [16, 32, 64, 128];
const FAR = "far"; // the scenario select's value of the two far-apart cells
const PASSABLE = new Set([".", "G", "S"]);
// Whether algorithm `name` takes `option` ("heuristic", "weight"); the server ignores the others.
const takes = (name, option) => ALGORITHMS.some((a) => a.name === name && a.options.includes(option));

// Colours (RGBA) of the cells' states in the overlay image; 0 = no state (transparent).
const OPEN = 1;
const CLOSED = 2;
const REOPENED = 3;
const STATE_RGBA = [null, [168, 213, 255, 255], [255, 217, 160, 255], [230, 166, 255, 255]];
const FREE_RGBA = [255, 255, 255, 255];
const WALL_RGBA = [43, 48, 59, 255];
const PATH_COLOUR = "#1565c0";
const CURRENT_COLOUR = "#ff3d7f";
const START_COLOUR = "#1e9e4a";
const GOAL_COLOUR = "#d32f2f";

const ui = elementsById(["map", "scenario", "start", "goal", "clear-walls", "algorithm",
  "heuristic", "weight", "compare", "second", "algorithm-2", "heuristic-2", "weight-2", "run",
  "play-pause", "step", "to-end", "restart", "speed", "speed-text", "runs", "zoom-in", "zoom-out",
  "zoom-fit", "zoom-path", "pan-mode"]);

// Little-endian RGBA packed into one 32-bit pixel.
const pack = ([r, g, b, a]) => ((a << 24) | (b << 16) | (g << 8) | r) >>> 0;
const STATE_PIXEL = STATE_RGBA.map((c) => (c ? pack(c) : 0));
const FREE_PIXEL = pack(FREE_RGBA);
const WALL_PIXEL = pack(WALL_RGBA);

// ---------------------------------------------------------------- the map

const grid = {
  name: null, // the server's map name, or null for a drawn grid
  width: 0,
  height: 0,
  blocked: new Uint8Array(0),
  edited: false,
  scenarios: [],
  base: document.createElement("canvas"), // one pixel per cell
  start: [0, 0],
  goal: [0, 0],
  far: null, // [start, goal]: two far-apart cells of a server map (its default problem)
};

// The part of the map both views show (zoom and pan).
const camera = new Camera();

function inside(x, y) {
  return x >= 0 && y >= 0 && x < grid.width && y < grid.height;
}

function isFree(x, y) {
  return inside(x, y) && grid.blocked[y * grid.width + x] === 0;
}

function setGrid(name, width, height, rows) {
  grid.name = name;
  grid.width = width;
  grid.height = height;
  grid.blocked = new Uint8Array(width * height);
  if (rows) {
    for (let y = 0; y < height; y++) {
      const row = rows[y] || "";
      for (let x = 0; x < width; x++) grid.blocked[y * width + x] = PASSABLE.has(row[x] ?? "@") ? 0 : 1;
    }
  }
  grid.edited = false;
  grid.base.width = width;
  grid.base.height = height;
  grid.far = null;
  camera.reset(width, height);
  paintBase();
}

function paintBase() {
  const ctx = grid.base.getContext("2d");
  const image = ctx.createImageData(grid.width, grid.height);
  const pixels = new Uint32Array(image.data.buffer);
  for (let i = 0; i < pixels.length; i++) pixels[i] = grid.blocked[i] ? WALL_PIXEL : FREE_PIXEL;
  ctx.putImageData(image, 0, 0);
}

function paintBaseCell(x, y) {
  const ctx = grid.base.getContext("2d");
  const c = grid.blocked[y * grid.width + x] ? WALL_RGBA : FREE_RGBA;
  ctx.fillStyle = `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
  ctx.fillRect(x, y, 1, 1);
}

function gridRows() {
  const rows = [];
  for (let y = 0; y < grid.height; y++) {
    let row = "";
    for (let x = 0; x < grid.width; x++) row += grid.blocked[y * grid.width + x] ? "@" : ".";
    rows.push(row);
  }
  return rows;
}

function nearestFree(x, y) {
  // The free cell nearest to (x, y) in rings around it (for start/goal on a new map).
  const limit = Math.max(grid.width, grid.height);
  for (let r = 0; r < limit; r++) {
    for (let dy = -r; dy <= r; dy++) {
      for (let dx = -r; dx <= r; dx++) {
        if (Math.max(Math.abs(dx), Math.abs(dy)) !== r) continue;
        if (isFree(x + dx, y + dy)) return [x + dx, y + dy];
      }
    }
  }
  return [x, y];
}

/**
 * Two cells far apart on the map, [start, goal], or null when no cell is free: in the largest
 * connected part, the cell farthest (in moves) from its first cell, and the cell farthest from
 * that one (a "double sweep": at least half the part's diameter, usually all of it). Moves are
 * the searches' own: 8-connected, no corner cutting.
 */
function farApart() {
  const { width, height } = grid;
  const n = width * height;
  const queue = new Int32Array(n);
  const steps = [];
  for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) if (dx || dy) steps.push([dx, dy]);
  // Breadth-first from `source` over the unmarked cells, marking them; the last cell dequeued
  // (a farthest one) and how many were reached.
  const sweep = (source, mark) => {
    let head = 0;
    let tail = 0;
    queue[tail++] = source;
    mark[source] = 1;
    while (head < tail) {
      const i = queue[head++];
      const x = i % width;
      const y = (i - x) / width;
      for (const [dx, dy] of steps) {
        const nx = x + dx;
        const ny = y + dy;
        if (!isFree(nx, ny) || (dx && dy && !(isFree(nx, y) && isFree(x, ny)))) continue;
        const j = ny * width + nx;
        if (mark[j]) continue;
        mark[j] = 1;
        queue[tail++] = j;
      }
    }
    return { last: queue[tail - 1], reached: tail };
  };
  const seen = new Uint8Array(n);
  let first = -1;
  let largest = 0;
  for (let i = 0; i < n; i++) {
    if (seen[i] || grid.blocked[i]) continue;
    const { reached } = sweep(i, seen);
    if (reached > largest) {
      largest = reached;
      first = i;
    }
  }
  if (first < 0) return null;
  const a = sweep(first, new Uint8Array(n)).last;
  const b = sweep(a, new Uint8Array(n)).last;
  const cell = (i) => [i % width, Math.floor(i / width)];
  return [cell(a), cell(b)];
}

// ---------------------------------------------------------------- one search's view

class RunView {
  constructor(index) {
    this.index = index;
    this.canvas = $(`grid-${index}`);
    this.wrap = this.canvas.parentElement;
    this.panel = $(`view-${index}`);
    this.title = $(`title-${index}`);
    this.progress = $(`progress-${index}`);
    this.counters = {
      expanded: $(`expanded-${index}`),
      generated: $(`generated-${index}`),
      reopened: $(`reopened-${index}`),
      cost: $(`cost-${index}`),
    };
    this.live = {
      expanded: $(`live-expanded-${index}`),
      generated: $(`live-generated-${index}`),
      reopened: $(`live-reopened-${index}`),
      steps: $(`steps-${index}`),
    };
    this.overlay = document.createElement("canvas");
    this.fit = 0; // pixels a cell at zoom 1 (layout() sets it and the view's size)
    this.clear();
  }

  get visible() {
    return !this.panel.classList.contains("hidden");
  }

  /** Forget the search (the map changed or a new run starts). */
  clear() {
    this.result = null;
    this.events = [];
    this.cursor = 0;
    this.current = null;
    this.currentEvent = null;
    this.counts = { expand: 0, generate: 0, reopen: 0 };
    this.iteration = 1;
    this.resetOverlay();
    for (const node of Object.values(this.counters)) {
      node.textContent = "–";
      delete node.dataset.value;
    }
    for (const node of Object.values(this.live)) node.textContent = "";
    this.progress.textContent = "";
  }

  resetOverlay() {
    const { width, height } = grid;
    this.overlay.width = Math.max(1, width);
    this.overlay.height = Math.max(1, height);
    this.cells = new Uint8Array(width * height);
    this.image = this.overlay.getContext("2d").createImageData(Math.max(1, width), Math.max(1, height));
    this.pixels = new Uint32Array(this.image.data.buffer);
    this.dirty = true;
  }

  setResult(result) {
    this.clear();
    this.result = result;
    this.events = Array.isArray(result.events) ? result.events : [];
    this.counters.expanded.textContent = String(result.expanded);
    this.counters.generated.textContent = String(result.generated);
    this.counters.reopened.textContent = String(result.reopened);
    if (result.cost === null || result.cost === undefined || !result.path) {
      this.counters.cost.textContent = result.status === "limit" ? "stopped" : "no path";
    } else {
      // As `searchlab path` prints it; the exact number is in data-value.
      this.counters.cost.textContent = Number(result.cost).toFixed(4);
      this.counters.cost.dataset.value = String(result.cost);
      this.live.steps.textContent = `${result.path.length - 1} steps`;
    }
    this.updateLive();
  }

  get finished() {
    return this.cursor >= this.events.length;
  }

  setCell(x, y, value) {
    if (!inside(x, y)) return;
    const i = y * grid.width + x;
    this.cells[i] = value;
    this.pixels[i] = STATE_PIXEL[value];
    this.dirty = true;
  }

  apply(event) {
    const [kind, x, y] = event;
    switch (kind) {
      case "expand":
        if (this.counts.expand > 0 && x === grid.start[0] && y === grid.start[1] && this.result
            && this.result.algorithm === "idastar") {
          // IDA*: the start expanded again opens the next iteration (a larger f bound).
          this.cells.fill(0);
          this.pixels.fill(0);
          this.iteration++;
        }
        this.counts.expand++;
        this.setCell(x, y, CLOSED);
        this.current = [x, y];
        this.currentEvent = event;
        break;
      case "generate":
        this.counts.generate++;
        if (inside(x, y) && this.cells[y * grid.width + x] === 0) this.setCell(x, y, OPEN);
        break;
      case "reopen":
        this.counts.reopen++;
        this.setCell(x, y, REOPENED);
        break;
      default:
        break;
    }
  }

  /** Apply the next n events. */
  advance(n) {
    const end = Math.min(this.events.length, this.cursor + n);
    for (let i = this.cursor; i < end; i++) this.apply(this.events[i]);
    this.cursor = end;
  }

  /** Apply one expansion and the events after it up to the next expansion. */
  stepExpansion() {
    if (this.finished) return;
    let first = true;
    while (!this.finished && (first || this.events[this.cursor][0] !== "expand")) {
      this.apply(this.events[this.cursor]);
      this.cursor++;
      first = false;
    }
  }

  rewind() {
    this.cursor = 0;
    this.current = null;
    this.currentEvent = null;
    this.iteration = 1;
    this.counts = { expand: 0, generate: 0, reopen: 0 };
    this.resetOverlay();
  }

  updateLive() {
    if (!this.result) return;
    const done = this.finished;
    const show = (node, count, total) => {
      node.textContent = done || total === undefined ? "" : `(${formatNumber(count, 0)} so far)`;
    };
    show(this.live.expanded, this.counts.expand, this.result.expanded);
    show(this.live.generated, this.counts.generate, this.result.generated);
    show(this.live.reopened, this.counts.reopen, this.result.reopened);
    const total = this.events.length;
    const iteration = this.result.algorithm === "idastar" ? `, iteration ${this.iteration}` : "";
    let node = "";
    const event = this.currentEvent;
    if (!done && event && event.length >= 5 && Number.isFinite(event[3]) && Number.isFinite(event[4])) {
      const [, x, y, g, h] = event;
      node = `; expanding (${x},${y}): g ${g.toFixed(2)}, h ${h.toFixed(2)}`;
    }
    this.progress.textContent = total
      ? `event ${formatNumber(this.cursor, 0)} of ${formatNumber(total, 0)}${iteration}${done ? " (done)" : node}`
      : "no events";
  }

  /** Fit the canvas to its column (and the window's height): the view's size and the fit. */
  layout() {
    if (!this.visible || grid.width === 0) return;
    const available = Math.max(120, this.wrap.clientWidth - 2);
    const top = this.wrap.getBoundingClientRect().top + window.scrollY;
    // Fit below the controls in a wide window; at least 60% of the window's height when the
    // page is one column (the canvas far down the page).
    const maxHeight = Math.max(260, 0.6 * window.innerHeight, window.innerHeight - top - 40);
    let cssWidth = available;
    let cssHeight = (cssWidth * grid.height) / grid.width;
    if (cssHeight > maxHeight) {
      cssHeight = maxHeight;
      cssWidth = (cssHeight * grid.width) / grid.height;
    }
    // Whole pixels per cell when cells are large, so the grid lines stay crisp.
    let scale = cssWidth / grid.width;
    if (scale >= 4) scale = Math.floor(scale);
    cssWidth = scale * grid.width;
    cssHeight = scale * grid.height;
    const ratio = window.devicePixelRatio || 1;
    this.fit = scale;
    this.viewWidth = cssWidth;
    this.viewHeight = cssHeight;
    this.canvas.style.width = `${cssWidth}px`;
    this.canvas.style.height = `${cssHeight}px`;
    this.canvas.width = Math.round(cssWidth * ratio);
    this.canvas.height = Math.round(cssHeight * ratio);
    this.ratio = ratio;
    camera.clamp(this.fit, this.viewWidth, this.viewHeight);
    this.draw();
  }

  /** The camera's frame for this view: pixels a cell and the offset of the view. */
  frame() {
    return camera.frame(this.fit, this.viewWidth, this.viewHeight);
  }

  draw() {
    if (!this.visible || grid.width === 0 || !this.fit) return;
    const ctx = this.canvas.getContext("2d");
    const { cell: s, ox, oy } = this.frame();
    // What the view shows, for people (title) and tests (data-*): cells a pixel, top-left cell.
    this.canvas.dataset.cellSize = s.toFixed(4);
    this.canvas.dataset.origin = `${(ox / s).toFixed(3)},${(oy / s).toFixed(3)}`;
    this.canvas.dataset.zoom = camera.zoom.toFixed(3);
    ctx.setTransform(this.ratio, 0, 0, this.ratio, 0, 0);
    ctx.imageSmoothingEnabled = false;
    ctx.clearRect(0, 0, this.viewWidth, this.viewHeight);
    ctx.translate(-ox, -oy);
    // Only the cells in view are drawn (a deep zoom on a 512x512 map stays one small copy).
    const x0 = Math.max(0, Math.floor(ox / s));
    const y0 = Math.max(0, Math.floor(oy / s));
    const x1 = Math.min(grid.width, Math.ceil((ox + this.viewWidth) / s));
    const y1 = Math.min(grid.height, Math.ceil((oy + this.viewHeight) / s));
    const blit = (image) => ctx.drawImage(image, x0, y0, x1 - x0, y1 - y0, x0 * s, y0 * s, (x1 - x0) * s, (y1 - y0) * s);
    blit(grid.base);
    if (this.dirty) {
      this.overlay.getContext("2d").putImageData(this.image, 0, 0);
      this.dirty = false;
    }
    blit(this.overlay);
    if (s >= 10) {
      ctx.strokeStyle = "rgba(0, 0, 0, 0.08)";
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (let x = x0; x <= x1; x++) {
        ctx.moveTo(x * s + 0.5, y0 * s);
        ctx.lineTo(x * s + 0.5, y1 * s);
      }
      for (let y = y0; y <= y1; y++) {
        ctx.moveTo(x0 * s, y * s + 0.5);
        ctx.lineTo(x1 * s, y * s + 0.5);
      }
      ctx.stroke();
    }
    const centre = ([x, y]) => [(x + 0.5) * s, (y + 0.5) * s];
    if (this.result && this.result.path && this.finished && this.result.path.length > 1) {
      ctx.lineJoin = "round";
      ctx.lineCap = "round";
      ctx.beginPath();
      this.result.path.forEach((cell, i) => {
        const [cx, cy] = centre(cell);
        if (i === 0) ctx.moveTo(cx, cy);
        else ctx.lineTo(cx, cy);
      });
      const width = Math.max(2.5, s * 0.35);
      ctx.strokeStyle = "rgba(255, 255, 255, 0.85)"; // a halo, so the path reads on any colour
      ctx.lineWidth = width + 2;
      ctx.stroke();
      ctx.strokeStyle = PATH_COLOUR;
      ctx.lineWidth = width;
      ctx.stroke();
    }
    const marker = (cell, colour, radius) => {
      const [cx, cy] = centre(cell);
      ctx.beginPath();
      ctx.arc(cx, cy, radius, 0, 2 * Math.PI);
      ctx.fillStyle = colour;
      ctx.fill();
      ctx.lineWidth = Math.max(1, radius * 0.25);
      ctx.strokeStyle = "#fff";
      ctx.stroke();
    };
    if (this.current && !this.finished) {
      const [cx, cy] = centre(this.current);
      ctx.beginPath();
      ctx.arc(cx, cy, Math.max(4, s * 0.55), 0, 2 * Math.PI);
      ctx.strokeStyle = CURRENT_COLOUR;
      ctx.lineWidth = Math.max(2, s * 0.18);
      ctx.stroke();
    }
    const radius = Math.max(4.5, s * 0.42);
    marker(grid.start, START_COLOUR, radius);
    marker(grid.goal, GOAL_COLOUR, radius);
  }

  /** The view pixel (CSS) of a pointer event. */
  pointAt(event) {
    const rect = this.canvas.getBoundingClientRect();
    return [
      ((event.clientX - rect.left) * this.viewWidth) / Math.max(1, rect.width),
      ((event.clientY - rect.top) * this.viewHeight) / Math.max(1, rect.height),
    ];
  }

  cellAt(event) {
    const [px, py] = this.pointAt(event);
    const { cell, ox, oy } = this.frame();
    const x = Math.floor((px + ox) / cell);
    const y = Math.floor((py + oy) / cell);
    return [Math.min(grid.width - 1, Math.max(0, x)), Math.min(grid.height - 1, Math.max(0, y))];
  }
}

const views = [new RunView(1), new RunView(2)];
const activeViews = () => views.filter((v) => v.visible);

function drawAll() {
  for (const view of activeViews()) view.draw();
}

function layoutAll() {
  for (const view of activeViews()) view.layout();
}

function clearRuns() {
  stopPlaying();
  for (const view of views) view.clear();
  drawAll();
}

// ---------------------------------------------------------------- maps, scenarios, endpoints

function formatXY([x, y]) {
  return `${x},${y}`;
}

function parseXY(text) {
  const match = /^\s*\(?\s*(-?\d+)\s*[, ]\s*(-?\d+)\s*\)?\s*$/.exec(text);
  return match ? [Number(match[1]), Number(match[2])] : null;
}

function setEndpoints(start, goal) {
  grid.start = start;
  grid.goal = goal;
  ui.start.value = formatXY(start);
  ui.goal.value = formatXY(goal);
}

/** The cell typed in the start or goal box, or null (the problem in the status line). */
function readEndpoint(which) {
  const input = which === "start" ? ui.start : ui.goal;
  const cell = parseXY(input.value);
  if (!cell) {
    setStatus(`${which}: expected "x,y", got ${JSON.stringify(input.value)}`, "error");
    return null;
  }
  if (!inside(cell[0], cell[1])) {
    setStatus(`${which} (${formatXY(cell)}) is off the ${grid.width}x${grid.height} map`, "error");
    return null;
  }
  if (!isFree(cell[0], cell[1])) {
    setStatus(`${which} (${formatXY(cell)}) is a wall`, "error");
    return null;
  }
  return cell;
}

function endpointChanged(which) {
  const input = which === "start" ? ui.start : ui.goal;
  const cell = readEndpoint(which);
  if (!cell) return;
  if (same(cell, grid[which])) {
    input.value = formatXY(cell);
    return;
  }
  grid[which] = cell;
  input.value = formatXY(cell);
  ui.scenario.value = "";
  clearRuns();
  setStatus(`${which} at ${formatXY(cell)}`, "info");
}

async function loadMaps() {
  const options = EMPTY_SIZES.map((n) => new Option(`empty ${n}x${n} (draw walls)`, `empty:${n}`));
  let maps = [];
  try {
    maps = await getJSON("/api/maps");
  } catch {
    maps = [];
  }
  for (const map of maps || []) {
    // Values: "map:<name as /api/maps gives it>" for the server's maps, "empty:<n>" for blank grids.
    options.push(new Option(`${map.name} (${map.width}x${map.height})`, `map:${map.name}`));
  }
  ui.map.replaceChildren(...options);
  const wanted = new URLSearchParams(location.search).get("map");
  const preferred = [wanted && (wanted.startsWith("empty:") ? wanted : `map:${wanted}`), "map:arena", "empty:32"].find(
    (value) => value && options.some((o) => o.value === value),
  );
  ui.map.value = preferred || options[0].value;
  await selectMap();
}

async function selectMap() {
  const value = ui.map.value;
  clearRuns();
  if (value.startsWith("empty:")) {
    const n = Number(value.slice(6));
    setGrid(null, n, n, null);
    grid.scenarios = [];
    setEndpoints([Math.floor(n / 8), Math.floor(n / 2)], [n - 1 - Math.floor(n / 8), Math.floor(n / 2)]);
    renderScenarios();
    layoutAll();
    setStatus(`empty ${n}x${n} grid: draw walls with the mouse, drag the start and the goal`, "info");
    return;
  }
  const name = value.slice(4);
  setStatus(`loading map ${name}…`, "busy");
  let map;
  try {
    map = await getJSON(`/api/maps/${name.split("/").map(encodeURIComponent).join("/")}`);
  } catch {
    return;
  }
  if (ui.map.value !== value) return; // another map was picked meanwhile
  setGrid(name, map.width, map.height, map.rows);
  grid.scenarios = map.scenarios || [];
  // The default problem shows a long path: two far-apart cells (the server lists a map's
  // first, shortest benchmark problems, a few cells long on a 512x512 map).
  grid.far = farApart();
  renderScenarios();
  if (grid.far) {
    ui.scenario.value = FAR;
    setEndpoints(...grid.far);
  } else {
    setEndpoints(nearestFree(1, 1), nearestFree(map.width - 2, map.height - 2));
  }
  layoutAll();
  setStatus(`map ${name}: ${map.width}x${map.height}, ${grid.scenarios.length} scenarios`, "ok");
}

function renderScenarios() {
  const any = grid.scenarios.length > 0 || grid.far;
  const options = [new Option(any ? "(choose a scenario)" : "(none)", "")];
  if (grid.far) {
    const [start, goal] = grid.far;
    options.push(new Option(`far apart: ${formatXY(start)} → ${formatXY(goal)}`, FAR));
  }
  grid.scenarios.forEach((s, i) => {
    const optimal = s.optimal !== undefined && s.optimal !== null ? `, optimal ${Number(s.optimal).toFixed(2)}` : "";
    options.push(new Option(`#${i + 1}: ${formatXY(s.start)} → ${formatXY(s.goal)}${optimal}`, String(i)));
  });
  ui.scenario.replaceChildren(...options);
  ui.scenario.disabled = !any;
}

function selectScenario() {
  if (ui.scenario.value === FAR && grid.far) {
    setEndpoints(...grid.far);
    clearRuns();
    return;
  }
  const scenario = grid.scenarios[Number(ui.scenario.value)];
  if (!ui.scenario.value || !scenario) return;
  setEndpoints(scenario.start, scenario.goal);
  clearRuns();
}

// ---------------------------------------------------------------- running

function algorithmTitle(name) {
  const found = ALGORITHMS.find((a) => a.name === name);
  return found ? found.title : name;
}

function requestFor(algorithm, heuristic, weight) {
  const body = {
    map: grid.edited ? null : grid.name,
    rows: grid.edited || grid.name === null ? gridRows() : null,
    start: grid.start,
    goal: grid.goal,
    algorithm,
    heuristic,
  };
  if (takes(algorithm, "weight")) body.weight = Number(weight);
  return body;
}

function describe(algorithm, heuristic, weight) {
  let text = algorithmTitle(algorithm);
  if (takes(algorithm, "weight")) text += ` (w = ${weight})`;
  if (takes(algorithm, "heuristic")) text += `, ${heuristic}`;
  return text;
}

let runToken = 0;

async function run() {
  // The boxes as typed (a test or a person may type and run without leaving the box).
  const start = readEndpoint("start");
  const goal = readEndpoint("goal");
  if (!start || !goal) return;
  if (!same(start, grid.start) || !same(goal, grid.goal)) {
    grid.start = start;
    grid.goal = goal;
    ui.scenario.value = "";
  }
  const token = ++runToken;
  stopPlaying();
  const jobs = [[views[0], ui.algorithm.value, ui.heuristic.value, ui.weight.value]];
  if (ui.compare.checked) jobs.push([views[1], ui.algorithm2.value, ui.heuristic2.value, ui.weight2.value]);
  for (const [view, algorithm, heuristic, weight] of jobs) {
    view.clear();
    view.title.textContent = describe(algorithm, heuristic, weight);
  }
  drawAll();
  setStatus("searching…", "busy");
  ui.run.disabled = true;
  let results;
  try {
    results = await Promise.all(jobs.map(([, a, h, w]) => postJSON("/api/path", requestFor(a, h, w))));
  } catch {
    return; // the status line has the server's message
  } finally {
    if (token === runToken) ui.run.disabled = false;
  }
  if (token !== runToken) return;
  const summary = [];
  jobs.forEach(([view, algorithm], i) => {
    view.setResult(results[i]);
    view.draw();
    const r = results[i];
    let line = `${algorithmTitle(algorithm)}: cost ${Number(r.cost).toFixed(4)}, ${r.expanded} expanded`;
    if (r.status === "limit") line = `${algorithmTitle(algorithm)}: stopped by the server's cap after ${r.expanded} expansions`;
    else if (!r.path) line = `${algorithmTitle(algorithm)}: no path (${r.expanded} expanded)`;
    summary.push(line);
  });
  setStatus(summary.join(" · "), results.every((r) => r.path) ? "ok" : results.some((r) => r.status === "limit") ? "error" : "info");
  if (!speedTouched) autoSpeed(Math.max(...jobs.map(([view]) => view.events.length)));
  startPlaying();
}

// ---------------------------------------------------------------- playback

let playing = false;
let lastTime = 0;
let budget = 0;

function eventsPerSecond() {
  // 1 event a second at the left end, a million at the right end.
  return 10 ** ((Number(ui.speed.value) / 100) * 6);
}

let speedTouched = false;

/** Until the slider is moved, each run plays in about four seconds (at least 20 events/s). */
function autoSpeed(events) {
  const rate = Math.max(20, events / 4);
  ui.speed.value = String(Math.min(100, Math.max(0, Math.round((100 * Math.log10(rate)) / 6))));
  renderSpeed();
}

function renderSpeed() {
  const rate = eventsPerSecond();
  ui.speedText.textContent = `(${rate < 10 ? rate.toFixed(1) : formatNumber(Math.round(rate), 0)} events/s)`;
}

function renderPlayButton() {
  ui.playPause.textContent = playing ? "Pause" : "Play";
  ui.playPause.setAttribute("aria-pressed", playing ? "true" : "false");
}

function startPlaying() {
  const views_ = activeViews().filter((v) => v.result);
  if (views_.length === 0) return;
  if (views_.every((v) => v.finished)) for (const v of views_) v.rewind();
  playing = true;
  lastTime = 0;
  budget = 0;
  renderPlayButton();
  requestAnimationFrame(frame);
}

function stopPlaying() {
  playing = false;
  renderPlayButton();
}

function frame(time) {
  if (!playing) return;
  const dt = lastTime ? Math.min(0.1, (time - lastTime) / 1000) : 1 / 60;
  lastTime = time;
  budget += eventsPerSecond() * dt;
  const n = Math.floor(budget);
  budget -= n;
  let done = true;
  for (const view of activeViews()) {
    if (!view.result) continue;
    if (n > 0) view.advance(n);
    view.updateLive();
    view.draw();
    if (!view.finished) done = false;
  }
  if (done) stopPlaying();
  else requestAnimationFrame(frame);
}

/** Stop the playback; then move each shown search (`move(view)`) and draw it. */
function moveViews(move) {
  stopPlaying();
  for (const view of activeViews()) {
    if (!view.result) continue;
    move(view);
    view.updateLive();
    view.draw();
  }
}

const step = () => moveViews((view) => view.stepExpansion());
const toEnd = () => moveViews((view) => view.advance(view.events.length));
const restart = () => moveViews((view) => view.rewind());

// ---------------------------------------------------------------- mouse: walls, start, goal

let drag = null; // {view, mode: "start" | "goal" | "wall" | "erase" (last: a cell) | "pan" (last: a pixel)}

function same(a, b) {
  return a[0] === b[0] && a[1] === b[1];
}

function paintLine(from, to, blocked) {
  // Bresenham between two pointer positions, so fast strokes leave no gaps.
  let [x0, y0] = from;
  const [x1, y1] = to;
  const dx = Math.abs(x1 - x0);
  const dy = -Math.abs(y1 - y0);
  const sx = x0 < x1 ? 1 : -1;
  const sy = y0 < y1 ? 1 : -1;
  let err = dx + dy;
  let changed = false;
  for (;;) {
    if (!same([x0, y0], grid.start) && !same([x0, y0], grid.goal)) {
      const i = y0 * grid.width + x0;
      if (grid.blocked[i] !== blocked) {
        grid.blocked[i] = blocked;
        paintBaseCell(x0, y0);
        changed = true;
      }
    }
    if (x0 === x1 && y0 === y1) break;
    const e2 = 2 * err;
    if (e2 >= dy) {
      err += dy;
      x0 += sx;
    }
    if (e2 <= dx) {
      err += dx;
      y0 += sy;
    }
  }
  return changed;
}

/** Dragging pans (rather than drawing walls): pan mode, Shift, or the middle button. */
function pans(event) {
  return ui.panMode.checked || event.shiftKey || event.button === 1;
}

function pointerDown(view, event) {
  if ((event.button !== 0 && event.button !== 1) || grid.width === 0) return;
  view.canvas.setPointerCapture(event.pointerId);
  event.preventDefault();
  if (pans(event)) {
    drag = { view, mode: "pan", last: view.pointAt(event) };
    view.canvas.style.cursor = "grabbing";
    return;
  }
  const cell = view.cellAt(event);
  let mode;
  if (same(cell, grid.start)) mode = "start";
  else if (same(cell, grid.goal)) mode = "goal";
  else mode = isFree(cell[0], cell[1]) ? "wall" : "erase";
  drag = { view, mode, last: cell, changed: false, hadResult: views.some((v) => v.result) };
  if (mode === "wall" || mode === "erase") {
    if (paintLine(cell, cell, mode === "wall" ? 1 : 0)) wallsChanged();
  }
}

function pointerMove(view, event) {
  if (!drag || drag.view !== view) {
    const cell = view.cellAt(event);
    const end = same(cell, grid.start) || same(cell, grid.goal);
    view.canvas.style.cursor = pans(event) ? "grab" : end ? "grab" : "crosshair";
    return;
  }
  if (drag.mode === "pan") {
    const point = view.pointAt(event);
    camera.panBy(point[0] - drag.last[0], point[1] - drag.last[1], view.fit, view.viewWidth, view.viewHeight);
    drag.last = point;
    drawAll();
    return;
  }
  const cell = view.cellAt(event);
  if (same(cell, drag.last)) return;
  if (drag.mode === "start" || drag.mode === "goal") {
    const other = drag.mode === "start" ? grid.goal : grid.start;
    if (isFree(cell[0], cell[1]) && !same(cell, other)) {
      grid[drag.mode] = cell;
      (drag.mode === "start" ? ui.start : ui.goal).value = formatXY(cell);
      ui.scenario.value = "";
      drag.changed = true;
      for (const v of views) v.clear();
      drawAll();
    }
  } else if (paintLine(drag.last, cell, drag.mode === "wall" ? 1 : 0)) wallsChanged();
  drag.last = cell;
}

function pointerUp() {
  if (!drag) return;
  const { hadResult, changed, mode, view } = drag;
  drag = null;
  if (mode === "pan") {
    view.canvas.style.cursor = ui.panMode.checked ? "grab" : "crosshair";
    return;
  }
  // Exploring: when a search was shown, moving an end or drawing a wall runs it again.
  if (hadResult && (changed || mode === "wall" || mode === "erase")) run();
}

// ---------------------------------------------------------------- zoom and pan

const ZOOM_STEP = 1.5;

/** Zoom every view by `factor` about view pixel (px, py) of `view` (its centre by default). */
function zoomBy(factor, view = views[0], px = view.viewWidth / 2, py = view.viewHeight / 2) {
  if (grid.width === 0 || !view.fit) return;
  camera.zoomAt(factor, px, py, view.fit, view.viewWidth, view.viewHeight);
  drawAll();
}

function wheel(view, event) {
  if (grid.width === 0 || !view.fit) return;
  event.preventDefault(); // the page does not scroll under the map
  const [px, py] = view.pointAt(event);
  const pixels = event.deltaMode === 1 ? event.deltaY * 16 : event.deltaY;
  zoomBy(Math.exp(-pixels * 0.0015), view, px, py);
}

function zoomFit() {
  camera.reset(grid.width, grid.height);
  layoutAll();
}

/** Show the path found (both views' paths) or, before a run, the start and the goal. */
function zoomToPath() {
  const view = views[0];
  if (grid.width === 0 || !view.fit) return;
  const cells = [grid.start, grid.goal];
  for (const v of activeViews()) if (v.result && v.result.path) cells.push(...v.result.path);
  const xs = cells.map((c) => c[0]);
  const ys = cells.map((c) => c[1]);
  camera.show(Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys), view.fit, view.viewWidth, view.viewHeight);
  drawAll();
}

function wallsChanged() {
  grid.edited = true;
  if (drag) drag.changed = true;
  stopPlaying();
  for (const view of views) view.clear();
  drawAll();
  if (grid.name) setStatus(`map ${grid.name} edited: the searches run on your version`, "info");
}

function clearWalls() {
  grid.blocked.fill(0);
  grid.edited = true;
  paintBase();
  clearRuns();
  setStatus("walls cleared", "info");
}

// ---------------------------------------------------------------- wiring

function fillAlgorithms(select, value) {
  select.replaceChildren(...ALGORITHMS.map(({ name, title }) => new Option(title, name)));
  select.value = value;
}

function syncControls() {
  // Unused settings are dimmed, not disabled: they can be set before the algorithm is chosen.
  const dim = (control, unused, why) => {
    control.closest(".field").classList.toggle("unused", unused);
    control.title = unused ? why : "";
  };
  dim(ui.weight, !takes(ui.algorithm.value, "weight"), "this algorithm takes no weight");
  dim(ui.weight2, !takes(ui.algorithm2.value, "weight"), "this algorithm takes no weight");
  dim(ui.heuristic, !takes(ui.algorithm.value, "heuristic"), "this algorithm takes no heuristic");
  dim(ui.heuristic2, !takes(ui.algorithm2.value, "heuristic"), "this algorithm takes no heuristic");
  if (!views[0].result) views[0].title.textContent = describe(ui.algorithm.value, ui.heuristic.value, ui.weight.value);
  if (!views[1].result) views[1].title.textContent = describe(ui.algorithm2.value, ui.heuristic2.value, ui.weight2.value);
}

function compareChanged() {
  const on = ui.compare.checked;
  views[1].panel.classList.toggle("hidden", !on);
  ui.second.classList.toggle("hidden", !on);
  ui.runs.classList.toggle("compare", on);
  stopPlaying();
  layoutAll();
  if (on && views[0].result) run();
}

fillAlgorithms(ui.algorithm, "astar");
fillAlgorithms(ui.algorithm2, "dijkstra");
for (const control of [ui.algorithm, ui.heuristic, ui.weight, ui.algorithm2, ui.heuristic2, ui.weight2]) {
  control.addEventListener("change", syncControls);
}
ui.map.addEventListener("change", selectMap);
ui.scenario.addEventListener("change", selectScenario);
ui.start.addEventListener("change", () => endpointChanged("start"));
ui.goal.addEventListener("change", () => endpointChanged("goal"));
ui.clearWalls.addEventListener("click", clearWalls);
ui.compare.addEventListener("change", compareChanged);
ui.run.addEventListener("click", run);
ui.playPause.addEventListener("click", () => (playing ? stopPlaying() : startPlaying()));
ui.step.addEventListener("click", step);
ui.toEnd.addEventListener("click", toEnd);
ui.restart.addEventListener("click", restart);
ui.speed.addEventListener("input", () => {
  speedTouched = true;
  renderSpeed();
});
ui.zoomIn.addEventListener("click", () => zoomBy(ZOOM_STEP));
ui.zoomOut.addEventListener("click", () => zoomBy(1 / ZOOM_STEP));
ui.zoomFit.addEventListener("click", zoomFit);
ui.zoomPath.addEventListener("click", zoomToPath);
for (const view of views) {
  view.canvas.addEventListener("wheel", (e) => wheel(view, e), { passive: false });
  view.canvas.addEventListener("pointerdown", (e) => pointerDown(view, e));
  view.canvas.addEventListener("pointermove", (e) => pointerMove(view, e));
  view.canvas.addEventListener("pointerup", pointerUp);
  view.canvas.addEventListener("pointercancel", pointerUp);
}
let resizeTimer = 0;
window.addEventListener("resize", () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(layoutAll, 100);
});

renderSpeed();
renderPlayButton();
syncControls();
loadMaps().catch(() => {});

// The course's A* exercise (a small graph, open and closed lists stepped), also in the Trees lab.
mountAStarExercise(document.getElementById("astar-exercise"));
