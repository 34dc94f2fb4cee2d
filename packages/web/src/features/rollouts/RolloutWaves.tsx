import { describeWave } from '@flotilla/shared/rollouts/rollout-types';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { RolloutWave } from './api.js';

const countsText = (counts: RolloutWave['counts']): string =>
  Object.entries(counts)
    .map(([state, count]) => `${count} ${state.replaceAll('_', ' ')}`)
    .join(', ') || 'No devices';

// The waves with their gate status and their devices by state.
export const RolloutWaves = ({ waves }: { waves: RolloutWave[] }) => (
  <Table size="small" aria-label="Waves">
    <TableHead>
      <TableRow>
        <TableCell>Wave</TableCell>
        <TableCell>Devices</TableCell>
        <TableCell>Gate</TableCell>
        <TableCell>States</TableCell>
      </TableRow>
    </TableHead>
    <TableBody>
      {waves.map((wave) => (
        <TableRow key={wave.position}>
          <TableCell>{wave.position}</TableCell>
          <TableCell>{describeWave(wave.spec)}</TableCell>
          <TableCell>
            {wave.status}
            {wave.skip_reason ? ` (${wave.skip_reason})` : ''}
          </TableCell>
          <TableCell>{countsText(wave.counts)}</TableCell>
        </TableRow>
      ))}
    </TableBody>
  </Table>
);
