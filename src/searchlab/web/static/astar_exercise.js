// The course's A* exercise (GET /api/exercise/astar): a small weighted graph from S to T with
// heuristic values, and its answer key stepped expansion by expansion: the node taken from
// the open list with g, h and f, what became of each successor, the open and closed lists, and
// at the end the path, its cost and the reopenings. The key is the library's A* (its observer
// events), as W1's generator recorded it; nothing is searched here.
//
//   import { mountAStarExercise } from "/static/astar_exercise.js";
//   mountAStarExercise(document.getElementById("astar-exercise"));

import { getJSON, setStatus, el, svg } from "/static/common.js";
import { clearSvg, sizeSvg, formatValue, addTitle, textBox, boxesOverlap } from "/static/tree_draw.js";

/** Build the exercise's controls, graph and step table inside `container`. */
export function mountAStarExercise(container) {
  const state = { data: null, index: -1 };
  const nodesInput = el("input", { type: "number", min: 2, max: 24, value: 6, "data-testid": "astar-nodes" });
  const consistentInput = el("input", { type: "checkbox", "data-testid": "astar-consistent" });
  const seedInput = el("input", { type: "number", min: 0, placeholder: "random", "data-testid": "astar-seed" });
  const newButton = el("button", { class: "primary", "data-testid": "astar-new" }, "New A* exercise");
  const resetButton = el("button", { "data-testid": "astar-reset", disabled: true }, "Reset");
  const stepButton = el("button", { "data-testid": "astar-step", disabled: true }, "Step");
  const runButton = el("button", { "data-testid": "astar-run", disabled: true }, "Show all");
  const graph = svg("svg", { class: "astar-graph", "data-testid": "astar-graph", role: "img", "aria-label": "the exercise graph" });
  const info = el("p", { class: "small muted", "data-testid": "astar-info" });
  const table = el("table", { class: "astar-table", "data-testid": "astar-table" });
  const summary = el("div", { class: "astar-summary", "data-testid": "astar-summary" });
  const body = el("div", { class: "astar-body hidden" },
    el("div", { class: "astar-graph-box" }, graph), el("div", { class: "astar-table-box" }, table));

  container.append(
    el("div", { class: "row astar-controls" },
      el("label", { class: "field inline" }, el("span", {}, "nodes"), nodesInput),
      el("label", { class: "field inline" }, consistentInput, el("span", {}, "consistent heuristic")),
      el("label", { class: "field inline" }, el("span", {}, "seed"), seedInput),
      newButton, resetButton, stepButton, runButton),
    el("p", { class: "small muted hint" },
      "Expand the open node with the smallest f = g + h (ties: the goal first, then the larger g, " +
      "then first in); a closed node reached by a cheaper path is reopened. Work out each row, " +
      "then press Step to check it."),
    info,
    el("div", { class: "legend" },
      el("span", {}, el("i", { class: "lg-open" }), "open"),
      el("span", {}, el("i", { class: "lg-closed" }), "closed"),
      el("span", {}, el("i", { class: "lg-expanded" }), "expanded now"),
      el("span", {}, el("i", { class: "lg-tree" }), "best known parent"),
      el("span", {}, el("i", { class: "lg-path" }), "the path found"),
      el("span", {}, "edge boxes: costs · h: heuristic · g, f: on the lists")),
    body,
    summary,
  );

  newButton.addEventListener("click", async () => {
    const query = new URLSearchParams();
    if (nodesInput.value.trim()) query.set("nodes", nodesInput.value.trim());
    if (consistentInput.checked) query.set("consistent", "true");
    const seed = seedInput.value.trim() || String(Math.floor(Math.random() * 1_000_000));
    query.set("seed", seed);
    setStatus("drawing an A* exercise…", "busy");
    let data;
    try {
      data = await getJSON(`/api/exercise/astar?${query}`);
    } catch {
      clear(); // the status line has the server's message; no older exercise stays on screen
      return;
    }
    state.data = data;
    state.index = -1;
    info.textContent =
      `seed ${data.seed}: ${data.nodes.length} nodes, ${data.edges.length} edges; the heuristic is ` +
      `${data.heuristic_kind}${data.is_consistent ? " and consistent" : ", not consistent"} ` +
      "(h(n) ≤ the true cost to T everywhere).";
    render();
    setStatus(`A* exercise seed ${data.seed}: ${data.key.steps.length} expansions to find`, "ok");
  });
  resetButton.addEventListener("click", () => {
    state.index = -1;
    render();
  });
  stepButton.addEventListener("click", () => {
    if (!state.data) return;
    state.index = Math.min(state.index + 1, state.data.key.steps.length - 1);
    render();
  });
  runButton.addEventListener("click", () => {
    if (!state.data) return;
    state.index = state.data.key.steps.length - 1;
    render();
  });

  function clear() {
    state.data = null;
    state.index = -1;
    info.textContent = "";
    summary.replaceChildren();
    table.replaceChildren();
    clearSvg(graph);
    body.classList.add("hidden");
    render();
  }

  function render() {
    const data = state.data;
    const steps = data ? data.key.steps : [];
    const last = steps.length - 1;
    resetButton.disabled = !data || state.index < 0;
    stepButton.disabled = !data || state.index >= last;
    runButton.disabled = !data || state.index >= last;
    if (!data) return;
    body.classList.remove("hidden");
    drawGraph(graph, data, state.index);
    drawTable(table, data, state.index);
    summary.replaceChildren();
    if (state.index >= last) {
      const key = data.key;
      summary.append(
        el("strong", {}, `path ${key.path.join(" → ")}, cost ${formatValue(key.cost)}`),
        ` · expanded ${key.expanded}, generated ${key.generated}, reopened ${key.reopened}`,
      );
      if (key.reopenings.length) {
        summary.append(el("div", {}, "reopened: " + key.reopenings
          .map((r) => `${r.node} (g ${formatValue(r.old_g)} → ${formatValue(r.new_g)})`).join(", ")));
      }
    }
  }
}

