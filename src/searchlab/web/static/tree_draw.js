// Tree layout and SVG drawing shared by the Trees and Monte Carlo labs (plain ES module).
//
//   import { layoutTree, drawNodeShape, sizeSvg, formatValue, clearSvg } from "/static/tree_draw.js";
//
// layoutTree(root, options) places a tree top-down: leaves side by side in their order, every
// inner node centred over its first and last child (the classic layered drawing of textbook
// game trees: no two nodes overlap, children keep their left-to-right order).

import { svg } from "/static/common.js";

/**
 * Place every node of a tree.
 *
 * @param root the root node object
 * @param options.children (node) -> array of the child objects to draw (default node.children)
 * @param options.leafGap horizontal distance between neighbouring leaves (px)
 * @param options.levelGap vertical distance between levels (px)
 * @param options.margin space around the drawing (px)
 * @returns {{nodes: Array<{node, x, y, depth, parent, index}>, byNode: Map, width, height}}
 *   nodes in pre-order (a parent before its children); parent is the parent's entry or null.
 */
export function layoutTree(root, options = {}) {
  const childrenOf = options.children || ((node) => node.children || []);
  const leafGap = options.leafGap ?? 48;
  const levelGap = options.levelGap ?? 72;
  const margin = options.margin ?? 32;
  const nodes = [];
  const byNode = new Map();
  let nextLeaf = 0;
  let maxDepth = 0;

  function place(node, depth, parent, index) {
    const entry = { node, depth, parent, index, x: 0, y: margin + depth * levelGap, children: [] };
    nodes.push(entry);
    byNode.set(node, entry);
    maxDepth = Math.max(maxDepth, depth);
    const kids = childrenOf(node);
    if (!kids || kids.length === 0) {
      entry.x = margin + nextLeaf * leafGap;
      nextLeaf += 1;
    } else {
      kids.forEach((child, i) => entry.children.push(place(child, depth + 1, entry, i)));
      const first = entry.children[0];
      const last = entry.children[entry.children.length - 1];
      entry.x = (first.x + last.x) / 2;
    }
    return entry;
  }

  place(root, 0, null, 0);
  const width = 2 * margin + Math.max(0, nextLeaf - 1) * leafGap;
  const height = 2 * margin + maxDepth * levelGap;
  return { nodes, byNode, width, height };
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
