// Tree layout and SVG drawing shared by the Trees and Monte Carlo labs and the A* exercise
// (plain ES module).
//
//   import { layoutTree, drawNodeShape, sizeSvg, formatValue, clearSvg } from "/static/tree_draw.js";
//
// layoutTree(root, options) places a tree top-down: leaves side by side in their order, every
// inner node centred over its first and last child (the classic layered drawing of textbook
// game trees: no two nodes overlap, children keep their left-to-right order). With
// options.nodeWidth, each node takes the room its labels need: neighbours on a level are at
// least half of each one's width plus options.gap apart, so labels of the same level never
// overlap. textBox() measures a label as the page draws it; boxesOverlap() tells whether two
// boxes intersect (label placement).

import { svg } from "/static/common.js";

/**
 * Place every node of a tree.
 *
 * @param root the root node object
 * @param options.children (node) -> array of the child objects to draw (default node.children)
 * @param options.leafGap horizontal distance between neighbouring leaves (px) when no
 *   nodeWidth is given
 * @param options.nodeWidth (node) -> the width (px) a node needs on its level (optional)
 * @param options.gap the space between two neighbours' widths on a level (px, default 0)
 * @param options.levelGap vertical distance between levels (px)
 * @param options.margin space around the drawing (px)
 * @returns {{nodes: Array<{node, x, y, depth, parent, index}>, byNode: Map, width, height}}
 *   nodes in pre-order (a parent before its children); parent is the parent's entry or null.
 */
export function layoutTree(root, options = {}) {
  const childrenOf = options.children || ((node) => node.children || []);
  const leafGap = options.leafGap ?? 48;
  // Without nodeWidth every node is leafGap wide with no gap: leaves leafGap apart, as before.
  const widthOf = options.nodeWidth || (() => leafGap);
  const gap = options.nodeWidth ? (options.gap ?? 0) : 0;
  const levelGap = options.levelGap ?? 72;
  const margin = options.margin ?? 32;
  const nodes = [];
  const byNode = new Map();
  // The right edge so far of each level, and of the leaves (which stay in their order).
  const rightAt = [];
  let leafRight = -Infinity;
  let leaves = 0;
  let maxDepth = 0;

  const shift = (entry, dx) => {
    entry.x += dx;
    for (const child of entry.children) shift(child, dx);
  };
  // Record a (moved) subtree's right edges.
  const claim = (entry) => {
    const right = entry.x + entry.width / 2;
    rightAt[entry.depth] = Math.max(rightAt[entry.depth] ?? -Infinity, right);
    if (entry.children.length === 0) leafRight = Math.max(leafRight, right);
    for (const child of entry.children) claim(child);
  };

  function place(node, depth, parent, index) {
    const width = widthOf(node);
    const entry = { node, depth, parent, index, x: 0, y: margin + depth * levelGap, width, children: [] };
    nodes.push(entry);
    byNode.set(node, entry);
    maxDepth = Math.max(maxDepth, depth);
    const kids = childrenOf(node);
    if (!kids || kids.length === 0) {
      const after = Math.max(leafRight, rightAt[depth] ?? -Infinity);
      entry.x = leaves === 0 && after === -Infinity ? margin : after + gap + width / 2;
      leaves += 1;
      claim(entry);
      return entry;
    }
    kids.forEach((child, i) => entry.children.push(place(child, depth + 1, entry, i)));
    const first = entry.children[0];
    const last = entry.children[entry.children.length - 1];
    entry.x = (first.x + last.x) / 2;
    // Wider than its children's span: move the subtree right until it clears its level.
    const before = rightAt[depth] ?? -Infinity;
    const overlap = before + gap - (entry.x - width / 2);
    if (overlap > 0) shift(entry, overlap);
    claim(entry);
    return entry;
  }

  place(root, 0, null, 0);
  if (!options.nodeWidth) {
    const width = 2 * margin + Math.max(0, leaves - 1) * leafGap;
    return { nodes, byNode, width, height: 2 * margin + maxDepth * levelGap };
  }
  // From `margin` left of the leftmost node's room to `margin` right of the rightmost's.
  let left = Infinity;
  let right = -Infinity;
  for (const entry of nodes) {
    left = Math.min(left, entry.x - entry.width / 2);
    right = Math.max(right, entry.x + entry.width / 2);
  }
  for (const entry of nodes) entry.x += margin - left;
  return { nodes, byNode, width: 2 * margin + (right - left), height: 2 * margin + maxDepth * levelGap };
}

const measured = new Map();

/**
 * The size {width, height} (px) of `text` drawn as an SVG <text> with `className` inside
 * `parent` (an <svg>, so that the page's CSS for it applies). Sizes are kept per class and
 * text; when the svg is not rendered (hidden), an estimate from `fontSize`.
 */
