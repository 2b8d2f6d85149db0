// Shared helpers of the searchlab pages (plain ES module, no build step).
//
//   import { getJSON, postJSON, setStatus, initPage, el, svg, SearchSocket } from "/static/common.js";
//
// - initPage(): reports uncaught errors in the status line. (The page's frame, the head and the
//   top bar with the nav and the status line, is the server's: templates/base.html.)
// - setStatus(text, kind): the one-line status (data-testid="status"); kind is "info", "busy",
//   "ok" or "error".
// - getJSON(url) / postJSON(url, body): fetch JSON; on an HTTP error the server's one line
//   {"error": "..."} goes to the status line and the promise rejects with an ApiError carrying it.
// - $(id): the element with that id; elementsById(ids): each of them by its id in camelCase
//   ("clear-walls" -> clearWalls), throwing on one the page lacks.
// - readOrReport(read): what read() returns, or null with its error in the status line.
// - el(tag, attrs, ...children) / svg(tag, attrs, ...children): small DOM builders.
// - SearchSocket: one search over the websocket /ws/search (start, live analysis, result,
//   cancel); the result's notes (a server cap that changed the search) go to showNotes(notes),
//   a line after the status line.

/** An error answered by the server: `message` is its one line. */
export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.name = "ApiError";
    this.status = status;
  }
}

function statusElement() {
  return document.querySelector('[data-testid="status"]');
}

/** Show one line in the status bar; kind: "info" | "busy" | "ok" | "error". */
export function setStatus(text, kind = "info") {
  const status = statusElement();
  if (!status) return;
  status.textContent = text;
  status.dataset.kind = kind;
}

/** Show the server's notes about a search's budget (each cap that changed it: "capped at
 * 5,000 simulations by the server (--max-simulations)") in a line after the status line
 * (data-testid="search-notes"), made on first use; no notes hide it. */
export function showNotes(notes) {
  let line = document.querySelector('[data-testid="search-notes"]');
  if (!line) {
    const status = statusElement();
    if (!status) return;
    line = el("div", { class: "status", "data-testid": "search-notes", "data-kind": "busy", style: "margin-left:0" });
    status.after(line);
  }
  const text = (notes || []).join("; ");
  line.textContent = text;
  line.title = text;
  line.hidden = !text;
}

/** Route uncaught errors (and rejected promises) to the status line. */
export function initPage() {
  window.addEventListener("unhandledrejection", (event) => {
    const reason = event.reason;
    setStatus(reason && reason.message ? reason.message : String(reason), "error");
    event.preventDefault();
  });
  window.addEventListener("error", (event) => {
    setStatus(event.message || "error", "error");
  });
}

/** The element with this id (null when there is none). */
export const $ = (id) => document.getElementById(id);

/** The elements of these ids, each under its id in camelCase ("clear-walls" -> clearWalls,
 * "weight-2" -> weight2); throws naming an id that no element of the page has. */
export function elementsById(ids) {
  const found = {};
  for (const id of ids) {
    const element = $(id);
    if (!element) throw new Error(`the page has no element #${id}`);
    found[id.replace(/-(\w)/g, (_, c) => c.toUpperCase())] = element;
  }
  return found;
}

/** What read() returns (a page reading its form), or null when it throws: its error's message
 * goes to the status line. */
export function readOrReport(read) {
  try {
    return read();
  } catch (error) {
    setStatus(error.message, "error");
    return null;
  }
}

async function readJSON(response) {
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    if (data && typeof data.error === "string") message = data.error;
    else if (data && data.detail) {
      message = typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail);
    }
    throw new ApiError(message, response.status);
  }
  return data;
}

async function request(url, options) {
  let response;
  try {
    response = await fetch(url, options);
  } catch (error) {
    const message = `cannot reach the server (${error.message})`;
    setStatus(message, "error");
    throw new ApiError(message, 0);
  }
  try {
    return await readJSON(response);
  } catch (error) {
    setStatus(error.message, "error");
    throw error;
  }
}

/** GET url and parse its JSON; an error line goes to the status bar and rejects. */
export function getJSON(url) {
  return request(url, { headers: { Accept: "application/json" } });
}

