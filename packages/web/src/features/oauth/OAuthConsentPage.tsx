import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useParams, useSearchParams } from 'react-router';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { useConsentApplication } from './api.js';
import { Consent } from './ConsentCard.js';

// /login/oauth/:clientId?state=…&redirect_uri=…&code_challenge=… (PKCE passed through): the signed-in user allows or denies a registered application, read
// through /v7 with the user's own authorization of it. Allow asks the server for a code (and
// records the authorization) and goes to the registered redirect URI with code and state; deny
// goes there with error=access_denied.
export const OAuthConsentPage = () => {
  usePageTitle('Authorize application');
  const { clientId = '' } = useParams();
  const [search] = useSearchParams();
  const requestedRedirect = search.get('redirect_uri');
  const application = useConsentApplication(clientId);
  return (
    <Box sx={{ maxWidth: 640 }}>
      <Typography variant="h1" sx={{ mb: 2 }}>
        Authorize application
      </Typography>
      {application.isPending ? (
        <Skeleton variant="rounded" height={180} aria-label="Loading" />
      ) : application.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void application.refetch()}>
              Retry
            </Button>
          }
        >
          {errorText(application.error) ?? 'Could not load the application'}
        </Alert>
      ) : application.data === null ? (
        <Alert severity="error">
          There is no application with this client id. Check the link you followed.
        </Alert>
      ) : requestedRedirect !== null && requestedRedirect !== application.data.redirect_uri ? (
        <Alert severity="error">
          {application.data.name} asked to send you to an address it did not register; nothing was
          shared.
        </Alert>
      ) : (
        <Consent application={application.data} />
      )}
    </Box>
  );
};
