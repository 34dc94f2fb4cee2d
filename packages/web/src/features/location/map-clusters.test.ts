import { describe, expect, it } from 'vitest';
import { clusterPoints, statusMarkerColor } from './map-clusters.js';

const at = (item: string, x: number, y: number) => ({ item, x, y, latitude: y, longitude: x });

describe('clusterPoints', () => {
  it('groups points of one screen cell and keeps the others apart', () => {
    const clusters = clusterPoints([at('a', 1, 1), at('b', 10, 30), at('c', 100, 1)], 48);
    expect(clusters.map((cluster) => cluster.items)).toEqual([['a', 'b'], ['c']]);
    expect(clusters[0]).toMatchObject({ latitude: 15.5, longitude: 5.5 });
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
