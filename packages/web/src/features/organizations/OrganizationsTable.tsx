import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { Link as RouterLink } from 'react-router';
import { DisabledReason } from '../../ui/DisabledReason.js';
import { useAppsEnabled } from '../../ui/useAppsEnabled.js';
import { classListLabel, shownClasses } from './class-list-label.js';
import { OrganizationLogo } from './organization-logo.js';
import { deleteReason, leaveReason } from './organization-rules.js';
import type { WebResource } from '@flotilla/sdk/resources/organization';
import type { ApplicationClass } from '@flotilla/shared/fleets/fleet-name';

type OrganizationListItem = {
  id: number;
  name: string;
  logo_image: WebResource | null;
  organization_membership: {
    id: number;
    user: { __id: number };
    organization_membership_role: { name: string }[];
  }[];
  application: { id: number; is_of__class: ApplicationClass }[];
};

// One row per organization: the user's own membership and role, and how many administrators it
// has (leaving and deleting depend on them).
export const organizationRowsOf = (
  organizations: readonly OrganizationListItem[],
  userId: number,
) =>
  organizations.map((organization) => {
    const memberships = organization.organization_membership;
    const administrators = memberships.filter(
      (m) => m.organization_membership_role[0]?.name === 'administrator',
    );
    const own = memberships.find((m) => m.user.__id === userId);
    const role = own?.organization_membership_role[0]?.name ?? 'member';
    return { organization, own, role, administrators: administrators.length };
  });

type OrganizationRow = ReturnType<typeof organizationRowsOf>[number];

// The user's organizations with their logo, the user's role and fleet count; leave and delete,
// each disabled with the reason when the user may not.
export const OrganizationsTable = ({
  rows,
  leaving,
  onLeave,
  onDelete,
}: {
  rows: readonly OrganizationRow[];
  leaving: boolean;
  onLeave: (membershipId: number) => void;
  onDelete: (organization: { id: number; name: string; fleets: number }) => void;
}) => {
  const appsEnabled = useAppsEnabled();
  const classes = shownClasses(appsEnabled);
  return (
    <Paper variant="outlined">
      <Table aria-label="Organizations">
        <TableHead>
          <TableRow>
            <TableCell>Name</TableCell>
            <TableCell>Your role</TableCell>
            <TableCell align="right">{classListLabel(appsEnabled)}</TableCell>
            <TableCell align="right">Actions</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map(({ organization, own, role, administrators }) => {
            const isAdmin = role === 'administrator';
            const cannotDelete = deleteReason(isAdmin, administrators);
            const cannotLeave = own ? leaveReason(isAdmin, administrators) : 'You are not a member';
            return (
              <TableRow key={organization.id} hover>
                <TableCell>
                  <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
                    <OrganizationLogo
                      name={organization.name}
                      logo={organization.logo_image}
                      size={32}
                    />
                    <Link component={RouterLink} to={`/orgs/${organization.id}`}>
                      {organization.name}
                    </Link>
                  </Stack>
                </TableCell>
                <TableCell>
                  <Chip size="small" label={isAdmin ? 'Administrator' : 'Member'} />
                </TableCell>
                <TableCell align="right">
                  {organization.application.filter((a) => classes.includes(a.is_of__class)).length}
                </TableCell>
                <TableCell align="right">
                  <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
                    <DisabledReason reason={cannotLeave}>
                      <Button
                        size="small"
                        disabled={cannotLeave !== null || leaving}
                        onClick={() => own && onLeave(own.id)}
                      >
                        Leave
                      </Button>
                    </DisabledReason>
                    <DisabledReason reason={cannotDelete}>
                      <Button
                        size="small"
                        color="error"
                        disabled={cannotDelete !== null}
                        onClick={() =>
                          onDelete({
                            id: organization.id,
                            name: organization.name,
                            fleets: organization.application.length,
                          })
                        }
                      >
                        Delete
                      </Button>
                    </DisabledReason>
                  </Stack>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </Paper>
  );
};
