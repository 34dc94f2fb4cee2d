// Client-side clustering of the fleet map: devices whose markers would fall in the same square of
// `cellPx` screen pixels at the current zoom become one cluster marker, and clusters whose
// markers would overlap merge (O(n) per zoom or pan, plus a few passes over the clusters), so
// thousands of devices draw as a few dozen markers that do not cover one another.

export type Located<T> = { item: T; x: number; y: number; latitude: number; longitude: number };

export type Cluster<T> = {
  items: T[];
  // The mean position of the members (where the marker goes).
  latitude: number;
  longitude: number;
};

export const clusterCellPx = 48;
// The largest cluster marker's radius (FleetDevicesMap draws it).
export const clusterMaxRadiusPx = 28;
// Markers drawn closer than this could overlap: two of the largest touch at this distance.
export const clusterMinGapPx = 2 * clusterMaxRadiusPx;

// Members with the sums of their positions (means are taken at the end).
type Group<T> = { items: T[]; x: number; y: number; latitude: number; longitude: number };

const centreOf = <T>(group: Group<T>) => ({
  x: group.x / group.items.length,
  y: group.y / group.items.length,
});

const absorb = <T>(into: Group<T>, group: Group<T>): void => {
  // concat, not push(...): a spread of thousands of members can overflow the call stack.
  into.items = into.items.concat(group.items);
  into.x += group.x;
  into.y += group.y;
  into.latitude += group.latitude;
  into.longitude += group.longitude;
};

// Clusters of neighbouring grid cells can sit a few pixels apart (the cell border runs between
// them): groups whose centres are closer than `gap` merge, until none are. Each pass hashes the
// centres into cells of `gap` pixels, so only the 3x3 neighbourhood is compared; a pass without
// a merge proves every pair at least `gap` apart, and every merge shrinks the list, so it ends.
const mergeClose = <T>(groups: Group<T>[], gap: number): Group<T>[] => {
  let current = groups;
  for (;;) {
    const grid = new Map<string, Group<T>[]>();
    const kept: Group<T>[] = [];
    let merged = false;
    for (const group of current) {
      const centre = centreOf(group);
      const column = Math.floor(centre.x / gap);
      const row = Math.floor(centre.y / gap);
      let near: Group<T> | undefined;
      for (let dx = -1; dx <= 1 && !near; dx++) {
        for (let dy = -1; dy <= 1 && !near; dy++) {
          near = grid.get(`${column + dx}:${row + dy}`)?.find((other) => {
            const at = centreOf(other);
            return Math.hypot(at.x - centre.x, at.y - centre.y) < gap;
          });
        }
      }
      if (near) {
        absorb(near, group);
        merged = true;
        continue;
      }
      kept.push(group);
      const key = `${column}:${row}`;
      grid.set(key, [...(grid.get(key) ?? []), group]);
    }
    if (!merged) return kept;
    current = kept;
  }
};

export const clusterPoints = <T>(
  points: readonly Located<T>[],
  cellPx: number = clusterCellPx,
  gapPx: number = clusterMinGapPx,
): Cluster<T>[] => {
  const cells = new Map<string, Group<T>>();
  for (const point of points) {
    const key = `${Math.floor(point.x / cellPx)}:${Math.floor(point.y / cellPx)}`;
    const cell = cells.get(key);
    if (cell) {
      cell.items.push(point.item);
      cell.x += point.x;
      cell.y += point.y;
      cell.latitude += point.latitude;
      cell.longitude += point.longitude;
    } else {
      cells.set(key, {
        items: [point.item],
        x: point.x,
        y: point.y,
        latitude: point.latitude,
        longitude: point.longitude,
      });
    }
  }
  return mergeClose([...cells.values()], gapPx).map((group) => ({
    items: group.items,
    latitude: group.latitude / group.items.length,
    longitude: group.longitude / group.items.length,
  }));
};

// The colour of a status on the map (the table's chip colours).
export const statusMarkerColor = (status: string): string => {
  switch (status) {
    case 'operational':
      return '#2e7d32';
    case 'updating':
    case 'configuring':
    case 'post-provisioning':
      return '#0288d1';
    case 'reduced-functionality':
      return '#ed6c02';
    case 'disconnected':
      return '#d32f2f';
    default:
      return '#757575';
  }
};
