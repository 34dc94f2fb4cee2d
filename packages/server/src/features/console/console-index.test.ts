import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { anonymous } from '../../infra/auth/actor.js';
import { createApp } from '../../infra/http/create-app.js';
import { createIndexPages } from './console-index.js';
import { registerConsole } from './register-console.js';

const dir = mkdtempSync(path.join(tmpdir(), 'flotilla-console-index-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const indexHtml =
  '<!doctype html><html><head><script type="module" crossorigin src="/assets/index-A1.js"></script>\n  </head><body><div id="root"></div></body></html>';
const fleetsLink = '<link rel="modulepreload" crossorigin href="/assets/FleetsPage-B2.js">';
let generation = 0;
// Each write gets a later modification time, as a new build would.
const write = (file: string, content: string): void => {
  const target = path.join(dir, file);
  writeFileSync(target, content);
  generation += 1;
  const time = new Date(Date.UTC(2026, 0, 1, 0, 0, generation));
  utimesSync(target, time, time);
};
write('index.html', indexHtml);
write(
  'route-preloads.json',
  JSON.stringify([
    { pattern: '^/fleets/?$', files: ['/assets/FleetsPage-B2.js', '/assets/Card-C3.js'] },
  ]),
);

describe("the console's index.html per URL", () => {
  it('lists the chunks of the screen at that URL as modulepreload links after the entry', () => {
    const pages = createIndexPages(dir);
    const fleets = pages('/fleets');
    expect(fleets.html).toContain(fleetsLink);
    expect(fleets.html).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/Card-C3.js">',
    );
    expect(fleets.html.indexOf(fleetsLink)).toBeGreaterThan(fleets.html.indexOf('index-A1.js'));
    expect(fleets.html.indexOf(fleetsLink)).toBeLessThan(fleets.html.indexOf('</head>'));
    // Another URL gets the build's file as it is, with its own ETag.
    const other = pages('/orgs/3/members');
    expect(other.html).toBe(indexHtml);
    expect(other.etag).not.toBe(fleets.etag);
    expect(pages('/fleets').etag).toBe(fleets.etag);
  });

  it('follows a new build, and ignores a preload file it cannot trust', () => {
    const pages = createIndexPages(dir);
    const before = pages('/fleets');
    write(
      'route-preloads.json',
      JSON.stringify([{ pattern: '^/fleets/?$', files: ['/assets/FleetsPage-D4.js'] }]),
    );
    const after = pages('/fleets');
    expect(after.html).toContain('/assets/FleetsPage-D4.js');
    expect(after.etag).not.toBe(before.etag);
    // Only bundle files are ever linked: anything else drops the preloads, not the page.
    write(
      'route-preloads.json',
      JSON.stringify([{ pattern: '^/fleets/?$', files: ['https://elsewhere.example/x.js'] }]),
    );
    expect(pages('/fleets').html).toBe(indexHtml);
    write('route-preloads.json', '{not json');
    expect(pages('/fleets').html).toBe(indexHtml);
  });

  it('is what the server answers, with an ETag a revalidation matches', async () => {
    write(
      'route-preloads.json',
      JSON.stringify([{ pattern: '^/fleets/?$', files: ['/assets/FleetsPage-B2.js'] }]),
    );
    const app = createApp({ logLevel: 'silent', resolveActor: async () => anonymous });
    registerConsole(app, { dir });
    const page = await app.inject({ url: '/fleets', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(fleetsLink);
    const again = await app.inject({
      url: '/fleets',
      headers: { accept: 'text/html', 'if-none-match': String(page.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    const root = await app.inject({ url: '/', headers: { accept: 'text/html' } });
    expect(root.body).toBe(indexHtml);
  });
});
