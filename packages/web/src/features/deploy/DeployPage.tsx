import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { usePageTitle } from '../../ui/usePageTitle.js';
import {
  loadDeployConfig,
  parseDeployParams,
  saveDeployConfig,
  type StoredDeploy,
} from './deploy-config.js';
import { DeployForm } from './DeployForm.js';

// The URL's configuration (kept for a day), else the one kept from an earlier visit.
const readConfig = (search: string): StoredDeploy => {
  const fromUrl = parseDeployParams(search);
  if (fromUrl !== null) {
    saveDeployConfig(window.localStorage, fromUrl, Date.now());
    return { kind: 'found', config: fromUrl };
  }
  return loadDeployConfig(window.localStorage, Date.now());
};

// The deploy landing at /deploy, where a "deploy" link leads: the link's configuration, a fleet created or chosen, its variables, and a release built from the tarball
// URL by the server.
export const DeployPage = () => {
  usePageTitle('Deploy');
  const location = useLocation();
  const [stored] = useState(() => readConfig(location.search));
  const navigate = useNavigate();
  // The configuration lives in localStorage now: a clean address bar (and a reload) keeps it.
  useEffect(() => {
    if (stored.kind === 'found' && location.search !== '')
      void navigate('/deploy', { replace: true });
  }, [stored, location.search, navigate]);
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: 4, px: 2 }}>
      <Paper
        component="section"
        aria-labelledby="deploy-title"
        variant="outlined"
        sx={{ p: 3, width: '100%', minWidth: { sm: 374 }, maxWidth: 440 }}
      >
        {stored.kind === 'found' ? (
          <Stack spacing={2.5}>
            <Box>
              <Typography id="deploy-title" variant="h2">
                Deploy {stored.config.name}
              </Typography>
              {stored.config.description ? (
                <Typography sx={{ mt: 1 }}>{stored.config.description}</Typography>
              ) : null}
              {stored.config.author ? (
                <Typography variant="body2" color="text.secondary">
                  by {stored.config.author}
                </Typography>
              ) : null}
              <Typography
                variant="body2"
                color="text.secondary"
                sx={{ mt: 1, wordBreak: 'break-all' }}
              >
                From {stored.config.repoUrl ?? stored.config.tarballUrl}
              </Typography>
            </Box>
            <DeployForm config={stored.config} />
          </Stack>
        ) : (
          <Stack spacing={2}>
            <Typography id="deploy-title" variant="h2">
              Deploy
            </Typography>
            {stored.kind === 'unreadable' ? (
              <Alert severity="error">Error loading the deploy configuration</Alert>
            ) : null}
            <Typography>
              Nothing to deploy. A deploy link names a project tarball:{' '}
              <code>/deploy?tarballUrl=https://…/project.tar.gz&amp;name=my-fleet</code> (or{' '}
              <code>repoUrl=</code> a GitHub repository), optionally with <code>deviceType=</code>,{' '}
              <code>env.NAME=value</code> and <code>config.NAME=value</code>.
            </Typography>
          </Stack>
        )}
      </Paper>
    </Box>
  );
};
