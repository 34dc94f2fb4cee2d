import { errorText } from '@flotilla/sdk/errors';
import { freePlanCode } from '@flotilla/shared/billing/catalogue';
import type { PlanChangeKind } from '@flotilla/shared/billing/plan-change';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import { lazy, Suspense, useRef, useState } from 'react';
import { useToasts } from '../../ui/toasts.js';
import { usePaymentMethod, usePlanPreview, useChangePlan } from './api.js';
import { useCardPayments } from './api-cards.js';
import type { PlanChoice } from './billing-types.js';
import { ContactSales } from './ContactSales.js';
import { ProrationTable } from './ProrationTable.js';

const PaymentTermsDialog = lazy(async () => ({
  default: (await import('./PaymentTermsDialog.js')).PaymentTermsDialog,
}));
const CardSetupDialog = lazy(async () => ({
  default: (await import('./CardSetupDialog.js')).CardSetupDialog,
}));

// Payment methods debited from a bank account: a paid plan needs the debit terms agreed first.
const bankDebitTypes = new Set(['bank_account', 'us_bank_account', 'sepa_debit']);

const titles: Record<PlanChangeKind, string> = {
  none: 'Current plan',
  'contact-sales': 'Contact sales',
  'cycle-change': 'Change billing cycle',
  upgrade: 'Upgrade plan',
  downgrade: 'Downgrade plan',
};

// The plan-change confirmation: current versus new plan, what is credited and charged now, an
// optional reason on a downgrade; Pay now (paid plan) or Confirm (free).
export const PlanChangeDialog = ({
  organizationId,
  currentTitle,
  choice,
  onClose,
}: {
  organizationId: number;
  currentTitle: string;
  choice: PlanChoice;
  onClose: () => void;
}) => {
  const preview = usePlanPreview(organizationId, choice);
  const change = useChangePlan(organizationId);
  const toasts = useToasts();
  const method = usePaymentMethod(organizationId);
  const [reason, setReason] = useState('');
  const [terms, setTerms] = useState(false);
  const [addingCard, setAddingCard] = useState(false);
  const cards = useCardPayments();
  // A double click sends one change.
  const sent = useRef(false);
  const answer = preview.data;
  const toFree = choice.code === freePlanCode;
  const title =
    toFree && answer?.kind === 'downgrade'
      ? 'Cancel subscription'
      : titles[answer?.kind ?? 'upgrade'];
  const confirm = () => {
    if (sent.current) return;
    sent.current = true;
    change.mutate(
      { ...choice, reason },
      {
        onSuccess: () => {
          toasts.show('success', 'Plan updated');
          onClose();
        },
        onError: () => {
          sent.current = false;
        },
      },
    );
  };
  const bankDebit = !toFree && bankDebitTypes.has(method.data?.type ?? '');
  // Where invoices are charged to a card, a paid plan asks for one first when none is on file.
  const needsCard = !toFree && cards != null && method.isSuccess && !method.data?.type;
  const selfServe =
    answer !== undefined && answer.kind !== 'none' && answer.kind !== 'contact-sales';
  return (
    <Dialog open onClose={change.isPending ? undefined : onClose} fullWidth maxWidth="sm">
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        {preview.isPending ? (
          <Skeleton variant="rounded" height={160} aria-label="Loading the plan change" />
        ) : preview.isError ? (
          <Alert severity="error">
            {errorText(preview.error) ?? 'Could not preview the plan change'}
          </Alert>
        ) : (
          <>
            <ProrationTable currentTitle={currentTitle} preview={answer} />
            {answer?.kind === 'contact-sales' ? (
              <Alert severity="info" sx={{ mt: 2 }}>
                This plan is not self-serve: contact sales to change to it.
              </Alert>
            ) : null}
            {answer?.freeAllowanceExceeded ? (
              <Alert severity="warning" sx={{ mt: 2 }}>
                Your organization has more devices than the free plan allows (or frozen devices):
                contact sales to move to the free plan.
              </Alert>
            ) : null}
            {answer?.kind === 'downgrade' ? (
              <TextField
                label="Why are you changing plan? (optional)"
                value={reason}
                onChange={(event) => setReason(event.target.value)}
                multiline
                minRows={2}
                fullWidth
                sx={{ mt: 2 }}
                slotProps={{ htmlInput: { maxLength: 2000 } }}
              />
            ) : null}
            {change.isError ? (
              <Alert severity="error" sx={{ mt: 2 }}>
                {errorText(change.error) ?? 'Failed to update the plan'}
              </Alert>
            ) : null}
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={change.isPending}>
          Cancel
        </Button>
        {answer?.kind === 'contact-sales' || answer?.freeAllowanceExceeded ? (
          <ContactSales />
        ) : selfServe ? (
          <Button
            variant="contained"
            onClick={
              needsCard ? () => setAddingCard(true) : bankDebit ? () => setTerms(true) : confirm
            }
            loading={change.isPending}
          >
            {toFree ? 'Confirm' : needsCard ? 'Add card' : bankDebit ? 'Next' : 'Pay now'}
          </Button>
        ) : null}
      </DialogActions>
      {terms && answer ? (
        <Suspense fallback={null}>
          <PaymentTermsDialog
            planTitle={answer.target.title}
            lastFour={method.data?.last_four}
            pending={change.isPending}
            onBack={() => setTerms(false)}
            onAgree={confirm}
          />
        </Suspense>
      ) : null}
      {addingCard && cards ? (
        <Suspense fallback={null}>
          <CardSetupDialog
            organizationId={organizationId}
            publishableKey={cards.publishableKey}
            then={choice}
            onClose={() => setAddingCard(false)}
          />
        </Suspense>
      ) : null}
    </Dialog>
  );
};
