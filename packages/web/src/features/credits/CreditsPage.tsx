import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useParams } from 'react-router';
import { LoadState } from '../../ui/LoadState.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { useCreditSummary } from './api.js';
import { CreditNotificationSettings } from './CreditNotificationSettings.js';
import { CreditSummaryCard } from './CreditSummaryCard.js';
import { DevicePricingCard } from './DevicePricingCard.js';
import { PurchaseCreditsDialog } from './PurchaseCreditsDialog.js';
import { PurchaseHistory } from './PurchaseHistory.js';
import { RunwayCalculator } from './RunwayCalculator.js';

// /orgs/:organizationId/credits: the balance and its one action, the runway calculator, the
// purchase history and the low-credit notification (organization administrators only).
export const CreditsPage = () => {
  usePageTitle('Credits');
  const organizationId = Number(useParams().organizationId);
  const summary = useCreditSummary(organizationId);
  const [purchasing, setPurchasing] = useState(false);
  const data = summary.data;
  return (
    <Stack spacing={3}>
      <Typography variant="h2">Credits</Typography>
      <LoadState queries={[summary]} what="credits" />
      {data === undefined ? null : !data.billingEnabled ? (
        <Alert severity="info">
          Billing is not used on this installation: there are no credits to buy.
        </Alert>
      ) : (
        <>
          <CreditSummaryCard
            summary={data}
            organizationId={organizationId}
            onAdd={() => setPurchasing(true)}
          />
          <RunwayCalculator summary={data} />
          <DevicePricingCard summary={data} />
          <PurchaseHistory organizationId={organizationId} />
          <CreditNotificationSettings organizationId={organizationId} summary={data} />
          {purchasing ? (
            <PurchaseCreditsDialog
              organizationId={organizationId}
              summary={data}
              onClose={() => setPurchasing(false)}
            />
          ) : null}
        </>
      )}
    </Stack>
  );
};
