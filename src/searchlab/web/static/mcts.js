// Monte Carlo lab: the four phases of MCTS (selection, expansion, playout, backup) stepped one at
// a time on Nim or tic-tac-toe, then run freely while the visit counts converge.
//
// One POST /api/mcts/steps gives every simulation of one reference-tier MCTS run, read from the
// library's observer events (Select, Visit, Playout, Backup). The page replays them: it grows
// its own copy of the tree from the expansions and sets each node's visits and mean from the
// backups, so what it draws after k simulations is the library's tree after k simulations.
// The UCB1 values of the children that were *not* chosen are computed here from those counts,
// with the library's formula (W/N + c * sqrt(2 ln N_parent / N), an untried child infinite).

import { $, readOrReport, postJSON, setStatus, initPage, el, svg } from "/static/common.js";
import { layoutTree, clearSvg, sizeSvg, formatValue, toNumber, addTitle, textBox } from "/static/tree_draw.js";

const svgRoot = $("mcts-tree");
const PHASES = ["selection", "expansion", "playout", "backup"];

const lab = {
  data: null,
  sims: [],
  total: 0,
  c: 1,
  rootPlayer: 0,
  root: null,
  nodes: new Map(),
  done: 0, // simulations whose backup has been applied
  active: -1, // the simulation shown (in progress, or the one just backed up)
  phase: null,
  counts: { select: 0, expand: 0, playout: 0, backup: 0 },
  lastBackup: null, // {key: {visits, value}} before the shown backup
  timer: null,
  lastTick: 0,
  credit: 0,
  loading: false,
  requestId: 0,
  actionOf: new Map(),
  puct: false,
};

// ---------------------------------------------------------------- the replayed tree

// A node is named by its path from the root: the labels of the moves (as the API gives them).
const keyOf = (path) => path.map(String).join(" ");

function makeNode(path, label, parent) {
  const key = keyOf(path);
  const node = {
    path: [...path],
    key,
    label: label ?? (path.length ? String(path[path.length - 1]) : "root"),
    action: lab.actionOf.get(key) ?? null,
    depth: path.length,
    parent,
    children: [],
    visits: 0,
    value: 0, // mean return for the first player (player 0)
    born: lab.active,
  };
  lab.nodes.set(node.key, node);
  if (parent) {
    parent.children.push(node);
    parent.children.sort((a, b) => compareActions(a.action, b.action));
  }
  return node;
}

/** Children in the game's action order (the labels' order when an action is unknown). */
function compareActions(a, b) {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "number") return -1;
  if (typeof b === "number") return 1;
  return 0;
}

/** The node at a path, made (with its ancestors) if the replay has not seen it yet. */
function nodeAt(path, label) {
  const key = keyOf(path);
  if (lab.nodes.has(key)) return lab.nodes.get(key);
  const parent = nodeAt(path.slice(0, -1));
  return makeNode(path, label ?? String(path[path.length - 1]), parent);
}

/** The action number of every move the selections scored (to keep children in game order). */
function indexActions() {
  lab.actionOf = new Map();
  for (const sim of lab.sims) {
    for (const sel of sim.select || []) {
      for (const child of sel.children || [sel]) {
        if (child.label !== undefined) lab.actionOf.set(keyOf([...sel.path, child.label]), child.action);
      }
    }
  }
}

/** Who moves at a node: Nim and tic-tac-toe alternate, starting from the root's player. */
function playerAt(node) {
  return (lab.rootPlayer + node.depth) % 2;
}

/** A child's mean seen by the player who chose it (its parent's player to move). */
function chooserMean(child) {
  const chooser = playerAt(child.parent);
  return chooser === 0 ? child.value : -child.value;
}

/** UCB1 of a child as the library scores it; untried: Infinity. */
function ucb1(child) {
  if (!child.visits) return Infinity;
  const parentVisits = child.parent.visits;
  const explore = parentVisits > 1 ? lab.c * Math.sqrt(2 * Math.log(parentVisits)) : 0;
  return chooserMean(child) + explore / Math.sqrt(child.visits);
}

