import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { Link } from 'react-router';
import type { RolloutDevice } from './api.js';

// Each device's state in the rollout and why it failed (failed devices first).
export const RolloutDevices = ({ devices }: { devices: RolloutDevice[] }) =>
  devices.length === 0 ? (
    <Typography color="text.secondary">The fleet had no devices to roll out to.</Typography>
  ) : (
    <Table size="small" aria-label="Devices in the rollout">
      <TableHead>
        <TableRow>
          <TableCell>Device</TableCell>
          <TableCell>Wave</TableCell>
          <TableCell>State</TableCell>
          <TableCell>Reason</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {devices.map((device) => (
          <TableRow key={device.id}>
            <TableCell>
              <Link to={`/devices/${device.uuid}`}>{device.device_name}</Link>
            </TableCell>
            <TableCell>{device.wave}</TableCell>
            <TableCell>{device.state.replaceAll('_', ' ')}</TableCell>
            <TableCell>{device.reason ?? ''}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
