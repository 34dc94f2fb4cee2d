import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';

// Days of notice a debit authorization's cancellation needs.
export const debitCancellationNoticeDays = 30;

// The recurring-debit terms: a plan paid from a bank account is confirmed only once the
// account holder authorizes the debits.
export const PaymentTermsDialog = ({
  planTitle,
  lastFour,
  pending,
  onBack,
  onAgree,
}: {
  planTitle: string;
  lastFour: string | undefined;
  pending: boolean;
  onBack: () => void;
  onAgree: () => void;
}) => (
  <Dialog open onClose={pending ? undefined : onBack} fullWidth maxWidth="sm">
    <DialogTitle>Authorize recurring debits</DialogTitle>
    <DialogContent>
      <DialogContentText sx={{ mb: 2 }}>
        By agreeing, you authorize the operator of this installation to debit the bank account
        {lastFour ? ` ending in ${lastFour}` : ''} for the {planTitle} plan: the amount due now,
        then each invoice of the plan as it is issued, until you cancel.
      </DialogContentText>
      <DialogContentText>
        You may cancel this authorization at any time with {debitCancellationNoticeDays} days’
        notice, by moving to the free plan and removing the payment method. A debit that should not
        have been taken can be disputed with your bank.
      </DialogContentText>
    </DialogContent>
    <DialogActions>
      <Button onClick={onBack} disabled={pending}>
        Back
      </Button>
      <Button variant="contained" onClick={onAgree} loading={pending}>
        Agree and pay
      </Button>
    </DialogActions>
  </Dialog>
);
