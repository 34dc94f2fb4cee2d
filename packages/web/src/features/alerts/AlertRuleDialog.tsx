import {
  alertConditions,
  alertMetrics,
  alertMetricLabels,
  alertRuleLimits,
  alertRuleProblem,
  type AlertCondition,
  type AlertMetric,
} from '@flotilla/shared/alerts/alert-rules';
import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useAlertRuleWrites, useOrganizationFleets } from './api.js';
import { conditionLabels } from './rule-text.js';

const isCondition = (value: string): value is AlertCondition =>
  alertConditions.some((condition) => condition === value);
const isMetric = (value: string): value is AlertMetric =>
  alertMetrics.some((metric) => metric === value);

// "Add alert rule": what raises an alert, on which fleets, and how often a firing one is mailed
// again. The server checks the same rules (shared/alerts/alert-rules.ts) and says why it refuses.
export const AlertRuleDialog = ({
  organizationId,
  onClose,
}: {
  organizationId: number;
  onClose: () => void;
}) => {
  const fleets = useOrganizationFleets(organizationId, true);
  const { create } = useAlertRuleWrites(organizationId);
  const [name, setName] = useState('');
  const [condition, setCondition] = useState<AlertCondition>('device offline');
  const [metric, setMetric] = useState<AlertMetric>('cpu usage');
  const [threshold, setThreshold] = useState('90');
  const [forMinutes, setForMinutes] = useState(String(alertRuleLimits.forMinutes.default));
  const [repeat, setRepeat] = useState(String(alertRuleLimits.repeatIntervalMinutes.default));
  const [fleet, setFleet] = useState('all');
  const [pattern, setPattern] = useState('');
  const isMetricRule = condition === 'metric above';
  const rule = {
    name: name.trim(),
    condition,
    metric: isMetricRule ? metric : null,
    threshold: isMetricRule ? Number(threshold) : null,
    pattern: condition === 'log line' ? pattern : null,
    for_minutes: Number(forMinutes),
    repeat_interval_minutes: Number(repeat),
    is_enabled: true,
    is_silenced_until__date: null,
    applies_to__application: fleet === 'all' ? null : Number(fleet),
  };
  const problem = alertRuleProblem(rule);
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>Add alert rule</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} required />
          <TextField
            select
            label="Condition"
            value={condition}
            onChange={(e) => isCondition(e.target.value) && setCondition(e.target.value)}
          >
            {alertConditions.map((value) => (
              <MenuItem key={value} value={value}>
                {conditionLabels[value]}
              </MenuItem>
            ))}
          </TextField>
          {condition === 'log line' ? (
            <TextField
              label="Text to look for"
              value={pattern}
              onChange={(e) => setPattern(e.target.value)}
              helperText="Fires when a log line containing this text (any case) arrives"
            />
          ) : null}
          {isMetricRule ? (
            <Stack direction="row" spacing={2}>
              <TextField
                select
                label="Metric"
                value={metric}
                onChange={(e) => isMetric(e.target.value) && setMetric(e.target.value)}
                sx={{ flex: 2 }}
              >
                {alertMetrics.map((value) => (
                  <MenuItem key={value} value={value}>
                    {alertMetricLabels[value]}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                label={metric === 'cpu temperature' ? 'Above (°C)' : 'Above (%)'}
                type="number"
                value={threshold}
                onChange={(e) => setThreshold(e.target.value)}
                sx={{ flex: 1 }}
              />
            </Stack>
          ) : null}
          {condition === 'update failed' ? null : (
            <TextField
              label="For (minutes)"
              type="number"
              value={forMinutes}
              onChange={(e) => setForMinutes(e.target.value)}
              helperText="How long the condition must hold before the alert fires"
            />
          )}
          <TextField select label="Fleets" value={fleet} onChange={(e) => setFleet(e.target.value)}>
            <MenuItem value="all">All fleets of the organization</MenuItem>
            {(fleets.data ?? []).map((entry) => (
              <MenuItem key={entry.id} value={String(entry.id)}>
                {entry.app_name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label="Remind every (minutes)"
            type="number"
            value={repeat}
            onChange={(e) => setRepeat(e.target.value)}
            helperText="A firing alert is mailed again to the administrators after this long"
          />
          {name.trim() !== '' && problem !== null ? (
            <Alert severity="warning">{problem}</Alert>
          ) : null}
          {create.isError ? (
            <Alert severity="error">{errorText(create.error) ?? 'Could not add the rule'}</Alert>
          ) : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          disabled={problem !== null || create.isPending}
          onClick={() => create.mutate(rule, { onSuccess: onClose })}
        >
          {create.isPending ? 'Adding…' : 'Add rule'}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
