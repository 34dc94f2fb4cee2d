import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import type { ComponentType } from 'react';
import { Navigate, Link as RouterLink, useParams } from 'react-router';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { AccessTokensTab } from './AccessTokensTab.js';
import { DetailsTab } from './DetailsTab.js';
import { ExperimentalTab } from './ExperimentalTab.js';
import { ProfileTab } from './ProfileTab.js';
import { SshKeysTab } from './SshKeysTab.js';
import { TwoFactorTab } from './TwoFactorTab.js';

type PreferencesTab = { id: string; label: string; Content: ComponentType };

// The preferences tabs the console has, in their usual order; the first is the default. A tab is listed only with its content, so no tab leads nowhere.
export const preferencesTabs: readonly PreferencesTab[] = [
  { id: 'details', label: 'Account details', Content: DetailsTab },
  { id: 'sshkeys', label: 'SSH keys', Content: SshKeysTab },
  { id: 'access-tokens', label: 'Access tokens', Content: AccessTokensTab },
  { id: 'profile', label: 'Profile', Content: ProfileTab },
  { id: '2fa', label: 'Two-factor authentication', Content: TwoFactorTab },
  { id: 'experimental', label: 'Experimental', Content: ExperimentalTab },
];

// /preferences and /preferences/:tab.
export const PreferencesPage = () => {
  const { tab } = useParams();
  const [first] = preferencesTabs;
  const current = tab === undefined ? first : preferencesTabs.find((known) => known.id === tab);
  usePageTitle(current ? `Preferences: ${current.label}` : 'Preferences');
  if (!current) return <Navigate to="/preferences" replace />;
  const { Content } = current;
  return (
    // The shared page layout: the title and tabs of every other page, in the same column.
    <Stack spacing={2}>
      <Typography variant="h1">Preferences</Typography>
      <Tabs
        value={current.id}
        aria-label="Preferences"
        variant="scrollable"
        sx={{ borderBottom: 1, borderColor: 'divider' }}
      >
        {preferencesTabs.map((known) => (
          <Tab
            key={known.id}
            value={known.id}
            label={known.label}
            component={RouterLink}
            to={`/preferences/${known.id}`}
          />
        ))}
      </Tabs>
      <Paper
        variant="outlined"
        sx={{ p: { xs: 2, md: 3 } }}
        role="tabpanel"
        aria-label={current.label}
      >
        <Content />
      </Paper>
    </Stack>
  );
};
