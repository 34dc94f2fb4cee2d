import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { usePublicConfig } from '../../api/config/api.js';
import { useToasts } from '../../ui/toasts.js';
import { useCanAccessSupport, useDesk, useSupportOrganizations } from './api.js';
import { CreateTicketDialog } from './CreateTicketDialog.js';
import { DocsSearch } from './DocsSearch.js';

// The support drawer's own part: private support for the chosen organization (create a ticket,
// its tickets) and the documentation search. `onNavigate` closes the drawer when a link is
// followed. Organization administrators get an Upgrade button to the organization's plans where
// the installation bills.
export const SupportPanel = ({ onNavigate }: { onNavigate: () => void }) => {
  const organizations = useSupportOrganizations();
  const [chosen, setChosen] = useState<number | null>(null);
  const [creating, setCreating] = useState(false);
  const navigate = useNavigate();
  const toasts = useToasts();
  const list = organizations.data ?? [];
  const organization = list.find((entry) => entry.id === chosen) ?? list[0] ?? null;
  const access = useCanAccessSupport(organization?.id ?? null);
  const desk = useDesk(access.data === true);
  const builtIn = desk.data?.kind === 'built-in';
  const billingEnabled = usePublicConfig().data?.billingEnabled === true;
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <Typography variant="h6" component="h2">
        Private support
      </Typography>
      {organizations.isPending ? (
        <Skeleton variant="rounded" height={40} aria-label="Loading your organizations" />
      ) : organizations.isError ? (
        <Alert severity="error">Could not load your organizations</Alert>
      ) : organization === null ? (
        <Typography variant="body2" color="text.secondary">
          Tickets are opened for an organization; you are not a member of any.
        </Typography>
      ) : (
        <>
          {list.length > 1 ? (
            <TextField
              select
              size="small"
              label="Organization"
              value={organization.id}
              onChange={(event) => setChosen(Number(event.target.value))}
            >
              {list.map((entry) => (
                <MenuItem key={entry.id} value={entry.id}>
                  {entry.name}
                </MenuItem>
              ))}
            </TextField>
          ) : null}
          {access.isPending ? (
            <Skeleton variant="rounded" height={36} aria-label="Checking support access" />
          ) : access.isError ? (
            <Alert severity="error">Could not check support access</Alert>
          ) : access.data ? (
            <Stack spacing={1}>
              <Button variant="contained" onClick={() => setCreating(true)}>
                Create a ticket
              </Button>
              {builtIn ? (
                <Button
                  component={RouterLink}
                  to={`/orgs/${organization.id}/support`}
                  onClick={onNavigate}
                >
                  Support tickets
                </Button>
              ) : null}
            </Stack>
          ) : (
            <Typography variant="body2" color="text.secondary">
              Private support is available on paid plans.
            </Typography>
          )}
          {billingEnabled && organization.isAdministrator ? (
            <Button
              variant="outlined"
              component={RouterLink}
              to={`/orgs/${organization.id}/billing#billing-plans`}
              onClick={onNavigate}
            >
              Upgrade
            </Button>
          ) : null}
        </>
      )}
      <DocsSearch onNavigate={onNavigate} />
      {creating ? (
        <CreateTicketDialog
          organizations={list}
          initialOrganization={organization?.id ?? null}
          onClose={() => setCreating(false)}
          onSubmitted={(organizationId, ticketId) => {
            setCreating(false);
            toasts.show('success', `Ticket #${ticketId} submitted`, { afterNavigation: builtIn });
            if (builtIn) {
              onNavigate();
              void navigate(`/orgs/${organizationId}/support/${ticketId}`);
            }
          }}
        />
      ) : null}
    </Stack>
  );
};
