import AddIcon from '@mui/icons-material/Add';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useParams } from 'react-router';
import { LoadState } from '../../ui/LoadState.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { useWebhookEndpoints } from './api.js';
import { CreateWebhookDialog } from './CreateWebhookDialog.js';
import { WebhookCard } from './WebhookCard.js';

// Organization → Webhooks: the administrators' endpoints, each with its deliveries.
export const WebhooksPage = () => {
  const { organizationId } = useParams();
  const id = Number(organizationId);
  usePageTitle('Webhooks');
  const endpoints = useWebhookEndpoints(id);
  const [creating, setCreating] = useState(false);
  return (
    <Box>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 2 }}>
        <Typography variant="body2" color="text.secondary" sx={{ maxWidth: 640 }}>
          Flotilla sends the events you choose to your endpoints, signed with the endpoint&apos;s
          secret, within seconds of the change.
        </Typography>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreating(true)}>
          Add webhook
        </Button>
      </Stack>
      <LoadState queries={[endpoints]} what="webhooks" />
      {endpoints.data?.length === 0 ? (
        <Alert severity="info">
          No webhooks yet. Add one to hear of devices, releases, variables, members and keys.
        </Alert>
      ) : null}
      <Stack spacing={2}>
        {(endpoints.data ?? []).map((endpoint) => (
          <WebhookCard key={endpoint.id} organizationId={id} endpoint={endpoint} />
        ))}
      </Stack>
      {creating ? (
        <CreateWebhookDialog organizationId={id} onClose={() => setCreating(false)} />
      ) : null}
    </Box>
  );
};