/** POST body as JSON to url and parse the JSON answer (errors as getJSON). */
export function postJSON(url, body) {
  return request(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
}

function build(element, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") element.textContent = value;
    else if (key.startsWith("on") && typeof value === "function") {
      element.addEventListener(key.slice(2), value);
    } else element.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** An HTML element: el("button", {"data-testid": "run", onclick: f}, "Run"). */
export function el(tag, attrs = {}, ...children) {
  return build(document.createElement(tag), attrs, children);
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** An SVG element: svg("rect", {x: 0, y: 0, width: 10, height: 10}). */
export function svg(tag, attrs = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** A number for people: integers with thin grouping, others with `digits` decimals. */
export function formatNumber(value, digits = 3) {
  if (value === null || value === undefined) return "–";
  if (typeof value === "string") return value;
  if (!Number.isFinite(value)) return value > 0 ? "∞" : value < 0 ? "−∞" : "NaN";
  if (Number.isInteger(value)) return value.toLocaleString("en-US");
  return value.toFixed(digits);
}

/** The websocket URL of a path on this server (ws: or wss: as the page). */
export function socketURL(path) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${path}`;
}

/**
 * One search over /ws/search.
 *
 *   const search = new SearchSocket({onQueued, onAnalysis, onResult, onError, onCancelled});
 *   search.start({game, params, moves, agent, seed});
 *   search.cancel();   // asks the server to stop, then closes; no callback fires after it
 *
 * Each start opens a fresh connection; a second start cancels the first search. Callbacks of
 * a cancelled search are never called (so a late result cannot be played by mistake).
 */
export class SearchSocket {
  constructor(handlers = {}) {
    this.handlers = handlers;
    this.socket = null;
    this.active = false;
  }

  get busy() {
    return this.active;
  }

  start(request) {
    this.cancel();
    showNotes([]);
    const socket = new WebSocket(socketURL("/ws/search"));
    this.socket = socket;
    this.active = true;
    const live = () => this.socket === socket && this.active;
    socket.addEventListener("open", () => {
      if (live()) socket.send(JSON.stringify({ type: "start", ...request }));
    });
    socket.addEventListener("message", (event) => {
      if (!live()) return;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      const call = (name, ...args) => this.handlers[name] && this.handlers[name](...args);
      switch (message.type) {
        case "queued":
          call("onQueued", message);
          break;
        case "analysis":
          call("onAnalysis", message);
          break;
        case "result":
          this.finish(socket);
          showNotes(message.notes);
          call("onResult", message);
          break;
        case "cancelled":
          this.finish(socket);
          call("onCancelled", message);
          break;
        case "error":
          this.finish(socket);
          setStatus(message.error, "error");
          call("onError", message.error);
          break;
        default:
          break;
      }
    });
    socket.addEventListener("error", () => {
      if (!live()) return;
      this.finish(socket);
      const text = "the search connection failed";
      setStatus(text, "error");
      if (this.handlers.onError) this.handlers.onError(text);
    });
    socket.addEventListener("close", (event) => {
      if (!live()) return;
      this.finish(socket);
      const text = `the search connection closed (${event.code})`;
      setStatus(text, "error");
      if (this.handlers.onError) this.handlers.onError(text);
    });
  }

  finish(socket) {
    this.active = false;
    if (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING) {
      // Closing right away would race the server's last frames; they are ignored anyway.
      setTimeout(() => socket.close(1000), 0);
    }
  }

  /** Stop the running search (if any); its callbacks no longer fire. */
  cancel() {
    const socket = this.socket;
    const wasActive = this.active;
    this.active = false;
    this.socket = null;
    if (!socket) return;
    if (wasActive && socket.readyState === WebSocket.OPEN) {
      try {
        socket.send(JSON.stringify({ type: "cancel" }));
      } catch {
        // the connection is going away anyway
      }
      // Give the server a moment to answer "cancelled"; closing also cancels the job.
      setTimeout(() => socket.close(1000), 500);
    } else if (socket.readyState === WebSocket.CONNECTING) {
      socket.addEventListener("open", () => socket.close(1000));
    } else {
      socket.close(1000);
    }
  }
}