export function textBox(parent, text, className, fontSize = 11) {
  const key = `${className}\u0000${text}`;
  if (measured.has(key)) return measured.get(key);
  const probe = svg("text", { class: className, x: 0, y: 0, visibility: "hidden" }, text);
  parent.append(probe);
  let box = null;
  try {
    const b = probe.getBBox();
    if (b.width > 0 && b.height > 0) box = { width: b.width, height: b.height };
  } catch {
    box = null;
  }
  probe.remove();
  if (box) {
    measured.set(key, box);
    return box;
  }
  return { width: 0.62 * fontSize * text.length, height: 1.25 * fontSize };
}

/** Whether boxes {x, y, width, height} a and b intersect (touching edges do not). */
export function boxesOverlap(a, b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Empty an SVG element. */
export function clearSvg(element) {
  while (element.firstChild) element.removeChild(element.firstChild);
}

/**
 * Give an SVG its drawing size. With fit=false it is drawn at natural size (its container
 * scrolls); with fit=true it scales down to its container's width (never up).
 */
export function sizeSvg(element, width, height, fit = false) {
  element.setAttribute("viewBox", `0 0 ${Math.ceil(width)} ${Math.ceil(height)}`);
  if (fit) {
    element.removeAttribute("width");
    element.removeAttribute("height");
    element.style.width = "100%";
    element.style.maxWidth = `${Math.ceil(width)}px`;
    element.style.height = "auto";
  } else {
    element.setAttribute("width", Math.ceil(width));
    element.setAttribute("height", Math.ceil(height));
    element.style.width = "";
    element.style.maxWidth = "";
    element.style.height = "";
  }
}

/**
 * The shape of a game-tree node, centred on (x, y): MAX a square, MIN a circle (the textbook
 * convention), a leaf a small rounded box. `size` is the square's side / circle's diameter.
 */
export function drawNodeShape(parent, player, x, y, size, attrs = {}) {
  let shape;
  if (player === "max") {
    shape = svg("rect", { x: x - size / 2, y: y - size / 2, width: size, height: size, ...attrs });
  } else if (player === "min") {
    shape = svg("circle", { cx: x, cy: y, r: size / 2, ...attrs });
  } else {
    const w = size * 1.1;
    const h = size * 0.8;
    shape = svg("rect", { x: x - w / 2, y: y - h / 2, width: w, height: h, rx: 4, ...attrs });
  }
  parent.append(shape);
  return shape;
}

/** A value from the API for people: numbers, "inf"/"-inf" as ∞/−∞, null as "". */
export function formatValue(value, digits = 2) {
  if (value === null || value === undefined) return "";
  if (value === "inf" || value === "Infinity" || value === Infinity) return "∞";
  if (value === "-inf" || value === "-Infinity" || value === -Infinity) return "−∞";
  const number = typeof value === "number" ? value : Number(value);
  if (!Number.isFinite(number)) return String(value);
  if (Number.isInteger(number)) return String(number);
  return number.toFixed(digits).replace(/0+$/, "").replace(/\.$/, "");
}

/** A value from the API as a JS number ("inf" -> Infinity); null stays null. */
export function toNumber(value) {
  if (value === null || value === undefined || value === "") return null;
  if (value === "inf" || value === "Infinity") return Infinity;
  if (value === "-inf" || value === "-Infinity") return -Infinity;
  const number = Number(value);
  return Number.isNaN(number) ? null : number;
}

/** An SVG <title> (the browser's hover tooltip) for an element. */
export function addTitle(element, text) {
  element.append(svg("title", {}, text));
  return element;
}

/** Save text as a file download. */
export function downloadText(filename, text, type = "text/plain") {
  const blob = new Blob([text], { type });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

const INLINE_STYLES = [
  "fill", "fill-opacity", "stroke", "stroke-width", "stroke-dasharray", "stroke-opacity",
  "opacity", "font-family", "font-size", "font-weight", "text-anchor", "dominant-baseline",
  "display", "visibility",
];

/**
 * The standalone SVG text of a drawn <svg> element (for "save SVG"): the page's CSS is copied
 * into style attributes, HTML inputs (foreignObject) are left out.
 */
export function svgText(element) {
  const copy = element.cloneNode(true);
  copy.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  const originals = [element, ...element.querySelectorAll("*")];
  const copies = [copy, ...copy.querySelectorAll("*")];
  originals.forEach((original, i) => {
    if (!(original instanceof SVGElement)) return;
    const computed = getComputedStyle(original);
    const style = INLINE_STYLES.map((name) => `${name}:${computed.getPropertyValue(name)}`).join(";");
    copies[i].setAttribute("style", style);
  });
  for (const foreign of copy.querySelectorAll("foreignObject")) foreign.remove();
  copy.setAttribute("style", "background:#fff");
  return new XMLSerializer().serializeToString(copy);
}
