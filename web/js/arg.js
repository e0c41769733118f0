// The ARG view: a tidy-tree layout (d3-hierarchy's `tree`, the Reingold–Tilford algorithm as
// improved by Buchheim, Jünger and Leipert) of the ARG's spanning tree (each state under its
// first parent), drawn as SVG that is updated in place: a step adds, restyles, moves or removes
// only the elements that changed, and moves glide (CSS transitions), so the graph grows in
// place. Extra parents (merged states) and coverage (dashed, to the coverer) are drawn on top
// of the tree. Pan by dragging, zoom with the wheel or by pinching (d3-zoom); the view fits
// the graph until the user pans or zooms, then keeps the current state in sight.

import { hierarchy, tree } from 'd3-hierarchy';
import { select } from 'd3-selection';
import { zoom as d3zoom, zoomIdentity } from 'd3-zoom';

const SVG = 'http://www.w3.org/2000/svg';
const NODE_W = 40;
const NODE_H = 26;
// Top to bottom: siblings side by side (room for the line label on the right), levels below.
const TB = { breadth: 62, depth: 54 };
// Left to right (wide panels, such as a projector's): levels side by side, siblings below
// each other (the line label under the state).
const LR = { breadth: 44, depth: 78 };

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function curve(x1, y1, x2, y2, lr) {
  if (lr) {
    const mx = (x1 + x2) / 2;
    return `M${x1},${y1} C${mx},${y1} ${mx},${y2} ${x2},${y2}`;
  }
  const my = (y1 + y2) / 2;
  return `M${x1},${y1} C${x1},${my} ${x2},${my} ${x2},${y2}`;
}

/** A side arc from a covered state to its coverer (both may be anywhere in the tree). */
function arc(x1, y1, x2, y2) {
  const dx = x2 - x1;
  const dy = y2 - y1;
  const bend = Math.max(30, Math.min(120, Math.hypot(dx, dy) / 3));
  const cx = (x1 + x2) / 2 + (dy >= 0 ? bend : -bend);
  const cy = (y1 + y2) / 2 - (dx >= 0 ? bend : -bend) * 0.3;
  return `M${x1},${y1} Q${cx},${cy} ${x2},${y2}`;
}

/** Sets an attribute only if its value changes (a write of the same value still costs a repaint). */
function setIfChanged(e, name, value) {
  if (e.getAttribute(name) !== value) e.setAttribute(name, value);
}

/** Lays out `model.nodes` top to bottom (or left to right); returns Map id → {x, y}. */
export function layoutArg(nodes, lr = false) {
  const byId = new Map(nodes.map((n) => [n.id, { n, children: [] }]));
  const root = { n: null, children: [] };
  for (const item of byId.values()) {
    const p = item.n.parents.find((q) => byId.has(q));
    (p === undefined ? root : byId.get(p)).children.push(item);
  }
  // Children in id order (creation order), so positions are stable from step to step.
  for (const item of [root, ...byId.values()]) item.children.sort((a, b) => a.n.id - b.n.id);
  const h = hierarchy(root, (d) => d.children);
  const g = lr ? LR : TB;
  tree().nodeSize([g.breadth, g.depth]).separation((a, b) => (a.parent === b.parent ? 1 : 1.25))(h);
  const pos = new Map();
  h.each((d) => {
    if (!d.data.n) return;
    const depth = d.y - g.depth;
    pos.set(d.data.n.id, lr ? { x: depth, y: d.x } : { x: d.x, y: depth });
  });
  return pos;
}

/** The smallest scale at which the view fits the graph while a state is being expanded. */
const LEGIBLE = 0.55;
/** The same on a projector (presentation mode): state numbers of about 10 px at 1280x720. */
const LEGIBLE_PROJECTED = 0.8;
/** Above this many states, nothing glides (transitions on every state cost frames). */
const ANIMATE_MAX = 150;
const PAD = 30;