function resetReplay() {
  lab.nodes = new Map();
  lab.active = -1;
  lab.root = makeNode([], "root", null);
  lab.done = 0;
  lab.phase = null;
  lab.counts = { select: 0, expand: 0, playout: 0, backup: 0 };
  lab.lastBackup = null;
}

// ---------------------------------------------------------------- the phases

/** The path of the simulation's leaf: where its selection ended. */
function simLeafPath(sim) {
  if (sim.expand && sim.expand.path) return sim.expand.path;
  const selects = sim.select || [];
  if (selects.length) {
    const last = selects[selects.length - 1];
    return [...last.path, last.label];
  }
  if (sim.playout && sim.playout.path) return sim.playout.path;
  return [];
}

function applyPhase(phase) {
  const sim = lab.sims[lab.active];
  if (phase === "selection") {
    lab.counts.select += (sim.select || []).length;
    // the nodes selected through exist already (the last one may be the new one)
  } else if (phase === "expansion") {
    if (sim.expand) {
      nodeAt(sim.expand.path, sim.expand.label);
      lab.counts.expand += 1;
    }
  } else if (phase === "playout") {
    nodeAt(simLeafPath(sim));
    lab.counts.playout += 1;
  } else if (phase === "backup") {
    const before = new Map();
    for (const entry of sim.backup || []) {
      const node = nodeAt(entry.path);
      before.set(node.key, { visits: node.visits, value: node.value });
      node.visits = entry.visits;
      node.value = toNumber(entry.value) ?? 0;
    }
    lab.lastBackup = before;
    lab.counts.backup += (sim.backup || []).length;
    lab.done += 1;
  }
  lab.phase = phase;
}

/** One phase forward; false when every simulation is done. */
function stepPhase() {
  if (lab.phase === null || lab.phase === "backup") {
    if (lab.done >= lab.total) return false;
    lab.active = lab.done;
    applyPhase("selection");
    return true;
  }
  applyPhase(PHASES[PHASES.indexOf(lab.phase) + 1]);
  return true;
}

/** To the end of the current simulation (or through the next one); false when all are done. */
function stepSimulation() {
  if (lab.phase === null || lab.phase === "backup") {
    if (!stepPhase()) return false;
  }
  while (lab.phase !== "backup") stepPhase();
  return true;
}

// ---------------------------------------------------------------- drawing

function visibleNodes() {
  const budget = Number($("budget").value) || 30;
  const maxDepth = Number($("depth").value) || 3;
  const shown = new Set([lab.root]);
  let frontier = [...lab.root.children];
  while (shown.size < budget && frontier.length) {
    let best = 0;
    for (let i = 1; i < frontier.length; i += 1) {
      if (frontier[i].visits > frontier[best].visits) best = i;
    }
    const node = frontier[best];
    frontier.splice(best, 1);
    if (node.depth > maxDepth) continue;
    shown.add(node);
    frontier = frontier.concat(node.children);
  }
  // The current simulation's path is always drawn.
  if (lab.active >= 0 && lab.phase) {
    for (const node of currentPath()) shown.add(node);
  }
  return shown;
}

/** The nodes of the shown simulation's path that exist now, root first. */
function currentPath() {
  if (lab.active < 0 || !lab.phase) return [];
  const sim = lab.sims[lab.active];
  const path = simLeafPath(sim);
  const nodes = [lab.root];
  for (let i = 1; i <= path.length; i += 1) {
    const node = lab.nodes.get(keyOf(path.slice(0, i)));
    if (!node) break;
    nodes.push(node);
  }
  return nodes;
}

function radius(node) {
  const total = Math.max(1, lab.root.visits);
  return 7 + 15 * Math.sqrt(Math.min(1, node.visits / total));
}

