import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { CopyableText } from '../../ui/CopyableText.js';
import type { NewApiKey } from './api.js';
import {
  apiKeyMessages,
  apiKeyNameProblem,
  type ExpiryChoice,
  expiryChoices,
  expiryOf,
} from './api-key-rules.js';

const isExpiryChoice = (value: string): value is ExpiryChoice =>
  expiryChoices.some((choice) => choice.value === value);

const capitalized = (text: string): string => `${text.slice(0, 1).toUpperCase()}${text.slice(1)}`;

const downloadKey = (key: string, fileName: string): void => {
  const url = URL.createObjectURL(new Blob([`${key}\n`], { type: 'text/plain' }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.click();
  URL.revokeObjectURL(url);
};

export type CreateApiKeyDialogProps = {
  // What is created: "provisioning key", "API key".
  noun: string;
  // One sentence on what the key is for.
  intro: string;
  create: (key: NewApiKey) => Promise<string>;
  onCreated: () => void;
  onClose: () => void;
};

// Creating a key: the form, then the key shown once with copy and download;
// closing the dialog forgets it.
const CreateBody = ({
  noun,
  intro,
  create: createKey,
  onCreated,
  onClose,
  titleId,
}: CreateApiKeyDialogProps & { titleId: string }) => {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [choice, setChoice] = useState<ExpiryChoice>('30');
  const [custom, setCustom] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [expiryProblem, setExpiryProblem] = useState<string | undefined>(undefined);
  const create = useMutation({
    mutationFn: (expiryDate: string | null) =>
      createKey({
        name: name.trim(),
        description: description.trim() === '' ? null : description.trim(),
        expiryDate,
      }),
    onSuccess: onCreated,
  });
  const nameProblem = apiKeyNameProblem(name);

  if (create.data !== undefined) {
    return (
      <>
        <DialogTitle id={titleId}>{capitalized(noun)} created</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <Alert severity="warning">
              Copy the key now: it is shown only once and cannot be read again.
            </Alert>
            <CopyableText value={create.data} label={noun} />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button
            onClick={() =>
              downloadKey(create.data, `${name.trim().replace(/[^\w.-]+/g, '-') || 'key'}.txt`)
            }
          >
            Download
          </Button>
          <Button variant="contained" onClick={onClose}>
            Done
          </Button>
        </DialogActions>
      </>
    );
  }
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setSubmitted(true);
        const expiry = expiryOf(choice, custom, Date.now());
        setExpiryProblem('problem' in expiry ? expiry.problem : undefined);
        if (nameProblem || 'problem' in expiry) return;
        create.mutate(expiry.expiryDate);
      }}
    >
      <DialogTitle id={titleId}>Create {noun}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <DialogContentText>{intro}</DialogContentText>
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
          <TextField
            select
            label="Expires after"
            value={choice}
            onChange={(event) => {
              if (isExpiryChoice(event.target.value)) setChoice(event.target.value);
            }}
          >
            {expiryChoices.map((option) => (
              <MenuItem key={option.value} value={option.value}>
                {option.label}
              </MenuItem>
            ))}
          </TextField>
          {choice === 'custom' ? (
            <TextField
              type="datetime-local"
              label="Expiry date"
              value={custom}
              onChange={(event) => setCustom(event.target.value)}
              error={submitted && expiryProblem !== undefined}
              helperText={submitted ? expiryProblem : undefined}
              slotProps={{ inputLabel: { shrink: true } }}
            />
          ) : null}
          {choice === 'never' ? <Alert severity="warning">{apiKeyMessages.never}</Alert> : null}
          {create.isError ? (
            <Alert severity="error">{errorText(create.error) ?? 'Could not create the key'}</Alert>
          ) : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={create.isPending}>
          Cancel
        </Button>
        <Button type="submit" variant="contained" disabled={create.isPending}>
          Create
        </Button>
      </DialogActions>
    </form>
  );
};

export const CreateApiKeyDialog = ({
  open,
  ...props
}: CreateApiKeyDialogProps & { open: boolean }) => {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={props.onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      {open ? <CreateBody {...props} titleId={titleId} /> : null}
    </Dialog>
  );
};
