// Trees lab: explicit game trees drawn as trees, minimax and alpha-beta stepped node by node
// from the server's steps (POST /api/tree), and graded alpha-beta exercises
// (GET /api/exercise/alphabeta, POST /api/exercise/alphabeta/grade).
//
// The page never searches by itself: every alpha, beta, value and cut it shows comes from the
// library's observer events, as the server turned them into steps. The one thing it derives is
// the window of a node *between* its children (alpha = max(alpha, value) after a child of a MAX
// node, beta = min(beta, value) after a child of a MIN node), which the next child's visit step
// then confirms.

import { $, readOrReport, getJSON, postJSON, setStatus, initPage, svg } from "/static/common.js";
import {
  layoutTree,
  clearSvg,
  sizeSvg,
  drawNodeShape,
  formatValue,
  toNumber,
  addTitle,
  downloadText,
  svgText,
} from "/static/tree_draw.js";
import { mountAStarExercise } from "/static/astar_exercise.js";

const EXAMPLES = [
  {
    title: "AIMA Fig. 5.2 (two plies)",
    text: `# AIMA (Russell & Norvig, 3rd ed.), Fig. 5.2: a two-ply game tree.
# MAX moves at A; MIN moves at B, C and D. Leaf values are utilities for MAX.
max A: B C D
min B: b1=3 b2=12 b3=8
min C: c1=2 c2=4 c3=6
min D: d1=14 d2=5 d3=2
`,
  },
  {
    title: "Three plies, a deep cutoff",
    text: `# A three-ply tree (MAX, MIN, MAX, leaves). Minimax value 5 (A -> B).
max A: B C
min B: D F
max D: d1=3 d2=5
max F: f1=7 f2=9
min C: E G
max E: e1=4 e2=1
max G: g1=8 g2=2
`,
  },
  {
    title: "Nested numbers (anonymous leaves)",
    text: `# Bare numbers are leaves named PARENT.I
max R: S T U
min S: 5 6 7
min T: 4 9 1
min U: 8 2 3
`,
  },
];

const svgRoot = $("tree-svg");

/** What the page shows: a searched tree ("search") or an exercise ("exercise"). */
const view = {
  mode: "none",
  root: null,
  byName: new Map(),
  parentOf: new Map(),
  algorithm: "alphabeta",
  steps: [],
  index: 0,
  answer: null,
  timer: null,
  exercise: null,
  exerciseQuery: null,
  cuts: new Set(),
};

// ---------------------------------------------------------------- the tree from the API

function isLeaf(node) {
  return node.kind === "leaf" || !node.children || node.children.length === 0;
}

/** "max" | "min" | "leaf": the shape a node is drawn with. */
function shapeOf(node) {
  if (isLeaf(node)) return "leaf";
  const kind = node.kind && node.kind !== "leaf" ? node.kind : node.player;
  return kind === "min" ? "min" : "max";
}

function indexTree(root) {
  view.root = root;
  view.byName = new Map();
  view.parentOf = new Map();
  const walk = (node, parent) => {
    view.byName.set(node.name, node);
    view.parentOf.set(node.name, parent);
    for (const child of node.children || []) walk(child, node);
  };
  walk(root, null);
}

/** The node a step is about: its name, else its path (child indices or names) from the root. */
function stepNode(step) {
  const name = step.node ?? step.name;
  if (name !== undefined && view.byName.has(String(name))) return view.byName.get(String(name));
  const path = step.path || [];
  if (path.length && path.every((p) => typeof p === "string")) {
    const last = path[path.length - 1];
    if (view.byName.has(last)) return view.byName.get(last);
  }
  let node = view.root;
  for (const index of path) {
    if (!node || !node.children) return null;
    node = node.children[index];
  }
  return node || null;
}

/** The children a prune step skipped, as nodes (it may list names or child indices). */
function prunedChildren(step, node) {
  return (step.pruned || [])
    .map((p) => (typeof p === "number" ? node && node.children[p] : view.byName.get(String(p))))
    .filter(Boolean);
}

