import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { CurrentPlan } from './billing-types.js';
import { dollars, shortDate } from './format.js';
import { SectionCard } from './SectionCard.js';

export const cycleOfPlan = (plan: CurrentPlan) =>
  plan.intervalLength === '12' ? ('annual' as const) : ('monthly' as const);

// The plan summary (plan, cycle, support, add-ons) and the next bill as it stands.
export const PlanSummaryCard = ({ plan }: { plan: CurrentPlan }) => {
  const cycle = cycleOfPlan(plan);
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
      <SectionCard title="Plan" grow>
        <Typography variant="h4" component="p">
          {plan.title}
        </Typography>
        <Stack direction="row" spacing={1} sx={{ my: 1 }}>
          <Chip size="small" label={cycle === 'annual' ? 'Billed annually' : 'Billed monthly'} />
          <Chip size="small" label={`${plan.support.title} support`} />
        </Stack>
        {plan.currentPeriodEndDate ? (
          <Typography variant="body2" color="text.secondary">
            Current period ends {shortDate(plan.currentPeriodEndDate)}
          </Typography>
        ) : null}
        <Typography variant="body2" color="text.secondary">
          Add-ons:{' '}
          {plan.addonPlan.addOns.length === 0
            ? 'none'
            : plan.addonPlan.addOns.map((addOn) => addOn.code).join(', ')}
        </Typography>
      </SectionCard>
      <SectionCard title="Next bill" grow>
        <Typography variant="h4" component="p">
          {dollars(plan.billing.totalCostCents)}
        </Typography>
        <Table size="small" aria-label="Next bill">
          <TableBody>
            {plan.billing.charges.map((charge) => (
              <TableRow key={charge.code}>
                <TableCell>
                  {charge.name}
                  {charge.isQuantifiable ? ` × ${charge.quantity}` : ''}
                </TableCell>
                <TableCell align="right">
                  {dollars(Number(charge.unitCostCents) * Number(charge.quantity))}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </SectionCard>
    </Stack>
  );
};
