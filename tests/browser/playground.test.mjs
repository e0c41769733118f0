// End-to-end tests of the playground page in headless Chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ARTIFACTS, usePlayground } from './harness.mjs';

let page;
let pg;
const ctx = usePlayground({}, { ready: false, setup: (c) => { ({ page, pg } = c); } });

const view = (id) => `[data-testid="${id}"]`;
const text = (id) => pg.text(id);
const number = (id) => pg.number(id);

/** Ids of the LBE view's edges carrying a step highlight. */
async function highlightedLbeEdges() {
  return page.$$eval(`${view('lbe-view')} svg g.edge.added, ${view('lbe-view')} svg g.edge.removed`,
    (gs) => gs.map((g) => `${g.id}:${g.classList.contains('added') ? 'added' : 'removed'}`).sort());
}

/** Waits until the view's layout matches its current graph. */
const settled = (id) => pg.graphSettled(id);

async function selectExample(key) {
  await page.selectOption(view('example-select'), key);
}

test('the page is cross-origin isolated (Z3 needs SharedArrayBuffer)', async () => {
  assert.equal(await page.evaluate(() => self.crossOriginIsolated), true);
  await page.waitForSelector('[data-testid="engine-status"].ready', { timeout: 30_000 });
});

test('Figure 1: the CFA has 32 nodes and 39 edges, its LBE summary 3 and 2', async () => {
  await selectExample('lbe-figure2');
  await page.waitForFunction(() => document.querySelector('[data-testid="cfa-node-count"]')?.textContent === '18');
  await selectExample('lbe-figure1');
  await page.waitForFunction(() => document.querySelector('[data-testid="cfa-node-count"]')?.textContent === '32', null, { timeout: 30_000 });
  assert.equal(await number('cfa-node-count'), 32);
  assert.equal(await number('cfa-edge-count'), 39);
  assert.equal(await number('lbe-node-count'), 3);
  assert.equal(await number('lbe-edge-count'), 2);
  await settled('cfa-view');
  await settled('lbe-view');
  // What is drawn agrees with the counts.
  assert.equal(await page.locator(`${view('cfa-view')} svg g.node`).count(), 32);
  assert.equal(await page.locator(`${view('cfa-view')} svg g.edge`).count(), 39);
  assert.equal(await page.locator(`${view('lbe-view')} svg g.node:not(.eliminated)`).count(), 3);
  assert.equal(await page.locator(`${view('lbe-view')} svg g.edge:not(.removed)`).count(), 2);
  await page.screenshot({ path: join(ARTIFACTS, 'figure1.png'), fullPage: true });
});

test('the LBE stepper replays the rules one at a time', async () => {
  await page.click(view('tab-lbe'));
  // Before any stepping, the summary is shown plainly.
  const summary = await text('lbe-step-label');
  const total = Number(summary.match(/^Summary after (\d+) rule applications — \1\/\1$/)?.[1]);
  assert.ok(total > 2, `label: ${summary}`);
  assert.deepEqual(await highlightedLbeEdges(), []);

  await page.click(view('lbe-step-reset'));
  assert.equal(await text('lbe-step-label'), `CFA before summarization — 0/${total}`);
  await settled('lbe-view');
  assert.equal(await number('lbe-node-count'), 32);
  assert.equal(await number('lbe-edge-count'), 39);
  assert.deepEqual(await highlightedLbeEdges(), []);

  // Step forward through the Rule 0 steps (they may remove nothing) to the first Rule 1/2.
  let position = 0;
  let label;
  for (;;) {
    await page.click(view('lbe-step-forward'));
    position += 1;
    label = await text('lbe-step-label');
    assert.match(label, new RegExp(`^Rule [012] \\((error sink|sequence|choice)\\) at N\\d+ — ${position}/${total}$`));
    await settled('lbe-view');
    const location = label.match(/at N(\d+)/)[1];
    assert.equal(await page.locator(`${view('lbe-view')} svg g.node.focus#n${location}`).count(), 1,
      'the step location is marked');
    if (!label.startsWith('Rule 0')) break;
    assert.ok(position < total, 'some step applies Rule 1 or 2');
  }
  const first = label;
  const firstMarks = await highlightedLbeEdges();
  assert.ok(firstMarks.some((m) => m.endsWith(':added')), 'a Rule 1/2 step highlights its new edge');
  assert.ok(firstMarks.some((m) => m.endsWith(':removed')), 'a Rule 1/2 step highlights the edges it replaces');
  // The new summary edge stands for CFA edges, which the CFA view marks.
  assert.ok(await page.locator(`${view('cfa-view')} svg g.edge.in-step`).count() > 0);
  await page.locator(view('lbe-view')).screenshot({ path: join(ARTIFACTS, 'lbe-step.png') });

  await page.click(view('lbe-step-forward'));
  await page.click(view('lbe-step-forward'));
  const later = await text('lbe-step-label');
  assert.match(later, new RegExp(`— ${position + 2}/${total}$`));
  await settled('lbe-view');
  const laterMarks = await highlightedLbeEdges();
  assert.ok(laterMarks.length > 0);
  assert.notDeepEqual(laterMarks, firstMarks, 'another step highlights other edges');

  await page.click(view('lbe-step-back'));
  await page.click(view('lbe-step-back'));
  assert.equal(await text('lbe-step-label'), first);
  await settled('lbe-view');
  assert.deepEqual(await highlightedLbeEdges(), firstMarks);

  await page.click(view('lbe-step-end'));
  assert.match(await text('lbe-step-label'), new RegExp(`^Rule [012] \\((error sink|sequence|choice)\\) at N\\d+ — ${total}/${total}$`));
  await settled('lbe-view');
  assert.ok((await highlightedLbeEdges()).length > 0, 'the last step is highlighted');
  assert.equal(await number('lbe-node-count'), 3);
  assert.equal(await number('lbe-edge-count'), 2);
});