function cutReason(alpha, beta) {
  return `alpha >= beta: ${formatValue(alpha)} >= ${formatValue(beta)}`;
}

/** The picture after the first k steps: every node's window, value, and the cuts so far. */
function replay(k) {
  const info = new Map();
  const get = (node) => {
    if (!info.has(node.name)) info.set(node.name, { visited: false, done: false });
    return info.get(node.name);
  };
  const prunedBy = new Map();
  const log = [];
  let current = null;
  const windows = view.algorithm === "alphabeta";
  for (let i = 0; i < k; i += 1) {
    const step = view.steps[i];
    const node = stepNode(step);
    if (!node) continue;
    current = node;
    const st = get(node);
    const kind = step.kind;
    if (kind === "visit") {
      st.visited = true;
      st.alphaIn = toNumber(step.alpha);
      st.betaIn = toNumber(step.beta);
      st.alpha = st.alphaIn;
      st.beta = st.betaIn;
      const window = windows && st.alpha !== null ? `  α=${formatValue(st.alpha)} β=${formatValue(st.beta)}` : "";
      log.push({ text: `visit ${node.name}${window}`, kind });
    } else if (kind === "backup") {
      st.visited = true;
      st.done = true;
      st.value = toNumber(step.value ?? (isLeaf(node) ? node.value : null));
      log.push({ text: `${node.name} = ${formatValue(st.value)}${isLeaf(node) ? " (leaf)" : " backed up"}`, kind });
      const parent = view.parentOf.get(node.name);
      if (windows && parent && st.value !== null) {
        const ps = get(parent);
        if (ps.alpha !== undefined && ps.alpha !== null) {
          if (shapeOf(parent) === "max") ps.alpha = Math.max(ps.alpha, st.value);
          else ps.beta = Math.min(ps.beta, st.value);
        }
      }
    } else if (kind === "prune") {
      const alpha = toNumber(step.alpha);
      const beta = toNumber(step.beta);
      if (alpha !== null) st.alpha = alpha;
      if (beta !== null) st.beta = beta;
      const skipped = prunedChildren(step, node);
      st.cut = { alpha, beta, pruned: skipped.map((c) => c.name) };
      for (const child of skipped) prunedBy.set(child.name, { at: node.name, alpha, beta });
      log.push({
        text: `cut at ${node.name}: ${cutReason(alpha, beta)}; pruned ${skipped.map((c) => c.name).join(", ")}`,
        kind,
      });
    }
  }
  // Everything below a pruned branch is never visited.
  const hidden = new Set();
  const hide = (node) => {
    hidden.add(node.name);
    for (const child of node.children || []) hide(child);
  };
  for (const name of prunedBy.keys()) hide(view.byName.get(name));
  return { info, prunedBy, hidden, current, log };
}

// ---------------------------------------------------------------- drawing

const SIZE = { inner: 34, leaf: 30, exercise: 42 };

function layout(exercise) {
  return layoutTree(view.root, {
    leafGap: exercise ? 46 : 60,
    levelGap: exercise ? 86 : 84,
    margin: 44,
  });
}

function nodeSize(node, exercise) {
  if (isLeaf(node)) return SIZE.leaf;
  return exercise ? SIZE.exercise : SIZE.inner;
}

/** The line of an edge between the borders of its two nodes. */
function edgeEnds(parent, child, exercise) {
  const top = nodeSize(parent.node, exercise) / 2;
  const bottom = (isLeaf(child.node) ? SIZE.leaf * 0.4 : nodeSize(child.node, exercise) / 2) + 1;
  return { x1: parent.x, y1: parent.y + top, x2: child.x, y2: child.y - bottom };
}

function slashMark(group, x, y, className) {
  group.append(svg("line", { x1: x - 7, y1: y + 5, x2: x + 7, y2: y - 5, class: className }));
  group.append(svg("line", { x1: x - 7, y1: y + 9, x2: x + 7, y2: y - 1, class: className }));
}

