import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { useClient } from '../../api/client.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import {
  type DeployConfig,
  type DeployVariable,
  dropDeployConfig,
  loadDeployConfig,
  parseDeployParams,
  saveDeployConfig,
  type StoredDeploy,
} from './deploy-config.js';
import { DeployBuildStatus } from './DeployBuildStatus.js';
import { DeployFailure, type DeployStep, runDeploy } from './deploy-run.js';
import { DeployTargetFields, type TargetChoice, useDeployTarget } from './DeployTargetFields.js';

const stepText: Record<DeployStep, string> = {
  fleet: 'Creating the fleet…',
  variables: 'Setting the variables…',
  release: 'Starting the build of the release…',
};

// The URL's configuration (kept for a day), else the one kept from an earlier visit.
const readConfig = (search: string): StoredDeploy => {
  const fromUrl = parseDeployParams(search);
  if (fromUrl !== null) {
    saveDeployConfig(window.localStorage, fromUrl, Date.now());
    return { kind: 'found', config: fromUrl };
  }
  return loadDeployConfig(window.localStorage, Date.now());
};

// A suggested fleet name that passes the naming rule (letters, digits, _ and -).
const fleetNameOf = (name: string): string =>
  name
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100);

const VariableFields = ({
  title,
  variables,
  onChange,
  disabled,
}: {
  title: string;
  variables: DeployVariable[];
  onChange: (variables: DeployVariable[]) => void;
  disabled: boolean;
}) =>
  variables.length === 0 ? null : (
    <Stack spacing={1.5} component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
      <Typography component="legend" variant="subtitle2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {variables.map((variable, index) => (
        <TextField
          key={variable.name}
          size="small"
          label={variable.name}
          value={variable.value}
          disabled={disabled}
          onChange={(event) =>
            onChange(
              variables.map((entry, at) =>
                at === index ? { ...entry, value: event.target.value } : entry,
              ),
            )
          }
        />
      ))}
    </Stack>
  );

const DeployForm = ({ config }: { config: DeployConfig }) => {
  const client = useClient();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [choice, setChoice] = useState<TargetChoice>({
    mode: 'new',
    organizationId: '',
    name: fleetNameOf(config.name),
    deviceTypeSlug: config.deviceType,
    fleetId: '',
  });
  const [environment, setEnvironment] = useState(config.environment);
  const [configuration, setConfiguration] = useState(config.configuration);
  const [step, setStep] = useState<DeployStep | null>(null);
  // The started build ended failed: the form is there again to try once more.
  const [buildFailed, setBuildFailed] = useState(false);
  const target = useDeployTarget(choice);
  const deploy = useMutation({
    meta: { inlineError: true },
    mutationFn: async () => {
      setBuildFailed(false);
      if (target === null) throw new Error('Choose where to deploy');
      return await runDeploy(
        client,
        { target, tarballUrl: config.tarballUrl, environment, configuration },
        setStep,
      );
    },
    onError: (error) => {
      // A fleet created before the failure is where a second try goes.
      if (error instanceof DeployFailure && error.fleetId !== null && choice.mode === 'new') {
        setChoice({ ...choice, mode: 'existing', fleetId: error.fleetId });
      }
      void queryClient.invalidateQueries({ queryKey: ['applications'] });
    },
    onSuccess: async ({ fleetId }) => {
      await queryClient.invalidateQueries({ queryKey: ['applications'] });
      // A second try (after a failed build) goes to the fleet created now.
      if (choice.mode === 'new') setChoice({ ...choice, mode: 'existing', fleetId });
    },
  });
  const started = deploy.data ?? null;
  const busy = deploy.isPending || (started !== null && !buildFailed);
  const onSucceeded = useCallback(() => {
    if (started === null) return;
    dropDeployConfig(window.localStorage);
    void navigate(`/fleets/${started.fleetId}`);
  }, [started, navigate]);
  const onFailed = useCallback(() => setBuildFailed(true), []);
  const failedFleet = deploy.error instanceof DeployFailure ? deploy.error.fleetId : null;
  return (
    <Stack spacing={2.5}>
      {deploy.isError ? (
        <Alert severity="error">
          {errorText(deploy.error instanceof DeployFailure ? deploy.error.cause : deploy.error) ??
            'The deploy failed'}
          {failedFleet === null ? null : (
            <>
              {' '}
              The fleet was created:{' '}
              <Link component={RouterLink} to={`/fleets/${failedFleet}`}>
                open it
              </Link>{' '}
              or try again.
            </>
          )}
        </Alert>
      ) : null}
      {started ? (
        <DeployBuildStatus build={started} onSucceeded={onSucceeded} onFailed={onFailed} />
      ) : null}
      <DeployTargetFields choice={choice} onChange={setChoice} disabled={busy} />
      <VariableFields
        title="Environment variables"
        variables={environment}
        onChange={setEnvironment}
        disabled={busy}
      />
      <VariableFields
        title="Configuration variables"
        variables={configuration}
        onChange={setConfiguration}
        disabled={busy}
      />
      {deploy.isPending && step !== null ? (
        <Typography role="status" color="text.secondary">
          {stepText[step]}
        </Typography>
      ) : null}
      <Button
        variant="contained"
        disabled={target === null || busy}
        onClick={() => deploy.mutate()}
      >
        {busy ? 'Deploying…' : 'Deploy'}
      </Button>
    </Stack>
  );
};

// The deploy landing (seed 000 route table, 001 "Deploy from URL"): a "deploy" link's
// configuration, a fleet created or chosen, its variables, and a release built from the tarball
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
