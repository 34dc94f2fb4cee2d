import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useParams } from 'react-router';
import { usePageTitle } from '../../ui/usePageTitle.js';
import type { AuditQuery } from './api.js';
import { AuditFilters } from './AuditFilters.js';
import { AuditLogView } from './AuditLogView.js';

// /orgs/:organizationId/audit: every change in the organization, for its administrators.
export const AuditLogPage = () => {
  usePageTitle('Audit log');
  const organizationId = Number(useParams().organizationId);
  const [filter, setFilter] = useState<AuditQuery>({});
  return (
    <Stack spacing={2}>
      <Typography variant="h2">Audit log</Typography>
      <AuditFilters onApply={setFilter} />
      <AuditLogView
        source={{ kind: 'organization', id: organizationId }}
        filter={filter}
        label="Audit log"
      />
    </Stack>
  );
};
