import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { type FleetRoleState, useFleetRole } from './api-fleet-role.js';

export type FleetPermission = { resource: string; action: string };

// A page that needs a permission on its fleet: while the user's roles load, a placeholder; a
// user who lacks the permission goes home (/) instead of meeting a page of disabled controls.
// `admits` lets a page widen who may stay (fleet settings keep "leave the fleet" for members).
export const RequireFleetPermission = ({
  fleetId,
  needs,
  admits,
  children,
}: {
  fleetId: number;
  needs: FleetPermission;
  admits?: (access: FleetRoleState) => boolean;
  children: ReactNode;
}) => {
  const access = useFleetRole(fleetId);
  if (access.error) {
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void access.refetch()}>
            Retry
          </Button>
        }
      >
        {errorText(access.error) ?? 'Could not check your permissions'}
      </Alert>
    );
  }
  if (access.isPending) {
    return (
      <Box aria-busy="true" aria-label="Checking your permissions">
        <Skeleton variant="rounded" height={240} />
      </Box>
    );
  }
  const allowed = access.can(needs.resource, needs.action) || (admits?.(access) ?? false);
  if (!allowed) return <Navigate to="/" replace />;
  return <>{children}</>;
};
