import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { CopyableText } from '../../ui/CopyableText.js';
import { useCreateWebhook, useOrganizationFleets } from './api.js';
import { EventPicker } from './EventPicker.js';

// Add webhook: URL, scope (the organization or one fleet), events; then its secret, shown once.
export const CreateWebhookDialog = ({
  organizationId,
  onClose,
}: {
  organizationId: number;
  onClose: () => void;
}) => {
  const create = useCreateWebhook(organizationId);
  const fleets = useOrganizationFleets(organizationId);
  const [url, setUrl] = useState('');
  const [fleet, setFleet] = useState<number | ''>('');
  const [events, setEvents] = useState<string[]>([]);
  const secret = create.data?.secret;
  if (secret !== undefined) {
    return (
      <Dialog open onClose={onClose} fullWidth maxWidth="sm">
        <DialogTitle>Webhook added</DialogTitle>
        <DialogContent>
          <Alert severity="warning" sx={{ mb: 2 }}>
            Copy the signing secret now: it is not shown again.
          </Alert>
          <CopyableText value={secret} label="signing secret" />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Done</Button>
        </DialogActions>
      </Dialog>
    );
  }
  const submit = () =>
    create.mutate({ url: url.trim(), events, fleet: fleet === '' ? null : fleet });
  return (
    <Dialog open onClose={create.isPending ? undefined : onClose} fullWidth maxWidth="sm">
      <DialogTitle>Add webhook</DialogTitle>
      <DialogContent>
        <Stack
          component="form"
          id="webhook-form"
          spacing={2}
          sx={{ pt: 1 }}
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <TextField
            label="Endpoint URL"
            value={url}
            required
            autoFocus
            placeholder="https://example.com/flotilla"
            onChange={(event) => setUrl(event.target.value)}
          />
          <TextField
            select
            label="Fleets"
            value={fleet}
            onChange={(event) =>
              setFleet(event.target.value === '' ? '' : Number(event.target.value))
            }
          >
            <MenuItem value="">Every fleet of the organization</MenuItem>
            {(fleets.data ?? []).map((row) => (
              <MenuItem key={row.id} value={row.id}>
                {row.app_name}
              </MenuItem>
            ))}
          </TextField>
          <EventPicker value={events} onChange={setEvents} />
          {create.isError ? (
            <Alert severity="error">{errorText(create.error) ?? 'Could not add the webhook'}</Alert>
          ) : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={create.isPending}>
          Cancel
        </Button>
        <Button
          type="submit"
          form="webhook-form"
          variant="contained"
          disabled={create.isPending || url.trim() === '' || events.length === 0}
        >
          Add webhook
        </Button>
      </DialogActions>
    </Dialog>
  );
};
