import { errorText } from '@flotilla/sdk/errors';
import {
  isSocialProvider,
  socialProviderLabels,
} from '@flotilla/shared/social-auth/social-providers';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { LoadingScreen } from '../../api/session/guards.js';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { EntityTable } from '../../ui/entity-list/EntityTable.js';
import { leaveConsole } from '../../ui/leave-console.js';
import { useToasts } from '../../ui/toasts.js';
import {
  type SocialAccountRow,
  useSocialAccounts,
  useSocialProviders,
  useStartLink,
  useUnlinkSocialAccount,
} from './api.js';
import { socialProviderIcons } from './SocialButtons.js';

const labelOf = (provider: string): string =>
  isSocialProvider(provider) ? socialProviderLabels[provider] : provider;

// Preferences → Profile → Social accounts: the accounts the user signs in with, unlink one (the
// server refuses the last way into an account), link one of each configured provider.
export const SocialAccountsSection = ({ userId }: { userId: number }) => {
  const toasts = useToasts();
  const accounts = useSocialAccounts(userId);
  const providers = useSocialProviders();
  const [unlinking, setUnlinking] = useState<SocialAccountRow | null>(null);
  const unlink = useUnlinkSocialAccount(userId, () => {
    if (unlinking)
      toasts.show('success', `Your ${labelOf(unlinking.provider)} account is unlinked`);
    setUnlinking(null);
  });
  const startLink = useStartLink();

  if (accounts.isPending) return <LoadingScreen label="Loading the social accounts" />;
  if (accounts.isError) {
    return (
      <Alert severity="error">
        {errorText(accounts.error) ?? 'Could not load the social accounts'}
      </Alert>
    );
  }
  // Nothing to show where no provider is configured and nothing was linked before.
  if (providers.length === 0 && accounts.data.length === 0) return null;
  const linkable = providers.filter(
    (provider) => !accounts.data.some((account) => account.provider === provider),
  );
  return (
    <Stack spacing={2} component="section" aria-label="Social accounts">
      <Typography variant="h6">Social accounts</Typography>
      <EntityTable
        label="Social accounts"
        size="small"
        rows={accounts.data}
        emptyText="No linked accounts"
        columns={[
          { key: 'provider', header: 'Provider', cell: (account) => labelOf(account.provider) },
          {
            key: 'account',
            header: 'Account',
            cellProps: { sx: { overflowWrap: 'anywhere' } },
            cell: (account) => account.display_name ?? '—',
          },
        ]}
        rowActions={{
          cell: (account) => (
            <Button size="small" onClick={() => setUnlinking(account)}>
              Unlink
            </Button>
          ),
        }}
      />
      {startLink.isError ? (
        <Alert severity="error">{errorText(startLink.error) ?? 'Could not start the link'}</Alert>
      ) : null}
      {linkable.length > 0 ? (
        <Stack direction="row" spacing={1}>
          {linkable.map((provider) => {
            const Icon = socialProviderIcons[provider];
            return (
              <Button
                key={provider}
                variant="outlined"
                startIcon={<Icon />}
                disabled={startLink.isPending}
                onClick={() =>
                  startLink.mutate(provider, { onSuccess: (url) => leaveConsole(url) })
                }
              >
                Link {socialProviderLabels[provider]}
              </Button>
            );
          })}
        </Stack>
      ) : null}
      <ConfirmDialog
        open={unlinking !== null}
        title="Unlink account"
        items={unlinking ? [`${labelOf(unlinking.provider)}: ${unlinking.display_name ?? ''}`] : []}
        confirmLabel="Unlink"
        destructive
        pending={unlink.isPending}
        error={unlink.isError ? errorText(unlink.error) : null}
        onConfirm={() => {
          if (unlinking) unlink.mutate(unlinking);
        }}
        onClose={() => {
          setUnlinking(null);
          unlink.reset();
        }}
      >
        You will no longer be able to sign in with this account.
      </ConfirmDialog>
    </Stack>
  );
};