// The drawing's geometry (px): node radius, zigzag inside a column, label offsets from a node.
const RADIUS = 18;
const ZIGZAG = 22;
const LABEL_DX = RADIUS + 3;
const F_DY = -16;
const H_DY = 15;
const GAP = 10; // between a column's labels and the next column's nodes
const ROW_GAP = 88;
const COST_PAD = 4; // around a cost's digits in its box
const CLEARANCE = 2; // between a cost box and anything else

const grow = (box, by) => ({ x: box.x - by, y: box.y - by, width: box.width + 2 * by, height: box.height + 2 * by });

/** The g and f label of a list entry. */
const gfText = (entry) => `g=${formatValue(entry.g)} f=${formatValue(entry.f)}`;
const hText = (data, node) => `h=${formatValue(data.heuristic[node])}`;

/** Each node's widest g/f label over the whole key (so the drawing never moves as it steps). */
function widestLabels(data, graph) {
  const widest = new Map(data.nodes.map((n) => [n, 0]));
  const lists = [data.key.start_open, ...data.key.steps.flatMap((s) => [s.open, s.closed])];
  for (const list of lists) {
    for (const entry of list) {
      const { width } = textBox(graph, gfText(entry), "g-f", 10.5);
      widest.set(entry.node, Math.max(widest.get(entry.node) || 0, width));
    }
  }
  return widest;
}

/** Columns by the number of edges from S (T in the last column), nodes spread in each. */
function columnsOf(data) {
  const neighbours = new Map(data.nodes.map((n) => [n, []]));
  for (const [u, v] of data.edges) {
    neighbours.get(u).push(v);
    neighbours.get(v).push(u);
  }
  const hops = new Map([[data.start, 0]]);
  const queue = [data.start];
  while (queue.length) {
    const node = queue.shift();
    for (const next of neighbours.get(node)) {
      if (!hops.has(next)) {
        hops.set(next, hops.get(node) + 1);
        queue.push(next);
      }
    }
  }
  let deepest = 0;
  for (const [node, h] of hops) if (node !== data.goal) deepest = Math.max(deepest, h);
  hops.set(data.goal, deepest + 1);
  const columns = [];
  for (const node of data.nodes) {
    const column = hops.get(node) ?? deepest;
    (columns[column] ||= []).push(node);
  }
  return columns;
}

