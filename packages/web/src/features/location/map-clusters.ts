// Client-side clustering of the fleet map: devices whose markers would fall in the same square of
// `cellPx` screen pixels at the current zoom become one cluster marker (seed-free, O(n) per
// zoom or pan), so thousands of devices draw as a few dozen markers.

export type Located<T> = { item: T; x: number; y: number; latitude: number; longitude: number };

export type Cluster<T> = {
  items: T[];
  // The mean position of the members (where the marker goes).
  latitude: number;
  longitude: number;
};

export const clusterCellPx = 48;

export const clusterPoints = <T>(
  points: readonly Located<T>[],
  cellPx: number = clusterCellPx,
): Cluster<T>[] => {
  const cells = new Map<string, { items: T[]; latitude: number; longitude: number }>();
  for (const point of points) {
    const key = `${Math.floor(point.x / cellPx)}:${Math.floor(point.y / cellPx)}`;
    const cell = cells.get(key);
    if (cell) {
      cell.items.push(point.item);
      cell.latitude += point.latitude;
      cell.longitude += point.longitude;
    } else {
      cells.set(key, {
        items: [point.item],
        latitude: point.latitude,
        longitude: point.longitude,
      });
    }
  }
  return [...cells.values()].map((cell) => ({
    items: cell.items,
    latitude: cell.latitude / cell.items.length,
    longitude: cell.longitude / cell.items.length,
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
