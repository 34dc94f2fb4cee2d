import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useBreadcrumbs } from '../../ui/breadcrumbs.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { DisabledReason } from '../../ui/DisabledReason.js';
import { useAppsEnabled } from '../../ui/useAppsEnabled.js';
import { useChangeLogo } from './api-organizations.js';
import { logoFileProblem, OrganizationLogo } from './organization-logo.js';
import { useOrganizationContext } from './useOrganizationContext.js';
import { RenameForm } from './RenameOrganizationForm.js';

const notAdministrator = 'Only administrators of the organization can change it';

const Count = ({ label, value, to }: { label: string; value: number; to: string }) => (
  <Paper variant="outlined" sx={{ p: 2, minWidth: 140 }}>
    <Typography variant="h2" component="p">
      {value}
    </Typography>
    <Link component={RouterLink} to={to}>
      {label}
    </Link>
  </Paper>
);

// /orgs/:organizationId: name (rename), logo (edit) and what the organization holds.
export const OrganizationSummaryPage = () => {
  const { organization, access } = useOrganizationContext();
  usePageTitle(organization.name);
  useBreadcrumbs([{ label: organization.name, to: `/orgs/${organization.id}` }]);
  const [logoError, setLogoError] = useState<string | null>(null);
  const appsEnabled = useAppsEnabled();
  const denied = access.can('organization', 'update') ? null : notAdministrator;
  const logo = useChangeLogo(organization.id);
  const classes = organization.application.reduce(
    (counts, application) => ({
      ...counts,
      [application.is_of__class]: counts[application.is_of__class] + 1,
    }),
    { fleet: 0, app: 0, block: 0 },
  );
  const base = `/orgs/${organization.id}`;
  return (
    <Stack spacing={3}>
      <Stack direction="row" spacing={2} sx={{ flexWrap: 'wrap', gap: 2 }}>
        <Count label="Fleets" value={classes.fleet} to={`${base}/fleets`} />
        {appsEnabled ? <Count label="Apps" value={classes.app} to={`${base}/apps`} /> : null}
        <Count label="Blocks" value={classes.block} to={`${base}/blocks`} />
        <Count
          label="Members"
          value={organization.organization_membership}
          to={`${base}/members`}
        />
        <Count label="Teams" value={organization.owns__team} to={`${base}/teams`} />
      </Stack>
      <Paper variant="outlined" sx={{ p: 3 }}>
        <Stack spacing={3}>
          <Box>
            <Typography variant="h3" gutterBottom>
              Name
            </Typography>
            <RenameForm
              key={organization.name}
              id={organization.id}
              name={organization.name}
              denied={denied}
            />
          </Box>
          <Box>
            <Typography variant="h3" gutterBottom>
              Logo
            </Typography>
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
              <OrganizationLogo name={organization.name} logo={organization.logo_image} size={64} />
              <DisabledReason reason={denied}>
                <Button
                  component="label"
                  variant="outlined"
                  disabled={denied !== null || logo.isPending}
                >
                  Edit logo
                  <input
                    hidden
                    type="file"
                    accept="image/png,image/jpeg"
                    aria-label="Logo file"
                    onChange={(event) => {
                      const file = event.target.files?.[0];
                      if (!file) return;
                      const problem = logoFileProblem(file);
                      setLogoError(problem ?? null);
                      if (!problem) logo.mutate(file);
                    }}
                  />
                </Button>
              </DisabledReason>
              {organization.logo_image ? (
                <Button
                  color="error"
                  disabled={denied !== null || logo.isPending}
                  onClick={() => logo.mutate(null)}
                >
                  Remove logo
                </Button>
              ) : null}
            </Stack>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              PNG or JPEG, at most 1,000,000 bytes.
            </Typography>
            {(logoError ?? (logo.isError ? errorText(logo.error) : null)) ? (
              <Alert severity="error" sx={{ mt: 1 }}>
                {logoError ?? errorText(logo.error) ?? 'Could not change the logo'}
              </Alert>
            ) : null}
          </Box>
        </Stack>
      </Paper>
    </Stack>
  );
};