/**
 * Where every node, label and edge cost goes, with no two labels overlapping: each column is
 * as wide as its nodes' labels (the widest g/f over the key, the h), and each cost box slides
 * along its edge to the first place clear of the nodes, their labels and the costs placed
 * before it; when one finds none, the columns and rows spread out and everything is placed
 * again.
 */
function placeGraph(data, graph) {
  const columns = columnsOf(data);
  const widest = widestLabels(data, graph);
  const hBoxes = new Map(data.nodes.map((n) => [n, textBox(graph, hText(data, n), "g-h", 10.5)]));
  const gfHeight = textBox(graph, "g=0 f=0", "g-f", 10.5).height;
  const costBoxes = data.edges.map(([, , cost]) => {
    const box = textBox(graph, String(cost), "g-cost", 11);
    return { width: Math.max(18, box.width + 2 * COST_PAD), height: Math.max(18, box.height + 2) };
  });
  for (let spread = 1; ; spread *= 1.25) {
    const last = spread > 8;
    const placed = tryPlace(data, columns, widest, hBoxes, gfHeight, costBoxes, spread, last);
    if (placed) return placed;
  }
}

function tryPlace(data, columns, widest, hBoxes, gfHeight, costBoxes, spread, force) {
  const rowGap = ROW_GAP * spread;
  const tallest = Math.max(...columns.map((c) => (c ? c.length : 0)));
  const height = Math.max(1, tallest) * rowGap + 40;
  const where = new Map();
  const obstacles = [];
  let x = 20 + RADIUS + ZIGZAG;
  columns.forEach((column) => {
    if (!column) return;
    const top = (height - column.length * rowGap) / 2 + rowGap / 2;
    let labels = 0;
    column.forEach((node, j) => {
      // A slight zigzag: edges inside a column do not run through the labels.
      const p = { x: x + (j % 2 ? ZIGZAG : -ZIGZAG), y: top + j * rowGap };
      const h = hBoxes.get(node);
      const gf = { width: widest.get(node) || 0, height: gfHeight };
      p.hBox = { x: p.x + LABEL_DX, y: p.y + H_DY - h.height / 2, width: h.width, height: h.height };
      p.gfBox = { x: p.x + LABEL_DX, y: p.y + F_DY - gf.height / 2, width: gf.width, height: gf.height };
      where.set(node, p);
      obstacles.push({ x: p.x - RADIUS, y: p.y - RADIUS, width: 2 * RADIUS, height: 2 * RADIUS }, p.hBox, p.gfBox);
      labels = Math.max(labels, h.width, gf.width);
    });
    x += (ZIGZAG + LABEL_DX + labels + GAP + ZIGZAG + RADIUS) * spread;
  });
  const width = x - ZIGZAG - RADIUS + 20;
  const costs = [];
  const ALONG = [0.5, 0.42, 0.58, 0.34, 0.66, 0.27, 0.73, 0.2, 0.8];
  for (const [k, [u, v]] of data.edges.entries()) {
    const a = where.get(u);
    const b = where.get(v);
    const size = costBoxes[k];
    const boxAt = (t) => {
      const cx = a.x + (b.x - a.x) * t;
      const cy = a.y + (b.y - a.y) * t;
      return { x: cx - size.width / 2, y: cy - size.height / 2, width: size.width, height: size.height, cx, cy };
    };
    const clear = (box) => !obstacles.some((o) => boxesOverlap(grow(box, CLEARANCE), o));
    let box = ALONG.map(boxAt).find(clear);
    if (!box) {
      if (!force) return null;
      box = boxAt(0.5);
    }
    obstacles.push(box);
    costs.push(box);
  }
  return { where, costs, width, height };
}

