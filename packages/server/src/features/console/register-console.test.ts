import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, brotliDecompressSync, gzipSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { anonymous } from '../../infra/auth/actor.js';
import { createApp } from '../../infra/http/create-app.js';
import { type ConsoleOptions, registerConsole } from './register-console.js';

const dir = mkdtempSync(path.join(tmpdir(), 'flotilla-console-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const script = `export const rows = ${JSON.stringify(Array.from({ length: 300 }, (_, i) => i))};\n`;
const indexHtml =
  '<!doctype html><html><head><script type="module" crossorigin src="/assets/index-AbC123.js"></script></head><body><div id="root"></div></body></html>';
const write = (file: string, content: string | Buffer): void => {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  writeFileSync(path.join(dir, file), content);
};
write('index.html', indexHtml);
write('buildtime.txt', '2026-01-01T00:00:00.000Z');
write('assets/index-AbC123.js', script);
write('assets/index-AbC123.js.br', brotliCompressSync(script));
write('assets/index-AbC123.js.gz', gzipSync(script));
write('assets/index-AbC123.js.map', '{"version":3}');
write('.vite/manifest.json', '{}');

const build = (options: ConsoleOptions = {}) => {
  const app = createApp({ logLevel: 'silent', resolveActor: async () => anonymous });
  registerConsole(app, { dir, ...options });
  return app;
};

const asset = '/assets/index-AbC123.js';

describe('the map tiles', () => {
  const imgSrc = async (options: ConsoleOptions): Promise<string> => {
    const page = await build(options).inject({ url: '/devices', headers: { accept: 'text/html' } });
    return (
      String(page.headers['content-security-policy'])
        .split('; ')
        .find((directive) => directive.startsWith('img-src ')) ?? ''
    );
  };

  it('lets every page load images from the configured tile server, and no other', async () => {
    expect(await imgSrc({ mapTileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png' })).toBe(
      "img-src 'self' data: https://tile.openstreetmap.org",
    );
    expect(await imgSrc({ mapTileUrl: 'https://{s}.tiles.example:8443/{z}/{x}/{y}.png' })).toBe(
      "img-src 'self' data: https://*.tiles.example:8443",
    );
    expect(await imgSrc({ mapTileUrl: '' })).toBe("img-src 'self' data:");
    expect(await imgSrc({ mapTileUrl: '/tiles/{z}/{x}/{y}.png' })).toBe("img-src 'self' data:");
    // A placeholder in the host would need a wider source than the operator meant: none.
    expect(await imgSrc({ mapTileUrl: 'https://{r}.example/{z}/{x}/{y}.png' })).toBe(
      "img-src 'self' data:",
    );
  });
});

describe('the command-line login page', () => {
  const formAction = (csp: string): string =>
    csp.split('; ').find((directive) => directive.startsWith('form-action ')) ?? '';
  const cspAt = async (url: string, options: ConsoleOptions = {}): Promise<string> => {
    const page = await build(options).inject({ url, headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    return String(page.headers['content-security-policy']);
  };

  it("may post its form to balena-cli's local server, and only that page", async () => {
    // The path balena-cli 25 opens: the callback encoded twice.
    const callback = encodeURIComponent('http://127.0.0.1:51234/auth').replace(/%/g, '%25');
    expect(formAction(await cspAt(`/login/cli/${callback}`))).toBe(
      "form-action 'self' http://127.0.0.1:51234",
    );
    expect(formAction(await cspAt('/fleets'))).toBe("form-action 'self'");
  });

  it('adds nothing for a target that is neither this computer nor a private network', async () => {
    const callback = encodeURIComponent('http://evil.example:80/auth').replace(/%/g, '%25');
    expect(formAction(await cspAt(`/login/cli/${callback}`))).toBe("form-action 'self'");
    expect(formAction(await cspAt('/login/cli/http%253A%252F%252F203.0.113.7%253A8000'))).toBe(
      "form-action 'self'",
    );
    expect(formAction(await cspAt("/login/cli/http%253A%252F%252F1.2.3.4%2520'none'"))).toBe(
      "form-action 'self'",
    );
  });
});

it("lets the command-line login page post to the operator's networks", async () => {
  const page = await build({ cliLoginAllowedNetworks: ['203.0.113.0/24'] }).inject({
    url: '/login/cli/http%253A%252F%252F203.0.113.7%253A8000',
    headers: { accept: 'text/html' },
  });
  expect(String(page.headers['content-security-policy'])).toContain(
    "form-action 'self' http://203.0.113.7:8000",
  );
});

it('lets pages load pictures from the avatar service only when one is enabled', async () => {
  const imageSources = async (options: ConsoleOptions) => {
    const page = await build(options).inject({ url: '/fleets', headers: { accept: 'text/html' } });
    const csp = String(page.headers['content-security-policy']);
    return csp.split('; ').find((directive) => directive.startsWith('img-src ')) ?? '';
  };
  expect(await imageSources({})).toBe("img-src 'self' data:");
  expect(
    await imageSources({ avatarUrl: 'https://avatars.example.test:8443/a/{hash}?d=404' }),
  ).toBe("img-src 'self' data: https://avatars.example.test:8443");
});

it("lets pages load the chat widget's script, frame and connection only when one is configured", async () => {
  const policyOf = async (options: ConsoleOptions) => {
    const page = await build(options).inject({ url: '/fleets', headers: { accept: 'text/html' } });
    return String(page.headers['content-security-policy']).split('; ');
  };
  const without = await policyOf({});
  expect(without).toContain("script-src 'self'");
  expect(without.some((directive) => directive.startsWith('frame-src'))).toBe(false);
  const withWidget = await policyOf({ chatWidgetUrl: 'https://chat.example.com' });
  expect(withWidget).toContain("script-src 'self' https://chat.example.com");
  expect(withWidget).toContain("frame-src 'self' https://chat.example.com");
  expect(withWidget).toContain(
    "connect-src 'self' https://chat.example.com wss://chat.example.com",
  );
  expect(withWidget).toContain("img-src 'self' data: https://chat.example.com");
});

it('lets pages load Stripe.js and its frames only when card payments are configured', async () => {
  const policyOf = async (options: ConsoleOptions) => {
    const page = await build(options).inject({ url: '/fleets', headers: { accept: 'text/html' } });
    return String(page.headers['content-security-policy']).split('; ');
  };
  expect((await policyOf({})).join('; ')).not.toContain('stripe.com');
  const withCards = await policyOf({ cardPayments: true });
  expect(withCards).toContain(
    "script-src 'self' https://js.stripe.com https://api.stripe.com https://hooks.stripe.com",
  );
  expect(withCards).toContain(
    "frame-src 'self' https://js.stripe.com https://api.stripe.com https://hooks.stripe.com",
  );
  // reCAPTCHA's script (www.google.com, www.gstatic.com) and frame, only with a site key.
  expect((await policyOf({})).join('; ')).not.toContain('google.com');
  const withCaptcha = await policyOf({ recaptcha: true });
  expect(withCaptcha).toContain("script-src 'self' https://www.google.com https://www.gstatic.com");
  expect(withCaptcha).toContain("frame-src 'self' https://www.google.com https://www.gstatic.com");
});

describe('the console files', () => {
  it('serves index.html for page navigations, revalidated with an ETag', async () => {
    const app = build();
    for (const url of ['/', '/fleets/12/settings']) {
      const page = await app.inject({ url, headers: { accept: 'text/html' } });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.headers.etag).toBeTruthy();
      expect(page.body).toBe(indexHtml);
      const again = await app.inject({
        url,
        headers: { accept: 'text/html', 'if-none-match': String(page.headers.etag) },
      });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
    }
  });

  it('gives pages the console CSP: own scripts only, no framing', async () => {
    const page = await build().inject({ url: '/fleets', headers: { accept: 'text/html' } });
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves hashed bundle files precompressed, brotli first, cached for a year', async () => {
    const app = build();
    const br = await app.inject({
      url: asset,
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    // Either JavaScript MIME type is fine for module scripts; nosniff needs a JavaScript one.
    expect(br.headers['content-type']).toMatch(/^(text|application)\/javascript; charset=utf-8$/);
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    const gz = await app.inject({ url: asset, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);
    const plain = await app.inject({ url: asset });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    const text = await app.inject({ url: '/buildtime.txt' });
    expect(text.headers['cache-control']).toBe('no-cache');
  });

  it('serves no source maps unless enabled, then points the browser at them', async () => {
    const off = build();
    expect((await off.inject({ url: `${asset}.map` })).statusCode).toBe(404);
    expect(
      (await off.inject({ url: `${asset}.map`, headers: { accept: 'text/html' } })).statusCode,
    ).toBe(404);
    expect((await off.inject({ url: asset })).headers.sourcemap).toBeUndefined();
    const on = build({ serveSourceMaps: true });
    expect((await on.inject({ url: `${asset}.map` })).body).toBe('{"version":3}');
    expect((await on.inject({ url: asset })).headers.sourcemap).toBe(`${asset}.map`);
  });

  it('answers 404, never index.html, for a missing bundle file, hidden files and API paths', async () => {
    const app = build();
    const html = { accept: 'text/html' };
    expect((await app.inject({ url: '/assets/gone-X1.js', headers: html })).statusCode).toBe(404);
    expect((await app.inject({ url: '/assets/gone-X1.js' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/.vite/manifest.json' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/no/such/api' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/%2e%2e/%2e%2e/package.json' })).statusCode).toBe(404);
  });

  it('says how to build the console when it is not built', async () => {
    const app = createApp({ logLevel: 'silent', resolveActor: async () => anonymous });
    registerConsole(app, { dir: path.join(dir, 'missing') });
    const response = await app.inject({ url: '/', headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(404);
    expect(response.body).toMatch(/npm run build/);
  });
});

describe("the console's index.html", () => {
  it('has no inline script, so script-src needs no unsafe-inline', () => {
    const template = fileURLToPath(new URL('../../../../web/index.html', import.meta.url));
    const scripts = readFileSync(template, 'utf8').match(/<script\b[^>]*>[\s\S]*?<\/script>/g);
    expect(scripts?.length).toBeGreaterThan(0);
    for (const tag of scripts ?? [])
      expect(tag).toMatch(/^<script\b[^>]*\bsrc="[^"]+"[^>]*><\/script>$/);
  });
});
