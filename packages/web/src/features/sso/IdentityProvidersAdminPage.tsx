import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { RequirePermission } from '../../api/session/guards.js';
import { isAdmin, useSession } from '../../api/session/useSession.js';
import { LoadState } from '../../ui/LoadState.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { useProviders } from './api-providers.js';

// Every identity provider on the server (the platform administrator reads them all through
// /v7), with the organizations each serves; each opens its provider page.
const ProviderTable = () => {
  const providers = useProviders();
  return (
    <>
      <LoadState queries={[providers]} what="identity providers" />
      {providers.data?.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 6, textAlign: 'center' }}>
          <Typography>No identity providers yet.</Typography>
        </Paper>
      ) : providers.data ? (
        <Paper variant="outlined">
          <Table size="small" aria-label="Identity providers">
            <TableHead>
              <TableRow>
                <TableCell>SSO identifier</TableCell>
                <TableCell>Issuer</TableCell>
                <TableCell>Organizations</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {providers.data.map((provider) => (
                <TableRow key={provider.id}>
                  <TableCell>
                    <Link component={RouterLink} to={`/identity-provider/${provider.id}`}>
                      {provider.sso_identifier}
                    </Link>
                  </TableCell>
                  <TableCell sx={{ wordBreak: 'break-all' }}>{provider.issuer}</TableCell>
                  <TableCell>
                    {provider.identity_provider_membership
                      .flatMap((membership) => membership.organization.map((row) => row.name))
                      .join(', ')}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Paper>
      ) : null}
    </>
  );
};

// /admin/identity-providers: every SAML identity provider (platform administrators).
export const IdentityProvidersAdminPage = () => {
  const session = useSession();
  usePageTitle('Identity providers');
  return (
    <RequirePermission allowed={isAdmin(session)} loading={false}>
      <Typography variant="h1" sx={{ mb: 2 }}>
        Identity providers
      </Typography>
      <ProviderTable />
    </RequirePermission>
  );
};
