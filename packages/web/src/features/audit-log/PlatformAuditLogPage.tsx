import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { RequirePermission } from '../../api/session/guards.js';
import { isAdmin, useSession } from '../../api/session/useSession.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import type { AuditQuery } from './api.js';
import { AuditFilters } from './AuditFilters.js';
import { AuditLogView } from './AuditLogView.js';

const platform = { kind: 'platform', id: 0 } as const;

const PlatformAuditLog = () => {
  usePageTitle('Audit log');
  const [filter, setFilter] = useState<AuditQuery>({});
  return (
    <Stack spacing={2}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="h1">Audit log</Typography>
        <Button component={RouterLink} to="/admin" variant="outlined">
          Users
        </Button>
      </Stack>
      <Typography color="text.secondary">
        Every record of the installation, those of no organization too: sign-ins, refused sign-ins,
        sign-ins as another user, and the platform's own settings.
      </Typography>
      <AuditFilters onApply={setFilter} />
      <AuditLogView source={platform} filter={filter} label="Audit log of the installation" />
    </Stack>
  );
};

// /admin/audit-log: the whole installation's audit log (platform administrators).
export const PlatformAuditLogPage = () => {
  const session = useSession();
  return (
    <RequirePermission allowed={isAdmin(session)} loading={false}>
      <PlatformAuditLog />
    </RequirePermission>
  );
};
