// Shared set-up of the browser tests: Debian's Chromium driven by playwright-core (never
// `npx playwright install`: it downloads a browser, which this machine cannot).
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';
import { createServer } from 'node:net';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), 'artifacts');

// Without the background-networking flags Chromium keeps trying hosts this machine cannot
// reach; --no-sandbox because the tests run as root.
const FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/** A free TCP port on the loopback interface. */
export async function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

export function baseUrl() {
  const url = process.env.CPA_BASE_URL;
  if (!url) throw new Error('CPA_BASE_URL is not set (run scripts/test-browser.sh)');
  return url;
}

/** A fresh browser profile per run; `close()` removes it. */
export async function launch(options = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'cpa-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CPA_CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: FLAGS,
    viewport: { width: 1440, height: 1000 },
    ...options,
  });
  const logs = [];
  const watch = (page) => {
    page.on('console', (m) => logs.push(`[console.${m.type()}] ${m.text()}`));
    page.on('pageerror', (e) => logs.push(`[pageerror] ${e.message}`));
  };
  context.pages().forEach(watch);
  context.on('page', watch);
  mkdirSync(ARTIFACTS, { recursive: true });
  return {
    context,
    logs,
    async page() {
      return context.pages()[0] || context.newPage();
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export const id = (t) => `[data-testid="${t}"]`;

/**
 * The playground page as the tests drive it: one place for how a test opens an example,
 * steps, waits for the run to settle and reads what the page shows.
 */
export class PlaygroundPage {
  constructor(page) {
    this.page = page;
  }

  /** Loads `url` (the playground by default) and waits for the engine, unless `ready` is false. */
  async load(url = baseUrl(), { ready = true } = {}) {
    await this.page.goto(url, { waitUntil: 'load' });
    if (ready) await this.page.waitForSelector(`${id('engine-status')}.ready`, { timeout: 30_000 });
  }

  async text(testid) {
    return (await this.page.locator(id(testid)).first().textContent()).trim();
  }

  async number(testid) {
    return Number(await this.text(testid));
  }

  /** The current run as `cpaDebug.run()` reports it (null before there is one). */
  async run() {
    return this.page.evaluate(() => window.cpaDebug?.run());
  }

  /** Picks an example and (optionally) a preset, and waits until that run is ready at event 0. */
  async open(key, preset = null) {
    const page = this.page;
    await page.selectOption(id('example-select'), key);
    if (preset) await page.selectOption(id('config-select'), preset);
    if (await page.locator(id('btn-reset')).isEnabled()) await page.click(id('btn-reset'));
    // The run of this program and analysis (not the one before it) is ready.
    const file = (await page.textContent('.editor-panel h2')).trim();
    const want = preset ?? await page.inputValue(id('config-select'));
    await page.waitForFunction(([f, p]) => {
      const r = window.cpaDebug?.run();
      return r && r.file === f && r.preset === p && r.phase === 'Idle' && r.position === 0 && !r.stale;
    }, [file, want], { timeout: 30_000 });
  }

  /** Waits until the run is idle at `position` (or at its verdict when `position` is null). */
  async settledAt(position, timeout = 60_000) {
    await this.page.waitForFunction((k) => {
      const r = window.cpaDebug?.run();
      return r && r.phase === 'Idle' && (k === null ? r.finished && r.position === r.total : r.position === k);
    }, position, { timeout });
  }

  /** `n` single steps with the keyboard, from event 0 (the position must be 0). */
  async steps(n) {
    await this.page.locator(id('explain')).click();
    for (let k = 0; k < n; k++) await this.page.keyboard.press('ArrowRight');
    await this.settledAt(n);
  }

  /** To the end of the next refinement; resolves once a refinement is listed. */
  async nextRefinement({ state = 'visible' } = {}) {
    await this.page.click(id('btn-next-refinement'));
    await this.page.waitForSelector(id('refinement'), { state, timeout: 30_000 });
  }

  /** Runs to the verdict and returns its text. */
  async toVerdict(timeout = 60_000) {
    await this.page.click(id('btn-end'));
    await this.page.waitForFunction(() => document.querySelector('[data-testid="verdict"]')?.textContent.trim().length > 0,
      null, { timeout });
    return this.text('verdict');
  }

  /** Waits until a graph view's layout matches its current graph. */
  async graphSettled(testid) {
    await this.page.waitForSelector(`${id(testid)} .graph-canvas[aria-busy="false"] svg`, { state: 'attached', timeout: 30_000 });
  }

  /** The ARG's counts as shown and the classes of the states drawn. */
  async argCounts() {
    return this.page.evaluate(() => ({
      nodes: Number(document.querySelector('[data-testid="arg-node-count"]').textContent),
      edges: Number(document.querySelector('[data-testid="arg-edge-count"]').textContent),
      drawn: document.querySelectorAll('[data-testid="arg-view"] g.arg-node').length,
      classes: [...document.querySelectorAll('[data-testid="arg-view"] g.arg-node')].map((g) => `${g.dataset.id}:${g.getAttribute('class')}`).sort().join(' '),
    }));
  }

  /** What must be equal between two pages showing the same state (times left out). */
  async snapshot() {
    return this.page.evaluate(() => {
      const q = (t) => document.querySelector(`[data-testid="${t}"]`);
      const stats = JSON.parse(q('stats').dataset.stats);
      for (const k of Object.keys(stats)) if (k.endsWith('_ms')) delete stats[k];
      return {
        step: q('step-index').textContent.trim(),
        verdict: q('verdict')?.textContent.trim() ?? '',
        stats,
        nodes: Number(q('arg-node-count').textContent),
        edges: Number(q('arg-edge-count').textContent),
        classes: [...document.querySelectorAll('[data-testid="arg-view"] g.arg-node')].map((g) => `${g.dataset.id}:${g.getAttribute('class')}`).sort().join(' '),
        refinements: document.querySelectorAll('[data-testid="refinement"]').length,
        interpolants: q('interpolants').textContent,
        coverage: q('coverage').dataset.lines,
        preset: q('config-select').value,
        file: document.querySelector('.editor-panel h2').textContent,
        text: document.querySelector('.cm-content').innerText,
      };
    });
  }

  /** The share dialog's link. */
  async shareUrl() {
    await this.page.click(id('btn-share'));
    const url = await this.page.inputValue(id('share-url'));
    await this.page.keyboard.press('Escape');
    await this.page.waitForSelector(id('share-dialog'), { state: 'detached' });
    return url;
  }

  async screenshot(name, options = {}) {
    await this.page.screenshot({ path: join(ARTIFACTS, name), ...options });
  }
}

/**
 * A browser with the playground loaded for the tests of one file: `before` launches it (with
 * `options`), loads the page and then awaits `setup(ctx)`; `after` closes it and prints the
 * page's log if a test failed. The returned object's `pg` (a [`PlaygroundPage`]) and `page`
 * are set once `before` ran. (Node 20 runs the `before` hooks of a file concurrently: what
 * needs the page goes into `setup`, not into a hook of its own.)
 */
export function usePlayground(options = {}, { ready = true, setup = null } = {}) {
  const ctx = { browser: null, pg: null, page: null };
  before(async () => {
    ctx.browser = await launch(options);
    ctx.page = await ctx.browser.page();
    ctx.pg = new PlaygroundPage(ctx.page);
    await ctx.pg.load(baseUrl(), { ready });
    if (setup) await setup(ctx);
  });
  after(async () => {
    if (!ctx.browser) return;
    if (process.exitCode) console.log(ctx.browser.logs.join('\n'));
    await ctx.browser.close();
  });
  return ctx;
}

/** Runs `check(pg)` on `url` in a fresh browser profile (closed afterwards). */
export async function inFreshProfile(url, check, options = { viewport: { width: 1280, height: 800 } }) {
  const other = await launch(options);
  try {
    const pg = new PlaygroundPage(await other.page());
    await pg.load(url, { ready: false });
    return await check(pg);
  } finally {
    if (process.exitCode) console.log(other.logs.join('\n'));
    await other.close();
  }
}
