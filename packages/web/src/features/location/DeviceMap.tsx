import 'leaflet/dist/leaflet.css';
import Box from '@mui/material/Box';
import { useQuery } from '@tanstack/react-query';
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useClient } from '../../api/client.js';
import { configKeys } from '../../api/config/query-keys.js';

export type MapPoint = { latitude: number; longitude: number };

const zoomOnPoint = 11;
const worldCenter: L.LatLngTuple = [20, 0];

// A Leaflet map with one marker (a vector circle: no marker images to load). Tiles come from
// the server's configuration; without a tile URL, or when tiles fail to load, the map still shows
// the marker and the page stays usable.
export const DeviceMap = ({ point, label }: { point: MapPoint | null; label: string }) => {
  const client = useClient();
  const config = useQuery({
    queryKey: configKeys.server,
    queryFn: () => client.config(),
    staleTime: Infinity,
  });
  const container = useRef<HTMLDivElement | null>(null);
  const map = useRef<L.Map | null>(null);
  const marker = useRef<L.CircleMarker | null>(null);
  const tiles = config.data?.mapTiles;

  useEffect(() => {
    const element = container.current;
    if (!element) return undefined;
    const created = L.map(element, { center: worldCenter, zoom: 2, attributionControl: true });
    map.current = created;
    return () => {
      created.remove();
      map.current = null;
      marker.current = null;
    };
  }, []);

  useEffect(() => {
    const current = map.current;
    if (!current || !tiles || tiles.url === '') return undefined;
    const layer = L.tileLayer(tiles.url, { attribution: tiles.attribution, maxZoom: 19 });
    layer.addTo(current);
    return () => {
      layer.remove();
    };
  }, [tiles]);

  // By value: a new object with the same coordinates keeps the user's pan and zoom.
  const latitude = point?.latitude;
  const longitude = point?.longitude;
  useEffect(() => {
    const current = map.current;
    if (!current) return;
    marker.current?.remove();
    marker.current = null;
    if (latitude === undefined || longitude === undefined) {
      current.setView(worldCenter, 2);
      return;
    }
    const position: L.LatLngTuple = [latitude, longitude];
    marker.current = L.circleMarker(position, { radius: 9, color: '#1565c0', fillOpacity: 0.8 })
      .bindTooltip(label)
      .addTo(current);
    current.setView(position, zoomOnPoint);
  }, [latitude, longitude, label]);

  return (
    <Box
      ref={container}
      role="region"
      aria-label="Map"
      sx={{ height: 360, borderRadius: 1, border: 1, borderColor: 'divider', bgcolor: 'grey.100' }}
    />
  );
};
