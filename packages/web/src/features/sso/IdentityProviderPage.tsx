import { errorText } from '@flotilla/sdk/errors';
import { identityProviderMessages } from '@flotilla/shared/sso/identity-provider-rules';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type ReactNode, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { CopyableText } from '../../ui/CopyableText.js';
import { DisabledReason } from '../../ui/DisabledReason.js';
import { LoadState } from '../../ui/LoadState.js';
import { RedirectWithMessage } from '../../ui/RedirectWithMessage.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import {
  type Provider,
  useProvider,
  useRemoveProvider,
  useSamlAccountCount,
} from './api-providers.js';
import { useServiceProviderAddresses } from './api-sign-in.js';
import { ProviderDialog } from './ProviderDialog.js';
import { ProviderOrganizations } from './ProviderOrganizations.js';

const Row = ({ label, children }: { label: string; children: ReactNode }) => (
  <Box sx={{ display: 'grid', gridTemplateColumns: '180px 1fr', gap: 2, py: 0.5 }}>
    <Typography color="text.secondary">{label}</Typography>
    <Box sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>{children}</Box>
  </Box>
);

const ProviderDetails = ({ provider }: { provider: Provider }) => {
  const navigate = useNavigate();
  const addresses = useServiceProviderAddresses(provider.sso_identifier);
  const accounts = useSamlAccountCount(provider.id);
  const [editing, setEditing] = useState(false);
  const [removing, setRemoving] = useState(false);
  const remove = useRemoveProvider(provider.id, () => void navigate('/identity-provider'));
  const accountCount = accounts.data ?? 0;
  const removalBlocked = accountCount > 0 ? identityProviderMessages.accountsExist : null;
  return (
    <Stack spacing={3}>
      <Card>
        <CardContent>
          <Row label="SSO identifier">{provider.sso_identifier}</Row>
          <Row label="Entry point">{provider.entry_point}</Row>
          <Row label="Issuer">{provider.issuer}</Row>
          <Row label="Certificate">
            <Box component="pre" sx={{ m: 0, fontSize: '0.75rem', whiteSpace: 'pre-wrap' }}>
              {provider.certificate}
            </Box>
          </Row>
          <Row label="SAML accounts">
            {accounts.isError ? 'Could not count them' : accounts.isPending ? '…' : accountCount}
          </Row>
          <Row label="Our metadata (entity id)">
            <CopyableText value={addresses.metadataUrl} label="metadata address" />
          </Row>
          <Row label="Assertion consumer service">
            <CopyableText value={addresses.acsUrl} label="assertion consumer service address" />
          </Row>
          <Stack direction="row" spacing={1} sx={{ mt: 2 }}>
            <Button variant="contained" onClick={() => setEditing(true)}>
              Edit
            </Button>
            <DisabledReason reason={removalBlocked}>
              <Button
                color="error"
                disabled={removalBlocked !== null || accounts.isPending}
                onClick={() => setRemoving(true)}
              >
                Remove provider
              </Button>
            </DisabledReason>
          </Stack>
          {removalBlocked !== null ? (
            <Alert severity="warning" sx={{ mt: 2 }}>
              {removalBlocked}
            </Alert>
          ) : null}
        </CardContent>
      </Card>
      <ProviderOrganizations provider={provider} />
      {editing ? (
        <ProviderDialog
          provider={provider}
          onClose={() => setEditing(false)}
          onSaved={() => setEditing(false)}
        />
      ) : null}
      <ConfirmDialog
        open={removing}
        title="Remove identity provider"
        destructive
        confirmLabel="Remove"
        pending={remove.isPending}
        error={remove.isError ? (errorText(remove.error) ?? 'Could not remove it') : null}
        onConfirm={() => remove.mutate()}
        onClose={() => setRemoving(false)}
      >
        Nobody will sign in through {provider.sso_identifier} any more.
      </ConfirmDialog>
    </Stack>
  );
};

// /identity-provider/:id: one provider, for the administrators of its organizations.
export const IdentityProviderPage = () => {
  usePageTitle('Identity provider');
  const { id: raw } = useParams();
  const id =
    raw !== undefined && /^\d+$/.test(raw) && Number(raw) <= 2_147_483_647 ? Number(raw) : null;
  const provider = useProvider(id ?? 0);
  if (id === null) {
    return (
      <RedirectWithMessage
        to="/identity-provider"
        message={`Invalid identity provider id: ${raw ?? ''}`}
      />
    );
  }
  if (provider.isSuccess && provider.data === null) {
    return (
      <RedirectWithMessage to="/identity-provider" message={`No identity provider found: ${id}`} />
    );
  }
  return (
    <Box sx={{ p: 3, maxWidth: 960 }}>
      <Typography variant="h1" sx={{ fontSize: '1.75rem', mb: 2 }}>
        Identity provider
      </Typography>
      <LoadState queries={[provider]} what="identity provider" />
      {provider.data ? <ProviderDetails provider={provider.data} /> : null}
    </Box>
  );
};
