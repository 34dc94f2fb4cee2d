import type { OAuthApplicationCreated } from '@flotilla/shared/auth/oauth';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';

// A confidential client's secret, shown this once after registration (the server keeps only its
// hash): the application sends it with client_id to /oauth/token.
export const ClientSecretDialog = ({
  application,
  secret,
  onClose,
}: {
  application: OAuthApplicationCreated;
  secret: string;
  onClose: () => void;
}) => {
  const [copied, setCopied] = useState(false);
  return (
    <Dialog open onClose={onClose} aria-labelledby="client-secret-title">
      <DialogTitle id="client-secret-title">{application.name}: client secret</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Alert severity="warning">
            Copy the secret now: it is not shown again. The application sends it to /oauth/token
            with its client id.
          </Alert>
          <TextField
            label="Client id"
            value={application.clientId}
            slotProps={{ htmlInput: { readOnly: true } }}
          />
          <TextField
            label="Client secret"
            value={secret}
            slotProps={{ htmlInput: { readOnly: true } }}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button
          onClick={() => {
            void navigator.clipboard
              ?.writeText(secret)
              .then(() => setCopied(true))
              .catch(() => undefined);
          }}
        >
          {copied ? 'Copied' : 'Copy secret'}
        </Button>
        <Button variant="contained" onClick={onClose}>
          Done
        </Button>
      </DialogActions>
    </Dialog>
  );
};
