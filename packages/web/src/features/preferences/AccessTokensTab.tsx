import { errorText } from '@flotilla/sdk/errors';
import { samlApiKeyRefusal } from '@flotilla/shared/auth/saml-accounts';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useToasts } from '../../ui/toasts.js';
import { EntityTable } from '../../ui/entity-list/EntityTable.js';
import {
  type ApiKeyRow,
  useCreateUserApiKey,
  useHasSamlAccount,
  useReloadApiKeys,
  useRevokeApiKey,
  useUserApiKeys,
} from '../api-keys/api.js';
import { apiKeyKeys } from '../api-keys/query-keys.js';
import { useWhoami } from './api-two-factor.js';
import { expiryText } from '../api-keys/api-key-rules.js';
import { CreateApiKeyDialog } from '../api-keys/CreateApiKeyDialog.js';
import { useFreshAuthentication } from '../reauthentication/useFreshAuthentication.js';
import { RenameApiKeyDialog } from '../api-keys/RenameApiKeyDialog.js';
import { absoluteTime } from '../../device/device-format.js';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { AuthorizedApplications } from '../oauth/AuthorizedApplications.js';
import { LoadingScreen } from '../../api/session/guards.js';

const keyLabel = (key: ApiKeyRow): string => key.name ?? `Key ${key.id}`;

// Preferences → Access tokens: the user's named API keys, refetched every 6 s; create one (expiry
// presets, custom or never; shown once with copy and download), rename, revoke. Creating is
// disabled, with the reason, for SAML accounts.
export const AccessTokensTab = () => {
  const toasts = useToasts();
  const freshAuthentication = useFreshAuthentication();
  const whoami = useWhoami();
  const actorId = whoami.data?.actorType === 'user' ? whoami.data.id : undefined;
  const userId = whoami.data?.actorType === 'user' ? whoami.data.actorTypeId : undefined;
  const saml = useHasSamlAccount(userId);
  const keys = useUserApiKeys(actorId);
  const createKey = useCreateUserApiKey();
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<ApiKeyRow | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyRow | null>(null);
  const reload = useReloadApiKeys(apiKeyKeys.user(actorId));
  const revoke = useRevokeApiKey({
    reload,
    inlineError: true,
    onRevoked: (key) => {
      toasts.show('success', `${keyLabel(key)} was revoked`);
      setRevoking(null);
    },
  });

  if (whoami.isError || keys.isError || saml.isError) {
    return (
      <Alert severity="error">
        {errorText(whoami.error ?? keys.error ?? saml.error) ?? 'Could not load the API keys'}
      </Alert>
    );
  }
  if (!keys.isSuccess || !saml.isSuccess) return <LoadingScreen label="Loading the API keys" />;
  const now = keys.dataUpdatedAt;
  return (
    <Stack spacing={2}>
      <Stack
        direction="row"
        spacing={2}
        sx={{ justifyContent: 'space-between', alignItems: 'center' }}
      >
        <Typography>
          An API key acts as you, with everything you may do: use it for scripts and the command
          line tool, and keep it secret.
        </Typography>
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          disabled={saml.data}
          onClick={() => setCreating(true)}
          sx={{ flexShrink: 0 }}
        >
          Create API key
        </Button>
      </Stack>
      {saml.data ? <Alert severity="warning">{samlApiKeyRefusal}.</Alert> : null}
      <EntityTable
        label="API keys"
        size="small"
        rows={keys.data}
        emptyText="No API keys yet"
        columns={[
          {
            key: 'name',
            header: 'Name',
            cellProps: { sx: { overflowWrap: 'anywhere' } },
            cell: keyLabel,
          },
          {
            key: 'description',
            header: 'Description',
            cellProps: { sx: { overflowWrap: 'anywhere' } },
            cell: (key) => key.description ?? '',
          },
          { key: 'created', header: 'Created', cell: (key) => absoluteTime(key.created_at) },
          { key: 'expires', header: 'Expires', cell: (key) => expiryText(key.expiry_date, now) },
        ]}
        rowActions={{
          cellProps: { sx: { whiteSpace: 'nowrap' } },
          cell: (key) => (
            <>
              <IconButton aria-label={`Rename ${keyLabel(key)}`} onClick={() => setRenaming(key)}>
                <EditIcon fontSize="small" />
              </IconButton>
              <IconButton aria-label={`Revoke ${keyLabel(key)}`} onClick={() => setRevoking(key)}>
                <DeleteIcon fontSize="small" />
              </IconButton>
            </>
          ),
        }}
      />
      <CreateApiKeyDialog
        open={creating}
        noun="API key"
        intro="The key acts as you until it expires or you revoke it."
        create={(key) => freshAuthentication.run(() => createKey(key))}
        onCreated={() => void reload()}
        onClose={() => setCreating(false)}
      />
      {freshAuthentication.dialog}
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
        Scripts and tools using this key stop working at once. This cannot be undone.
      </ConfirmDialog>
      <AuthorizedApplications />
    </Stack>
  );
};
