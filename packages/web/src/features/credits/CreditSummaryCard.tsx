import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import type { CreditSummary } from './api.js';

// Available credits and one button: add credits, or first upgrade the plan (credits are sold on
// some plans only), or first add a payment method.
export const CreditSummaryCard = ({
  summary,
  organizationId,
  onAdd,
}: {
  summary: CreditSummary;
  organizationId: number;
  onAdd: () => void;
}) => {
  const billing = `/orgs/${organizationId}/billing`;
  const action = !summary.supportsCredits ? (
    <Button variant="contained" component={RouterLink} to={`${billing}#billing-plans`}>
      Upgrade plan
    </Button>
  ) : !summary.hasPaymentMethod ? (
    <Button variant="contained" component={RouterLink} to={billing}>
      Add payment method
    </Button>
  ) : (
    <Button variant="contained" onClick={onAdd} disabled={summary.featureId === null}>
      Add credits
    </Button>
  );
  return (
    <Paper variant="outlined" sx={{ p: 3 }}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}
      >
        <div>
          <Typography variant="overline" component="h3">
            Available credits
          </Typography>
          <Typography variant="h3" component="p" aria-label="Available credits">
            {summary.balance.toLocaleString('en-US')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {summary.supportsCredits
              ? 'One credit covers one device over your plan for one month. Credits expire 10 years after purchase.'
              : `Credits are available on the Pilot, Production and Enterprise plans (this organization is on ${summary.planTitle}).`}
          </Typography>
        </div>
        {action}
      </Stack>
    </Paper>
  );
};