function drawSearch() {
  clearSvg(svgRoot);
  if (!view.root) return;
  const picture = replay(view.index);
  const placed = layout(false);
  sizeSvg(svgRoot, placed.width + 40, placed.height + 20, $("fit").checked);
  const edges = svg("g", { class: "edges" });
  const nodes = svg("g", { class: "nodes" });
  svgRoot.append(edges, nodes);
  const onPath = new Set();
  for (let n = picture.current; n; n = view.parentOf.get(n.name)) onPath.add(n.name);
  const windows = view.algorithm === "alphabeta";

  for (const entry of placed.nodes) {
    const node = entry.node;
    const st = picture.info.get(node.name) || { visited: false };
    if (entry.parent) {
      const ends = edgeEnds(entry.parent, entry, false);
      const cut = picture.prunedBy.get(node.name);
      const classes = ["edge"];
      if (cut) classes.push("pruned");
      else if (picture.hidden.has(node.name)) classes.push("below-cut");
      else if (st.visited) classes.push("visited");
      if (onPath.has(node.name)) classes.push("on-path");
      const group = svg("g", { class: classes.join(" "), "data-edge": node.name });
      group.append(svg("line", { ...ends, class: "edge-line" }));
      if (cut) {
        const mx = (ends.x1 + ends.x2) / 2;
        const my = (ends.y1 + ends.y2) / 2;
        slashMark(group, mx, my, "cut-mark");
        group.append(
          svg("text", { x: mx + 10, y: my - 8, class: "cut-label" }, `${formatValue(cut.alpha)}≥${formatValue(cut.beta)}`),
        );
        group.append(svg("line", { ...ends, class: "edge-hit" }));
        addTitle(group, `${node.name} pruned at ${cut.at}: ${cutReason(cut.alpha, cut.beta)}`);
      }
      edges.append(group);
    }

    const shape = shapeOf(node);
    const size = nodeSize(node, false);
    const classes = ["node", shape];
    if (st.visited) classes.push("visited");
    if (st.done) classes.push("done");
    if (picture.hidden.has(node.name)) classes.push("pruned-out");
    if (picture.current === node) classes.push("current");
    else if (onPath.has(node.name)) classes.push("on-path");
    if (st.cut) classes.push("has-cut");
    const group = svg("g", { class: classes.join(" "), "data-node": node.name });
    if (picture.current === node) {
      drawNodeShape(group, shape, entry.x, entry.y, size + 12, { class: "halo" });
    }
    drawNodeShape(group, shape, entry.x, entry.y, size, { class: "shape" });
    const valueText = isLeaf(node) ? formatValue(node.value) : st.done ? formatValue(st.value) : "";
    group.append(svg("text", { x: entry.x, y: entry.y, class: "value" }, valueText));
    if (isLeaf(node)) {
      group.append(svg("text", { x: entry.x, y: entry.y + size / 2 + 13, class: "name leaf-name" }, node.name));
    } else {
      group.append(svg("text", { x: entry.x - size / 2 - 8, y: entry.y - size / 2 + 1, class: "name" }, node.name));
      if (windows && st.visited && st.alpha !== undefined && st.alpha !== null) {
        const label = svg("text", { x: entry.x + size / 2 + 5, y: entry.y - 4, class: "window" });
        label.append(svg("tspan", { x: entry.x + size / 2 + 5, dy: 0 }, `α ${formatValue(st.alpha)}`));
        label.append(svg("tspan", { x: entry.x + size / 2 + 5, dy: 13 }, `β ${formatValue(st.beta)}`));
        group.append(label);
      }
    }
    const tip = [`${node.name} (${shape === "leaf" ? "leaf" : shape.toUpperCase()})`];
    if (st.visited && st.alphaIn !== undefined && st.alphaIn !== null && windows) {
      tip.push(`entered with α=${formatValue(st.alphaIn)}, β=${formatValue(st.betaIn)}`);
    }
    if (st.done) tip.push(`value ${formatValue(st.value)}`);
    if (st.cut) tip.push(`cut: ${cutReason(st.cut.alpha, st.cut.beta)}; pruned ${st.cut.pruned.join(", ")}`);
    if (picture.hidden.has(node.name)) tip.push("never visited (below a cut)");
    addTitle(group, tip.join("\n"));
    nodes.append(group);
  }
  drawLog(picture.log);
  updateStepper();
  scrollIntoViewIfNeeded(placed, picture.current);
}