// The drawing's geometry (px). A node's move label sits above its shape, its statistics below;
// between two levels a band holds the chosen edge's UCB badge, clear of every label.
const MAX_RADIUS = 22;
const LEVEL_GAP = 124;
const MOVE_DY = 9; // from the shape's top to the move label's centre
const STATS_DY = 12; // from the shape's bottom to the first statistics line's centre
const LINE_GAP = 15; // between the two statistics lines
const NODE_GAP = 12; // between two neighbours' widest labels
const BADGE = { width: 72, height: 18 };
const PLAYOUT = { width: 48, height: 20 };

/** What a node shows: its move above, and its statistics lines below. */
function nodeLabels(node) {
  const move = node === lab.root ? "root" : node.label;
  if (node.playout) return { move: null, stats: [] };
  if (node.ghost) return { move, stats: ["untried"] };
  const stats = [`n ${node.visits}`];
  if (node !== lab.root && node.visits) stats.push(`q ${formatValue(chooserMean(node), 2)}`);
  else if (node === lab.root && node.visits) stats.push(`v ${formatValue(node.value, 2)}`);
  return { move, stats };
}

/** The room a node takes on its level: its shape and its widest label. */
function nodeWidth(node) {
  if (node.playout) return PLAYOUT.width + NODE_GAP;
  const { move, stats } = nodeLabels(node);
  const r = node.ghost ? 9 : radius(node);
  let width = 2 * r;
  if (move) width = Math.max(width, textBox(svgRoot, move, "move", 12).width);
  for (const line of stats) width = Math.max(width, textBox(svgRoot, line, "stats", 11).width);
  return width + NODE_GAP;
}

