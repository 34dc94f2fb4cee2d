import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Collapse from '@mui/material/Collapse';
import Link from '@mui/material/Link';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { useState } from 'react';
import { FleetVariablesField } from './FleetVariablesField.js';
import type { AdvancedState } from './useAdvancedConfiguration.js';

const RepositoryStatus = ({
  repository,
  label,
}: {
  repository: AdvancedState['repository'];
  label: string;
}) => {
  if (repository.problem) return <>{repository.problem}</>;
  if (repository.checking)
    return (
      <Stack component="span" direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <CircularProgress size={12} />
        <span>Checking the repository…</span>
      </Stack>
    );
  if (repository.error)
    return (
      <>
        {repository.error}{' '}
        <Link component="button" type="button" variant="caption" onClick={repository.retry}>
          Check again
        </Link>
      </>
    );
  const found = repository.found;
  if (found) {
    const name = found.contract.name ?? `${found.owner}/${found.repo}`;
    return (
      <>
        Found {name} ({found.branch} branch). The {label} links to it, and a first release is built
        from it unless a tarball URL is given.
      </>
    );
  }
  return <>A repository with a balena.yml, such as https://github.com/owner/repo</>;
};

const contractVariableNames = (found: AdvancedState['repository']['found']): string[] =>
  found
    ? [...found.contract.environmentVariables, ...found.contract.configVariables].map(
        (variable) => variable.name,
      )
    : [];

// The create dialog's optional part: a repository, a tarball to build a first release from, and
// the fleet's first variables.
export const AdvancedConfigurationFields = ({
  label,
  state,
  disabled,
}: {
  // The class's name in lower case (fleet, app, block).
  label: string;
  state: AdvancedState;
  disabled: boolean;
}) => {
  const [open, setOpen] = useState(false);
  const { value, setValue, repository } = state;
  const fromContract = contractVariableNames(repository.found);
  return (
    <Box>
      <Button
        // A problem in a closed section still shows on its button.
        color={state.blocked ? 'error' : 'primary'}
        onClick={() => setOpen(!open)}
        aria-expanded={open}
        endIcon={
          <ExpandMoreIcon
            sx={{ transform: open ? 'rotate(180deg)' : 'none', transition: '0.2s' }}
          />
        }
      >
        Advanced configuration
      </Button>
      <Collapse in={open}>
        <Stack spacing={2.5} sx={{ pt: 2 }}>
          <TextField
            label="Repository URL"
            type="url"
            placeholder="https://github.com/owner/repo"
            value={value.repositoryUrl}
            disabled={disabled}
            onChange={(event) => setValue({ ...value, repositoryUrl: event.target.value })}
            error={Boolean(repository.problem ?? repository.error)}
            helperText={<RepositoryStatus repository={repository} label={label} />}
          />
          <TextField
            label="Tarball URL"
            type="url"
            placeholder="https://example.com/project.tar.gz"
            value={value.tarballUrl}
            disabled={disabled}
            onChange={(event) => setValue({ ...value, tarballUrl: event.target.value })}
            error={Boolean(state.tarballProblem)}
            helperText={
              state.tarballProblem ??
              `A .tar or .tar.gz with a docker-compose.yml or Dockerfile: the server builds the ${label}’s first release from it once the ${label} exists.`
            }
          />
          {fromContract.length > 0 ? (
            <Alert severity="info">
              The repository’s balena.yml adds {fromContract.join(', ')}. A variable of the same
              name below takes its place.
            </Alert>
          ) : null}
          {state.rulesError ? (
            <Alert severity="error">
              Could not load the variable naming rules: {state.rulesError}
            </Alert>
          ) : null}
          <FleetVariablesField
            title="Environment variables"
            itemLabel="Environment variable"
            description={`Set on every device of the ${label}, in all services.`}
            addLabel="Add environment variable"
            variables={value.environment}
            problems={state.environmentProblems}
            onChange={(environment) => setValue({ ...value, environment })}
            disabled={disabled}
          />
          <FleetVariablesField
            title="Configuration variables"
            itemLabel="Configuration variable"
            description="Settings of the devices' host OS and device agent (BALENA_ or RESIN_ names)."
            addLabel="Add configuration variable"
            variables={value.configuration}
            problems={state.configurationProblems}
            onChange={(configuration) => setValue({ ...value, configuration })}
            disabled={disabled}
          />
        </Stack>
      </Collapse>
    </Box>
  );
};
