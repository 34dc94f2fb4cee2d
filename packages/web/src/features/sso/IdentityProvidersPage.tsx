import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Navigate, Link as RouterLink, useNavigate } from 'react-router';
import { LoadState } from '../../ui/LoadState.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { useProviders } from './api-providers.js';
import { ProviderDialog } from './ProviderDialog.js';

// /identity-provider: the provider the user administers, or a way to add one.
export const IdentityProvidersPage = () => {
  usePageTitle('Identity provider');
  const providers = useProviders();
  const navigate = useNavigate();
  const [adding, setAdding] = useState(false);
  const first = providers.data?.[0];
  if (first) return <Navigate to={`/identity-provider/${first.id}`} replace />;
  return (
    <Box sx={{ p: 3, maxWidth: 720 }}>
      <Typography variant="h1" sx={{ fontSize: '1.75rem', mb: 2 }}>
        Identity provider
      </Typography>
      <LoadState queries={[providers]} what="identity providers" />
      {providers.isSuccess ? (
        <Card>
          <CardContent>
            <Typography sx={{ mb: 1 }}>
              Let the members of your organizations sign in through your own SAML identity provider.
              New users are created when they first sign in, and join your organizations.
            </Typography>
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              How it works:{' '}
              <Link component={RouterLink} to="/docs/sso">
                single sign-on
              </Link>
            </Typography>
            <Button variant="contained" onClick={() => setAdding(true)}>
              Add identity provider
            </Button>
          </CardContent>
        </Card>
      ) : null}
      {adding ? (
        <ProviderDialog
          onClose={() => setAdding(false)}
          onSaved={(id) => void navigate(`/identity-provider/${id}`)}
        />
      ) : null}
    </Box>
  );
};