function drawGraph(graph, data, index) {
  clearSvg(graph);
  const { where, costs, width, height } = placeGraph(data, graph);
  sizeSvg(graph, width, height);
  const step = index >= 0 ? data.key.steps[index] : null;
  const open = new Map((step ? step.open : data.key.start_open).map((e) => [e.node, e]));
  const closed = new Map((step ? step.closed : []).map((e) => [e.node, e]));
  const finished = index >= data.key.steps.length - 1;
  const onPath = new Set();
  if (finished) {
    const path = data.key.path;
    for (let i = 1; i < path.length; i += 1) onPath.add(`${path[i - 1]}|${path[i]}`);
  }
  const parentOf = new Map();
  for (const entry of [...open.values(), ...closed.values()]) if (entry.parent) parentOf.set(entry.node, entry.parent);
  const lines = svg("g", { class: "g-edges" });
  const labels = svg("g", { class: "g-costs" });
  graph.append(lines, labels);
  data.edges.forEach(([u, v, cost], k) => {
    const a = where.get(u);
    const b = where.get(v);
    const classes = ["g-edge"];
    if (onPath.has(`${u}|${v}`) || onPath.has(`${v}|${u}`)) classes.push("path");
    else if (parentOf.get(v) === u || parentOf.get(u) === v) classes.push("tree");
    lines.append(svg("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: classes.join(" ") }));
    const box = costs[k];
    const label = svg("g", { class: "g-cost-label", "data-label": `cost ${u}-${v}` });
    label.append(svg("rect", { x: box.x, y: box.y, width: box.width, height: box.height, rx: 3, class: "g-cost-box" }));
    label.append(svg("text", { x: box.cx, y: box.cy, class: "g-cost" }, String(cost)));
    addTitle(label, `${u} – ${v}: cost ${cost}`);
    labels.append(label);
  });
  for (const node of data.nodes) {
    const p = where.get(node);
    const classes = ["g-node"];
    if (step && step.expanded.node === node) classes.push("current");
    else if (closed.has(node)) classes.push("closed");
    else if (open.has(node)) classes.push("open");
    if (node === data.start || node === data.goal) classes.push("end");
    const group = svg("g", { class: classes.join(" "), "data-graph-node": node });
    group.append(svg("circle", { cx: p.x, cy: p.y, r: RADIUS, class: "g-shape" }));
    group.append(svg("text", { x: p.x, y: p.y, class: "g-name" }, node));
    group.append(svg("text", { x: p.x + LABEL_DX, y: p.y + H_DY, class: "g-h", "data-label": `h ${node}` }, hText(data, node)));
    const entry = open.get(node) || closed.get(node);
    if (entry) {
      group.append(svg("text", { x: p.x + LABEL_DX, y: p.y + F_DY, class: "g-f", "data-label": `gf ${node}` }, gfText(entry)));
    }
    addTitle(group, `${node}: h = ${formatValue(data.heuristic[node])}, true cost to T = ${formatValue(data.true_cost[node])}`);
    graph.append(group);
  }
}

function entryText(e) {
  return `${e.node} ${formatValue(e.g)}+${formatValue(e.h)}=${formatValue(e.f)}${e.parent ? ` (${e.parent})` : ""}`;
}

function listText(entries) {
  return entries.map((e) => `${e.node}(${formatValue(e.f)})`).join(" ") || "–";
}

function drawTable(table, data, index) {
  table.replaceChildren(
    el("tr", {}, el("th", {}, "#"), el("th", {}, "expanded g+h=f (parent)"), el("th", {}, "successors"),
      el("th", {}, "open (f), pop order"), el("th", {}, "closed")),
  );
  table.append(el("tr", { class: index < 0 ? "current" : "" }, el("td", {}, "0"), el("td", {}, "–"), el("td", {}, "–"),
    el("td", {}, listText(data.key.start_open)), el("td", {}, "–")));
  data.key.steps.forEach((step, i) => {
    if (i > index) return;
    const successors = step.successors.map((s) => `${s.node} g${formatValue(s.g)} ${s.action}`).join("; ") || "–";
    table.append(el("tr", { class: i === index ? "current" : "", "data-step": step.step },
      el("td", {}, String(step.step)), el("td", {}, entryText(step.expanded)), el("td", {}, successors),
      el("td", {}, listText(step.open)), el("td", {}, listText(step.closed))));
  });
}
