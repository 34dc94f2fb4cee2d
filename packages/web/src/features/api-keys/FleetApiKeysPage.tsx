import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { errorText } from '@flotilla/sdk/errors';
import { useState } from 'react';
import { useToasts } from '../../ui/toasts.js';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { useFleetContext } from '../../fleet/useFleetContext.js';
import { useFleetRole } from '../../fleet/api-fleet-role.js';
import { RequireFleetPermission } from '../../fleet/RequireFleetPermission.js';
import { LoadState } from '../../ui/LoadState.js';
import { ListToolbar } from '../../ui/entity-list/ListToolbar.js';
import {
  type ApiKeyRow,
  useCreateProvisioningKey,
  useFleetApiKeys,
  useReloadApiKeys,
  useRevokeApiKey,
} from './api.js';
import { apiKeyKeys } from './query-keys.js';
import { CreateApiKeyDialog } from './CreateApiKeyDialog.js';
import { RenameApiKeyDialog } from './RenameApiKeyDialog.js';
import { FleetApiKeysTable, keyLabel } from './FleetApiKeysTable.js';

// /fleets/:id/api-keys (needs resin.api_key.read; anyone else goes home): the fleet's
// provisioning keys with their name, description, creation and expiry; create (shown once),
// rename and revoke.
export const FleetApiKeysPage = () => {
  const { fleet } = useFleetContext();
  return (
    <RequireFleetPermission fleetId={fleet.id} needs={{ resource: 'api_key', action: 'read' }}>
      <FleetApiKeys fleetId={fleet.id} />
    </RequireFleetPermission>
  );
};

const FleetApiKeys = ({ fleetId }: { fleetId: number }) => {
  const toasts = useToasts();
  const access = useFleetRole(fleetId);
  const keys = useFleetApiKeys(fleetId, true);
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

  // Expired or not as of the list's last refresh (every 6 s).
  const now = keys.dataUpdatedAt;
  const rows = keys.data ?? [];
  return (
    <Stack spacing={2}>
      <ListToolbar
        actions={
          <Button
            variant="contained"
            startIcon={<AddIcon />}
            disabled={access.denied('api_key', 'create') !== null}
            onClick={() => setCreating(true)}
          >
            Create provisioning key
          </Button>
        }
      >
        <Typography variant="h2">API keys</Typography>
      </ListToolbar>
      <Typography color="text.secondary">
        Provisioning keys register new devices into this fleet. Revoking one stops new registrations
        with it; devices already registered keep their own keys.
      </Typography>
      <LoadState queries={[keys]} what="API keys" />
      {keys.isSuccess ? (
        <FleetApiKeysTable
          keys={rows}
          now={now}
          renameDenied={access.denied('api_key', 'update')}
          revokeDenied={access.denied('api_key', 'delete')}
          onRename={setRenaming}
          onRevoke={setRevoking}
        />
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
