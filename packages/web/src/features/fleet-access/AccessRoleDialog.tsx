import { errorText } from '@flotilla/sdk/errors';
import { roleLabel } from '@flotilla/shared/permissions/role-labels';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { classLabels } from '../../fleet/class-names.js';
import type { FleetDetail } from '../../fleet/api-fleet-detail.js';
import { useSession } from '../../api/session/useSession.js';
import { useAccessSources } from './api.js';

// "Your access" in the fleet header: the access-role dialog, which says where
// each of the user's roles on the fleet comes from and links to where it is managed: the
// organization's members, the team, the fleet's members.
export const AccessRoleButton = ({ application }: { application: FleetDetail }) => {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" onClick={() => setOpen(true)}>
        Your access
      </Button>
      {open ? <AccessRoleDialog application={application} onClose={() => setOpen(false)} /> : null}
    </>
  );
};

const AccessRoleDialog = ({
  application,
  onClose,
}: {
  application: FleetDetail;
  onClose: () => void;
}) => {
  const userId = useSession()?.userId ?? 0;
  const organization = application.organization[0];
  const organizationId = organization?.id ?? 0;
  const sources = useAccessSources(application.id, organizationId, userId);
  const fleetPath = `${classLabels[application.is_of__class].path}/${application.id}`;
  const noun = classLabels[application.is_of__class].one.toLowerCase();
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="access-role-title">
      <DialogTitle id="access-role-title">Your access to {application.app_name}</DialogTitle>
      <DialogContent>
        {sources.isPending ? (
          <Skeleton variant="rounded" height={96} aria-label="Loading" />
        ) : sources.isError ? (
          <Alert severity="error">{errorText(sources.error) ?? 'Could not load your access'}</Alert>
        ) : (
          <List dense aria-label="Where your access comes from">
            {sources.data.organization.map((role) => (
              <ListItem key={`organization-${role}`} disableGutters>
                <ListItemText
                  primary={`${roleLabel(role)} of ${organization?.name ?? 'the organization'}`}
                  secondary={
                    <Link component={RouterLink} to={`/orgs/${organizationId}/members`}>
                      Organization members
                    </Link>
                  }
                />
              </ListItem>
            ))}
            {sources.data.teams.map((team) => (
              <ListItem key={`team-${team.id}`} disableGutters>
                <ListItemText
                  primary={`${roleLabel(team.role)} through the team ${team.name}`}
                  secondary={
                    <Link
                      component={RouterLink}
                      to={`/orgs/${organizationId}/teams/${team.id}/members`}
                    >
                      Members of {team.name}
                    </Link>
                  }
                />
              </ListItem>
            ))}
            {sources.data.direct.map((role) => (
              <ListItem key={`direct-${role}`} disableGutters>
                <ListItemText
                  primary={`${roleLabel(role)}, as a member of this ${noun}`}
                  secondary={
                    <Link component={RouterLink} to={`${fleetPath}/members`}>
                      Members of {application.app_name}
                    </Link>
                  }
                />
              </ListItem>
            ))}
          </List>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
};