function scrollIntoViewIfNeeded(placed, node) {
  if (!node) return;
  const entry = placed.byNode.get(node);
  const box = $("tree-scroll");
  if (!entry || !box) return;
  if (entry.x < box.scrollLeft + 40 || entry.x > box.scrollLeft + box.clientWidth - 40) {
    box.scrollLeft = Math.max(0, entry.x - box.clientWidth / 2);
  }
}

/** Scroll the tree's box (only it) so that an SVG element is in view. */
function showInBox(element) {
  const box = $("tree-scroll");
  const rect = element.getBoundingClientRect();
  const outer = box.getBoundingClientRect();
  if (rect.left < outer.left + 20 || rect.right > outer.right - 20) {
    box.scrollLeft += rect.left - outer.left - box.clientWidth / 2 + rect.width / 2;
  }
  if (rect.top < outer.top + 20 || rect.bottom > outer.bottom - 20) {
    box.scrollTop += rect.top - outer.top - box.clientHeight / 2 + rect.height / 2;
  }
}

function drawLog(lines) {
  const log = $("log");
  log.replaceChildren();
  lines.forEach((line, i) => {
    const item = document.createElement("li");
    item.textContent = line.text;
    item.className = `log-${line.kind}${i === lines.length - 1 ? " current" : ""}`;
    log.append(item);
  });
  const last = log.lastElementChild;
  if (last) log.scrollTop = last.offsetTop - log.offsetTop - log.clientHeight / 2;
}

function updateStepper() {
  const total = view.steps.length;
  const searching = view.mode === "search";
  $("step-count").textContent = searching ? `${view.index} / ${total}` : "0 / 0";
  const atEnd = !searching || view.index >= total;
  $("step").disabled = atEnd;
  $("run").disabled = atEnd;
  $("play-pause").disabled = atEnd && !view.timer;
  $("back").disabled = !searching || view.index === 0;
  $("reset").disabled = !searching || view.index === 0;
  $("play-pause").textContent = view.timer ? "Pause" : "Play";
  const result = $("result");
  if (searching && total > 0 && view.index >= total && view.answer) {
    const a = view.answer;
    const pruned = a.pruned && a.pruned.length ? a.pruned.join(", ") : "none";
    result.textContent = `value ${formatValue(a.value)} (for MAX) · best child ${a.best ?? "–"}` +
      (view.algorithm === "alphabeta" ? ` · pruned ${pruned}` : "");
    setStatus(`${view.algorithm}: done in ${total} steps, value ${formatValue(a.value)}`, "ok");
  } else {
    result.textContent = "";
  }
}

// ---------------------------------------------------------------- stepping

function stopTimer() {
  if (view.timer) clearInterval(view.timer);
  view.timer = null;
}

function goTo(index) {
  view.index = Math.max(0, Math.min(index, view.steps.length));
  drawSearch();
}

function stepOnce() {
  if (view.mode !== "search") return;
  if (view.index >= view.steps.length) {
    stopTimer();
    updateStepper();
    return;
  }
  goTo(view.index + 1);
  const step = view.steps[view.index - 1];
  if (view.index < view.steps.length) {
    const node = stepNode(step);
    setStatus(`step ${view.index} of ${view.steps.length}: ${step.kind} ${node ? node.name : ""}`, "info");
  }
  if (view.index >= view.steps.length) {
    stopTimer();
    updateStepper();
  }
}

