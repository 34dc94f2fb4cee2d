import { textLengthProblem } from '@flotilla/shared/constants/text-length';
import { errorText } from '@flotilla/sdk/errors';
import EditIcon from '@mui/icons-material/Edit';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useRenameDevice } from './api.js';
import { useToasts } from '../../ui/toasts.js';
import { DisabledReason } from '../../ui/DisabledReason.js';

export const deviceNameProblem = (name: string): string | null =>
  name.trim() === ''
    ? 'The device name cannot be empty'
    : (textLengthProblem('The device name', name.trim()) ?? null);

// The device name as the page heading, renamed in place.
export const DeviceName = ({
  deviceId,
  name,
  denied,
}: {
  deviceId: number;
  name: string;
  denied: string | null;
}) => {
  const { show } = useToasts();
  const [draft, setDraft] = useState<string | null>(null);
  const rename = useRenameDevice(deviceId, () => {
    setDraft(null);
    show('success', 'Device renamed');
  });
  if (draft === null) {
    return (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
        <Typography variant="h1" noWrap title={name}>
          {name}
        </Typography>
        <DisabledReason reason={denied}>
          <Tooltip title={denied === null ? 'Rename' : ''}>
            <span>
              <IconButton
                aria-label="Rename device"
                disabled={denied !== null}
                onClick={() => {
                  rename.reset();
                  setDraft(name);
                }}
              >
                <EditIcon fontSize="small" />
              </IconButton>
            </span>
          </Tooltip>
        </DisabledReason>
      </Stack>
    );
  }
  const problem = deviceNameProblem(draft);
  const failure = rename.isError
    ? (errorText(rename.error) ?? 'Could not rename the device')
    : null;
  return (
    <Box
      component="form"
      aria-label="Rename device"
      onSubmit={(event) => {
        event.preventDefault();
        if (problem === null && draft.trim() !== name) rename.mutate(draft.trim());
        else if (draft.trim() === name) setDraft(null);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') setDraft(null);
      }}
      sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}
    >
      <TextField
        autoFocus
        size="small"
        label="Device name"
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        error={problem !== null || failure !== null}
        helperText={problem ?? failure ?? ' '}
        sx={{ minWidth: 280 }}
      />
      <Button type="submit" variant="contained" disabled={problem !== null || rename.isPending}>
        {rename.isPending ? 'Saving…' : 'Save'}
      </Button>
      <Button onClick={() => setDraft(null)} disabled={rename.isPending}>
        Cancel
      </Button>
    </Box>
  );
};
