import { errorText } from '@flotilla/sdk/errors';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useToasts } from '../../ui/toasts.js';
import { plural } from '../../device/device-format.js';
import type { DeviceTag } from '../../device/device-rows.js';
import { type TagEdit, tagKeyProblem, tagRows } from './tag-edits.js';
import { useApplyTagEdits } from './api.js';

export type TaggedDevice = { id: number; name: string; device_tag: readonly DeviceTag[] };

const severalValues = 'Several values (kept)';

const TagsBody = ({
  devices,
  onClose,
  titleId,
}: {
  devices: readonly TaggedDevice[];
  onClose: () => void;
  titleId: string;
}) => {
  const applyTagEdits = useApplyTagEdits();
  const { show } = useToasts();
  const [edits, setEdits] = useState<TagEdit[]>(() => tagRows(devices));
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [pending, setPending] = useState(false);
  const keyProblem = key === '' ? null : tagKeyProblem(key, edits);
  const change = (index: number, patch: Partial<TagEdit>): void =>
    setEdits((all) => all.map((edit, at) => (at === index ? { ...edit, ...patch } : edit)));

  const apply = async (): Promise<void> => {
    setPending(true);
    try {
      const outcomes = await applyTagEdits(devices, edits);
      const failed = outcomes.filter((outcome) => !outcome.ok);
      const first = failed[0];
      const message = first && !first.ok ? (errorText(first.error) ?? 'An error has occurred') : '';
      if (failed.length === 0) {
        const subject =
          devices.length === 1 ? (devices[0]?.name ?? '') : plural(devices.length, 'device');
        show('success', `Updated the tags of ${subject}`);
        onClose();
      } else if (failed.length === outcomes.length) show('error', message);
      else {
        show(
          'warning',
          `Operation failed for ${failed.length} of the selected items with ${message}`,
        );
        onClose();
      }
    } finally {
      setPending(false);
    }
  };

  return (
    <>
      <DialogTitle id={titleId}>
        Manage tags{devices.length === 1 ? '' : ` (${plural(devices.length, 'device')})`}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {edits.length === 0 ? <Typography variant="body2">No tags yet.</Typography> : null}
          {edits.map((edit, index) => (
            <Stack key={edit.key} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <Typography
                sx={{
                  width: 140,
                  overflow: 'hidden',
                  textOverflow: 'ellipsis',
                  textDecoration: edit.removed ? 'line-through' : undefined,
                }}
                title={edit.key}
              >
                {edit.key}
              </Typography>
              <TextField
                size="small"
                label={`Value of ${edit.key}`}
                value={edit.value ?? ''}
                placeholder={edit.value === null ? severalValues : undefined}
                disabled={edit.removed || pending}
                onChange={(event) => change(index, { value: event.target.value })}
                sx={{ flex: 1 }}
              />
              <Button
                size="small"
                color={edit.removed ? 'primary' : 'error'}
                disabled={pending}
                onClick={() => change(index, { removed: !edit.removed })}
                aria-label={`${edit.removed ? 'Keep' : 'Remove'} ${edit.key}`}
              >
                {edit.removed ? 'Keep' : 'Remove'}
              </Button>
            </Stack>
          ))}
          <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
            <TextField
              size="small"
              label="New tag key"
              value={key}
              onChange={(event) => setKey(event.target.value)}
              error={keyProblem !== null}
              helperText={keyProblem ?? undefined}
              disabled={pending}
            />
            <TextField
              size="small"
              label="New tag value"
              value={value}
              onChange={(event) => setValue(event.target.value)}
              disabled={pending}
              sx={{ flex: 1 }}
            />
            <Button
              disabled={key === '' || keyProblem !== null || pending}
              onClick={() => {
                setEdits((all) => [
                  ...all.filter((edit) => edit.key !== key),
                  { key, value, removed: false },
                ]);
                setKey('');
                setValue('');
              }}
            >
              Add
            </Button>
          </Stack>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={pending}>
          Cancel
        </Button>
        <Button variant="contained" onClick={() => void apply()} disabled={pending}>
          {pending ? 'Saving…' : 'Save'}
        </Button>
      </DialogActions>
    </>
  );
};

// Add, edit and remove the tags of one device or of a selection.
export const ManageTagsDialog = ({
  devices,
  onClose,
}: {
  devices: readonly TaggedDevice[] | null;
  onClose: () => void;
}) => {
  const titleId = useId();
  return (
    <Dialog
      open={devices !== null}
      onClose={onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="sm"
    >
      {devices ? <TagsBody devices={devices} onClose={onClose} titleId={titleId} /> : null}
    </Dialog>
  );
};
