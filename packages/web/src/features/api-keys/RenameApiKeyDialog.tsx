import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useId, useState } from 'react';
import { type ApiKeyRow, useRenameApiKey } from './api.js';
import { apiKeyNameProblem } from './api-key-rules.js';

// Rename an API key and change its description (PATCH /v7/api_key(id)); the secret is unchanged.
export const RenameApiKeyDialog = ({
  apiKey,
  onDone,
  onClose,
}: {
  apiKey: ApiKeyRow;
  onDone: () => unknown;
  onClose: () => void;
}) => {
  const titleId = useId();
  const [name, setName] = useState(apiKey.name ?? '');
  const [description, setDescription] = useState(apiKey.description ?? '');
  const [submitted, setSubmitted] = useState(false);
  const save = useRenameApiKey(apiKey.id, async () => {
    await onDone();
    onClose();
  });
  const nameProblem = apiKeyNameProblem(name);
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setSubmitted(true);
          if (!nameProblem) {
            save.mutate({
              name: name.trim(),
              description: description.trim() === '' ? null : description.trim(),
            });
          }
        }}
      >
        <DialogTitle id={titleId}>Rename API key</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              label="Name"
              value={name}
              autoFocus
              onChange={(event) => setName(event.target.value)}
              error={submitted && nameProblem !== undefined}
              helperText={submitted ? nameProblem : undefined}
            />
            <TextField
              label="Description"
              value={description}
              multiline
              minRows={2}
              onChange={(event) => setDescription(event.target.value)}
            />
            {save.isError ? (
              <Alert severity="error">{errorText(save.error) ?? 'Could not save the key'}</Alert>
            ) : null}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={save.isPending}>
            Save
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
