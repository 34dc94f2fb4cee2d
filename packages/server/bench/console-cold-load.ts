import { existsSync } from 'node:fs';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { defaultConsoleDir } from '../src/features/console/register-console.js';

// Cold load of the console's fleet list (issue 8 section 3): a fresh Chromium per round (empty
// HTTP and code caches, HTTP cache disabled as well), a signed-in user (session token in
// localStorage), loopback. Measured in the page, from navigation start (performance.now()'s
// origin) to the frame after the fleet cards are in the DOM. Next to it, a plain static file of
// the same server measured the same way (navigation start to its load event): the floor that
// browser and server impose on any page. A report, never an assertion.

export type ColdLoadOptions = {
  baseUrl: string;
  // Session token of a user who sees `fleetCount` fleets.
  token: string;
  fleetCount: number;
  rounds: number;
  log: (line: string) => void;
};

export type ColdLoadStats = {
  name: string;
  rounds: number;
  medianMs: number;
  minMs: number;
  p90Ms: number;
  maxMs: number;
};

const chromiumPath = '/usr/bin/chromium';
const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
// The token key of the console's storage (packages/sdk/src/token-storage.ts).
const tokenKey = 'flotilla.token';

const withFreshPage = async <T>(
  token: string | null,
  run: (page: Page) => Promise<T>,
): Promise<T> => {
  const browser: Browser = await chromium.launch({
    executablePath: chromiumPath,
    args: chromiumArgs,
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1366, height: 860 } });
    // Signed in as a returning user is: the token stored, the cookie banner answered.
    // (Page scripts are strings: this package is type-checked without the DOM library.)
    if (token) {
      await context.addInitScript({
        content: `localStorage.setItem(${JSON.stringify(tokenKey)}, ${JSON.stringify(token)});
          localStorage.setItem('flotilla.cookies', '{"essentials":true,"analytics":false}');`,
      });
    }
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    return await run(page);
  } finally {
    await browser.close();
  }
};

// Navigation start → the frame after the user's fleet cards are in the page.
const fleetListRound = (options: ColdLoadOptions): Promise<number> =>
  withFreshPage(options.token, async (page) => {
    await page.addInitScript({
      content: `const observer = new MutationObserver(() => {
        if (document.querySelectorAll('main a[href^="/fleets/"] h3').length < ${options.fleetCount}) return;
        observer.disconnect();
        requestAnimationFrame(() => {
          document.documentElement.dataset.coldLoadMs = String(performance.now());
        });
      });
      observer.observe(document, { childList: true, subtree: true });`,
    });
    await page.goto(`${options.baseUrl}/fleets`, { waitUntil: 'commit' });
    // Selectors and attributes only: the console's CSP forbids evaluating strings in the page.
    await page.waitForSelector('html[data-cold-load-ms]', { state: 'attached', timeout: 60_000 });
    return Number(await page.getAttribute('html', 'data-cold-load-ms'));
  });

// Navigation start → load event of a static file of the console's build.
const staticPageRound = (options: ColdLoadOptions): Promise<number> =>
  withFreshPage(null, async (page) => {
    await page.goto(`${options.baseUrl}/buildtime.txt`, { waitUntil: 'load' });
    return Number(
      await page.evaluate(`performance.getEntriesByType('navigation')[0].loadEventEnd`),
    );
  });

// The value below which `p` percent of the sorted samples lie (nearest rank).
const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN);

const measure = async (
  name: string,
  rounds: number,
  round: () => Promise<number>,
): Promise<ColdLoadStats> => {
  // One unmeasured round: the server's first answers (JIT, statement plans) are not what a
  // browser's cold load is about.
  await round();
  const samples: number[] = [];
  for (let index = 0; index < rounds; index += 1) samples.push(await round());
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    name,
    rounds,
    medianMs: percentile(sorted, 50),
    minMs: sorted[0] ?? Number.NaN,
    p90Ms: percentile(sorted, 90),
    maxMs: sorted[sorted.length - 1] ?? Number.NaN,
  };
};

const line = (label: string, stats: ColdLoadStats): string =>
  `${label}: median ${stats.medianMs.toFixed(0)} ms (min ${stats.minMs.toFixed(0)}, ` +
  `p90 ${stats.p90Ms.toFixed(0)}, max ${stats.maxMs.toFixed(0)}; ${stats.rounds} rounds)`;

// Prints one line for the fleet list and one for the static page; skips (saying why) when the
// console is not built or Chromium is missing.
export const runConsoleColdLoad = async (options: ColdLoadOptions): Promise<ColdLoadStats[]> => {
  if (!existsSync(path.join(defaultConsoleDir, 'index.html'))) {
    options.log('console-cold-load: skipped, the console is not built (npm run build)');
    return [];
  }
  if (!existsSync(chromiumPath)) {
    options.log(`console-cold-load: skipped, no Chromium at ${chromiumPath}`);
    return [];
  }
  const fleetList = await measure('console-cold-load /fleets', options.rounds, () =>
    fleetListRound(options),
  );
  options.log(
    line(
      `console-cold-load /fleets (signed in, ${options.fleetCount} fleets, cache disabled, loopback)`,
      fleetList,
    ),
  );
  const staticPage = await measure('console-cold-load static /buildtime.txt', options.rounds, () =>
    staticPageRound(options),
  );
  options.log(line('console-cold-load static /buildtime.txt (same server, same way)', staticPage));
  return [fleetList, staticPage];
};
