import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCallback, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { DeployFailure, type DeployStep } from './api-deploy-run.js';
import { useRunDeploy } from './api.js';
import { type DeployConfig, dropDeployConfig } from './deploy-config.js';
import { DeployBuildStatus } from './DeployBuildStatus.js';
import { DeployTargetFields, type TargetChoice, useDeployTarget } from './DeployTargetFields.js';
import { VariableFields } from './DeployVariableFields.js';

const stepText: Record<DeployStep, string> = {
  fleet: 'Creating the fleet…',
  variables: 'Setting the variables…',
  release: 'Starting the build of the release…',
};

// A suggested fleet name that passes the naming rule (letters, digits, _ and -).
const fleetNameOf = (name: string): string =>
  name
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100);

// Where to deploy, the variables, and the deploy with its progress: the fleet, its variables,
// then the build of the release followed until it ends (a success opens the fleet).
export const DeployForm = ({ config }: { config: DeployConfig }) => {
  const navigate = useNavigate();
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
  const deploy = useRunDeploy({
    // A new try: the form is back because the last build failed, or this is the first.
    onStart: () => setBuildFailed(false),
    onStep: setStep,
    onError: (error) => {
      // A fleet created before the failure is where a second try goes.
      if (error instanceof DeployFailure && error.fleetId !== null && choice.mode === 'new') {
        setChoice({ ...choice, mode: 'existing', fleetId: error.fleetId });
      }
    },
    onSuccess: ({ fleetId }) => {
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
        onClick={() =>
          deploy.mutate({ target, tarballUrl: config.tarballUrl, environment, configuration })
        }
      >
        {busy ? 'Deploying…' : 'Deploy'}
      </Button>
    </Stack>
  );
};