function draw() {
  clearSvg(svgRoot);
  if (!lab.data) return;
  const shown = visibleNodes();
  const sim = lab.active >= 0 ? lab.sims[lab.active] : null;
  const phase = lab.phase;
  // During selection the new child is not in the tree yet: draw it as a ghost.
  let ghost = null;
  if (sim && phase === "selection" && sim.expand) {
    const parent = lab.nodes.get(keyOf(sim.expand.path.slice(0, -1)));
    if (parent && !lab.nodes.has(keyOf(sim.expand.path))) {
      const key = keyOf(sim.expand.path);
      ghost = { ghost: true, path: sim.expand.path, label: sim.expand.label, depth: parent.depth + 1, parent, children: [], visits: 0, value: 0, action: lab.actionOf.get(key) ?? null };
    }
  }
  // During the playout its result hangs below the leaf, as a child in the layout (so it has
  // room on the level below).
  let playout = null;
  if (sim && phase === "playout") {
    const leaf = lab.nodes.get(keyOf(simLeafPath(sim)));
    if (leaf && shown.has(leaf)) playout = { playout: true, parent: leaf, children: [], value: toNumber(sim.playout && sim.playout.value) };
  }
  const childrenOf = (node) => {
    if (playout && node === playout.parent) return [playout];
    const kids = node.children.filter((child) => shown.has(child));
    if (ghost && node === ghost.parent) {
      kids.push(ghost);
      kids.sort((a, b) => compareActions(a.action, b.action));
    }
    return kids;
  };
  const placed = layoutTree(lab.root, { children: childrenOf, nodeWidth, gap: 0, levelGap: LEVEL_GAP, margin: 40 });
  const width = placed.width;
  const height = placed.height + 10;
  const box = $("tree-scroll");
  const fit = width > box.clientWidth && width * 0.7 <= box.clientWidth;
  sizeSvg(svgRoot, width, height, fit);

  const pathNodes = new Set(currentPath());
  if (ghost) pathNodes.add(ghost);
  const selected = new Map(); // child key -> the select entry that chose it
  if (sim) for (const sel of sim.select || []) selected.set(keyOf([...sel.path, sel.label]), sel);
  const total = Math.max(1, lab.root.visits);
  const edges = svg("g", { class: "edges" });
  const labels = svg("g", { class: "edge-labels" });
  const nodesGroup = svg("g", { class: "nodes" });
  svgRoot.append(edges, nodesGroup, labels);

  for (const entry of placed.nodes) {
    const node = entry.node;
    if (node.playout) {
      drawPlayout(entry, labels);
      continue;
    }
    const key = node.ghost ? keyOf(node.path) : node.key;
    const onPath = pathNodes.has(node) && phase !== null;
    const r = node.ghost ? 9 : radius(node);
    const { move, stats } = nodeLabels(node);
    if (entry.parent) {
      const strokeWidth = node.ghost ? 1.5 : 1 + 9 * (node.visits / total);
      const classes = ["edge"];
      if (onPath) classes.push(phase === "backup" ? "backed" : "on-path");
      if (node.ghost) classes.push("ghost");
      // From below the parent's labels to above the child's move label.
      const parentNode = entry.parent.node;
      const parentR = parentNode.ghost ? 9 : radius(parentNode);
      const x1 = entry.parent.x;
      const y1 = entry.parent.y + parentR + STATS_DY + LINE_GAP * Math.max(0, nodeLabels(parentNode).stats.length - 1) + 8;
      const x2 = entry.x;
      const y2 = entry.y - r - MOVE_DY - 9;
      edges.append(svg("line", {
        x1, y1, x2, y2,
        class: classes.join(" "), "stroke-width": strokeWidth.toFixed(2), "data-edge": key,
      }));
      // During selection, the UCB1 of the chosen edge on its label, in the band between the
      // levels (below the deepest statistics, above the highest move label).
      if (phase === "selection" && selected.has(key)) {
        const sel = selected.get(key);
        const value = sel.ucb !== undefined ? sel.ucb : node.ghost ? "inf" : ucb1(node);
        const top = entry.parent.y + MAX_RADIUS + STATS_DY + LINE_GAP + 8;
        const bottom = entry.y - MAX_RADIUS - MOVE_DY - 8;
        const by = (top + bottom) / 2;
        const bx = x1 + ((x2 - x1) * (by - y1)) / (y2 - y1 || 1);
        const text = `${lab.puct ? "PUCT" : "UCB"} ${formatValue(value, 3)}`;
        const badge = svg("g", { class: "ucb-label", "data-label": `ucb ${key}` });
        const w = Math.max(BADGE.width, textBox(svgRoot, text, "ucb-text", 10.5).width + 12);
        badge.append(svg("rect", { x: bx - w / 2, y: by - BADGE.height / 2, width: w, height: BADGE.height, rx: 9, class: "ucb-badge" }));
        badge.append(svg("text", { x: bx, y: by, class: "ucb-text" }, text));
        labels.append(badge);
      }
    }
    const player = node.ghost ? playerAt(node.parent) ^ 1 : playerAt(node);
    const classes = ["node", `p${player}`];
    if (node.ghost) classes.push("ghost");
    if (onPath) classes.push(phase === "backup" ? "backed" : "on-path");
    if (!node.ghost && phase === "expansion" && sim && sim.expand && keyOf(sim.expand.path) === node.key) {
      classes.push("new");
    }
    const group = svg("g", { class: classes.join(" "), "data-node": key });
    if (player === 0) {
      group.append(svg("rect", { x: entry.x - r, y: entry.y - r, width: 2 * r, height: 2 * r, rx: 3, class: "shape" }));
    } else {
      group.append(svg("circle", { cx: entry.x, cy: entry.y, r, class: "shape" }));
    }
    if (classes.includes("new")) {
      group.append(svg("circle", { cx: entry.x, cy: entry.y, r: r + 7, class: "new-ring" }));
    }
    group.append(svg("text", { x: entry.x, y: entry.y - r - MOVE_DY, class: "move", "data-label": `move ${key}` }, move));
    stats.forEach((line, i) => {
      const y = entry.y + r + STATS_DY + i * LINE_GAP;
      group.append(svg("text", { x: entry.x, y, class: i ? "stats mean" : "stats", "data-label": `stats ${key} ${i}` }, line));
    });
    const tip = node.ghost
      ? `${node.label}: not in the tree yet (UCB1 ∞: untried)`
      : node === lab.root
        ? `root: ${node.visits} visits, mean ${formatValue(node.value, 3)} for the first player`
        : `${pathLabel(node)}: ${node.visits} visits, mean ${formatValue(chooserMean(node), 3)} for the player who chose it` +
          (lab.puct ? "" : `, UCB1 ${formatValue(ucb1(node), 3)}`);
    addTitle(group, tip);
    nodesGroup.append(group);
  }
}

