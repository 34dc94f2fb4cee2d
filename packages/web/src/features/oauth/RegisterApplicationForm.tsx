import { errorText } from '@flotilla/sdk/errors';
import { textLengthProblem } from '@flotilla/shared/constants/text-length';
import type { OAuthApplicationCreated } from '@flotilla/shared/auth/oauth';
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
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useToasts } from '../../ui/toasts.js';
import { ClientSecretDialog } from './ClientSecretDialog.js';
import { useRegisterApplication } from './api.js';

export const RegisterForm = () => {
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
      : (textLengthProblem('The redirect URI', redirectUri.trim(), oauthRedirectUriMaxLength) ??
        redirectUriProblem(redirectUri.trim()));
  const nameProblem =
    name.trim() === ''
      ? 'The name is required'
      : (textLengthProblem('The name', name.trim(), oauthNameMaxLength) ?? null);
  // Shown as soon as it is too long: a browser's maxLength would cut a paste without a word.
  const descriptionProblem =
    textLengthProblem('The description', description.trim(), oauthDescriptionMaxLength) ?? null;
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
        if (nameProblem === null && uriProblem === null && descriptionProblem === null)
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
        />
        <TextField
          label="Description"
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          error={descriptionProblem !== null}
          helperText={descriptionProblem}
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
