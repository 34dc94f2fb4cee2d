import { errorText } from '@flotilla/sdk/errors';
import { samlApiKeyRefusal } from '@flotilla/shared/auth/saml-accounts';
import { apiKeyListRefreshMs } from '@flotilla/shared/constants/limits';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useClient } from '../../api/client.js';
import { polling } from '../../ui/polling.js';
import { useToasts } from '../../ui/toasts.js';
import {
  type ApiKeyRow,
  createUserApiKey,
  fetchHasSamlAccount,
  fetchUserApiKeys,
  samlAccountKey,
  userApiKeysKey,
} from '../api-keys/api-key-queries.js';
import { expiryText } from '../api-keys/api-key-rules.js';
import { CreateApiKeyDialog } from '../api-keys/CreateApiKeyDialog.js';
import { useFreshAuthentication } from '../reauthentication/useFreshAuthentication.js';
import { RenameApiKeyDialog } from '../api-keys/RenameApiKeyDialog.js';
import { absoluteTime } from '../../device/device-format.js';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { AuthorizedApplications } from '../oauth/AuthorizedApplications.js';
import { LoadingScreen } from '../../api/session/guards.js';
import { useSession } from '../../api/session/useSession.js';
import { sessionKeys } from '../../api/session/query-keys.js';

const keyLabel = (key: ApiKeyRow): string => key.name ?? `Key ${key.id}`;

// Preferences → Access tokens (seed 000 sections 3.6, 4, 5 and 9): the user's named API keys,
// refetched every 6 s; create one (expiry presets, custom or never; shown once with copy and
// download), rename, revoke. Creating is disabled, with the reason, for SAML accounts (section 5).
export const AccessTokensTab = () => {
  const client = useClient();
  const session = useSession();
  const queryClient = useQueryClient();
  const toasts = useToasts();
  const freshAuthentication = useFreshAuthentication();
  const whoami = useQuery({
    queryKey: sessionKeys.whoami(session?.userId),
    queryFn: () => client.auth.whoami(),
  });
  const actorId = whoami.data?.actorType === 'user' ? whoami.data.id : undefined;
  const userId = whoami.data?.actorType === 'user' ? whoami.data.actorTypeId : undefined;
  const saml = useQuery({
    queryKey: samlAccountKey(userId),
    queryFn: () => (userId === undefined ? false : fetchHasSamlAccount(client, userId)),
    enabled: userId !== undefined,
  });
  const keys = useQuery({
    queryKey: userApiKeysKey(actorId),
    queryFn: () => (actorId === undefined ? [] : fetchUserApiKeys(client, actorId)),
    enabled: actorId !== undefined,
    ...polling(apiKeyListRefreshMs),
  });
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<ApiKeyRow | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyRow | null>(null);
  const reload = () => queryClient.invalidateQueries({ queryKey: userApiKeysKey(actorId) });
  const revoke = useMutation({
    meta: { inlineError: true },
    mutationFn: (key: ApiKeyRow) => client.pine.delete({ resource: 'api_key', id: key.id }),
    onSuccess: (_result, key) => {
      toasts.show('success', `${keyLabel(key)} was revoked`);
      setRevoking(null);
    },
    onSettled: reload,
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
      <Table size="small" aria-label="API keys">
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
          {keys.data.length === 0 ? (
            <TableRow>
              <TableCell colSpan={5}>
                <Typography color="text.secondary" sx={{ py: 2, textAlign: 'center' }}>
                  No API keys yet
                </Typography>
              </TableCell>
            </TableRow>
          ) : null}
          {keys.data.map((key) => (
            <TableRow key={key.id}>
              <TableCell sx={{ overflowWrap: 'anywhere' }}>{keyLabel(key)}</TableCell>
              <TableCell sx={{ overflowWrap: 'anywhere' }}>{key.description ?? ''}</TableCell>
              <TableCell>{absoluteTime(key.created_at)}</TableCell>
              <TableCell>{expiryText(key.expiry_date, now)}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                <IconButton aria-label={`Rename ${keyLabel(key)}`} onClick={() => setRenaming(key)}>
                  <EditIcon fontSize="small" />
                </IconButton>
                <IconButton aria-label={`Revoke ${keyLabel(key)}`} onClick={() => setRevoking(key)}>
                  <DeleteIcon fontSize="small" />
                </IconButton>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <CreateApiKeyDialog
        open={creating}
        noun="API key"
        intro="The key acts as you until it expires or you revoke it."
        create={(key) => freshAuthentication.run(() => createUserApiKey(client, key))}
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