function togglePlay() {
  if (view.timer) {
    stopTimer();
    updateStepper();
    return;
  }
  if (view.index >= view.steps.length) return;
  const speed = Number($("speed").value) || 6;
  view.timer = setInterval(stepOnce, Math.round(1000 / speed));
  updateStepper();
}

function restartTimerIfPlaying() {
  if (!view.timer) return;
  stopTimer();
  togglePlay();
}

/**
 * Take the last result off the screen (the tree, its log and result, an exercise and its
 * feedback): a new request failed, and its one error line in the status line is all that
 * shows, never an older tree beside it as if it were the answer.
 */
function forgetResult() {
  stopTimer();
  view.mode = "none";
  view.root = null;
  view.byName = new Map();
  view.parentOf = new Map();
  view.steps = [];
  view.index = 0;
  view.answer = null;
  view.exercise = null;
  view.exerciseQuery = null;
  view.cuts = new Set();
  clearSvg(svgRoot);
  svgRoot.classList.remove("exercise");
  sizeSvg(svgRoot, 0, 0);
  $("log").replaceChildren();
  $("check").disabled = true;
  $("solve").disabled = true;
  $("feedback").textContent = "";
  $("feedback").className = "feedback";
  updateStepper();
}

/** The request's order: a newer load or exercise makes an older answer stale. */
let requestCount = 0;

async function loadTree() {
  stopTimer();
  const request = (requestCount += 1);
  const text = $("tree-text").value;
  const algorithm = $("algorithm").value;
  if (!text.trim()) {
    forgetResult();
    setStatus("type a tree first (or choose an example)", "error");
    return;
  }
  setStatus(`running ${algorithm}…`, "busy");
  let answer;
  try {
    answer = await postJSON("/api/tree", { tree: text, algorithm });
  } catch {
    if (request === requestCount) forgetResult(); // the status line has the server's message
    return;
  }
  if (request !== requestCount) return;
  view.mode = "search";
  view.algorithm = algorithm;
  view.answer = answer;
  view.steps = answer.steps || [];
  view.index = 0;
  view.exercise = null;
  view.cuts = new Set();
  indexTree(answer.root);
  $("check").disabled = true;
  $("solve").disabled = true;
  $("feedback").textContent = "";
  $("feedback").className = "feedback";
  svgRoot.classList.remove("exercise");
  $("log-panel").classList.remove("hidden");
  drawSearch();
  setStatus(`${algorithm}: ${view.steps.length} steps; press Step or Run`, "ok");
}

// ---------------------------------------------------------------- exercise mode

function exerciseQuery() {
  const query = {};
  const fields = [
    ["depth", "ex-depth"],
    ["branching", "ex-branching"],
    ["leaves", "ex-leaves"],
    ["values", "ex-values"],
    ["min_cuts", "ex-min-cuts"],
    ["seed", "ex-seed"],
  ];
  for (const [name, id] of fields) {
    const value = $(id).value.trim();
    if (value === "") continue;
    query[name] = name === "values" ? value : Number(value);
  }
  if (query.seed === undefined) query.seed = Math.floor(Math.random() * 1_000_000);
  return query;
}