export class ArgView {
  constructor(parent, onClick) {
    this.parent = parent;
    this.onClick = onClick;
    // Pan and zoom move an HTML layer (composited: no repaint of the graph); the SVG inside
    // is as large as the graph.
    this.layer = document.createElement('div');
    this.layer.className = 'arg-layer';
    parent.appendChild(this.layer);
    this.svg = el('svg', { class: 'arg-svg', role: 'img', 'aria-label': 'Abstract reachability graph' }, this.layer);
    const defs = el('defs', {}, this.svg);
    for (const [id, cls] of [['arg-arrow', 'arrow'], ['arg-arrow-cover', 'arrow cover'], ['arg-arrow-cex', 'arrow cex']]) {
      // In user units: the same arrowhead on thin and thick (counterexample) edges.
      const m = el('marker', { id, viewBox: '0 0 10 10', refX: '9', refY: '5', markerWidth: '9', markerHeight: '9', markerUnits: 'userSpaceOnUse', orient: 'auto-start-reverse' }, defs);
      el('path', { d: 'M0,0 L10,5 L0,10 z', class: cls }, m);
    }
    this.content = el('g', { class: 'arg-content' }, this.svg);
    this.edgeLayer = el('g', { class: 'arg-edges' }, this.content);
    this.coverLayer = el('g', { class: 'arg-covers' }, this.content);
    this.nodeLayer = el('g', { class: 'arg-nodes' }, this.content);
    this.nodes = new Map();
    this.edges = new Map();
    this.covers = new Map();
    this.pos = new Map();
    this.box = { x0: 0, y0: 0, x1: 0, y1: 0 };
    this.t = { x: 0, y: 0, k: 1 };
    this.auto = true; // fit the graph until the user pans or zooms
    this.overview = false; // the fit button was pressed: an overview even on a projector
    this.focus = null;
    this.lr = false;
    this.model = null;
    this.animated = true;
    const r = parent.getBoundingClientRect();
    this.w = r.width;
    this.h = r.height;
    this.installPanZoom();
    parent.addEventListener('click', (e) => {
      const g = e.target.closest && e.target.closest('g.arg-node');
      if (g) this.onClick(Number(g.dataset.id));
    });
    // Keyboard: every state in view is a focusable button (Tab), Enter or Space opens its
    // details (and does not reach the page's own Space = run/pause).
    parent.addEventListener('keydown', (e) => {
      const g = e.target.closest && e.target.closest('g.arg-node');
      if (g && (e.key === 'Enter' || e.key === ' ')) {
        e.preventDefault();
        e.stopPropagation();
        this.onClick(Number(g.dataset.id));
      }
    });
    this.resizeObserver = new ResizeObserver((entries) => {
      const cr = entries[entries.length - 1].contentRect;
      this.w = cr.width;
      this.h = cr.height;
      // A change of shape may change the orientation: lay out again.
      if (this.model && this.wantLr() !== this.lr) this.update(this.model);
      else this.refit();
    });
    this.resizeObserver.observe(parent);
  }

  /**
   * Pan and zoom by d3-zoom: drag, wheel, double-click, and on touch screens one finger to
   * pan and two to pinch. A gesture of the user stops the automatic fit; the view's own
   * moves (fit, follow) go through the same behaviour, so d3-zoom always knows the transform.
   */
  installPanZoom() {
    this.zoomBehavior = d3zoom()
      .scaleExtent([0.05, 3])
      // A press that moves less than this is still a click on a state.
      .clickDistance(4)
      .tapDistance(10)
      .on('zoom', (e) => {
        if (e.sourceEvent) {
          this.auto = false;
          this.overview = false;
          this.layer.classList.remove('animate');
        }
        this.applyTransform({ x: e.transform.x, y: e.transform.y, k: e.transform.k });
      });
    this.selection = select(this.parent).call(this.zoomBehavior);
  }

  zoom(f) {
    this.auto = false;
    this.overview = false;
    this.selection.call(this.zoomBehavior.scaleBy, f, [this.w / 2, this.h / 2]);
  }

  /** `t` maps graph coordinates to the panel: screen = p·k + (x, y). */
  setTransform(t, animate) {
    this.layer.classList.toggle('animate', !!animate && this.animated);
    const same = t.x === this.t.x && t.y === this.t.y && t.k === this.t.k;
    if (same) this.applyTransform(t);
    else this.selection.call(this.zoomBehavior.transform, zoomIdentity.translate(t.x, t.y).scale(t.k));
  }

