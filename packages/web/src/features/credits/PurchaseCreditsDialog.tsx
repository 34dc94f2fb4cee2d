import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useToasts } from '../../ui/toasts.js';
import { type CreditSummary, usePurchaseCredits } from './api.js';
import { dollars, wholeNumber } from './money.js';

type Step = 'quantity' | 'confirm' | 'done';

// Buying credits in two steps (how many, then the price to confirm), then a success step that
// offers another purchase. A failed payment shows the provider's message and closes.
export const PurchaseCreditsDialog = ({
  organizationId,
  summary,
  onClose,
}: {
  organizationId: number;
  summary: CreditSummary;
  onClose: () => void;
}) => {
  const titleId = useId();
  const toasts = useToasts();
  const [step, setStep] = useState<Step>('quantity');
  const [quantity, setQuantity] = useState(1);
  const purchase = usePurchaseCredits(organizationId);
  const total = quantity * summary.unitCostCents;
  const forSales = total >= summary.salesThresholdCents;
  const pay = () =>
    purchase.mutate(
      { featureId: summary.featureId ?? 0, quantity },
      {
        onSuccess: (bundle) => {
          if (bundle?.payment_status === 'failed') {
            toasts.show('error', bundle.error_message ?? 'Failed to purchase credits');
            onClose();
            return;
          }
          setStep('done');
        },
      },
    );
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>Purchase credits</DialogTitle>
      <DialogContent>
        {step === 'quantity' ? (
          <TextField
            autoFocus
            fullWidth
            margin="dense"
            label="Credits to purchase"
            value={String(quantity)}
            onChange={(event) => setQuantity(wholeNumber(event.target.value, summary.maxPurchase))}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            helperText={`${dollars(summary.unitCostCents)} each`}
          />
        ) : step === 'confirm' ? (
          <Stack spacing={2}>
            <Typography>
              {quantity.toLocaleString('en-US')} credits at {dollars(summary.unitCostCents)}:{' '}
              <strong>{dollars(total)}</strong>
            </Typography>
            {forSales ? (
              <Alert severity="info">
                A purchase this large goes through sales: please contact sales.
              </Alert>
            ) : null}
            {purchase.isError ? (
              <Alert severity="error">
                {errorText(purchase.error) ?? 'Failed to purchase credits'}
              </Alert>
            ) : null}
          </Stack>
        ) : (
          <Alert severity="success">{quantity.toLocaleString('en-US')} credits added.</Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{step === 'done' ? 'Close' : 'Cancel'}</Button>
        {step === 'quantity' ? (
          <Button variant="contained" disabled={quantity === 0} onClick={() => setStep('confirm')}>
            Next
          </Button>
        ) : step === 'confirm' ? (
          <Button variant="contained" disabled={forSales || purchase.isPending} onClick={pay}>
            Pay now
          </Button>
        ) : (
          <Button
            variant="contained"
            onClick={() => {
              purchase.reset();
              setQuantity(1);
              setStep('quantity');
            }}
          >
            Purchase more credits
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
};
