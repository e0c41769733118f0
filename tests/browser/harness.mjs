// Shared set-up of the browser tests: Debian's Chromium driven by playwright-core (never
// `npx playwright install`: it downloads a browser, which this machine cannot).
import { chromium } from 'playwright-core';
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
