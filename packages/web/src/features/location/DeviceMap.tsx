import 'leaflet/dist/leaflet.css';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useMapConfig } from './api.js';
import { tileNotice, useTileLayer } from './useTileLayer.js';

export type MapPoint = { latitude: number; longitude: number };

const zoomOnPoint = 11;
const worldCenter: L.LatLngTuple = [20, 0];

// A Leaflet map with one marker (a vector circle: no marker images to load). Tiles come from
// the server's configuration; without a tile URL, or when tiles fail to load, the map still shows
// the marker, says why its background is blank, and the page stays usable.
export const DeviceMap = ({ point, label }: { point: MapPoint | null; label: string }) => {
  const config = useMapConfig();
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

  const tileState = useTileLayer(map, tiles);
  const notice = tileNotice(tileState, tiles);

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
    <>
      <Box
        ref={container}
        role="region"
        aria-label="Map"
        sx={{
          height: 360,
          borderRadius: 1,
          border: 1,
          borderColor: 'divider',
          bgcolor: 'grey.100',
        }}
      />
      {notice === null ? null : (
        <Alert severity="info" sx={{ mt: 1 }}>
          {notice}
        </Alert>
      )}
    </>
  );
};