/** The playout's result below its leaf: a wavy line down to a badge on the level below. */
function drawPlayout(entry, layer) {
  const leaf = entry.parent;
  const value = entry.node.value;
  const r = radius(leaf.node);
  const y0 = leaf.y + r + STATS_DY + LINE_GAP * Math.max(0, nodeLabels(leaf.node).stats.length - 1) + 8;
  const y1 = entry.y - PLAYOUT.height / 2 - 2;
  const points = [];
  const waves = 6;
  for (let i = 0; i <= waves; i += 1) points.push(`${entry.x + (i % 2 ? 6 : -6)},${y0 + ((y1 - y0) * i) / waves}`);
  layer.append(svg("polyline", { points: points.join(" "), class: "playout-line" }));
  const text = `${value > 0 ? "+" : ""}${formatValue(value, 2)}`;
  const badge = svg("g", { class: "playout-label", "data-label": "playout" });
  badge.append(svg("rect", {
    x: entry.x - PLAYOUT.width / 2, y: entry.y - PLAYOUT.height / 2, width: PLAYOUT.width, height: PLAYOUT.height, rx: 4,
    class: `playout-badge ${value > 0 ? "win" : value < 0 ? "loss" : "draw"}`,
  }));
  badge.append(svg("text", { x: entry.x, y: entry.y, class: "playout-text" }, text));
  layer.append(badge);
}

function pathLabel(node) {
  const labels = [];
  for (let n = node; n && n.parent; n = n.parent) labels.unshift(n.label);
  return labels.join(" ");
}

// ---------------------------------------------------------------- the side panels

function playerName(player) {
  return $("game").value === "tictactoe" ? (player === 0 ? "X" : "O") : `player ${player + 1}`;
}

function selectionDetail(sim) {
  const box = el("div");
  (sim.select || []).forEach((sel, level) => {
    const parent = lab.nodes.get(keyOf(sel.path));
    if (!parent) return;
    const chosenKey = keyOf([...sel.path, sel.label]);
    const where = parent === lab.root ? "root" : pathLabel(parent);
    box.append(el("div", { class: "level-title" },
      `${level + 1}. at ${where} (${playerName(playerAt(parent))} to move, N = ${parent.visits})`));
    const table = el("table", { class: "ucb-table" });
    table.append(el("tr", {}, el("th", {}, "move"), el("th", {}, "n"), el("th", {}, "mean"), el("th", {}, lab.puct ? "PUCT" : "UCB1")));
    // The server scores every legal move (untried ones too); else score the tree's children.
    const rows = sel.children
      ? sel.children.map((child) => ({
          key: keyOf([...sel.path, child.label]), label: child.label, n: child.visits,
          mean: child.visits ? formatValue(child.mean, 3) : "–", ucb: child.ucb, untried: !child.visits,
        }))
      : parent.children.map((child) => ({
          key: child.key, label: child.label, n: child.visits,
          mean: child.visits ? formatValue(chooserMean(child), 3) : "–", ucb: ucb1(child),
        }));
    if (!rows.some((row) => row.key === chosenKey)) {
      rows.push({ key: chosenKey, label: sel.label ?? String(sel.action), n: 0, mean: "–", ucb: Infinity, untried: true });
    }
    for (const row of rows) {
      const chosen = row.key === chosenKey;
      const ucb = chosen && sel.ucb !== undefined ? sel.ucb : row.ucb;
      const tr = el("tr", { class: chosen ? "chosen" : null },
        el("td", {}, `${row.label}${row.untried ? " (untried)" : ""}`), el("td", {}, row.n),
        el("td", {}, row.mean), el("td", {}, formatValue(ucb, 3)));
      table.append(tr);
    }
    box.append(table);
  });
  box.append(el("p", { class: "small muted" }, lab.puct
    ? "The highest PUCT score is followed (ties: the first in the node's order)."
    : "The highest UCB1 is followed; an untried child scores ∞ (untried children are taken in the node's shuffled order)."));
  return box;
}

