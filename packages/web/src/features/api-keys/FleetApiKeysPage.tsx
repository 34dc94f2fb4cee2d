import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { errorText } from '@flotilla/sdk/errors';
import { useState } from 'react';
import { useToasts } from '../../ui/toasts.js';
import { absoluteTime } from '../../device/device-format.js';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { useFleetContext } from '../../fleet/useFleetContext.js';
import { useFleetRole } from '../../fleet/api-fleet-role.js';
import { LoadState } from '../../ui/LoadState.js';
import { RowAction } from '../../ui/RowActions.js';
import {
  type ApiKeyRow,
  useCreateProvisioningKey,
  useFleetApiKeys,
  useReloadApiKeys,
  useRevokeApiKey,
} from './api.js';
import { apiKeyKeys } from './query-keys.js';
import { expiryText } from './api-key-rules.js';
import { CreateApiKeyDialog } from './CreateApiKeyDialog.js';
import { RenameApiKeyDialog } from './RenameApiKeyDialog.js';

const keyLabel = (key: ApiKeyRow): string => key.name ?? `Key ${key.id}`;

// /fleets/:id/api-keys (needs resin.api_key.read): the fleet's provisioning keys with their name,
// description, creation and expiry; create (shown once), rename and revoke.
export const FleetApiKeysPage = () => {
  const { application } = useFleetContext();
  const fleetId = application.id;
  const toasts = useToasts();
  const access = useFleetRole(fleetId);
  const mayRead = access.can('api_key', 'read');
  const keys = useFleetApiKeys(fleetId, mayRead);
  const createKey = useCreateProvisioningKey(fleetId);
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<ApiKeyRow | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyRow | null>(null);
  const reload = useReloadApiKeys(apiKeyKeys.fleet(fleetId));
  const revoke = useRevokeApiKey({
    reload,
    onRevoked: (key) => {
      toasts.show('success', `${keyLabel(key)} was revoked`);
      setRevoking(null);
    },
  });

  if (access.isPending) {
    const checking = { isPending: true, isError: false, error: null, refetch: () => undefined };
    return <LoadState queries={[checking]} what="API keys" />;
  }
  if (!mayRead) {
    return (
      <Alert severity="info">You do not have permission to see the API keys of this fleet.</Alert>
    );
  }
  // Expired or not as of the list's last refresh (every 6 s).
  const now = keys.dataUpdatedAt;
  const rows = keys.data ?? [];
  return (
    <Stack spacing={2}>
      <Stack
        direction="row"
        spacing={2}
        sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}
      >
        <Typography variant="h2">API keys</Typography>
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          disabled={access.denied('api_key', 'create') !== null}
          onClick={() => setCreating(true)}
        >
          Create provisioning key
        </Button>
      </Stack>
      <Typography color="text.secondary">
        Provisioning keys register new devices into this fleet. Revoking one stops new registrations
        with it; devices already registered keep their own keys.
      </Typography>
      <LoadState queries={[keys]} what="API keys" />
      {keys.isSuccess ? (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" aria-label="Provisioning keys">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>Description</TableCell>
                <TableCell>Created</TableCell>
                <TableCell>Expires</TableCell>
                <TableCell align="right" aria-label="Actions" />
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.length === 0 ? (
                <TableRow>
                  <TableCell colSpan={5}>
                    <Typography color="text.secondary" sx={{ py: 2, textAlign: 'center' }}>
                      No provisioning keys yet
                    </Typography>
                  </TableCell>
                </TableRow>
              ) : null}
              {rows.map((key) => (
                <TableRow key={key.id}>
                  <TableCell sx={{ overflowWrap: 'anywhere', maxWidth: 240 }}>
                    {keyLabel(key)}
                  </TableCell>
                  <TableCell sx={{ overflowWrap: 'anywhere', maxWidth: 320 }}>
                    {key.description ?? ''}
                  </TableCell>
                  <TableCell>{absoluteTime(key.created_at)}</TableCell>
                  <TableCell>{expiryText(key.expiry_date, now)}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <RowAction
                      label={`Rename ${keyLabel(key)}`}
                      title="Rename"
                      icon={<EditIcon fontSize="small" />}
                      denied={access.denied('api_key', 'update')}
                      onClick={() => setRenaming(key)}
                    />
                    <RowAction
                      label={`Revoke ${keyLabel(key)}`}
                      title="Revoke"
                      icon={<DeleteIcon fontSize="small" />}
                      denied={access.denied('api_key', 'delete')}
                      onClick={() => setRevoking(key)}
                    />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      ) : null}
      <CreateApiKeyDialog
        open={creating}
        noun="provisioning key"
        intro="Devices register into this fleet with a provisioning key (in their config.json)."
        create={createKey}
        onCreated={() => void reload()}
        onClose={() => setCreating(false)}
      />
      {renaming ? (
        <RenameApiKeyDialog apiKey={renaming} onDone={reload} onClose={() => setRenaming(null)} />
      ) : null}
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke ${revoking ? keyLabel(revoking) : 'the key'}?`}
        confirmLabel="Revoke"
        destructive
        pending={revoke.isPending}
        error={revoke.isError ? (errorText(revoke.error) ?? 'Could not revoke the key') : null}
        onConfirm={() => {
          if (revoking) revoke.mutate(revoking);
        }}
        onClose={() => {
          setRevoking(null);
          revoke.reset();
        }}
      >
        Devices can no longer register with this key. This cannot be undone.
      </ConfirmDialog>
    </Stack>
  );
};