async function newExercise() {
  stopTimer();
  const request = (requestCount += 1);
  const query = exerciseQuery();
  for (const [name, value] of Object.entries(query)) {
    if (name !== "values" && !Number.isInteger(value)) {
      forgetResult();
      setStatus(`${name} must be a whole number`, "error");
      return;
    }
  }
  const url = `/api/exercise/alphabeta?${new URLSearchParams(
    Object.entries(query).map(([k, v]) => [k, String(v)]),
  )}`;
  setStatus("drawing an exercise…", "busy");
  let data;
  try {
    data = await getJSON(url);
  } catch {
    if (request === requestCount) forgetResult(); // the status line has the server's message
    return;
  }
  if (request !== requestCount) return;
  view.mode = "exercise";
  view.exercise = data;
  if (data.text) {
    // The exercise in the tree format: to export, or to load into the stepper afterwards.
    $("tree-text").value = data.text;
    $("example").value = "";
  }
  view.exerciseQuery = { ...query, seed: data.seed ?? query.seed };
  view.steps = [];
  view.index = 0;
  view.answer = null;
  view.cuts = new Set();
  indexTree(data.root);
  drawExercise();
  $("check").disabled = false;
  $("solve").disabled = false;
  $("log").replaceChildren();
  $("log-panel").classList.add("hidden");
  updateStepper();
  const feedback = $("feedback");
  feedback.className = "feedback";
  feedback.textContent = "";
  const cuts = data.cuts ?? (data.key && data.key.pruned ? data.key.pruned.length : null);
  setStatus(
    `exercise seed ${view.exerciseQuery.seed}: ${data.leaves ?? "?"} leaves` +
      (cuts !== null ? `, ${cuts} pruned branches to find` : ""),
    "ok",
  );
}

function drawExercise() {
  clearSvg(svgRoot);
  svgRoot.classList.add("exercise");
  const placed = layout(true);
  sizeSvg(svgRoot, placed.width + 20, placed.height + 20, $("fit").checked);
  const edges = svg("g", { class: "edges" });
  const nodes = svg("g", { class: "nodes" });
  svgRoot.append(edges, nodes);
  for (const entry of placed.nodes) {
    const node = entry.node;
    if (entry.parent) {
      const ends = edgeEnds(entry.parent, entry, true);
      const mx = (ends.x1 + ends.x2) / 2;
      const my = (ends.y1 + ends.y2) / 2;
      const group = svg("g", {
        class: `edge cut-toggle${view.cuts.has(node.name) ? " marked" : ""}`,
        "data-cut": node.name,
        role: "button",
        tabindex: 0,
        "aria-pressed": view.cuts.has(node.name) ? "true" : "false",
        "aria-label": `mark the branch ${node.name} as pruned`,
      });
      group.append(svg("line", { ...ends, class: "edge-line" }));
      group.append(svg("line", { ...ends, class: "edge-hit" }));
      group.append(svg("circle", { cx: mx, cy: my, r: 6, class: "cut-handle" }));
      slashMark(group, mx, my, "cut-mark");
      addTitle(group, `click: mark ${node.name} as pruned (cut before it is searched)`);
      const toggle = () => toggleCut(node.name, group);
      group.addEventListener("click", toggle);
      group.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          toggle();
        }
      });
      edges.append(group);
    }
    const shape = shapeOf(node);
    const size = nodeSize(node, true);
    const group = svg("g", { class: `node ${shape}`, "data-node": node.name });
    drawNodeShape(group, shape, entry.x, entry.y, size, { class: "shape" });
    if (isLeaf(node)) {
      group.append(svg("text", { x: entry.x, y: entry.y, class: "value" }, formatValue(node.value)));
      group.append(svg("text", { x: entry.x, y: entry.y + size / 2 + 13, class: "name leaf-name" }, node.name));
    } else {
      group.append(svg("text", { x: entry.x - size / 2 - 4, y: entry.y - size / 2 + 2, class: "name" }, node.name));
      const box = svg("foreignObject", { x: entry.x - 18, y: entry.y - 11, width: 36, height: 22 });
      const input = document.createElement("input");
      input.type = "text";
      input.inputMode = "numeric";
      input.autocomplete = "off";
      input.className = "node-input";
      input.dataset.nodeValue = node.name;
      input.setAttribute("aria-label", `value of ${node.name}`);
      input.addEventListener("input", () => input.classList.remove("ok", "wrong"));
      box.append(input);
      group.append(box);
    }
    addTitle(group, `${node.name} (${shape === "leaf" ? "leaf" : shape.toUpperCase()})`);
    nodes.append(group);
  }
}

