import {
  additionalCreditsNeeded,
  runwayDefaultEstimate,
  runwayDefaultMonths,
  runwayMaxMonths,
} from '@flotilla/shared/credits/credits';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { CreditSummary } from './api.js';
import { wholeNumber } from './money.js';

// How many more credits the devices over the plan need for some months, with devices yet to come.
export const RunwayCalculator = ({ summary }: { summary: CreditSummary }) => {
  const [months, setMonths] = useState(runwayDefaultMonths);
  const [estimate, setEstimate] = useState(runwayDefaultEstimate);
  const needed = additionalCreditsNeeded({
    currentDevices: summary.deviceCount,
    estimatedDevices: estimate,
    includedDevices: summary.includedDevices,
    months,
    balance: summary.balance,
  });
  return (
    <Paper variant="outlined" sx={{ p: 3 }}>
      <Typography variant="h3" sx={{ mb: 2 }}>
        Runway calculator
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
        <TextField
          label="Months"
          value={String(months)}
          onChange={(event) => setMonths(wholeNumber(event.target.value, runwayMaxMonths))}
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          helperText={`Up to ${runwayMaxMonths}`}
        />
        <TextField
          label="Estimated new devices"
          value={String(estimate)}
          onChange={(event) => setEstimate(wholeNumber(event.target.value, summary.maxPurchase))}
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          helperText={`${summary.deviceCount} devices now, ${summary.includedDevices} in the plan`}
        />
      </Stack>
      <Typography role="status">
        {needed === 0
          ? 'No credits needed: your balance covers this.'
          : `${needed.toLocaleString('en-US')} more credits needed for ${months} months.`}
      </Typography>
    </Paper>
  );
};
