import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { gitPushCommands } from '@flotilla/shared/releases/git-remote';

export type ClientOs = 'windows' | 'macos' | 'linux';

const cliReleases = 'https://github.com/balena-io/balena-cli/releases/latest';

const osNames: Record<ClientOs, string> = { windows: 'Windows', macos: 'macOS', linux: 'Linux' };

// The visitor's OS from the browser's user agent; Linux unless it says otherwise.
export const detectOs = (userAgent: string): ClientOs => {
  if (/Windows/i.test(userAgent)) return 'windows';
  if (/Mac OS X|Macintosh/i.test(userAgent)) return 'macos';
  return 'linux';
};

// balena-cli reaches this server through BALENARC_API_URL (README "Quick start").
export const cliCommands = (os: ClientOs, serverUrl: string, fleetSlug: string): string[] =>
  os === 'windows'
    ? [
        `$env:BALENARC_API_URL = "${serverUrl}"`,
        'balena login --credentials',
        `balena deploy ${fleetSlug}`,
      ]
    : [
        `export BALENARC_API_URL=${serverUrl}`,
        'balena login --credentials',
        `balena deploy ${fleetSlug}`,
      ];

const Step = ({ n, children }: { n: number; children: ReactNode }) => (
  <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start' }}>
    <Box
      sx={{
        minWidth: 24,
        height: 24,
        borderRadius: '50%',
        bgcolor: 'primary.main',
        color: 'primary.contrastText',
        fontSize: 13,
        display: 'grid',
        placeItems: 'center',
      }}
    >
      {n}
    </Box>
    <Box sx={{ minWidth: 0, flex: 1 }}>{children}</Box>
  </Stack>
);

const Code = ({ lines, label }: { lines: string[]; label: string }) => (
  <Box
    component="pre"
    aria-label={label}
    sx={{
      m: 0,
      mt: 1,
      p: 1.5,
      bgcolor: 'grey.900',
      color: 'grey.100',
      borderRadius: 1,
      fontSize: 13,
      overflowX: 'auto',
    }}
  >
    {lines.join('\n')}
  </Box>
);

// The add-release instructions: two columns, the CLI route (recommended) and the git route.
export const AddReleaseInstructions = ({
  fleetSlug,
  serverUrl = window.location.origin,
  userAgent = navigator.userAgent,
}: {
  fleetSlug: string;
  serverUrl?: string;
  userAgent?: string;
}) => {
  const os = detectOs(userAgent);
  return (
    <Paper variant="outlined" component="section" aria-labelledby="add-release-title" sx={{ p: 3 }}>
      <Typography id="add-release-title" variant="h3" gutterBottom>
        Add a release
      </Typography>
      {/* minmax(0, …): a long command scrolls inside its block instead of widening the page. */}
      <Box
        sx={{
          display: 'grid',
          gap: 3,
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) minmax(0, 1fr)' },
        }}
      >
        <Stack spacing={2} component="section" aria-label="With balena CLI">
          <Typography variant="h4">With balena CLI (recommended)</Typography>
          <Step n={1}>
            <Typography>
              Install the balena CLI for {osNames[os]} from{' '}
              <Link href={cliReleases} target="_blank" rel="noreferrer">
                its releases page
              </Link>{' '}
              (Docker is needed to build the images).
            </Typography>
          </Step>
          <Step n={2}>
            <Typography>Point it at this server, log in and deploy your project folder:</Typography>
            <Code lines={cliCommands(os, serverUrl, fleetSlug)} label="CLI commands" />
          </Step>
          <Step n={3}>
            <Typography>
              The new release appears below; devices tracking the latest release update to it.
            </Typography>
          </Step>
        </Stack>
        <Stack spacing={2} component="section" aria-label="With git">
          <Typography variant="h4">With git push</Typography>
          <Step n={1}>
            <Typography>
              Have{' '}
              <Link href="https://git-scm.com/downloads" target="_blank" rel="noreferrer">
                git
              </Link>{' '}
              installed, and create an{' '}
              <Link component={RouterLink} to="/preferences/access-tokens">
                API key
              </Link>
              : git asks for a user name (any) and a password (the API key).
            </Typography>
          </Step>
          <Step n={2}>
            <Typography>Add this fleet's remote to your repository and push:</Typography>
            <Code lines={gitPushCommands(serverUrl, fleetSlug)} label="git commands" />
          </Step>
          <Step n={3}>
            <Typography>
              A push to main (or master) builds a release from the pushed commit and shows its build
              log in git&apos;s output; a failed build refuses the push.
            </Typography>
          </Step>
          <Alert severity="info">
            Services with a build step (build:) are built on this server when it has a container
            engine (FLOTILLA_BUILDER_DOCKER_HOST); without one, each service names its image
            (image:) or is built with the balena CLI (balena deploy).
          </Alert>
        </Stack>
      </Box>
    </Paper>
  );
};
