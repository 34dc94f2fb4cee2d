import {
  type BillingCycle,
  freePlanCode,
  isBillingCycle,
} from '@flotilla/shared/billing/catalogue';
import {
  includedDevices,
  includedMembers,
  isSelfServeChoice,
  plansShown,
} from '@flotilla/shared/billing/plan-table';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { LoadState } from '../../ui/LoadState.js';
import { useCatalogue } from './api.js';
import type { CurrentPlan, PlanChoice } from './billing-types.js';
import { dollars } from './format.js';
import { actionLabels, changeKindOf, monthlyCents } from './plan-actions.js';
import { PlanChangeDialog } from './PlanChangeDialog.js';
import { cycleOfPlan } from './PlanSummaryCard.js';
import { SectionCard } from './SectionCard.js';

// The available plans (anchor billing-plans) with a change button each and the cancellation
// (to free, monthly). `?plan=&cycle=` naming a self-serve plan opens its confirmation.
export const PlansSection = ({
  organizationId,
  plan,
}: {
  organizationId: number;
  plan: CurrentPlan;
}) => {
  const catalogue = useCatalogue();
  const currentCycle = cycleOfPlan(plan);
  const [cycle, setCycle] = useState<BillingCycle>(currentCycle);
  const [chosen, setChosen] = useState<PlanChoice | null>(null);
  const [params, setParams] = useSearchParams();
  const plans = catalogue.data ?? [];
  const now = new Date();
  const queryPlan = params.get('plan');
  const queryCycle = params.get('cycle');
  const fromQuery: PlanChoice | null =
    catalogue.data &&
    queryPlan !== null &&
    isBillingCycle(queryCycle) &&
    isSelfServeChoice(plans, queryPlan, queryCycle, now)
      ? { code: queryPlan, cycle: queryCycle }
      : null;
  const open = chosen ?? fromQuery;
  const close = () => {
    setChosen(null);
    if (params.has('plan') || params.has('cycle')) setParams({}, { replace: true });
  };
  const current = plans.find((entry) => entry.billing_code === plan.code);
  return (
    <SectionCard
      title="Plans"
      id="billing-plans"
      action={
        <ToggleButtonGroup
          size="small"
          exclusive
          value={cycle}
          onChange={(_event, value: unknown) => {
            if (isBillingCycle(value)) setCycle(value);
          }}
          aria-label="Billing cycle"
        >
          <ToggleButton value="monthly">Monthly</ToggleButton>
          <ToggleButton value="annual">Annual</ToggleButton>
        </ToggleButtonGroup>
      }
    >
      <LoadState queries={[catalogue]} what="plans" />
      {catalogue.data ? (
        <Table size="small" aria-label="Available plans">
          <TableHead>
            <TableRow>
              <TableCell>Plan</TableCell>
              <TableCell align="right">Price</TableCell>
              <TableCell align="right">Devices</TableCell>
              <TableCell align="right">Members</TableCell>
              <TableCell>Support</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {plansShown(plans, now).map((entry) => {
              const kind = changeKindOf(current, currentCycle, entry, cycle);
              return (
                <TableRow key={entry.billing_code}>
                  <TableCell>{entry.title}</TableCell>
                  <TableCell align="right">
                    {entry.can_self_serve ? `${dollars(monthlyCents(entry, cycle))}/mo` : 'Custom'}
                  </TableCell>
                  <TableCell align="right">{includedDevices(entry)}</TableCell>
                  <TableCell align="right">{includedMembers(entry)}</TableCell>
                  <TableCell>{entry.support?.title ?? 'Community'}</TableCell>
                  <TableCell align="right">
                    <Button
                      size="small"
                      variant={kind === 'upgrade' ? 'contained' : 'outlined'}
                      disabled={kind === 'none'}
                      aria-label={`${actionLabels[kind]}: ${entry.title}`}
                      onClick={() => setChosen({ code: entry.billing_code, cycle })}
                    >
                      {actionLabels[kind]}
                    </Button>
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      ) : null}
      {plan.code !== freePlanCode && current?.can_self_serve === true ? (
        <Stack direction="row" sx={{ mt: 2, justifyContent: 'flex-end' }}>
          <Button color="error" onClick={() => setChosen({ code: freePlanCode, cycle: 'monthly' })}>
            Cancel subscription
          </Button>
        </Stack>
      ) : null}
      {open ? (
        <PlanChangeDialog
          organizationId={organizationId}
          currentTitle={`${plan.title} (${currentCycle})`}
          choice={open}
          onClose={close}
        />
      ) : null}
    </SectionCard>
  );
};
