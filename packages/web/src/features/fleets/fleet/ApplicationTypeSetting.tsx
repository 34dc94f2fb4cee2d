import { errorText } from '@flotilla/sdk/errors';
import { Alert, Button, ListItemText, MenuItem, Stack, TextField } from '@mui/material';
import { useState } from 'react';
import type { FleetDetail, ApplicationType } from '../../../fleet/api-fleet-detail.js';
import { DisabledReason } from '../../../ui/DisabledReason.js';
import { SettingRow } from '../../../ui/SettingRow.js';
import { useUpdateFleet } from './api-fleet.js';
import { useApplicationTypes, useServiceCount } from './api-fleet-settings.js';
import { MutationError } from '../../../ui/MutationError.js';

export type TypeOptionState =
  'ok' | 'current' | 'discontinued' | 'needs-multicontainer' | 'needs-plan-upgrade';

export const typeOptionLabels: Record<Exclude<TypeOptionState, 'ok'>, string> = {
  current: 'current type',
  discontinued: 'no longer offered',
  'needs-multicontainer': 'needs multicontainer support: cannot downgrade to non-multicontainer',
  'needs-plan-upgrade': 'needs a plan upgrade: only for paying customers',
};

// Whether the fleet may switch to a type: only "ok" is selectable (a discontinued type, a single-
// container type for a multi-service fleet or a paid type is not). The plan is not readable here, so a type that requires payment always asks for an upgrade.
export const typeOptionState = (
  option: ApplicationType,
  current: ApplicationType | undefined,
  serviceCount: number,
): TypeOptionState => {
  if (option.id === current?.id) return 'current';
  if (option.is_legacy) return 'discontinued';
  if (serviceCount > 1 && !option.supports_multicontainer) return 'needs-multicontainer';
  if (option.requires_payment) return 'needs-plan-upgrade';
  return 'ok';
};

// Change the application type among the ones the fleet can switch to.
export const ApplicationTypeSetting = ({
  fleet,
  denied,
}: {
  fleet: FleetDetail;
  denied: string | null;
}) => {
  const update = useUpdateFleet(fleet.id);
  const current = fleet.application_type[0];
  const [chosen, setChosen] = useState<number | ''>('');
  const types = useApplicationTypes();
  const services = useServiceCount(fleet.id);
  const value = chosen === '' ? (current?.id ?? '') : chosen;
  const loading = types.isPending || services.isPending;
  return (
    <SettingRow
      title="Application type"
      description={current?.description ?? 'What the devices of this fleet can run.'}
    >
      <Stack spacing={1}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
          <TextField
            select
            size="small"
            fullWidth
            label="Application type"
            value={loading ? '' : value}
            onChange={(event) => setChosen(Number(event.target.value))}
            disabled={denied !== null || loading || update.isPending}
          >
            {(types.data ?? []).map((type) => {
              const state = typeOptionState(type, current, services.data ?? 0);
              return (
                <MenuItem
                  key={type.id}
                  value={type.id}
                  disabled={state !== 'ok' && state !== 'current'}
                >
                  <ListItemText
                    primary={type.name}
                    secondary={state === 'ok' ? type.description : typeOptionLabels[state]}
                  />
                </MenuItem>
              );
            })}
          </TextField>
          <DisabledReason reason={denied}>
            <Button
              variant="contained"
              disabled={
                denied !== null || value === '' || value === current?.id || update.isPending
              }
              onClick={() => {
                if (value !== '') update.mutate({ application_type: value });
              }}
            >
              Change
            </Button>
          </DisabledReason>
        </Stack>
        {types.isError || services.isError ? (
          <Alert severity="warning">
            {errorText(types.error ?? services.error) ?? 'Could not load the application types'}
          </Alert>
        ) : null}
        <MutationError
          error={update.isError ? update.error : null}
          fallback={'Could not change the application type'}
        />
      </Stack>
    </SettingRow>
  );
};