test('clicking a CFA edge highlights its source lines', async () => {
  await page.click(view('tab-cfa'));
  await settled('cfa-view');
  const edge = page.locator(`${view('cfa-view')} svg g.edge`, { hasText: 'x2 = 2' }).first();
  await edge.locator('text').first().click();
  await page.waitForSelector('.cm-cpa-highlight');
  const lines = await page.$$eval('.cm-line.cm-cpa-highlight', (ls) => ls.map((l) => l.textContent));
  assert.deepEqual(lines.map((l) => l.trim()), ['x2 = 2;']);
  assert.equal(await page.locator(`${view('cfa-view')} svg g.edge.selected`).count(), 1);
});

test('a syntax error is listed and marked inline', async () => {
  await page.click('.cm-content');
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText('int main(void) {\n  int x = ;\n  return x;\n}\n');
  await page.waitForFunction(() => /error/.test(document.querySelector('[data-testid="diagnostics"]')?.textContent ?? ''), null, { timeout: 15_000 });
  const items = await page.$$eval(`${view('diagnostics')} li`, (ls) => ls.map((l) => l.textContent.trim()));
  assert.ok(items.length >= 1);
  assert.match(items[0], /^2:\d+: error: \S/);
  await page.waitForSelector('.cm-lintRange-error, .cm-lintPoint-error');
  await page.waitForSelector('.cm-lint-marker-error');
  // The graphs stay, greyed out, until the program parses again.
  assert.equal(await page.locator(`${view('cfa-view')}.stale`).count(), 1);
  await page.screenshot({ path: join(ARTIFACTS, 'syntax-error.png'), fullPage: true });

  // Fixing the program clears the diagnostics and rebuilds the CFA.
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText('int main(void) {\n  int x = 1;\n  return x;\n}\n');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="diagnostics"] li').length === 0, null, { timeout: 15_000 });
  assert.equal(await page.locator(`${view('cfa-view')}.stale`).count(), 0);
  assert.equal(await page.locator('.cm-lintRange-error, .cm-lintPoint-error').count(), 0);
});

test('an edited example is the user\'s program: no longer the example\'s name and description', async () => {
  await selectExample('gcd');
  await page.waitForFunction(() => document.querySelector('[data-testid="cfa-view"]')?.dataset.file === 'gcd.c', null, { timeout: 15_000 });
  assert.equal((await page.locator('.editor-panel h2').textContent()).trim(), 'gcd.c');
  assert.equal(await page.locator(view('example-about')).count(), 1);
  await page.click('.cm-content');
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText('extern void reach_error(void);\nint main(void) { int x = 5; if (x == 5) reach_error(); return 0; }\n');
  await page.waitForFunction(() => document.querySelector('[data-testid="cfa-view"]')?.dataset.file === 'program.c', null, { timeout: 15_000 });
  assert.equal((await page.locator('.editor-panel h2').textContent()).trim(), 'program.c');
  assert.equal(await page.locator(view('example-about')).count(), 0);
  assert.equal(await page.locator(view('example-select')).inputValue(), '');
});

test('the worker loads Z3 and answers through cpaZ3Eval', async () => {
  const reply = await page.evaluate(() => cpaDebug.z3Query('(declare-const x Int)(assert (> x 2))(check-sat)'));
  assert.equal(reply.trim(), 'sat');
  // The context is long-lived: x is still declared.
  const second = await page.evaluate(() => cpaDebug.z3Query('(push)(assert (< x 0))(check-sat)(pop)'));
  assert.equal(second.trim(), 'unsat');
});
