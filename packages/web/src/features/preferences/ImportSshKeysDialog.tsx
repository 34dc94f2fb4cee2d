import { errorText } from '@flotilla/sdk/errors';
import {
  type SshKeyImportResult,
  sshKeyImportMessage,
} from '@flotilla/shared/ssh-keys/ssh-key-rules';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useClient } from '../../api/client.js';

const isImportResult = (value: unknown): value is SshKeyImportResult =>
  typeof value === 'object' &&
  value !== null &&
  'saved' in value &&
  typeof value.saved === 'number' &&
  'alreadySaved' in value &&
  typeof value.alreadySaved === 'number' &&
  'failed' in value &&
  typeof value.failed === 'number';

const ImportBody = ({
  titleId,
  onImported,
  onClose,
}: {
  titleId: string;
  onImported: () => void;
  onClose: () => void;
}) => {
  const client = useClient();
  const [username, setUsername] = useState('');
  const imported = useMutation({
    meta: { inlineError: true },
    mutationFn: async () => {
      const result = await client.request<unknown>({
        method: 'POST',
        path: '/user/v1/public-keys/import',
        body: { username: username.trim() },
      });
      if (!isImportResult(result)) throw new Error('The server answered no import result');
      return result;
    },
    onSuccess: onImported,
  });
  const message = imported.data ? sshKeyImportMessage(imported.data) : null;
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (username.trim() !== '') imported.mutate();
      }}
    >
      <DialogTitle id={titleId}>Import SSH keys from GitHub</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <DialogContentText>
            The public keys of a GitHub account are added as “GitHub Key 1”, “GitHub Key 2”…
          </DialogContentText>
          {message ? <Alert severity={message.severity}>{message.text}</Alert> : null}
          {imported.isError ? (
            <Alert severity="error">
              {errorText(imported.error) ?? 'Failed to save the SSH keys'}
            </Alert>
          ) : null}
          <TextField
            label="GitHub username"
            value={username}
            onChange={(event) => setUsername(event.target.value)}
            autoFocus
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={imported.isPending}>
          {imported.isSuccess ? 'Close' : 'Cancel'}
        </Button>
        <Button
          type="submit"
          variant="contained"
          disabled={imported.isPending || username.trim() === ''}
        >
          Import
        </Button>
      </DialogActions>
    </form>
  );
};

export const ImportSshKeysDialog = ({
  open,
  ...props
}: {
  open: boolean;
  onImported: () => void;
  onClose: () => void;
}) => {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={props.onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      {open ? <ImportBody {...props} titleId={titleId} /> : null}
    </Dialog>
  );
};
