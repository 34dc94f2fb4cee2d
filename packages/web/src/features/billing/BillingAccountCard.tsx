import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useState } from 'react';
import { LoadState } from '../../ui/LoadState.js';
import { useAccountInfo } from './api.js';
import { SectionCard } from './SectionCard.js';

const CompanyInfoDialog = lazy(async () => ({
  default: (await import('./CompanyInfoDialog.js')).CompanyInfoDialog,
}));

// The billing account: who invoices go to (e-mail, company, address, tax id).
export const BillingAccountCard = ({ organizationId }: { organizationId: number }) => {
  const info = useAccountInfo(organizationId);
  const [editing, setEditing] = useState(false);
  const data = info.data;
  const address = data
    ? [
        data.address.address1,
        data.address.address2,
        data.address.city,
        data.address.state,
        data.address.zip,
        data.address.country,
      ]
        .filter((part) => part !== undefined && part !== '')
        .join(', ')
    : '';
  return (
    <SectionCard
      title="Billing account"
      action={
        data ? (
          <Button size="small" onClick={() => setEditing(true)}>
            Edit company info
          </Button>
        ) : null
      }
    >
      <LoadState queries={[info]} what="billing account" />
      {data ? (
        <>
          <Typography>{data.company_name || 'No company name'}</Typography>
          <Typography variant="body2" color="text.secondary">
            {data.email ?? 'No billing e-mail yet'}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {address || 'No address yet'}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {data.tax_id ? `Tax id: ${data.tax_id.value} (${data.tax_id.type})` : 'No tax id'}
          </Typography>
        </>
      ) : null}
      {editing && data ? (
        <Suspense fallback={null}>
          <CompanyInfoDialog
            organizationId={organizationId}
            info={data}
            onClose={() => setEditing(false)}
          />
        </Suspense>
      ) : null}
    </SectionCard>
  );
};
