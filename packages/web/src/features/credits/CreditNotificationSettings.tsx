import { defaultCreditThreshold } from '@flotilla/shared/credits/credits';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { LoadState } from '../../ui/LoadState.js';
import { MutationError } from '../../ui/MutationError.js';
import {
  type CreditNotification,
  type CreditSummary,
  useCreditNotification,
  useSaveCreditNotification,
} from './api.js';
import { wholeNumber } from './money.js';

const ThresholdForm = ({
  organizationId,
  summary,
  current,
}: {
  organizationId: number;
  summary: CreditSummary;
  current: CreditNotification;
}) => {
  const initial = current?.threshold ?? defaultCreditThreshold(summary.deviceCount);
  const [value, setValue] = useState(initial);
  const save = useSaveCreditNotification(organizationId);
  const featureId = summary.featureId ?? 0;
  const unchanged = current !== null && value === current.threshold;
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start' }}>
        <TextField
          label="Mail the administrators below"
          value={String(value)}
          onChange={(event) => setValue(wholeNumber(event.target.value, summary.maxPurchase))}
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          helperText="credits"
        />
        <Button
          variant="contained"
          disabled={unchanged || save.isPending || featureId === 0}
          onClick={() => save.mutate({ current, featureId, threshold: value })}
        >
          Apply
        </Button>
        {current === null ? null : (
          <Button
            disabled={save.isPending}
            onClick={() => save.mutate({ current, featureId, threshold: null })}
          >
            Turn off
          </Button>
        )}
      </Stack>
      <MutationError error={save.error} fallback="Could not save the notification" />
    </Stack>
  );
};

// The low-credit mail: on at a threshold (twice the device count by default), changed or off.
export const CreditNotificationSettings = ({
  organizationId,
  summary,
}: {
  organizationId: number;
  summary: CreditSummary;
}) => {
  const notification = useCreditNotification(organizationId);
  return (
    <Paper variant="outlined" sx={{ p: 3 }}>
      <Typography variant="h3" sx={{ mb: 1 }}>
        Low-credit notification
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {notification.data
          ? `On: the administrators are mailed when fewer than ${notification.data.threshold} credits are left.`
          : 'Off: nobody is told when credits run low.'}
      </Typography>
      <LoadState queries={[notification]} what="notification settings" />
      {notification.data === undefined ? null : (
        <ThresholdForm
          key={notification.data?.threshold ?? 'none'}
          organizationId={organizationId}
          summary={summary}
          current={notification.data}
        />
      )}
    </Paper>
  );
};