function toggleCut(name, group) {
  if (view.cuts.has(name)) view.cuts.delete(name);
  else view.cuts.add(name);
  const marked = view.cuts.has(name);
  group.classList.toggle("marked", marked);
  group.classList.remove("ok", "wrong", "missed");
  group.setAttribute("aria-pressed", marked ? "true" : "false");
}

function readMarks() {
  const values = {};
  for (const input of svgRoot.querySelectorAll("input[data-node-value]")) {
    const text = input.value.trim().replace("−", "-");
    if (text === "") continue;
    const number = Number(text);
    if (!Number.isFinite(number)) {
      input.classList.add("wrong");
      throw new Error(`the value of ${input.dataset.nodeValue} is not a number: ${text}`);
    }
    values[input.dataset.nodeValue] = number;
  }
  return { values, cuts: [...view.cuts] };
}

async function checkExercise() {
  if (view.mode !== "exercise") return;
  const marks = readOrReport(readMarks);
  if (!marks) return;
  setStatus("checking…", "busy");
  let grade;
  try {
    grade = await postJSON("/api/exercise/alphabeta/grade", { ...view.exerciseQuery, marks });
  } catch {
    return;
  }
  showGrade(grade);
}

function showGrade(grade) {
  for (const element of svgRoot.querySelectorAll(".ok, .wrong, .missed, .missing, .first-mistake")) {
    element.classList.remove("ok", "wrong", "missed", "missing", "first-mistake");
  }
  const inputOf = (name) => svgRoot.querySelector(`input[data-node-value="${CSS.escape(name)}"]`);
  const edgeOf = (name) => svgRoot.querySelector(`[data-cut="${CSS.escape(name)}"]`);
  // The marks the student gave, each right or wrong.
  let right = 0;
  for (const mark of grade.marks || []) {
    if (mark.ok) right += 1;
    const element = mark.kind === "value" ? inputOf(mark.node) : edgeOf(mark.node);
    if (element) element.classList.add(mark.ok ? "ok" : "wrong");
  }
  // The marks that are missing: a visited node without a value, a pruned branch not marked.
  const mistakes = grade.mistakes || (grade.first_mistake ? [grade.first_mistake] : []);
  for (const mistake of mistakes) {
    if (mistake.given !== null && mistake.given !== undefined) continue;
    const element = mistake.kind === "value" ? inputOf(mistake.node) : edgeOf(mistake.node);
    if (element) element.classList.add(mistake.kind === "value" ? "missing" : "missed");
  }
  const feedback = $("feedback");
  const mistake = grade.first_mistake;
  if (grade.correct || !mistake) {
    feedback.className = "feedback correct";
    feedback.textContent = `All right: ${right} marks, no mistake, nothing missing.`;
    setStatus("exercise solved", "ok");
    return;
  }
  const node = svgRoot.querySelector(`[data-node="${CSS.escape(mistake.node)}"]`);
  if (node) {
    node.classList.add("first-mistake");
    showInBox(node);
  }
  const edge = mistake.kind === "cut" ? edgeOf(mistake.node) : null;
  if (edge) edge.classList.add("first-mistake");
  let what;
  if (mistake.kind === "cut") {
    what = mistake.expected === "cut" ? "this branch is pruned: cross it out" : "this branch is not pruned";
  } else if (mistake.expected === null || mistake.expected === undefined) {
    what = `a pruned node has no value (you wrote ${formatValue(mistake.given)})`;
  } else {
    const given = mistake.given === null || mistake.given === undefined ? "nothing" : formatValue(mistake.given);
    what = `expected ${formatValue(mistake.expected)}, you wrote ${given}`;
  }
  feedback.className = "feedback mistake";
  feedback.replaceChildren();
  const head = document.createElement("strong");
  head.textContent = `First mistake at ${mistake.node} (${mistake.kind}): `;
  const rule = document.createElement("div");
  rule.className = "rule";
  rule.textContent = mistake.rule || "";
  const count = document.createElement("div");
  count.className = "small muted";
  count.textContent = `${right} mark${right === 1 ? "" : "s"} right; ${mistakes.length} mistake${mistakes.length === 1 ? "" : "s"} (wrong or missing).`;
  feedback.append(head, document.createTextNode(`${what}.`), rule, count);
  setStatus(`${mistakes.length} mistake${mistakes.length === 1 ? "" : "s"} to fix, first at ${mistake.node}`, "error");
}

