import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { errorText } from '@flotilla/sdk/errors';
import { useState } from 'react';
import { useSaveReleaseNote } from './api-release-edits.js';
import { notesDebounceMs, useDebouncedSave } from '../../ui/useDebouncedSave.js';
import { DisabledReason } from '../../ui/DisabledReason.js';

// The release's notes, saved 500 ms after typing stops (one write per pause); read-only without
// resin.release.update.
export const ReleaseNotes = ({
  fleetId,
  releaseId,
  note,
  denied,
}: {
  fleetId: number;
  releaseId: number;
  note: string | null;
  denied: string | null;
}) => {
  const save = useSaveReleaseNote(fleetId, releaseId);
  const saver = useDebouncedSave(save, notesDebounceMs);
  const [text, setText] = useState(note ?? '');
  const [serverNote, setServerNote] = useState(note);
  // A note changed elsewhere replaces the text unless the user has edits on their way.
  if (note !== serverNote) {
    setServerNote(note);
    if (saver.state === 'idle' || saver.state === 'saved') setText(note ?? '');
  }
  const status =
    saver.state === 'pending' || saver.state === 'saving'
      ? 'Saving…'
      : saver.state === 'saved'
        ? 'Saved'
        : saver.state === 'error'
          ? (errorText(saver.error) ?? 'Could not save the notes')
          : ' ';
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="release-notes-title"
      sx={{ p: 3 }}
    >
      <Typography id="release-notes-title" variant="h3" gutterBottom>
        Notes
      </Typography>
      <DisabledReason reason={denied}>
        <TextField
          multiline
          minRows={2}
          fullWidth
          label="Release notes"
          value={text}
          disabled={denied !== null}
          error={saver.state === 'error'}
          helperText={status}
          onChange={(event) => {
            setText(event.target.value);
            saver.schedule(event.target.value);
          }}
        />
      </DisabledReason>
    </Paper>
  );
};
