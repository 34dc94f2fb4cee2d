import { errorText } from '@flotilla/sdk/errors';
import type { OAuthApplication, OAuthApplicationCreated } from '@flotilla/shared/auth/oauth';
import {
  oauthDescriptionMaxLength,
  oauthNameMaxLength,
  oauthRedirectUriMaxLength,
  redirectUriProblem,
} from '@flotilla/shared/auth/oauth';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useToasts } from '../../ui/toasts.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { RequirePermission } from '../../api/session/guards.js';
import { isAdmin, useSession } from '../../api/session/useSession.js';
import { ClientSecretDialog } from './ClientSecretDialog.js';
import { useDeleteApplication, useOAuthApplications, useRegisterApplication } from './api.js';

const RegisterForm = () => {
  const toasts = useToasts();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [redirectUri, setRedirectUri] = useState('');
  const [confidential, setConfidential] = useState(false);
  const [created, setCreated] = useState<OAuthApplicationCreated | null>(null);
  const [touched, setTouched] = useState(false);
  const uriProblem =
    redirectUri.trim() === ''
      ? 'The redirect URI is required'
      : redirectUriProblem(redirectUri.trim());
  const nameProblem = name.trim() === '' ? 'The name is required' : null;
  const register = useRegisterApplication((registered) => {
    toasts.show(
      'success',
      `${registered.name} is registered; its client id is ${registered.clientId}`,
    );
    if (registered.clientSecret !== null) setCreated(registered);
    setName('');
    setDescription('');
    setRedirectUri('');
    setConfidential(false);
    setTouched(false);
  });
  return (
    <Paper
      variant="outlined"
      component="form"
      aria-label="Register an application"
      sx={{ p: 2, mb: 3 }}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setTouched(true);
        if (nameProblem === null && uriProblem === null)
          register.mutate({
            name: name.trim(),
            description: description.trim(),
            redirect_uri: redirectUri.trim(),
            confidential,
          });
      }}
    >
      <Typography variant="h2" sx={{ mb: 2 }}>
        Register an application
      </Typography>
      <Stack spacing={2} sx={{ maxWidth: 560 }}>
        <TextField
          label="Name"
          required
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={touched && nameProblem !== null}
          helperText={touched ? nameProblem : null}
          slotProps={{ htmlInput: { maxLength: oauthNameMaxLength } }}
        />
        <TextField
          label="Description"
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          slotProps={{ htmlInput: { maxLength: oauthDescriptionMaxLength } }}
        />
        <TextField
          label="Redirect URI"
          required
          value={redirectUri}
          onChange={(event) => setRedirectUri(event.target.value)}
          error={touched && uriProblem !== null}
          helperText={
            touched && uriProblem !== null ? uriProblem : 'Codes are sent to this address only.'
          }
          slotProps={{ htmlInput: { maxLength: oauthRedirectUriMaxLength } }}
        />
        <FormControlLabel
          control={
            <Checkbox
              checked={confidential}
              onChange={(event) => setConfidential(event.target.checked)}
            />
          }
          label="Confidential client: it keeps a client secret, required to exchange codes"
        />
        {register.isError ? (
          <Alert severity="error">{errorText(register.error) ?? 'Could not register'}</Alert>
        ) : null}
        <Box>
          <Button type="submit" variant="contained" disabled={register.isPending}>
            Register
          </Button>
        </Box>
      </Stack>
      {created?.clientSecret ? (
        <ClientSecretDialog
          application={created}
          secret={created.clientSecret}
          onClose={() => setCreated(null)}
        />
      ) : null}
    </Paper>
  );
};

const DeleteDialog = ({
  application,
  onClose,
}: {
  application: OAuthApplication;
  onClose: () => void;
}) => {
  const remove = useDeleteApplication(application, onClose);
  return (
    <Dialog open onClose={onClose}>
      <DialogTitle>Delete {application.name}?</DialogTitle>
      <DialogContent>
        <Typography>
          Its codes stop working; tokens it already received stay valid until they expire.
        </Typography>
        {remove.isError ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {errorText(remove.error) ?? 'Could not delete'}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button color="error" disabled={remove.isPending} onClick={() => remove.mutate()}>
          Delete
        </Button>
      </DialogActions>
    </Dialog>
  );
};

// /admin/oauth: the OAuth applications users can authorize at /login/oauth/:clientId.
const Applications = () => {
  usePageTitle('OAuth applications');
  const applications = useOAuthApplications();
  const [deleting, setDeleting] = useState<OAuthApplication | null>(null);
  return (
    <Box>
      <Stack direction="row" sx={{ mb: 2, alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="h1">OAuth applications</Typography>
        <Button component={RouterLink} to="/admin" variant="outlined">
          Users
        </Button>
      </Stack>
      <RegisterForm />
      {applications.isPending ? (
        <Skeleton variant="rounded" height={160} aria-label="Loading" />
      ) : applications.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void applications.refetch()}>
              Retry
            </Button>
          }
        >
          {errorText(applications.error) ?? 'Could not load the applications'}
        </Alert>
      ) : applications.data.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 6, textAlign: 'center' }}>
          <Typography>No OAuth applications yet.</Typography>
        </Paper>
      ) : (
        <Paper variant="outlined">
          <Table aria-label="OAuth applications">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>Client id</TableCell>
                <TableCell>Redirect URI</TableCell>
                <TableCell>Client type</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {applications.data.map((application) => (
                <TableRow key={application.id}>
                  <TableCell>{application.name}</TableCell>
                  <TableCell>
                    <code>{application.clientId}</code>
                  </TableCell>
                  <TableCell sx={{ wordBreak: 'break-all' }}>{application.redirectUri}</TableCell>
                  <TableCell>{application.confidential ? 'Confidential' : 'Public'}</TableCell>
                  <TableCell align="right">
                    <Button
                      color="error"
                      size="small"
                      aria-label={`Delete ${application.name}`}
                      onClick={() => setDeleting(application)}
                    >
                      Delete
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Paper>
      )}
      {deleting ? <DeleteDialog application={deleting} onClose={() => setDeleting(null)} /> : null}
    </Box>
  );
};

export const OAuthApplicationsPage = () => {
  const session = useSession();
  return (
    <RequirePermission allowed={isAdmin(session)} loading={false}>
      <Applications />
    </RequirePermission>
  );
};
