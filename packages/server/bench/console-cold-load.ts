import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { defaultConsoleDir } from '../src/features/console/register-console.js';

// Cold load of the console's fleet list: a fresh Chromium per round, with a
// new profile, so its HTTP and code caches are empty (the cache is as good as disabled: nothing
// is in it, and one load asks for each file once). Not through DevTools'
// `Network.setCacheDisabled`, which made the page slower than a user's browser: with it, one
// history.replaceState in React's first render took ~40 ms instead of a few (page CPU profile).
// A signed-in user (session token in localStorage), loopback. Measured in the page, from navigation start (performance.now()'s
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

// BENCH_COLD_LOAD_PROFILE=<file>: the page's CPU profile of each fleet-list round is written
// there (the last round wins); Chromium DevTools opens it (Performance panel), and the build's
// hidden source maps (packages/web/dist/assets/*.map) name the minified functions.
const profileFile = process.env.BENCH_COLD_LOAD_PROFILE;

const withFreshPage = async <T>(
  token: string | null,
  run: (page: Page) => Promise<T>,
  profileTo?: string,
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
    if (!profileTo) return await run(page);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    const result = await run(page);
    const { profile } = await cdp.send('Profiler.stop');
    writeFileSync(profileTo, JSON.stringify(profile));
    return result;
  } finally {
    await browser.close();
  }
};

// Where a round's time went, from the page's resource timing: how many scripts, when the last
// one arrived, when the first API call started and when the last one answered. Printed beside
// the median so a change to chunking or to the loader shows where it moved time.
export type ColdLoadBreakdown = {
  scripts: number;
  lastScriptMs: number;
  // When the entry began to run (web app/early-start.ts marks it); -1 without the mark.
  earlyStartMs: number;
  firstApiStartMs: number;
  lastApiEndMs: number;
  // Every script and API request of the round: path, start and end (ms since navigation).
  requests: { path: string; startMs: number; endMs: number }[];
};

type FleetListRound = { ms: number; breakdown: ColdLoadBreakdown };

const breakdownScript = `(() => {
  const entries = performance.getEntriesByType('resource');
  const scripts = entries.filter((entry) => entry.name.includes('/assets/') && entry.name.endsWith('.js'));
  const api = entries.filter((entry) => entry.initiatorType === 'fetch' || entry.initiatorType === 'xmlhttprequest');
  return JSON.stringify({
    scripts: scripts.length,
    lastScriptMs: Math.max(0, ...scripts.map((entry) => entry.responseEnd)),
    earlyStartMs: performance.getEntriesByName('flotilla:early-start')[0]?.startTime ?? -1,
    firstApiStartMs: Math.min(...api.map((entry) => entry.startTime)),
    lastApiEndMs: Math.max(0, ...api.map((entry) => entry.responseEnd)),
    requests: [...scripts, ...api].map((entry) => ({
      path: new URL(entry.name).pathname + new URL(entry.name).search,
      startMs: entry.startTime,
      endMs: entry.responseEnd,
    })),
  });
})()`;

const isBreakdown = (value: unknown): value is ColdLoadBreakdown =>
  typeof value === 'object' &&
  value !== null &&
  ['scripts', 'lastScriptMs', 'earlyStartMs', 'firstApiStartMs', 'lastApiEndMs'].every(
    (key) => typeof Reflect.get(value, key) === 'number',
  ) &&
  Array.isArray(Reflect.get(value, 'requests'));

