import L from 'leaflet';
import { type RefObject, useEffect, useState } from 'react';

// Whether the map's background shows: `none` when the server configures no tile server,
// `failed` when tiles were asked for and none arrived (the tile server is unreachable or refuses
// this console), so the page can say why the map is blank.
export type TileState = 'none' | 'loading' | 'shown' | 'failed';

export type TileSettings = { url: string; attribution: string };

export const useTileLayer = (
  map: RefObject<L.Map | null>,
  tiles: TileSettings | undefined,
): TileState => {
  // What the tile server did for which URL (a new URL starts over at loading).
  const [outcome, setOutcome] = useState<{ url: string; state: 'shown' | 'failed' } | null>(null);
  useEffect(() => {
    const current = map.current;
    if (!current || !tiles || tiles.url === '') return undefined;
    let loaded = false;
    const layer = L.tileLayer(tiles.url, { attribution: tiles.attribution, maxZoom: 19 });
    layer.on('tileload', () => {
      loaded = true;
      setOutcome({ url: tiles.url, state: 'shown' });
    });
    // One tile failing among loaded ones is a gap, not a blank map.
    layer.on('tileerror', () => {
      if (!loaded) setOutcome({ url: tiles.url, state: 'failed' });
    });
    layer.addTo(current);
    return () => {
      layer.remove();
    };
  }, [map, tiles]);
  if (!tiles) return 'loading';
  if (tiles.url === '') return 'none';
  return outcome?.url === tiles.url ? outcome.state : 'loading';
};

export const tileNotice = (state: TileState, tiles: TileSettings | undefined): string | null => {
  if (state === 'none') {
    return 'No map tiles are configured on this server: devices are placed on a blank map.';
  }
  if (state !== 'failed' || !tiles) return null;
  const host = /^https?:\/\/([^/?#]+)/i.exec(tiles.url)?.[1] ?? tiles.url;
  return `The map tiles could not be loaded from ${host}: devices are placed on a blank map.`;
};
