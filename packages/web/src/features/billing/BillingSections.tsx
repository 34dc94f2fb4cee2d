import { customPlanCode } from '@flotilla/shared/billing/catalogue';
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import { LoadState } from '../../ui/LoadState.js';
import { usePlan } from './api.js';
import { BillingAccountCard } from './BillingAccountCard.js';
import { ContactSales } from './ContactSales.js';
import { InvoicesCard } from './InvoicesCard.js';
import { PaymentMethodCard } from './PaymentMethodCard.js';
import { PlansSection } from './PlansSection.js';
import { PlanSummaryCard } from './PlanSummaryCard.js';
import { ServiceAgreementLink } from './ServiceAgreementLink.js';
import { SetupIntentReturn } from './SetupIntentReturn.js';
import { TeamMemberPricingCard } from './TeamMemberPricingCard.js';
import { UsageCard } from './UsageCard.js';

// Every section of the billing page; payment, invoices and plans are hidden on a custom plan
// (negotiated: changes go through sales).
export const BillingSections = ({ organizationId }: { organizationId: number }) => {
  const plan = usePlan(organizationId);
  if (!plan.data) return <LoadState queries={[plan]} what="billing plan" />;
  const custom = plan.data.code === customPlanCode;
  return (
    <Stack spacing={2}>
      <PlanSummaryCard plan={plan.data} />
      <UsageCard organizationId={organizationId} />
      <BillingAccountCard organizationId={organizationId} />
      {custom ? (
        <Alert severity="info" action={<ContactSales variant="text" />}>
          Your organization is on a custom plan: contact sales to change it.
        </Alert>
      ) : (
        <>
          <SetupIntentReturn organizationId={organizationId} />
          <PaymentMethodCard organizationId={organizationId} planCode={plan.data.code} />
          <InvoicesCard organizationId={organizationId} />
          <PlansSection organizationId={organizationId} plan={plan.data} />
        </>
      )}
      <TeamMemberPricingCard />
      <ServiceAgreementLink />
    </Stack>
  );
};