// Navigation start → the frame after the user's fleet cards are in the page. The page reports
// the moment itself through a binding: Playwright's own waiting (waitForSelector) runs its
// injected script on the page's main thread while it loads, ~10–20 ms of the very CPU the
// measurement is about (the page's CPU profile named it).
const fleetListRound = (options: ColdLoadOptions): Promise<FleetListRound> =>
  withFreshPage(
    options.token,
    async (page) => {
      let reported: (ms: number) => void = () => undefined;
      const cardsShown = new Promise<number>((resolve) => {
        reported = resolve;
      });
      await page.exposeFunction('flotillaColdLoadDone', (ms: unknown) => reported(Number(ms)));
      await page.addInitScript({
        content: `const observer = new MutationObserver(() => {
        if (document.querySelectorAll('main a[href^="/fleets/"] h3').length < ${options.fleetCount}) return;
        observer.disconnect();
        requestAnimationFrame(() => window.flotillaColdLoadDone(performance.now()));
      });
      observer.observe(document, { childList: true, subtree: true });`,
      });
      await page.goto(`${options.baseUrl}/fleets`, { waitUntil: 'commit' });
      let timer: NodeJS.Timeout | undefined;
      const ms = await Promise.race([
        cardsShown,
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error('console-cold-load: the fleet cards did not show in 60 s')),
            60_000,
          );
        }),
      ]).finally(() => clearTimeout(timer));
      // Playwright evaluates through the debugging protocol, which the page's CSP does not govern.
      const breakdown: unknown = JSON.parse(String(await page.evaluate(breakdownScript)));
      if (!isBreakdown(breakdown)) throw new Error('console-cold-load: unreadable resource timing');
      return { ms, breakdown };
    },
    profileFile,
  );

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

const measure = async <T>(
  name: string,
  rounds: number,
  round: () => Promise<T>,
  msOf: (sample: T) => number,
): Promise<{ stats: ColdLoadStats; median: T | undefined }> => {
  // One unmeasured round: the server's first answers (JIT, statement plans) are not what a
  // browser's cold load is about.
  await round();
  const samples: T[] = [];
  for (let index = 0; index < rounds; index += 1) samples.push(await round());
  const sortedSamples = [...samples].sort((a, b) => msOf(a) - msOf(b));
  const sorted = sortedSamples.map(msOf);
  return {
    stats: {
      name,
      rounds,
      medianMs: percentile(sorted, 50),
      minMs: sorted[0] ?? Number.NaN,
      p90Ms: percentile(sorted, 90),
      maxMs: sorted[sorted.length - 1] ?? Number.NaN,
    },
    median: sortedSamples[Math.max(0, Math.ceil(sortedSamples.length / 2) - 1)],
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
  const fleetList = await measure(
    'console-cold-load /fleets',
    options.rounds,
    () => fleetListRound(options),
    (sample) => sample.ms,
  );
  options.log(
    line(
      `console-cold-load /fleets (signed in, ${options.fleetCount} fleets, cache disabled, loopback)`,
      fleetList.stats,
    ),
  );
  const breakdown = fleetList.median?.breakdown;
  if (breakdown) {
    options.log(
      `console-cold-load median round: ${breakdown.scripts} scripts, the last at ` +
        `${breakdown.lastScriptMs.toFixed(0)} ms; the entry ran from ${breakdown.earlyStartMs.toFixed(0)} ms; ` +
        `API calls from ${breakdown.firstApiStartMs.toFixed(0)} ` +
        `to ${breakdown.lastApiEndMs.toFixed(0)} ms`,
    );
    // The waterfall on demand: which request waits for which.
    if (process.env.BENCH_COLD_LOAD_REQUESTS === '1') {
      for (const request of [...breakdown.requests].sort((a, b) => a.startMs - b.startMs)) {
        options.log(
          `  ${request.startMs.toFixed(0).padStart(5)}–${request.endMs.toFixed(0).padEnd(5)} ms ${request.path.slice(0, 140)}`,
        );
      }
    }
  }
  const staticPage = await measure(
    'console-cold-load static /buildtime.txt',
    options.rounds,
    () => staticPageRound(options),
    (ms) => ms,
  );
  options.log(
    line('console-cold-load static /buildtime.txt (same server, same way)', staticPage.stats),
  );
  return [fleetList.stats, staticPage.stats];
};
