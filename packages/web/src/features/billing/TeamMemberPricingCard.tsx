import { seatPriceCents, type SeatRole } from '@flotilla/shared/billing/catalogue';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { dollars } from './format.js';
import { SectionCard } from './SectionCard.js';

const seats: [SeatRole, string][] = [
  ['observer', 'Observer'],
  ['safe-operator', 'Limited operator'],
  ['operator', 'Operator'],
  ['safe-developer', 'Limited developer'],
  ['developer', 'Developer'],
  ['administrator', 'Administrator'],
];

// Team member pricing: per member per month by seat role, beyond the plan's included members.
export const TeamMemberPricingCard = () => (
  <SectionCard title="Team member pricing">
    <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
      Per member per month beyond the members your plan includes; the dearest seats are covered
      first.
    </Typography>
    <Table size="small" aria-label="Team member pricing">
      <TableBody>
        {seats.map(([role, label]) => (
          <TableRow key={role}>
            <TableCell>{label}</TableCell>
            <TableCell align="right">
              {seatPriceCents[role] === 0 ? 'Unlimited (free)' : dollars(seatPriceCents[role])}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  </SectionCard>
);