function showDetail() {
  const detail = $("detail");
  detail.replaceChildren();
  const sim = lab.active >= 0 ? lab.sims[lab.active] : null;
  if (!sim || !lab.phase) {
    detail.append(el("p", { class: "muted" }, lab.total
      ? "Press “Next phase” to watch the first simulation's selection."
      : "No search yet."));
    return;
  }
  const number = lab.active + 1;
  detail.append(el("div", { class: "detail-head" }, `Simulation ${number}: ${lab.phase}`));
  if (lab.phase === "selection") {
    detail.append(selectionDetail(sim));
  } else if (lab.phase === "expansion") {
    if (sim.expand) {
      detail.append(el("p", {}, `New node `, el("strong", {}, sim.expand.label ?? "?"),
        ` added below ${sim.expand.path.length > 1 ? pathLabel(nodeAt(sim.expand.path.slice(0, -1))) : "the root"}: the first step out of the tree.`));
    } else {
      detail.append(el("p", {}, "No new node: the selection ended at a terminal (or proven) node already in the tree."));
    }
  } else if (lab.phase === "playout") {
    const playout = sim.playout || {};
    const value = toNumber(playout.value);
    const leaf = nodeAt(simLeafPath(sim));
    const plies = playout.plies !== undefined && playout.plies !== null ? ` after ${playout.plies} random plies` : "";
    detail.append(el("p", {}, `Random playout from ${leaf === lab.root ? "the root" : pathLabel(leaf)}${plies}: result `,
      el("strong", {}, `${value > 0 ? "+" : ""}${formatValue(value, 3)}`), ` for ${playerName(0)}.`));
  } else if (lab.phase === "backup") {
    detail.append(el("p", {}, "The result goes back up the path; every node on it gains a visit:"));
    const table = el("table", { class: "ucb-table" });
    table.append(el("tr", {}, el("th", {}, "node"), el("th", {}, "visits"), el("th", {}, "mean (first player)")));
    for (const entry of sim.backup || []) {
      const node = lab.nodes.get(keyOf(entry.path));
      if (!node) continue;
      const before = lab.lastBackup && lab.lastBackup.get(node.key);
      table.append(el("tr", {},
        el("td", {}, node === lab.root ? "root" : pathLabel(node)),
        el("td", {}, before ? `${before.visits} → ${node.visits}` : node.visits),
        el("td", {}, before ? `${formatValue(before.value, 3)} → ${formatValue(node.value, 3)}` : formatValue(node.value, 3))));
    }
    detail.append(table);
  }
}

function showCounts() {
  $("phase").textContent = lab.phase ?? "–";
  $("sim-count").textContent = String(lab.done);
  $("sim-total").textContent = String(lab.total);
  for (const [name, value] of Object.entries(lab.counts)) $(`count-${name}`).textContent = String(value);
  for (const pill of document.querySelectorAll(".phase-pills [data-phase]")) {
    pill.classList.toggle("active", pill.dataset.phase === lab.phase);
  }
  const finished = lab.done >= lab.total && (lab.phase === null || lab.phase === "backup");
  const ready = !lab.loading && lab.total > 0;
  $("step-phase").disabled = !ready || finished;
  $("step-simulation").disabled = !ready || finished;
  $("finish").disabled = !ready || finished;
  $("run").disabled = !ready || (finished && !lab.timer);
  $("run").textContent = lab.timer ? "Pause" : "Run";
}

