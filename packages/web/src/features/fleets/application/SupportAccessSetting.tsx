import { Button, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import type { ApplicationDetail } from './application-detail.js';
import { supportAccessDefaultDays } from './application-limits.js';
import { DisabledReason } from './DisabledReason.js';
import { SettingRow } from './SettingRow.js';
import { useUpdateApplication } from './useUpdateApplication.js';
import { MutationError } from './MutationError.js';

const dayMs = 24 * 60 * 60 * 1000;
const pad = (value: number): string => String(value).padStart(2, '0');

// The value of a datetime-local input (local time, minutes).
export const localInputValue = (date: Date): string =>
  `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;

// Off without a date, "expires on" while in the future, "expired on" once past (seed 001 section 4).
export const supportAccessText = (until: string | null, now: number): string => {
  if (!until) return 'Support access is off';
  const date = new Date(until);
  return `${date.getTime() > now ? 'Support access expires on' : 'Support access expired on'} ${date.toLocaleString()}`;
};

// Grant the support agents access until a date, or revoke it.
export const SupportAccessSetting = ({
  application,
  denied,
}: {
  application: ApplicationDetail;
  denied: string | null;
}) => {
  const update = useUpdateApplication(application.id);
  const [now] = useState(() => Date.now());
  const [until, setUntil] = useState(() =>
    localInputValue(new Date(now + supportAccessDefaultDays * dayMs)),
  );
  const current = application.is_accessible_by_support_until__date;
  const chosen = new Date(until);
  const invalid = until === '' || Number.isNaN(chosen.getTime()) || chosen.getTime() < now;
  const active = current !== null && new Date(current).getTime() > now;
  return (
    <SettingRow
      title="Support access"
      description="Let the support agents see this fleet and its devices until a date."
    >
      <Stack spacing={1}>
        <Typography variant="body2" role="status">
          {supportAccessText(current, now)}
        </Typography>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
          <TextField
            size="small"
            type="datetime-local"
            label="Grant until"
            value={until}
            onChange={(event) => setUntil(event.target.value)}
            disabled={denied !== null || update.isPending}
            error={until !== '' && invalid}
            helperText={until !== '' && invalid ? 'Choose a date in the future' : undefined}
            slotProps={{
              inputLabel: { shrink: true },
              htmlInput: { min: localInputValue(new Date(now)) },
            }}
          />
          <DisabledReason reason={denied}>
            <Button
              variant="contained"
              disabled={denied !== null || invalid || update.isPending}
              onClick={() =>
                update.mutate({ is_accessible_by_support_until__date: chosen.toISOString() })
              }
            >
              {active ? 'Update' : 'Grant'}
            </Button>
          </DisabledReason>
          {current !== null ? (
            <DisabledReason reason={denied}>
              <Button
                color="error"
                disabled={denied !== null || update.isPending}
                onClick={() => update.mutate({ is_accessible_by_support_until__date: null })}
              >
                Revoke
              </Button>
            </DisabledReason>
          ) : null}
        </Stack>
        <MutationError
          error={update.isError ? update.error : null}
          fallback={'Could not change the support access'}
        />
      </Stack>
    </SettingRow>
  );
};
