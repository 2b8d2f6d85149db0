// The Path lab's view of a grid map: zoom and pan (plain ES module, no DOM).
//
//   import { Camera } from "/static/grid_camera.js";
//   const camera = new Camera();
//   camera.reset(width, height);                 // a new map: fit to the view
//   const { cell, ox, oy } = camera.frame(fit, viewWidth, viewHeight);
//
// A map of width x height cells fits a view of viewWidth x viewHeight CSS pixels at `fit` pixels
// a cell (zoom 1). The camera keeps a zoom (>= 1, relative to that fit) and the map cell at the
// view's centre, so that every view of the same size (the lab's two side-by-side searches)
// shows the same part of the map. frame() gives what a view draws: the pixels a cell, and the
// offset (ox, oy) in pixels of the view's top-left corner from the map's. The map always covers
// the view (the centre is clamped), so zooming out to 1 is the fit again.

/** The largest drawn cell, in CSS pixels: deeper zoom shows nothing new. */
export const MAX_CELL_PIXELS = 48;

export class Camera {
  constructor() {
    this.width = 1;
    this.height = 1;
    this.zoom = 1;
    this.cx = 0.5;
    this.cy = 0.5;
  }

  /** A new map: zoom 1, centred. */
  reset(width, height) {
    this.width = Math.max(1, width);
    this.height = Math.max(1, height);
    this.zoom = 1;
    this.cx = this.width / 2;
    this.cy = this.height / 2;
  }

  /** The deepest zoom for a view that fits the map at `fit` pixels a cell. */
  maxZoom(fit) {
    return Math.max(1, MAX_CELL_PIXELS / fit);
  }

  /** Keep the zoom in [1, maxZoom] and the map over the whole view. */
  clamp(fit, viewWidth, viewHeight) {
    this.zoom = Math.min(this.maxZoom(fit), Math.max(1, this.zoom));
    const cell = fit * this.zoom;
    const halfW = Math.min(this.width / 2, viewWidth / (2 * cell));
    const halfH = Math.min(this.height / 2, viewHeight / (2 * cell));
    this.cx = Math.min(this.width - halfW, Math.max(halfW, this.cx));
    this.cy = Math.min(this.height - halfH, Math.max(halfH, this.cy));
  }

  /** What a view draws: pixels a cell and the view's offset (ox, oy) in pixels. */
  frame(fit, viewWidth, viewHeight) {
    const cell = fit * this.zoom;
    const limitX = Math.max(0, this.width * cell - viewWidth);
    const limitY = Math.max(0, this.height * cell - viewHeight);
    const ox = Math.min(limitX, Math.max(0, this.cx * cell - viewWidth / 2));
    const oy = Math.min(limitY, Math.max(0, this.cy * cell - viewHeight / 2));
    return { cell, ox, oy };
  }

  /** Zoom by `factor` keeping the map point under view pixel (px, py) where it is. */
  zoomAt(factor, px, py, fit, viewWidth, viewHeight) {
    const before = this.frame(fit, viewWidth, viewHeight);
    const u = (px + before.ox) / before.cell;
    const v = (py + before.oy) / before.cell;
    this.zoom = Math.min(this.maxZoom(fit), Math.max(1, this.zoom * factor));
    const cell = fit * this.zoom;
    this.cx = u - (px - viewWidth / 2) / cell;
    this.cy = v - (py - viewHeight / 2) / cell;
    this.clamp(fit, viewWidth, viewHeight);
  }

  /** Move the map by (dx, dy) view pixels (a drag). */
  panBy(dx, dy, fit, viewWidth, viewHeight) {
    const cell = fit * this.zoom;
    this.cx -= dx / cell;
    this.cy -= dy / cell;
    this.clamp(fit, viewWidth, viewHeight);
  }

  /** Show the box of cells [x0, x1] x [y0, y1] (inclusive) as large as the view allows. */
  show(x0, y0, x1, y1, fit, viewWidth, viewHeight, margin = 3) {
    const w = x1 - x0 + 1 + 2 * margin;
    const h = y1 - y0 + 1 + 2 * margin;
    this.zoom = Math.min(viewWidth / (w * fit), viewHeight / (h * fit));
    this.cx = (x0 + x1 + 1) / 2;
    this.cy = (y0 + y1 + 1) / 2;
    this.clamp(fit, viewWidth, viewHeight);
  }
}
