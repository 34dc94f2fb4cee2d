import type { AdminFeatureFlag } from '@flotilla/shared/feature-flags/flags';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { RequirePermission } from '../../api/session/guards.js';
import { isAdmin, useSession } from '../../api/session/useSession.js';
import { LoadState } from '../../ui/LoadState.js';
import { MutationError } from '../../ui/MutationError.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { useAdminFlags, useRemoveFlagSetting } from './api.js';
import { FlagSettingForm } from './FlagSettingForm.js';

const settingTarget = (setting: AdminFeatureFlag['settings'][number]): string =>
  setting.scope === 'organization'
    ? `Organization ${setting.organization?.handle ?? ''}`
    : setting.scope === 'user'
      ? `User ${setting.user?.username ?? ''}`
      : 'Everyone';

const FlagCard = ({ flag }: { flag: AdminFeatureFlag }) => {
  const remove = useRemoveFlagSetting();
  return (
    <Paper variant="outlined" sx={{ p: 2 }} aria-label={`Flag ${flag.key}`} component="section">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Typography variant="h2" component="h2">
          {flag.key}
        </Typography>
        <Chip size="small" label={`Default: ${flag.defaultValue ? 'on' : 'off'}`} />
      </Stack>
      <Typography color="text.secondary">{flag.description}</Typography>
      {flag.settings.length === 0 ? (
        <Typography sx={{ mt: 1 }}>Not set: everyone gets the default.</Typography>
      ) : (
        <Table size="small" aria-label={`Settings of ${flag.key}`} sx={{ mt: 1 }}>
          <TableHead>
            <TableRow>
              <TableCell>For</TableCell>
              <TableCell>Value</TableCell>
              <TableCell align="right">Actions</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {flag.settings.map((setting) => (
              <TableRow key={setting.id}>
                <TableCell>{settingTarget(setting)}</TableCell>
                <TableCell>{setting.enabled ? 'On' : 'Off'}</TableCell>
                <TableCell align="right">
                  <Button
                    size="small"
                    color="error"
                    disabled={remove.isPending}
                    onClick={() => remove.mutate(setting.id)}
                  >
                    Remove
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <MutationError error={remove.error} fallback="Could not remove the setting" />
      <FlagSettingForm flag={flag} />
    </Paper>
  );
};

// /admin/feature-flags: every flag, its settings per scope, and a form to set it.
export const FeatureFlagsAdminPage = () => {
  const session = useSession();
  usePageTitle('Feature flags');
  const flags = useAdminFlags();
  return (
    <RequirePermission allowed={isAdmin(session)} loading={false}>
      <Typography variant="h1" sx={{ mb: 1 }}>
        Feature flags
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        A user&apos;s own setting wins over their organization&apos;s, which wins over the one for
        everyone.
      </Typography>
      <LoadState queries={[flags]} what="feature flags" />
      <Stack spacing={2}>
        {flags.data?.flags.map((flag) => (
          <FlagCard key={flag.key} flag={flag} />
        ))}
      </Stack>
    </RequirePermission>
  );
};