function render() {
  draw();
  showCounts();
  if (!lab.timer) showDetail();
  else {
    const detail = $("detail");
    detail.replaceChildren(el("p", { class: "muted" }, `running: ${lab.done} of ${lab.total} simulations`), rootSummary());
  }
  if (lab.done >= lab.total && lab.total && lab.phase === "backup") {
    const best = [...lab.root.children].sort((a, b) => b.visits - a.visits)[0];
    const check = compareWithFinalTree();
    $("tree-check").textContent = check ? `Replay check: ${check}.` : "";
    setStatus(`done: ${lab.total} simulations; most visited move ${best ? best.label : "–"} (${best ? best.visits : 0} visits)`,
      check.startsWith("differs") ? "error" : "ok");
  }
}

/**
 * Compare the replayed tree with the library's final tree as the server sent it (to its
 * depth): the same visit counts at every node it lists. Returns a short verdict (or "").
 */
function compareWithFinalTree() {
  const final = lab.data && lab.data.tree;
  if (!final || final.visits === undefined) return "";
  let compared = 0;
  const walk = (reference, path) => {
    const node = lab.nodes.get(keyOf(path));
    const visits = node ? node.visits : 0;
    if (visits !== reference.visits) return `${path.length ? path.join(" ") : "root"}: ${visits} here, ${reference.visits} in the library`;
    compared += 1;
    for (const child of reference.children || []) {
      const problem = walk(child, [...path, child.label]);
      if (problem) return problem;
    }
    return "";
  };
  const problem = walk(final, []);
  return problem ? `differs from the library's final tree (${problem})` : `the same visits as the library's final tree (${compared} nodes)`;
}

/** The root's children, most visited first: visits and mean, to watch them converge. */
function rootSummary() {
  const table = el("table", { class: "ucb-table" });
  table.append(el("tr", {}, el("th", {}, "move"), el("th", {}, "visits"), el("th", {}, "mean")));
  const kids = [...lab.root.children].sort((a, b) => b.visits - a.visits).slice(0, 9);
  for (const child of kids) {
    table.append(el("tr", {}, el("td", {}, child.label), el("td", {}, child.visits),
      el("td", {}, formatValue(chooserMean(child), 3))));
  }
  return table;
}

// ---------------------------------------------------------------- controls

function stopRun() {
  if (lab.timer) clearInterval(lab.timer);
  lab.timer = null;
}

function simsPerSecond() {
  const v = Number($("speed").value);
  return Math.max(1, Math.round(10 ** (v / 40)));
}

function showSpeed() {
  $("speed-label").textContent = `${simsPerSecond()} simulations/s`;
}

function toggleRun() {
  if (lab.timer) {
    stopRun();
    render();
    return;
  }
  lab.lastTick = performance.now();
  lab.credit = 1;
  setStatus(`running at ${simsPerSecond()} simulations/s`, "busy");
  lab.timer = setInterval(() => {
    const now = performance.now();
    lab.credit += ((now - lab.lastTick) / 1000) * simsPerSecond();
    lab.lastTick = now;
    let moved = false;
    while (lab.credit >= 1) {
      lab.credit -= 1;
      if (!stepSimulation()) {
        stopRun();
        break;
      }
      moved = true;
    }
    if (moved || !lab.timer) render();
  }, 60);
  render();
}