  /** Moves the layer to `t` (from d3-zoom's `zoom` event, or to follow a new layout box). */
  applyTransform(t) {
    const moved = t.x !== this.t.x || t.y !== this.t.y || t.k !== this.t.k;
    this.t = t;
    const ox = t.x + t.k * (this.box.x0 - PAD);
    const oy = t.y + t.k * (this.box.y0 - PAD);
    const transform = `translate(${ox}px, ${oy}px) scale(${t.k})`;
    if (this.layer.__transform !== transform) {
      this.layer.style.transform = transform;
      this.layer.__transform = transform;
    }
    if (moved) this.requestDraw();
  }

  bounds() {
    let x0 = Infinity; let x1 = -Infinity; let y0 = Infinity; let y1 = -Infinity;
    for (const p of this.pos.values()) {
      x0 = Math.min(x0, p.x); x1 = Math.max(x1, p.x); y0 = Math.min(y0, p.y); y1 = Math.max(y1, p.y);
    }
    if (x0 === Infinity) return null;
    return { x0: x0 - NODE_W, x1: x1 + NODE_W + 16, y0: y0 - NODE_H, y1: y1 + NODE_H + 8 };
  }

  /** Fits the whole graph (not below a readable scale: then it shows the current state). */
  fit(animate = true) {
    this.auto = true;
    // Asked for (the fit button): the overview, also on a projector.
    this.overview = true;
    this.refit(animate);
  }

  /** Whether the page is in presentation mode (a projector). */
  presenting() {
    return !!this.parent.closest('.presentation');
  }

  refit(animate = false) {
    const { w, h } = this;
    if (!w || !h) return;
    const b = this.bounds();
    if (!b) return;
    if (this.auto) {
      const k = Math.min(1.8, (w - 16) / (b.x1 - b.x0), (h - 16) / (b.y1 - b.y0));
      // With no current state (the run has ended) an overview at a smaller scale says more
      // than a readable corner of the graph; not on a projector (presentation mode), where
      // state numbers below 0.8 of their size cannot be read from the back of a room:
      // there the view stays legible and "fit" gives the overview.
      const current = this.focus !== null && this.pos.has(this.focus);
      const legible = this.presenting() && !this.overview ? LEGIBLE_PROJECTED : LEGIBLE;
      const overview = this.presenting() && !this.overview ? LEGIBLE_PROJECTED : 0.3;
      if (k >= legible || (!current && k >= overview)) {
        this.setTransform({
          x: this.lr ? 8 - b.x0 * k : (w - (b.x1 - b.x0) * k) / 2 - b.x0 * k,
          y: this.lr ? (h - (b.y1 - b.y0) * k) / 2 - b.y0 * k : 8 - b.y0 * k,
          k,
        }, animate);
        return;
      }
      // Too large to fit readably: follow the current state at a readable scale.
      this.follow(this.presenting() ? 1 : 0.8, animate);
      return;
    }
    this.keepVisible(animate);
  }

  follow(k, animate) {
    const p = this.focus !== null && this.pos.get(this.focus);
    if (!p) {
      // No current state: the root, at the start of the graph (left, or top).
      const r = this.pos.values().next().value;
      if (!r) return;
      const b = this.box;
      this.setTransform({
        x: this.lr ? 8 - b.x0 * k : this.w / 2 - r.x * k,
        y: this.lr ? this.h / 2 - r.y * k : 8 - b.y0 * k,
        k,
      }, animate);
      return;
    }
    const fx = this.lr ? 0.7 : 0.5;
    const fy = this.lr ? 0.5 : 0.6;
    this.setTransform({ x: this.w * fx - p.x * k, y: this.h * fy - p.y * k, k }, animate);
  }

  /** Pans so that the current state is on screen (user zoom kept). */
  keepVisible(animate) {
    const p = this.focus !== null && this.pos.get(this.focus);
    if (!p) {
      this.setTransform(this.t, false);
      return;
    }
    const sx = p.x * this.t.k + this.t.x;
    const sy = p.y * this.t.k + this.t.y;
    const m = 40;
    if (sx < m || sx > this.w - m || sy < m || sy > this.h - m) this.follow(this.t.k, animate);
    else this.setTransform(this.t, false);
  }

