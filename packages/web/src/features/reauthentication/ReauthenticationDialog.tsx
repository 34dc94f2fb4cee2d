import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useReauthMethods } from './api.js';
import { PasswordForm } from './PasswordForm.js';
import { ProviderChoices } from './ProviderChoices.js';

// Asks the user to confirm their identity again (re-authentication): the password, which renews
// the session and hands back to the action that needed it, or for an account without one (or
// besides it) the GitHub, Google or SAML account linked to it, a trip to the provider after which
// the user tries the action again.
export const ReauthenticationDialog = ({
  open,
  onConfirmed,
  onCancel,
}: {
  open: boolean;
  onConfirmed: () => void;
  onCancel: () => void;
}) => {
  const titleId = useId();
  const methods = useReauthMethods(open);
  const choices = (
    <ProviderChoices
      linked={methods.linked.data}
      loading={methods.linked.isPending}
      failed={methods.linked.isError}
      hasPassword={methods.hasPassword}
    />
  );
  return (
    <Dialog open={open} onClose={onCancel} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>
        {methods.hasPassword ? 'Confirm your password' : 'Confirm your identity'}
      </DialogTitle>
      {/* A fresh form each time the dialog opens: no password kept from a previous round. */}
      {open && methods.hasPassword ? (
        <PasswordForm others={choices} onConfirmed={onConfirmed} onCancel={onCancel} />
      ) : null}
      {open && !methods.hasPassword ? (
        <>
          <DialogContent>
            <Stack spacing={2}>
              <Typography>
                For your security, this action needs you to confirm your identity again: your last
                sign-in was a while ago.
              </Typography>
              {choices}
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={onCancel}>Cancel</Button>
          </DialogActions>
        </>
      ) : null}
    </Dialog>
  );
};
