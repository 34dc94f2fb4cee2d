import { existsSync } from 'node:fs';
import path from 'node:path';
import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { consoleRoutes } from './router.js';
import { routePreloads } from './route-preloads.js';

const webRoot = path.resolve(import.meta.dirname, '..', '..');
const routes = consoleRoutes();

// The server adds these preloads to index.html (route-preloads.ts): each pattern must name real
// screens, and the build fails when a listed module is not a chunk of its own.
describe('route preloads', () => {
  it.each(routePreloads)(
    '$example is a screen of the console, and its pattern matches it',
    (preload) => {
      expect(new RegExp(preload.pattern).test(preload.example)).toBe(true);
      const matched = matchRoutes(routes, preload.example) ?? [];
      expect(matched.length).toBeGreaterThan(0);
      expect(matched.at(-1)?.route.path).not.toBe('*');
      for (const module of preload.modules)
        expect(existsSync(path.join(webRoot, module))).toBe(true);
    },
  );

  it('never matches the pages that are not those screens', () => {
    const others = [
      '/fleets/12/settings',
      '/devices/abc/envvars',
      '/preferences',
      '/login/two-factor',
    ];
    for (const url of others) {
      const hits = routePreloads.filter((preload) => new RegExp(preload.pattern).test(url));
      expect(hits, url).toEqual([]);
    }
  });
});