function readRequest() {
  const game = $("game").value;
  const params = {};
  if (game === "nim") {
    const piles = $("piles").value.split(/[\s,]+/).filter(Boolean).map(Number);
    if (!piles.length || piles.some((p) => !Number.isInteger(p) || p < 0)) {
      throw new Error("piles: whole numbers separated by commas, like 2,3,4");
    }
    params.piles = piles;
  }
  const moves = $("moves").value.split(/\s+/).filter(Boolean);
  const simulations = Number($("simulations").value);
  const c = Number($("c").value);
  const seed = Number($("seed").value);
  if (!Number.isInteger(simulations) || simulations < 1) throw new Error("simulations: a whole number from 1");
  if (!Number.isFinite(c) || c < 0) throw new Error("c: a number >= 0");
  if (!Number.isInteger(seed)) throw new Error("seed: a whole number");
  return { game, params, moves, simulations, c, seed, puct: $("puct").checked };
}

/** Forget the last search (a new one failed: its error stays in the status line, alone). */
function forgetSearch() {
  lab.data = null;
  lab.sims = [];
  lab.total = 0;
  resetReplay();
  $("events").textContent = "";
  $("tree-check").textContent = "";
  render();
}

async function search() {
  stopRun();
  const id = (lab.requestId += 1);
  const request = readOrReport(readRequest);
  if (!request) {
    forgetSearch();
    return;
  }
  lab.loading = true;
  showCounts();
  setStatus(`searching: ${request.simulations} simulations of MCTS on ${request.game}…`, "busy");
  let data;
  try {
    data = await postJSON("/api/mcts/steps", request);
  } catch {
    lab.loading = false;
    if (id === lab.requestId) forgetSearch();
    return;
  } finally {
    if (id === lab.requestId) lab.loading = false;
  }
  if (id !== lab.requestId) return; // a newer search replaced this one
  lab.data = data;
  lab.sims = data.simulations || [];
  lab.total = lab.sims.length;
  lab.c = request.c;
  lab.puct = request.puct;
  lab.rootPlayer = request.moves.length % 2;
  indexActions();
  resetReplay();
  $("tree-check").textContent = "";
  const events = data.events || {};
  const listed = Object.entries(events).map(([k, v]) => `${k} ${v}`).join(", ");
  $("events").textContent = listed ? `the library's observer events: ${listed}` : "";
  render();
  setStatus(`${lab.total} simulations ready: step the phases or run`, "ok");
}

function init() {
  initPage();
  const syncGame = () => $("piles-field").classList.toggle("hidden", $("game").value !== "nim");
  syncGame();
  $("game").addEventListener("change", () => {
    syncGame();
    $("moves").value = "";
    search();
  });
  for (const id of ["piles", "moves", "simulations", "c", "seed"]) $(id).addEventListener("change", search);
  $("puct").addEventListener("change", () => {
    const puct = $("puct").checked;
    $("c-name").textContent = puct ? "c (PUCT)" : "c (UCB1)";
    $("rule-ucb").classList.toggle("hidden", puct);
    $("rule-puct").classList.toggle("hidden", !puct);
    search();
  });
  $("reset").addEventListener("click", search);
  $("step-phase").addEventListener("click", () => {
    stopRun();
    stepPhase();
    render();
  });
  $("step-simulation").addEventListener("click", () => {
    stopRun();
    stepSimulation();
    render();
  });
  $("finish").addEventListener("click", () => {
    stopRun();
    while (stepSimulation());
    render();
  });
  $("run").addEventListener("click", toggleRun);
  $("speed").addEventListener("input", showSpeed);
  $("budget").addEventListener("change", () => render());
  $("depth").addEventListener("change", () => render());
  window.addEventListener("resize", () => draw());
  // Keys: → or n the next phase, s a whole simulation, space run/pause (not while typing).
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, textarea, select") || event.ctrlKey || event.metaKey || event.altKey) return;
    const button = { ArrowRight: "step-phase", n: "step-phase", s: "step-simulation", " ": "run" }[event.key];
    if (!button || $(button).disabled) return;
    event.preventDefault();
    $(button).click();
  });
  showSpeed();
  resetReplay();
  render();
  search();
}

init();
