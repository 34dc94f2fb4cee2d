import { textLengthProblem } from '@flotilla/shared/constants/text-length';
import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';

// "Create team" and "Rename": a name unique within the organization,
// ignoring case ("already used").
export const TeamNameDialog = ({
  open,
  title,
  initial,
  takenNames,
  submitLabel,
  onSubmit,
  onClose,
}: {
  open: boolean;
  title: string;
  initial: string;
  takenNames: readonly string[];
  submitLabel: string;
  onSubmit: (name: string) => Promise<unknown>;
  onClose: () => void;
}) => {
  const [name, setName] = useState(initial);
  const save = useMutation({
    meta: { inlineError: true },
    mutationFn: () => onSubmit(name.trim()),
    onSuccess: () => close(),
  });
  const close = (): void => {
    setName(initial);
    save.reset();
    onClose();
  };
  const trimmed = name.trim();
  const clash =
    trimmed.toLowerCase() !== initial.toLowerCase() &&
    takenNames.some((taken) => taken.toLowerCase() === trimmed.toLowerCase());
  const problem = clash
    ? 'This name is already used by a team of this organization'
    : textLengthProblem('The team name', trimmed);
  return (
    <Dialog open={open} onClose={save.isPending ? undefined : close} fullWidth maxWidth="xs">
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <Stack
          component="form"
          id="team-name-form"
          spacing={2}
          sx={{ pt: 1 }}
          onSubmit={(event) => {
            event.preventDefault();
            if (trimmed && problem === undefined) save.mutate();
          }}
        >
          <TextField
            label="Team name"
            value={name}
            autoFocus
            required
            onChange={(event) => {
              save.reset();
              setName(event.target.value);
            }}
            error={problem !== undefined}
            helperText={problem}
          />
          {save.isError ? (
            <Alert severity="error">{errorText(save.error) ?? 'Could not save the team'}</Alert>
          ) : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={save.isPending}>
          Cancel
        </Button>
        <Button
          type="submit"
          form="team-name-form"
          variant="contained"
          disabled={!trimmed || problem !== undefined || trimmed === initial || save.isPending}
        >
          {submitLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