function solveExercise() {
  if (!view.exercise) return;
  const text = view.exercise.text;
  if (!text) {
    setStatus("this exercise came without its tree text", "error");
    return;
  }
  $("tree-text").value = text;
  $("example").value = "";
  $("algorithm").value = "alphabeta";
  loadTree();
}

// ---------------------------------------------------------------- import / export

function exportTree() {
  const text = $("tree-text").value;
  downloadText("tree.tree", text.endsWith("\n") ? text : `${text}\n`);
  setStatus("tree.tree saved", "ok");
}

function exportSvg() {
  if (!view.root) return;
  downloadText("tree.svg", svgText(svgRoot), "image/svg+xml");
  setStatus("tree.svg saved", "ok");
}

function importTree(event) {
  const file = event.target.files && event.target.files[0];
  if (!file) return;
  file.text().then((text) => {
    $("tree-text").value = text;
    event.target.value = "";
    loadTree();
  });
}

// ---------------------------------------------------------------- wiring

function init() {
  initPage();
  const select = $("example");
  EXAMPLES.forEach((example, i) => {
    const option = document.createElement("option");
    option.value = String(i);
    option.textContent = example.title;
    select.append(option);
  });
  const own = document.createElement("option");
  own.value = "";
  own.textContent = "(your own tree or the exercise)";
  select.append(own);
  $("tree-text").value = EXAMPLES[0].text;
  $("tree-text").addEventListener("input", () => {
    select.value = "";
  });
  select.addEventListener("change", () => {
    if (select.value === "") return;
    $("tree-text").value = EXAMPLES[Number(select.value)].text;
    loadTree();
  });
  $("load").addEventListener("click", loadTree);
  $("algorithm").addEventListener("change", () => {
    if (view.mode === "search") loadTree();
  });
  $("step").addEventListener("click", () => {
    stopTimer();
    stepOnce();
  });
  $("back").addEventListener("click", () => {
    stopTimer();
    goTo(view.index - 1);
  });
  $("reset").addEventListener("click", () => {
    stopTimer();
    goTo(0);
    setStatus("back at the start", "info");
  });
  $("run").addEventListener("click", () => {
    stopTimer();
    goTo(view.steps.length);
  });
  $("play-pause").addEventListener("click", togglePlay);
  // Keys: → one step, ← one step back (not while typing).
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, textarea, select") || event.ctrlKey || event.metaKey || event.altKey) return;
    const button = { ArrowRight: "step", ArrowLeft: "back" }[event.key];
    if (!button || $(button).disabled) return;
    event.preventDefault();
    $(button).click();
  });
  $("speed").addEventListener("input", restartTimerIfPlaying);
  $("export").addEventListener("click", exportTree);
  $("export-svg").addEventListener("click", exportSvg);
  $("import").addEventListener("change", importTree);
  $("fit").addEventListener("change", () => {
    // Scale the drawing (inputs and marks stay as they are: only the size changes).
    const box = svgRoot.viewBox.baseVal;
    if (view.root && box && box.width) sizeSvg(svgRoot, box.width, box.height, $("fit").checked);
  });
  $("new-exercise").addEventListener("click", newExercise);
  $("check").addEventListener("click", checkExercise);
  $("solve").addEventListener("click", solveExercise);
  updateStepper();
  mountAStarExercise($("astar-exercise"));
  loadTree();
}

init();
