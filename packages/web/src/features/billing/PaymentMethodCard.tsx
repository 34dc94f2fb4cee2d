import { freePlanCode } from '@flotilla/shared/billing/catalogue';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { errorText } from '@flotilla/sdk/errors';
import { useState } from 'react';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { LoadState } from '../../ui/LoadState.js';
import { useToasts } from '../../ui/toasts.js';
import { usePaymentMethod, useRemovePaymentMethod } from './api.js';
import { SectionCard } from './SectionCard.js';

const brands: Record<string, string> = {
  amex: 'American Express',
  discover: 'Discover',
  mastercard: 'MasterCard',
  visa: 'Visa',
};

// The payment method. This installation takes no card payments itself (the manual provider):
// invoices are paid by bank transfer and recorded by its operator, so there is no card form.
export const PaymentMethodCard = ({
  organizationId,
  planCode,
}: {
  organizationId: number;
  planCode: string;
}) => {
  const method = usePaymentMethod(organizationId);
  const remove = useRemovePaymentMethod(organizationId);
  const toasts = useToasts();
  const [confirming, setConfirming] = useState(false);
  const type = method.data?.type;
  return (
    <SectionCard title="Payment method">
      <LoadState queries={[method]} what="payment method" />
      {method.data ? (
        <>
          <Typography variant="body2" sx={{ mb: 1 }}>
            Invoices are paid by bank transfer: the operator of this installation records each
            payment, and a paid invoice shows as paid here. Download an invoice for its amount and
            number.
          </Typography>
          {type ? (
            <Typography>
              {brands[method.data.card_type ?? ''] ?? type.replace('_', ' ')}
              {method.data.last_four ? ` ending in ${method.data.last_four}` : ''}
            </Typography>
          ) : null}
          {type && planCode === freePlanCode ? (
            <Button size="small" color="error" onClick={() => setConfirming(true)}>
              Remove payment method
            </Button>
          ) : null}
          {remove.isError ? (
            <Alert severity="error">
              {errorText(remove.error) ?? 'Could not remove the payment method'}
            </Alert>
          ) : null}
        </>
      ) : null}
      <ConfirmDialog
        open={confirming}
        title="Remove payment method?"
        confirmLabel="Remove"
        destructive
        pending={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => toasts.show('success', 'Payment method removed'),
            onSettled: () => setConfirming(false),
          })
        }
      >
        The organization will have no payment method on file.
      </ConfirmDialog>
    </SectionCard>
  );
};
