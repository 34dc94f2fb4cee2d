import { errorText } from '@flotilla/sdk/errors';
import { sshKeyFormProblems } from '@flotilla/shared/ssh-keys/ssh-key-rules';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useId, useState } from 'react';
import { useAddSshKey } from './api-ssh-keys.js';

const AddBody = ({
  userId,
  titleId,
  onAdded,
  onClose,
}: {
  userId: number;
  titleId: string;
  onAdded: () => void;
  onClose: () => void;
}) => {
  const [title, setTitle] = useState('');
  const [publicKey, setPublicKey] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const add = useAddSshKey(userId, onAdded);
  const problems = sshKeyFormProblems(title, publicKey);
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setSubmitted(true);
        if (problems.title === undefined && problems.key === undefined)
          add.mutate({ title, publicKey });
      }}
    >
      <DialogTitle id={titleId}>Add SSH key</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {add.isError ? (
            <Alert severity="error">{errorText(add.error) ?? 'Could not save the key'}</Alert>
          ) : null}
          <TextField
            label="Title"
            value={title}
            onChange={(event) => setTitle(event.target.value)}
            error={submitted && problems.title !== undefined}
            helperText={submitted ? problems.title : undefined}
            autoFocus
          />
          <TextField
            label="Public key"
            value={publicKey}
            onChange={(event) => setPublicKey(event.target.value)}
            error={submitted && problems.key !== undefined}
            helperText={
              submitted && problems.key !== undefined
                ? problems.key
                : 'The contents of your public key file, e.g. ~/.ssh/id_ed25519.pub'
            }
            multiline
            minRows={3}
            slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } } }}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={add.isPending}>
          Cancel
        </Button>
        <Button type="submit" variant="contained" disabled={add.isPending}>
          Add
        </Button>
      </DialogActions>
    </form>
  );
};

export const AddSshKeyDialog = ({
  open,
  ...props
}: {
  open: boolean;
  userId: number;
  onAdded: () => void;
  onClose: () => void;
}) => {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={props.onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      {open ? <AddBody {...props} titleId={titleId} /> : null}
    </Dialog>
  );
};
