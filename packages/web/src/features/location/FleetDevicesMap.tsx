import 'leaflet/dist/leaflet.css';
import type { PineFilter } from '@flotilla/sdk/pine';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import L from 'leaflet';
import { useEffect, useMemo, useRef } from 'react';
import { useNavigate } from 'react-router';
import { type MapDevice, useFleetMapDevices, useMapConfig } from './api.js';
import { tileNotice, useTileLayer } from './useTileLayer.js';
import { statusLabel } from '../../device/device-format.js';
import {
  type Cluster,
  clusterMaxRadiusPx,
  clusterPoints,
  statusMarkerColor,
} from './map-clusters.js';

// The popup of one device: built from elements (a device name is text, never markup).
const devicePopup = (device: MapDevice): HTMLElement => {
  const box = document.createElement('div');
  const link = document.createElement('a');
  link.href = `/devices/${device.uuid}`;
  link.dataset.deviceLink = device.uuid;
  link.textContent = device.device_name;
  const status = document.createElement('div');
  status.textContent = statusLabel(device.overall_status);
  box.append(link, status);
  return box;
};

const drawCluster = (layer: L.LayerGroup, map: L.Map, cluster: Cluster<MapDevice>): void => {
  const [only] = cluster.items;
  const position: L.LatLngTuple = [cluster.latitude, cluster.longitude];
  if (cluster.items.length === 1 && only) {
    L.circleMarker(position, {
      radius: 7,
      color: statusMarkerColor(only.overall_status),
      fillOpacity: 0.85,
    })
      .bindPopup(devicePopup(only))
      .addTo(layer);
    return;
  }
  const count = cluster.items.length;
  // A cluster takes the colour of its most common status.
  const byStatus = new Map<string, number>();
  for (const item of cluster.items) {
    byStatus.set(item.overall_status, (byStatus.get(item.overall_status) ?? 0) + 1);
  }
  const common = [...byStatus.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
  L.circleMarker(position, {
    radius: Math.min(clusterMaxRadiusPx, 10 + Math.log2(count) * 2.5),
    color: statusMarkerColor(common),
    fillOpacity: 0.6,
  })
    .bindTooltip(String(count), {
      permanent: true,
      direction: 'center',
      className: 'cluster-count',
    })
    .on('click', () => map.setView(position, Math.min(map.getMaxZoom(), map.getZoom() + 2)))
    .addTo(layer);
};

// The fleet's devices on a map: markers coloured by status, clustered
// on the client, popups linking to the device. Only the clusters on screen are drawn, so
// thousands of devices stay smooth.
export const FleetDevicesMap = ({
  fleetId,
  filter,
}: {
  fleetId: number;
  filter: PineFilter<'device'>;
}) => {
  const navigate = useNavigate();
  const config = useMapConfig();
  const devices = useFleetMapDevices(fleetId, filter);
  const container = useRef<HTMLDivElement | null>(null);
  const map = useRef<L.Map | null>(null);
  const layer = useRef<L.LayerGroup | null>(null);
  const fitted = useRef(false);
  const tiles = config.data?.mapTiles;
  const located = useMemo(() => devices.data?.located ?? [], [devices.data]);

  useEffect(() => {
    const element = container.current;
    if (!element) return undefined;
    const created = L.map(element, { center: [20, 0], zoom: 2 });
    map.current = created;
    layer.current = L.layerGroup().addTo(created);
    // Device links in popups navigate inside the console.
    const onClick = (event: MouseEvent): void => {
      const target = event.target;
      if (!(target instanceof HTMLAnchorElement) || !target.dataset.deviceLink) return;
      event.preventDefault();
      void navigate(`/devices/${target.dataset.deviceLink}`);
    };
    element.addEventListener('click', onClick);
    return () => {
      element.removeEventListener('click', onClick);
      created.remove();
      map.current = null;
      layer.current = null;
      fitted.current = false;
    };
  }, [navigate]);

  const tileState = useTileLayer(map, tiles);
  const notice = tileNotice(tileState, tiles);

  useEffect(() => {
    const current = map.current;
    const markers = layer.current;
    if (!current || !markers) return undefined;
    const draw = (): void => {
      markers.clearLayers();
      const zoom = current.getZoom();
      // Only what is on screen (and a margin) is drawn: a few hundred markers at most.
      const visible = current.getBounds().pad(0.5);
      const onScreen = located.filter((device) =>
        visible.contains([device.latitude, device.longitude]),
      );
      const points = onScreen.map((device) => {
        const pixel = current.project([device.latitude, device.longitude], zoom);
        return {
          item: device,
          x: pixel.x,
          y: pixel.y,
          latitude: device.latitude,
          longitude: device.longitude,
        };
      });
      for (const cluster of clusterPoints(points)) drawCluster(markers, current, cluster);
    };
    if (!fitted.current && located.length > 0) {
      fitted.current = true;
      current.fitBounds(
        L.latLngBounds(located.map((device): L.LatLngTuple => [device.latitude, device.longitude])),
        { padding: [32, 32], maxZoom: 12 },
      );
    }
    draw();
    current.on('moveend', draw);
    return () => {
      current.off('moveend', draw);
    };
  }, [located]);

  const unlocated = devices.data?.unlocated ?? 0;
  return (
    <Box>
      <Box
        ref={container}
        role="region"
        aria-label="Fleet map"
        aria-busy={devices.isPending}
        data-markers={located.length}
        sx={{ height: 520, bgcolor: 'grey.100', borderRadius: 1 }}
      />
      {notice === null ? null : (
        <Alert severity="info" sx={{ mt: 1 }}>
          {notice}
        </Alert>
      )}
      <Typography variant="body2" color="text.secondary" sx={{ p: 1 }} role="status">
        {devices.isSuccess
          ? `${located.length} on the map${unlocated > 0 ? `, ${unlocated} without a location` : ''}`
          : 'Loading the devices…'}
      </Typography>
    </Box>
  );
};
