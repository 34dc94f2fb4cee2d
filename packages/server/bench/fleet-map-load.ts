import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { defaultConsoleDir } from '../src/features/console/register-console.js';
import { loadConfig } from '../src/infra/config/config.js';
import { startServer } from '../src/start-server.js';

// Issue 10: the fleet map view with 10,000 devices (MAP_DEVICES) in headless Chromium, on the
// built console. A measurement printed, never asserted: time from navigation start to the frame
// after the first markers, frame gaps and long tasks while loading, then while zooming in four
// steps and dragging three times. Seeding 10,000 devices through the API is too slow for the
// browser suite on 2 cores, so this throwaway server gets them by SQL.
//   npm run build && npx tsx --conditions=source packages/server/bench/fleet-map-load.ts

const count = Number(process.env.MAP_DEVICES ?? 10_000);
const rounds = Number(process.env.MAP_ROUNDS ?? 3);
const email = 'owner@map.flotilla.test';
const password = 'a-good-password';

// Page scripts are strings: this package is type-checked without the DOM library.
const frameRecorder = `
  localStorage.setItem('flotilla.cookies', '{"essentials":true,"analytics":false}');
  window.__frames = []; window.__long = [];
  let last = performance.now();
  const tick = (now) => { window.__frames.push(now - last); last = now; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__long.push(entry.duration);
  }).observe({ type: 'longtask', buffered: true });`;

// Frame gaps and long tasks since the last call (which starts a new window).
const takeFrames = `(() => {
  const frames = window.__frames.slice(1).sort((a, b) => a - b);
  const long = window.__long;
  window.__frames = []; window.__long = [];
  const at = (q) => Math.round(frames[Math.min(frames.length - 1, Math.floor(frames.length * q))] ?? 0);
  return { frames: frames.length, p50Ms: at(0.5), p95Ms: at(0.95), maxMs: at(1),
           over50ms: frames.filter((gap) => gap > 50).length,
           longTasks: long.length, longestTaskMs: Math.round(Math.max(0, ...long)) };
})()`;

const api = async <T>(baseUrl: string, route: string, body: unknown, token?: string) => {
  const response = await fetch(`${baseUrl}${route}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${route}: ${response.status} ${text}`);
  // The sign-up answers the session token as plain text, /v7 answers JSON.
  return (response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text) as T;
};

const dataDir = await mkdtemp(path.join(tmpdir(), 'flotilla-map-'));
const server = await startServer(
  loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    FLOTILLA_DATA_DIR: dataDir,
    FLOTILLA_CONSOLE_DIR: defaultConsoleDir,
    FLOTILLA_LOG_LEVEL: 'warn',
    FLOTILLA_DEMO: 'off',
    FLOTILLA_MAP_TILE_URL: '',
    FLOTILLA_REQUIRE_EMAIL_VERIFICATION: 'off',
  }),
  () => undefined,
);
const baseUrl = server.url.replace('127.0.0.1', 'localhost');
try {
  const token = await api<string>(baseUrl, '/user/register', { email, password });
  const { rows } = await server.ctx.db.query<{ organization: number; device_type: number }>(
    `SELECT (SELECT "id" FROM "organization" ORDER BY "id" DESC LIMIT 1) AS "organization",
            (SELECT "id" FROM "device_type" WHERE "slug" = 'raspberrypi4-64') AS "device_type"`,
  );
  const ids = rows[0];
  if (!ids) throw new Error('no organization');
  const fleet = await api<{ id: number }>(
    baseUrl,
    '/v7/application',
    { app_name: 'Map-10k', organization: ids.organization, is_for__device_type: ids.device_type },
    token,
  );
  // Forty places ±2 degrees, a third offline and a twentieth deactivated.
  await server.ctx.db.query(
    `INSERT INTO "device" ("device_name", "is_of__device_type", "belongs_to__application",
                           "custom_latitude", "custom_longitude", "is_active",
                           "is_connected_to_vpn", "api_heartbeat_state", "last_contact_at")
     SELECT 'map-' || g, $2, $3,
            round(((g % 40) * 3.7 - 60 + random() * 4 - 2)::numeric, 5)::text,
            round(((g % 40) * 8.9 - 170 + random() * 4 - 2)::numeric, 5)::text,
            g % 20 <> 0, g % 3 <> 0,
            CASE WHEN g % 3 <> 0 THEN 'online' ELSE 'offline' END,
            CASE WHEN g % 3 <> 0 THEN now() END
       FROM generate_series(1, $1::int) g`,
    [count, ids.device_type, fleet.id],
  );
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  try {
    for (let round = 1; round <= rounds; round++) {
      const context = await browser.newContext({
        baseURL: baseUrl,
        viewport: { width: 1366, height: 860 },
      });
      await context.addInitScript({ content: frameRecorder });
      const page = await context.newPage();
      await page.goto('/login');
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Log in', exact: true }).click();
      await page.getByRole('heading', { name: 'Fleets', level: 1 }).waitFor();
      await page.goto(`/fleets/${fleet.id}/devices?view=map`);
      await page
        .getByRole('status')
        .filter({ hasText: `${count} on the map` })
        .waitFor({ timeout: 120_000 });
      const markers = page.locator('.leaflet-marker-icon, path.leaflet-interactive');
      await markers.first().waitFor();
      const renderedMs = await page.evaluate(
        'new Promise((resolve) => requestAnimationFrame(() => resolve(Math.round(performance.now()))))',
      );
      const drawn = await markers.count();
      const loading = await page.evaluate(takeFrames);
      const box = await page.getByRole('region', { name: 'Fleet map' }).boundingBox();
      for (let step = 0; step < 4; step++) {
        await page.locator('.leaflet-control-zoom-in').click();
        await page.waitForTimeout(400);
      }
      for (let drag = 0; drag < 3 && box; drag++) {
        const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
        await page.mouse.move(x, y);
        await page.mouse.down();
        await page.mouse.move(x - 200, y - 80, { steps: 15 });
        await page.mouse.up();
        await page.waitForTimeout(300);
      }
      const interacting = await page.evaluate(takeFrames);
      console.log(
        JSON.stringify({
          round,
          devices: count,
          renderedMs,
          markersDrawn: drawn,
          loading,
          interacting,
        }),
      );
      await context.close();
    }
  } finally {
    await browser.close();
  }
} finally {
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
}