  /** Left to right when the panel is clearly wider than tall. */
  wantLr() {
    return this.w > 1.4 * this.h;
  }

  /**
   * Shows `model`: {nodes: [{id, parents, kind, cls, label, sub, title}], covers: [[state, by]],
   * edgeTitles: {"p>c": text}, focus}.
   */
  update(model) {
    const nodes = model.nodes;
    this.model = model;
    this.focus = model.focus ?? null;
    const lr = this.wantLr();
    if (lr !== this.lr) {
      this.lr = lr;
      this.svg.classList.toggle('lr', lr);
    }
    const animated = nodes.length <= ANIMATE_MAX;
    if (animated !== this.animated) {
      this.animated = animated;
      this.svg.classList.toggle('still', !animated);
    }
    this.pos = layoutArg(nodes, lr);
    const b = this.bounds() || { x0: 0, y0: 0, x1: 1, y1: 1 };
    this.box = b;
    // Only what changed is written: a new transform on the content (even the same text)
    // makes Chromium paint every state again.
    setIfChanged(this.svg, 'width', String(b.x1 - b.x0 + 2 * PAD));
    setIfChanged(this.svg, 'height', String(b.y1 - b.y0 + 2 * PAD));
    setIfChanged(this.content, 'transform', `translate(${PAD - b.x0},${PAD - b.y0})`);
    this.refit(true);
    this.draw();
  }

  /** Draws again soon (after a pan or zoom: other states may have come into view). */
  requestDraw() {
    if (this.drawPending) return;
    this.drawPending = true;
    requestAnimationFrame(() => {
      this.drawPending = false;
      this.draw();
    });
  }

