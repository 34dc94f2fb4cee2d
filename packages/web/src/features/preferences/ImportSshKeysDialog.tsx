import { errorText } from '@flotilla/sdk/errors';
import { sshKeyImportMessage } from '@flotilla/shared/ssh-keys/ssh-key-rules';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useId, useState } from 'react';
import { useImportSshKeys } from './api-ssh-keys.js';

const ImportBody = ({
  titleId,
  onImported,
  onClose,
}: {
  titleId: string;
  onImported: () => void;
  onClose: () => void;
}) => {
  const [username, setUsername] = useState('');
  const imported = useImportSshKeys(onImported);
  const message = imported.data ? sshKeyImportMessage(imported.data) : null;
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (username.trim() !== '') imported.mutate(username.trim());
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
