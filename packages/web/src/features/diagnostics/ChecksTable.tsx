import type { CheckResult } from '@flotilla/shared/diagnostics/diagnostics';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';

// The results of a health checks run: status, name, message.
export const ChecksTable = ({ checks }: { checks: readonly CheckResult[] }) =>
  checks.length === 0 ? (
    <Typography color="text.secondary">The device reported no checks</Typography>
  ) : (
    <Table size="small" aria-label="Health checks">
      <TableHead>
        <TableRow>
          <TableCell>Status</TableCell>
          <TableCell>Check</TableCell>
          <TableCell>Message</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {checks.map((check) => (
          <TableRow key={check.name}>
            <TableCell>
              <Chip
                size="small"
                label={check.success ? 'Passed' : 'Failed'}
                color={check.success ? 'success' : 'error'}
                variant="outlined"
              />
            </TableCell>
            <TableCell sx={{ fontFamily: 'monospace' }}>{check.name}</TableCell>
            <TableCell>{check.status}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
