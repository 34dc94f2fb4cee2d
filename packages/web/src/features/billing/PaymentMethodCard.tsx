import { freePlanCode } from '@flotilla/shared/billing/catalogue';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { errorText } from '@flotilla/sdk/errors';
import { lazy, Suspense, useState } from 'react';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { LoadState } from '../../ui/LoadState.js';
import { useToasts } from '../../ui/toasts.js';
import { usePaymentMethod, useRemovePaymentMethod } from './api.js';
import { useCardPayments } from './api-cards.js';
import { SectionCard } from './SectionCard.js';

const brands: Record<string, string> = {
  amex: 'American Express',
  discover: 'Discover',
  mastercard: 'MasterCard',
  visa: 'Visa',
};

const CardSetupDialog = lazy(async () => ({
  default: (await import('./CardSetupDialog.js')).CardSetupDialog,
}));

// The payment method. With a card provider (Stripe) a card is added or replaced here and
// invoices are charged to it; without one (the manual provider) invoices are paid by bank
// transfer and recorded by the operator, and there is no card form.
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
  const [adding, setAdding] = useState(false);
  const cards = useCardPayments();
  const type = method.data?.type;
  return (
    <SectionCard title="Payment method">
      <LoadState queries={[method]} what="payment method" />
      {method.data ? (
        <>
          <Typography variant="body2" sx={{ mb: 1 }}>
            {cards
              ? 'Invoices and credits are charged to the card on file when they are issued.'
              : 'Invoices are paid by bank transfer: the operator of this installation records each payment, and a paid invoice shows as paid here. Download an invoice for its amount and number.'}
          </Typography>
          {type ? (
            <Typography>
              {brands[method.data.card_type ?? ''] ?? type.replace('_', ' ')}
              {method.data.last_four ? ` ending in ${method.data.last_four}` : ''}
            </Typography>
          ) : null}
          {cards ? (
            <Button size="small" onClick={() => setAdding(true)}>
              {type ? 'Replace card' : 'Add card'}
            </Button>
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
      {adding && cards ? (
        <Suspense fallback={null}>
          <CardSetupDialog
            organizationId={organizationId}
            publishableKey={cards.publishableKey}
            onClose={() => setAdding(false)}
          />
        </Suspense>
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
