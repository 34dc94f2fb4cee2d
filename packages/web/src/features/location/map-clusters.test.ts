import { describe, expect, it } from 'vitest';
import { clusterPoints, statusMarkerColor } from './map-clusters.js';

const at = (item: string, x: number, y: number) => ({ item, x, y, latitude: y, longitude: x });

describe('clusterPoints', () => {
  it('groups points of one screen cell and keeps the others apart', () => {
    const clusters = clusterPoints([at('a', 1, 1), at('b', 10, 30), at('c', 100, 1)], 48);
    expect(clusters.map((cluster) => cluster.items)).toEqual([['a', 'b'], ['c']]);
    expect(clusters[0]).toMatchObject({ latitude: 15.5, longitude: 5.5 });
  });

  it('merges clusters of neighbouring cells that would draw overlapping markers', () => {
    // Either side of a cell border, 2 px apart: two cells, one marker.
    const clusters = clusterPoints([at('a', 47, 10), at('b', 49, 10), at('c', 300, 10)], 48, 56);
    expect(clusters.map((cluster) => cluster.items)).toEqual([['a', 'b'], ['c']]);
    expect(clusters[0]).toMatchObject({ latitude: 10, longitude: 48 });
  });

  it('leaves every pair of markers at least the gap apart', () => {
    // A dense lattice (every 20 px) across many cells, merged until no two centres are close.
    const points = Array.from({ length: 400 }, (_, index) =>
      at(`d${index}`, (index % 20) * 20 + (index % 7), Math.floor(index / 20) * 20),
    );
    const clusters = clusterPoints(points, 48, 56);
    expect(clusters.flatMap((cluster) => cluster.items)).toHaveLength(400);
    for (const [i, one] of clusters.entries()) {
      for (const other of clusters.slice(i + 1)) {
        const distance = Math.hypot(one.longitude - other.longitude, one.latitude - other.latitude);
        expect(distance).toBeGreaterThanOrEqual(56);
      }
    }
  });

  it('draws ten thousand devices in one place as one marker', () => {
    const points = Array.from({ length: 10_000 }, (_, index) => at(`d${index}`, index % 40, 7));
    const clusters = clusterPoints(points, 48);
    expect(clusters).toHaveLength(1);
    expect(clusters[0]?.items).toHaveLength(10_000);
  });

  it('colours markers by status', () => {
    expect(statusMarkerColor('operational')).not.toBe(statusMarkerColor('disconnected'));
    expect(statusMarkerColor('unknown-status')).toBe(statusMarkerColor('inactive'));
  });
});
