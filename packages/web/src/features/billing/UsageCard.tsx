import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { LoadState } from '../../ui/LoadState.js';
import { useUsage } from './api.js';
import { dollars, itemName, shortDate } from './format.js';
import { SectionCard } from './SectionCard.js';

// Usage for the current period: each metered item now, at its peak, over the plan, and charged.
export const UsageCard = ({ organizationId }: { organizationId: number }) => {
  const usage = useUsage(organizationId);
  const data = usage.data;
  const items = data
    ? [...new Set([...Object.keys(data.currentUsage), ...Object.keys(data.peakUsage)])].sort()
    : [];
  return (
    <SectionCard title="Usage this period">
      <LoadState queries={[usage]} what="usage" />
      {data?.periodStart && data.periodEnd ? (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {shortDate(data.periodStart)} – {shortDate(data.periodEnd)}
        </Typography>
      ) : null}
      {data && items.length === 0 ? (
        <Typography color="text.secondary">Nothing used yet this period.</Typography>
      ) : null}
      {data && items.length > 0 ? (
        <Table size="small" aria-label="Usage">
          <TableHead>
            <TableRow>
              <TableCell>Item</TableCell>
              <TableCell align="right">Now</TableCell>
              <TableCell align="right">Peak</TableCell>
              <TableCell align="right">Over plan</TableCell>
              <TableCell align="right">Charge</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {items.map((item) => (
              <TableRow key={item}>
                <TableCell>{itemName(item)}</TableCell>
                <TableCell align="right">{data.currentUsage[item] ?? 0}</TableCell>
                <TableCell align="right">{data.peakUsage[item] ?? 0}</TableCell>
                <TableCell align="right">{data.overage[item] ?? 0}</TableCell>
                <TableCell align="right">{dollars(data.charges[item] ?? 0)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : null}
    </SectionCard>
  );
};
