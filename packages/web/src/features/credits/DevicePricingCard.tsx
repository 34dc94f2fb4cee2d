import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { CreditSummary } from './api.js';
import { dollars } from './money.js';

const rows = [
  { plan: 'Prototype', plain: 200, microservices: 300 },
  { plan: 'Pilot and Production', plain: 150, microservices: 200 },
];

// What a device over the plan's allowance costs per month, and what a credit costs here.
export const DevicePricingCard = ({ summary }: { summary: CreditSummary }) => (
  <Paper variant="outlined" sx={{ p: 3 }}>
    <Typography variant="h3" sx={{ mb: 1 }}>
      Additional device pricing
    </Typography>
    <Table size="small" aria-label="Additional device pricing">
      <TableHead>
        <TableRow>
          <TableCell>Plan</TableCell>
          <TableCell align="right">Device</TableCell>
          <TableCell align="right">Multi-container device</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={row.plan}>
            <TableCell>{row.plan}</TableCell>
            <TableCell align="right">{dollars(row.plain)} / month</TableCell>
            <TableCell align="right">{dollars(row.microservices)} / month</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
    {summary.supportsCredits ? (
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        On {summary.planTitle}, a credit costs {dollars(summary.unitCostCents)}.
      </Typography>
    ) : null}
  </Paper>
);
