import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { buildInfoPlugin } from './scripts/build-info-plugin.js';
import { firstScreenChunkName } from './scripts/first-screen-chunks.js';
import { lazyNumberFormatPlugin } from './scripts/lazy-number-format-plugin.js';
import { precompressPlugin } from './scripts/precompress-plugin.js';
import { previousAssetsPlugin } from './scripts/previous-assets-plugin.js';
import { routePreloadsPlugin } from './scripts/route-preloads-plugin.js';
import { routePreloads } from './src/app/route-preloads.js';

// The console is served by the Flotilla server from packages/web/dist (same origin as the API).
// `npm run dev -w packages/web` serves it with hot reload and proxies API calls to FLOTILLA_API.
const api = process.env.FLOTILLA_API ?? 'http://localhost:8080';
const apiPaths = [
  '/v7',
  '/login_',
  '/actor',
  '/user',
  '/api-key',
  '/config',
  '/device-types',
  '/device',
  '/supervisor',
  '/ping',
  '/auth',
  '/application',
  '/download-config',
  '/docs/v1',
  '/CHANGELOG.md',
  '/cloudlink',
];

// One timestamp baked into the bundle and written to buildtime.txt, compared by the version check.
const buildTime = new Date().toISOString();

// React Router's package exports only its development build (dev warnings and checks on, ~28 ms
// of a cold load's CPU in the bench's profile; remix-run/react-router#14753); a production build
// of the console takes the production build it ships beside it. Tests and `vite dev` keep the
// development one.
const reactRouterProduction = fileURLToPath(
  import.meta.resolve('react-router').replace('/dist/development/', '/dist/production/'),
);

// The fleet list's route modules (the first entry of the preloads table): the library and shared
// chunks are split by what they reach (scripts/first-screen-chunks.ts).
const firstScreenChunk = firstScreenChunkName(import.meta.dirname, routePreloads[0]?.modules ?? []);
const mui = /node_modules[\\/]@mui[\\/](?!x-)/;
const ours = /[\\/]packages[\\/]/;

export default defineConfig(({ command }) => ({
  plugins: [
    react(),
    lazyNumberFormatPlugin(),
    buildInfoPlugin(buildTime),
    routePreloadsPlugin(import.meta.dirname, routePreloads),
    precompressPlugin(),
    previousAssetsPlugin(),
  ],
  define: { __FLOTILLA_BUILD_TIME__: JSON.stringify(buildTime) },
  resolve: {
    conditions: ['source'],
    alias:
      command === 'build' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : [],
  },
  // 'hidden' source maps: written beside the bundle, but no sourceMappingURL comment; the server
  // serves them (and points at them with a SourceMap header) only with FLOTILLA_SERVE_SOURCE_MAPS.
  build: {
    outDir: 'dist',
    sourcemap: 'hidden',
    manifest: true,
    chunkSizeWarningLimit: 600,
    // Fewer, larger lazy chunks (issue 8, cold load): left alone, Rolldown split the console's
    // MUI components into ~45 files of a few hundred bytes each, so the fleet list loaded 61
    // scripts, each costing the browser and the server a request. The initial modules stay one
    // chunk (the entry, whose budget bundle-report.mjs checks); every lazily used MUI module goes
    // in one shared chunk. Measured by the bench's cold-load line (61 → 25 scripts for /fleets).
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'initial', tags: ['$initial'], priority: 30 },
            // What the fleet list uses of those two first, in chunks of their own, so that it
            // loads neither of the others (scripts/first-screen-chunks.ts). Above them: a group
            // takes the modules it captures' dependencies with it.
            {
              name: firstScreenChunk('mui-first'),
              debugName: 'mui-first',
              test: mui,
              priority: 25,
            },
            {
              name: firstScreenChunk('shared-first'),
              debugName: 'shared-first',
              test: ours,
              minShareCount: 3,
              priority: 24,
            },
            { name: 'mui', test: mui, priority: 20 },
            // The chart library is used by the device metric history alone: its own chunk, not
            // ~90 kB more in the chunk every page loads. Below 'mui', so the MUI modules it
            // uses (which a group takes with it) stay in that chunk and nothing else needs this one.
            { name: 'charts', test: /node_modules[\\/]@mui[\\/]x-/, priority: 10 },
            // Our modules that three or more lazy chunks share, in one chunk (~23 kB gzip) instead
            // of dozens of files of a few hundred bytes: a landing page loads 6-8 scripts, not
            // 20-30, which over HTTP/1.1's six connections per host put the last script of the
            // fleet list at ~100 ms instead of ~200 ms on loopback (bench cold-load breakdown).
            { name: 'shared', test: ours, minShareCount: 3, priority: 5 },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: Object.fromEntries(apiPaths.map((path) => [path, { target: api, changeOrigin: true }])),
  },
}));
