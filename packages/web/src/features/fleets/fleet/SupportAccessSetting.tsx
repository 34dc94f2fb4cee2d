import { Button, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import type { FleetDetail } from '../../../fleet/api-fleet-detail.js';
import { supportAccessDefaultDays } from '../../../fleet/fleet-limits.js';
import { DisabledReason } from '../../../ui/DisabledReason.js';
import { SettingRow } from '../../../ui/SettingRow.js';
import { useUpdateFleet } from './api-fleet.js';
import { MutationError } from '../../../ui/MutationError.js';
import { localInputValue, supportAccessText } from '../../../fleet/support-access.js';

const dayMs = 24 * 60 * 60 * 1000;
// Grant the support agents access until a date, or revoke it.
export const SupportAccessSetting = ({
  fleet,
  denied,
}: {
  fleet: FleetDetail;
  denied: string | null;
}) => {
  const update = useUpdateFleet(fleet.id);
  const [now] = useState(() => Date.now());
  const [until, setUntil] = useState(() =>
    localInputValue(new Date(now + supportAccessDefaultDays * dayMs)),
  );
  const current = fleet.is_accessible_by_support_until__date;
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
