import type { WebhookEndpoint } from '@flotilla/shared/webhooks/webhook-input';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { MutationError } from '../../ui/MutationError.js';
import { useDeleteWebhook, useSetWebhookEnabled } from './api.js';
import { DeliveriesTable } from './DeliveriesTable.js';

// One endpoint: where it delivers, what it hears, whether it is enabled, and its deliveries.
export const WebhookCard = ({
  organizationId,
  endpoint,
}: {
  organizationId: number;
  endpoint: WebhookEndpoint;
}) => {
  const setEnabled = useSetWebhookEnabled(organizationId, endpoint.id);
  const remove = useDeleteWebhook(organizationId, endpoint.id);
  const [showDeliveries, setShowDeliveries] = useState(false);
  const [confirming, setConfirming] = useState(false);
  return (
    <Card variant="outlined" aria-label={`Webhook ${endpoint.url}`}>
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
          <Typography sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere', flex: 1 }}>
            {endpoint.url}
          </Typography>
          <Chip
            size="small"
            color={endpoint.isEnabled ? 'success' : 'default'}
            label={endpoint.isEnabled ? 'Enabled' : 'Disabled'}
          />
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {endpoint.fleet === null ? 'Every fleet of the organization' : `Fleet ${endpoint.fleet}`}
          {endpoint.description ? ` · ${endpoint.description}` : ''}
        </Typography>
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5, mb: 1 }}>
          {endpoint.events.map((event) => (
            <Chip key={event} size="small" variant="outlined" label={event} />
          ))}
        </Stack>
        {endpoint.isEnabled ? null : (
          <Alert severity="warning" sx={{ mb: 1 }}>
            {endpoint.disabledReason ?? 'This webhook is disabled.'}
          </Alert>
        )}
        <MutationError error={setEnabled.error} fallback="Could not change the webhook" />
        <MutationError error={remove.error} fallback="Could not delete the webhook" />
        <Stack direction="row" spacing={1}>
          <Button size="small" onClick={() => setShowDeliveries((shown) => !shown)}>
            {showDeliveries ? 'Hide deliveries' : 'Deliveries'}
          </Button>
          <Button
            size="small"
            disabled={setEnabled.isPending}
            onClick={() => setEnabled.mutate(!endpoint.isEnabled)}
          >
            {endpoint.isEnabled ? 'Disable' : 'Enable'}
          </Button>
          <Button size="small" color="error" onClick={() => setConfirming(true)}>
            Delete
          </Button>
        </Stack>
        {showDeliveries ? (
          <DeliveriesTable organizationId={organizationId} endpointId={endpoint.id} />
        ) : null}
      </CardContent>
      <ConfirmDialog
        open={confirming}
        title="Delete this webhook?"
        confirmLabel="Delete"
        destructive
        onClose={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          remove.mutate();
        }}
      >
        {`${endpoint.url} receives no more events, and its deliveries are forgotten.`}
      </ConfirmDialog>
    </Card>
  );
};
