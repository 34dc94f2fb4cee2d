import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useSaveDeviceNote } from './api.js';
import { MarkdownHelpDialog } from './MarkdownHelpDialog.js';
import { MarkdownText } from '../../ui/MarkdownText.js';
import { notesDebounceMs, type SaveState, useDebouncedSave } from '../../ui/useDebouncedSave.js';

const stateText: Record<SaveState, string> = {
  idle: '',
  pending: 'Saving…',
  saving: 'Saving…',
  saved: 'Saved',
  error: '',
};

// The device's notes: Markdown, edited in place and saved as the user types.
export const DeviceNotes = ({
  deviceId,
  uuid,
  note,
  denied,
}: {
  deviceId: number;
  uuid: string;
  note: string | null;
  // Why the user may not edit notes, or null.
  denied: string | null;
}) => {
  const fieldId = useId();
  const save = useSaveDeviceNote(deviceId, uuid);
  const saver = useDebouncedSave(save, notesDebounceMs);
  const [text, setText] = useState(note ?? '');
  const [mode, setMode] = useState<'write' | 'preview'>('write');
  const [help, setHelp] = useState(false);
  // A note changed elsewhere replaces the text unless the user has edits on their way.
  const [serverNote, setServerNote] = useState(note);
  if (note !== serverNote) {
    setServerNote(note);
    if (saver.state !== 'pending' && saver.state !== 'saving') setText(note ?? '');
  }
  return (
    <Card component="section" aria-labelledby={`${fieldId}-title`}>
      <CardContent>
        <Stack direction="row" sx={{ alignItems: 'center', mb: 1, gap: 1, flexWrap: 'wrap' }}>
          <Typography id={`${fieldId}-title`} variant="h3" component="h2" sx={{ flexGrow: 1 }}>
            Notes
          </Typography>
          <Typography variant="caption" color="text.secondary" role="status" aria-live="polite">
            {stateText[saver.state]}
          </Typography>
          <ToggleButtonGroup
            size="small"
            exclusive
            value={mode}
            onChange={(_event, value: 'write' | 'preview' | null) => {
              if (value) setMode(value);
            }}
            aria-label="Notes view"
          >
            <ToggleButton value="write">Write</ToggleButton>
            <ToggleButton value="preview">Preview</ToggleButton>
          </ToggleButtonGroup>
          <Button size="small" onClick={() => setHelp(true)}>
            Markdown help
          </Button>
        </Stack>
        {mode === 'write' ? (
          <Tooltip title={denied ?? ''}>
            <TextField
              id={fieldId}
              label="Notes"
              multiline
              minRows={4}
              maxRows={16}
              fullWidth
              value={text}
              disabled={denied !== null}
              placeholder="Where the device is, who looks after it… (Markdown)"
              onChange={(event) => {
                setText(event.target.value);
                saver.schedule(event.target.value);
              }}
            />
          </Tooltip>
        ) : text.trim() === '' ? (
          <Typography color="text.secondary">Nothing to preview</Typography>
        ) : (
          <MarkdownText source={text} />
        )}
        {saver.state === 'error' ? (
          <Alert severity="error" sx={{ mt: 1 }}>
            Could not save the note: {errorText(saver.error) ?? 'An error has occurred'}
          </Alert>
        ) : null}
      </CardContent>
      <MarkdownHelpDialog open={help} onClose={() => setHelp(false)} />
    </Card>
  );
};
