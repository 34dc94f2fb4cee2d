import { errorText } from '@flotilla/sdk/errors';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useSaveKnownIssues } from './api-release-edits.js';

// The release's known issues: text, edited and saved by users with resin.release.update.
export const KnownIssues = ({
  fleetId,
  releaseId,
  text,
  denied,
}: {
  fleetId: number;
  releaseId: number;
  text: string;
  denied: string | null;
}) => {
  const [draft, setDraft] = useState(text);
  const save = useSaveKnownIssues(fleetId, releaseId);
  if (denied !== null) return <span>{text === '' ? 'None' : text}</span>;
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
      <TextField
        size="small"
        fullWidth
        multiline
        label="Known issues"
        placeholder="None"
        value={draft}
        error={save.isError}
        helperText={save.isError ? (errorText(save.error) ?? 'Could not save') : ' '}
        onChange={(event) => setDraft(event.target.value)}
      />
      <Button
        variant="outlined"
        disabled={draft.trim() === text || save.isPending}
        onClick={() => save.mutate(draft)}
      >
        Save
      </Button>
    </Stack>
  );
};
