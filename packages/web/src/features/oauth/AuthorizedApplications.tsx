import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useToasts } from '../../ui/toasts.js';
import { absoluteTime } from '../../device/device-format.js';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import {
  type AuthorizationRow,
  useAuthorizedApplications,
  useRevokeAuthorization,
} from './api-authorizations.js';

const applicationOf = (row: AuthorizationRow) => row.is_for__oauth_application[0];

const nameOf = (row: AuthorizationRow): string =>
  applicationOf(row)?.name ?? `Application ${row.id}`;

const originOf = (uri: string): string => {
  try {
    return new URL(uri).origin;
  } catch {
    return uri;
  }
};

// Preferences → Access tokens: the OAuth applications the user has allowed, each revocable.
// Revoking ends the application's unused codes; tokens it already received live until they
// expire (session tokens cannot be revoked).
export const AuthorizedApplications = () => {
  const toasts = useToasts();
  const authorizations = useAuthorizedApplications();
  const [revoking, setRevoking] = useState<AuthorizationRow | null>(null);
  const revoke = useRevokeAuthorization((row) => {
    toasts.show('success', `${nameOf(row)} is no longer authorized`);
    setRevoking(null);
  });

  return (
    <Stack spacing={1} component="section" aria-labelledby="authorized-applications">
      <Typography variant="h6" component="h2" id="authorized-applications">
        Authorized applications
      </Typography>
      {authorizations.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void authorizations.refetch()}>
              Retry
            </Button>
          }
        >
          {errorText(authorizations.error) ?? 'Could not load the authorized applications'}
        </Alert>
      ) : !authorizations.isSuccess ? (
        <Skeleton variant="rounded" height={80} aria-label="Loading the authorized applications" />
      ) : authorizations.data.length === 0 ? (
        <Typography color="text.secondary">You have not authorized any applications</Typography>
      ) : (
        <Table size="small" aria-label="Authorized applications">
          <TableHead>
            <TableRow>
              <TableCell>Application</TableCell>
              <TableCell>Goes back to</TableCell>
              <TableCell>Authorized</TableCell>
              <TableCell align="right" aria-label="Actions" />
            </TableRow>
          </TableHead>
          <TableBody>
            {authorizations.data.map((row) => {
              const application = applicationOf(row);
              return (
                <TableRow key={row.id}>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>
                    {nameOf(row)}
                    {application?.description ? (
                      <Typography variant="body2" color="text.secondary">
                        {application.description}
                      </Typography>
                    ) : null}
                  </TableCell>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>
                    {application ? originOf(application.redirect_uri) : ''}
                  </TableCell>
                  <TableCell>{absoluteTime(row.created_at)}</TableCell>
                  <TableCell align="right">
                    <Button
                      color="error"
                      size="small"
                      aria-label={`Revoke ${nameOf(row)}`}
                      onClick={() => setRevoking(row)}
                    >
                      Revoke
                    </Button>
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      )}
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke ${revoking ? nameOf(revoking) : 'the application'}?`}
        confirmLabel="Revoke"
        destructive
        pending={revoke.isPending}
        error={
          revoke.isError ? (errorText(revoke.error) ?? 'Could not revoke the application') : null
        }
        onConfirm={() => {
          if (revoking) revoke.mutate(revoking);
        }}
        onClose={() => {
          setRevoking(null);
          revoke.reset();
        }}
      >
        The application asks for your consent again next time. Codes it has not used yet stop
        working at once; a token it already received works until it expires.
      </ConfirmDialog>
    </Stack>
  );
};