  /**
   * Brings the SVG up to date with the model, for the states in view (and a margin): the
   * document holds only what can be seen, however large the ARG (a step costs the same at
   * 600 states as at 60).
   */
  draw() {
    const model = this.model;
    if (!model) return;
    const nodes = model.nodes;
    const lr = this.lr;
    const { t, w, h } = this;
    // A margin of half the view on each side: a glide to the next state stays drawn, and
    // the document holds about a quarter of what a whole view's margin gave (the page
    // paints all of it at every step).
    const mx = Math.max(120, (0.5 * w) / t.k);
    const my = Math.max(120, (0.5 * h) / t.k);
    const vx0 = -t.x / t.k - mx;
    const vx1 = (w - t.x) / t.k + mx;
    const vy0 = -t.y / t.k - my;
    const vy1 = (h - t.y) / t.k + my;
    const inView = (p) => p && p.x >= vx0 && p.x <= vx1 && p.y >= vy0 && p.y <= vy1;
    const seen = new Set();
    const cls = new Map(nodes.map((n) => [n.id, n.cls]));
    for (const n of nodes) {
      const p = this.pos.get(n.id);
      if (!inView(p)) continue;
      seen.add(n.id);
      let g = this.nodes.get(n.id);
      if (!g) {
        g = el('g', { 'data-id': String(n.id), tabindex: '0', role: 'button' }, this.nodeLayer);
        el('rect', { x: -NODE_W / 2, y: -NODE_H / 2, width: NODE_W, height: NODE_H, rx: 5 }, g);
        el('line', { class: 'strike', x1: -NODE_W / 2 - 2, y1: 0, x2: NODE_W / 2 + 2, y2: 0 }, g);
        el('text', { 'text-anchor': 'middle', dy: '0.35em' }, g);
        el('title', {}, g);
        el('text', { class: 'sub', x: NODE_W / 2 + 3, dy: '0.35em' }, g);
        g.style.transform = `translate(${p.x}px, ${p.y}px)`;
        this.nodes.set(n.id, g);
        g.__x = p.x; g.__y = p.y;
      } else if (g.__x !== p.x || g.__y !== p.y) {
        g.style.transform = `translate(${p.x}px, ${p.y}px)`;
        g.__x = p.x; g.__y = p.y;
      }
      const c = `arg-node ${n.kind} ${n.cls}`;
      if (g.__cls !== c) { g.setAttribute('class', c); g.__cls = c; }
      if (g.__label !== n.label) { g.childNodes[2].textContent = n.label; g.__label = n.label; }
      if (g.__title !== n.title) {
        g.childNodes[3].textContent = n.title;
        g.setAttribute('aria-label', n.title);
        g.__title = n.title;
      }
      if (g.__sub !== n.sub) { g.childNodes[4].textContent = n.sub; g.__sub = n.sub; }
    }
    for (const [id, g] of this.nodes) {
      if (!seen.has(id)) { g.remove(); this.nodes.delete(id); }
    }
    // Tree and merge edges: parent → state, if either end is in view.
    const edgeSeen = new Set();
    const titles = model.edgeTitles || {};
    for (const n of nodes) {
      const c = this.pos.get(n.id);
      for (const pid of n.parents) {
        const p = this.pos.get(pid);
        if (!p || !c || !(seen.has(n.id) || seen.has(pid))) continue;
        const key = `${pid}>${n.id}`;
        edgeSeen.add(key);
        let path = this.edges.get(key);
        const d = lr
          ? curve(p.x + NODE_W / 2, p.y, c.x - NODE_W / 2, c.y, true)
          : curve(p.x, p.y + NODE_H / 2, c.x, c.y - NODE_H / 2, false);
        if (!path) {
          path = el('path', {}, this.edgeLayer);
          el('title', {}, path);
          this.edges.set(key, path);
        }
        this.setPath(path, d);
        const cex = / cex/.test(` ${n.cls}`) && / cex/.test(` ${cls.get(pid) || ''}`);
        const removed = / removed/.test(` ${n.cls}`);
        const ec = `arg-edge${cex ? ' cex' : ''}${removed ? ' removed' : ''}`;
        if (path.__cls !== ec) {
          path.setAttribute('class', ec);
          path.setAttribute('marker-end', `url(#${cex ? 'arg-arrow-cex' : 'arg-arrow'})`);
          path.__cls = ec;
        }
        const tt = titles[key] || '';
        if (path.__t !== tt) { path.firstChild.textContent = tt; path.__t = tt; }
      }
    }
    for (const [k, p] of this.edges) {
      if (!edgeSeen.has(k)) { p.remove(); this.edges.delete(k); }
    }
    const coverSeen = new Set();
    for (const [st, by] of model.covers || []) {
      const a = this.pos.get(st);
      const bb = this.pos.get(by);
      if (!a || !bb || !(seen.has(st) || seen.has(by))) continue;
      const key = `${st}~${by}`;
      coverSeen.add(key);
      let path = this.covers.get(key);
      const d = lr
        ? arc(a.x, a.y + NODE_H / 2, bb.x, bb.y + NODE_H / 2)
        : arc(a.x + NODE_W / 2, a.y, bb.x + NODE_W / 2, bb.y);
      if (!path) {
        path = el('path', { class: 'arg-cover', 'marker-end': 'url(#arg-arrow-cover)' }, this.coverLayer);
        el('title', {}, path).textContent = `state ${st} is covered by state ${by}`;
        this.covers.set(key, path);
      }
      this.setPath(path, d);
    }
    for (const [k, p] of this.covers) {
      if (!coverSeen.has(k)) { p.remove(); this.covers.delete(k); }
    }
  }

  /** Small graphs animate the path as CSS `d`; large ones set the attribute. */
  setPath(path, d) {
    if (path.__d === d && path.__anim === this.animated) return;
    if (this.animated) {
      path.style.d = `path("${d}")`;
    } else {
      if (path.__anim) path.style.d = '';
      path.setAttribute('d', d);
    }
    path.__d = d;
    path.__anim = this.animated;
  }

  destroy() {
    this.resizeObserver.disconnect();
    this.layer.remove();
  }
}

export function createArgView(parent, onClick) {
  return new ArgView(parent, onClick);
}

export function updateArgView(view, model) {
  view.update(model);
}

export function argViewCommand(view, command) {
  if (command === 'fit') view.fit();
  else if (command === 'zoom-in') view.zoom(1.25);
  else if (command === 'zoom-out') view.zoom(0.8);
}
