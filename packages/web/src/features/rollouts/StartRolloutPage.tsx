import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useFleetRole } from '../../fleet/api-fleet-role.js';
import { useFleetContext } from '../../fleet/useFleetContext.js';
import { MutationError } from '../../ui/MutationError.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { type PlanInput, usePlanPreview, useStartRollout } from './api.js';
import { wavesOf } from './plan-form.js';
import { PlanPreviewList } from './PlanPreviewList.js';

const numberOr = (text: string): number | undefined =>
  text.trim() === '' ? undefined : Number(text);

// /fleets/:fleetId/rollouts/new?release=:id: plan the waves and gates, see the expected device
// counts, and start.
export const StartRolloutPage = () => {
  usePageTitle('Start a rollout');
  const { fleet } = useFleetContext();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const targetRelease = Number(search.get('release') ?? '0');
  const denied = useFleetRole(fleet.id).denied('flotilla_rollout', 'create');
  const [percents, setPercents] = useState('1, 10, 50, 100');
  const [canaryTag, setCanaryTag] = useState('');
  const [soak, setSoak] = useState('30');
  const [budget, setBudget] = useState('2');
  const [maxTemperature, setMaxTemperature] = useState('');
  const [rollback, setRollback] = useState(true);
  const preview = usePlanPreview(fleet.id);
  const start = useStartRollout(fleet.id);
  const waves = wavesOf({ percents, canaryTag });
  const plan = (): PlanInput | null => {
    if ('error' in waves) return null;
    const maxTemperatureC = numberOr(maxTemperature);
    return {
      targetRelease,
      waves: waves.waves,
      gates: {
        soakMinutes: Number(soak),
        failureBudgetPercent: Number(budget),
        rollbackOnHalt: rollback,
        ...(maxTemperatureC === undefined ? {} : { maxTemperatureC }),
      },
    };
  };
  const submit = (kind: 'preview' | 'start') => {
    const input = plan();
    if (!input) return;
    if (kind === 'preview') preview.mutate(input);
    else
      start.mutate(input, {
        onSuccess: (detail) => void navigate(`/fleets/${fleet.id}/rollouts/${detail.id}`),
      });
  };
  if (!Number.isInteger(targetRelease) || targetRelease < 1) {
    return <Alert severity="error">Open this page from a release: no release was chosen.</Alert>;
  }
  return (
    <Paper variant="outlined" component="section" aria-label="Plan the rollout" sx={{ p: 3 }}>
      <Stack spacing={2} sx={{ maxWidth: 560 }}>
        <Typography variant="h6" component="h2">
          Roll release {targetRelease} out in waves
        </Typography>
        {denied ? <Alert severity="info">{denied}</Alert> : null}
        <TextField
          label="Canary devices (tag, optional)"
          helperText="Devices with this tag (key or key=value) form the first wave"
          value={canaryTag}
          onChange={(event) => setCanaryTag(event.target.value)}
        />
        <TextField
          label="Waves (% of the fleet)"
          value={percents}
          onChange={(event) => setPercents(event.target.value)}
          error={'error' in waves}
          helperText={'error' in waves ? waves.error : 'Rising percentages ending at 100'}
        />
        <Stack direction="row" spacing={2}>
          <TextField
            label="Soak time (minutes)"
            value={soak}
            onChange={(e) => setSoak(e.target.value)}
          />
          <TextField
            label="Failure budget (%)"
            value={budget}
            onChange={(e) => setBudget(e.target.value)}
          />
          <TextField
            label="Max temperature (°C)"
            value={maxTemperature}
            onChange={(e) => setMaxTemperature(e.target.value)}
          />
        </Stack>
        <FormControlLabel
          control={<Switch checked={rollback} onChange={(_, checked) => setRollback(checked)} />}
          label="Roll a failing wave back to the current release"
        />
        {preview.data && 'waves' in waves ? (
          <PlanPreviewList waves={waves.waves} counts={preview.data.counts} />
        ) : null}
        <MutationError error={preview.error ?? start.error} fallback="The plan was refused" />
        <Stack direction="row" spacing={1}>
          <Button
            onClick={() => submit('preview')}
            disabled={'error' in waves || preview.isPending}
          >
            Preview device counts
          </Button>
          <Button
            variant="contained"
            onClick={() => submit('start')}
            disabled={'error' in waves || denied !== null || start.isPending}
          >
            Start rollout
          </Button>
        </Stack>
      </Stack>
    </Paper>
  );
};
