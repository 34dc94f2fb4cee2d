import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { featureCycles, featureImports } from './feature-graph.js';
import { webFeatureImports } from './import-boundaries.mjs';

const consoleSources = fileURLToPath(new URL('../../packages/web/src', import.meta.url));

// The console's features stand on the floor (ui/, api/, fleet/, device/); the few imports
// between features are listed in webFeatureImports with a reason, and point one way only.
const mostFeatureImports = 40;

describe('feature cycles', () => {
  it('finds features that import each other, directly or round a loop', () => {
    const edges = [
      { from: 'a', to: 'b' },
      { from: 'b', to: 'c' },
      { from: 'c', to: 'a' },
      { from: 'd', to: 'e' },
      { from: 'e', to: 'd' },
      { from: 'e', to: 'f' },
    ];
    expect(featureCycles(edges)).toEqual([
      ['a', 'b', 'c'],
      ['d', 'e'],
    ]);
  });

  it('finds none where imports point one way', () => {
    expect(
      featureCycles([
        { from: 'a', to: 'b' },
        { from: 'b', to: 'c' },
        { from: 'a', to: 'c' },
      ]),
    ).toEqual([]);
  });
});

describe('the console', () => {
  const imports = featureImports(consoleSources);

  it('reads the imports between its features', () => {
    // The device page embedding the logs panel is one of them.
    expect(imports).toContainEqual(expect.objectContaining({ from: 'devices', to: 'device-logs' }));
  });

  it('has no import cycle between features', () => {
    expect(featureCycles(imports)).toEqual([]);
  });

  it(`has at most ${mostFeatureImports} imports from one feature into another`, () => {
    expect(imports.length).toBeLessThanOrEqual(mostFeatureImports);
  });

  it('imports from one feature into another exactly along the listed pairs', () => {
    const pair = ({ from, to }: { from: string; to: string }) => `${from} → ${to}`;
    const used = new Set(imports.map(pair));
    const listed = new Set(webFeatureImports.map(pair));
    expect(
      [...used].filter((item) => !listed.has(item)),
      'imported, not listed',
    ).toEqual([]);
    expect(
      [...listed].filter((item) => !used.has(item)),
      'listed, not imported',
    ).toEqual([]);
  });

  it('says why for every listed pair, each listed once', () => {
    for (const item of webFeatureImports)
      expect(item.why.length, `${item.from} → ${item.to}`).toBeGreaterThan(10);
    expect(new Set(webFeatureImports.map((item) => `${item.from} → ${item.to}`)).size).toBe(
      webFeatureImports.length,
    );
  });
});
