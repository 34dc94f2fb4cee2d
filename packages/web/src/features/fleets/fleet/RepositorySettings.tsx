import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import type { FleetDetail } from '../../../fleet/api-fleet-detail.js';
import { DisabledReason } from '../../../ui/DisabledReason.js';
import { SettingRow } from '../../../ui/SettingRow.js';
import { useUpdateFleet } from './api-fleet.js';
import { MutationError } from '../../../ui/MutationError.js';

export const needsRepositoryReason = 'must first enter repo url';

// A code-host URL naming an owner and a repository (https://host/owner/repo[.git]).
export const repositoryUrlProblem = (value: string): string | undefined => {
  if (value === '') return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'Enter a full URL, such as https://github.com/owner/repo';
  }
  const segments = url.pathname.split('/').filter(Boolean);
  if (!['https:', 'http:'].includes(url.protocol) || segments.length < 2) {
    return 'The URL must name an owner and a repository, such as https://github.com/owner/repo';
  }
  return undefined;
};

const RepositoryUrl = ({ fleet, denied }: { fleet: FleetDetail; denied: string | null }) => {
  const update = useUpdateFleet(fleet.id);
  const saved = fleet.is_stored_at__repository_url ?? '';
  const [value, setValue] = useState(saved);
  const trimmed = value.trim();
  const problem = repositoryUrlProblem(trimmed);
  const changed = trimmed !== saved;
  return (
    <SettingRow
      title="Repository URL"
      description="The code repository this fleet is built from. Needed to make the fleet public."
    >
      <Stack
        component="form"
        spacing={1}
        onSubmit={(event) => {
          event.preventDefault();
          update.mutate({ is_stored_at__repository_url: trimmed === '' ? null : trimmed });
        }}
      >
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
          <TextField
            size="small"
            fullWidth
            type="url"
            label="Repository URL"
            placeholder="https://github.com/owner/repo"
            value={value}
            onChange={(event) => {
              update.reset();
              setValue(event.target.value);
            }}
            disabled={denied !== null || update.isPending}
            error={changed && Boolean(problem)}
            helperText={changed ? problem : undefined}
          />
          <DisabledReason reason={denied}>
            <Button
              type="submit"
              variant="contained"
              disabled={denied !== null || !changed || Boolean(problem) || update.isPending}
            >
              Save
            </Button>
          </DisabledReason>
        </Stack>
        <MutationError
          error={update.isError ? update.error : null}
          fallback={'Could not save the repository URL'}
        />
      </Stack>
    </SettingRow>
  );
};

const PublicFlag = ({ fleet, denied }: { fleet: FleetDetail; denied: string | null }) => {
  const update = useUpdateFleet(fleet.id);
  const legacy = fleet.application_type[0]?.is_legacy === true;
  // Making a fleet public needs a repository URL first, unless its type is legacy.
  const reason =
    denied ??
    (!fleet.is_public && !fleet.is_stored_at__repository_url && !legacy
      ? needsRepositoryReason
      : null);
  return (
    <SettingRow
      title="Public"
      description="Public fleets can be found and joined by anyone; their releases are readable by all."
    >
      <Stack spacing={1}>
        <DisabledReason reason={reason}>
          <FormControlLabel
            label={fleet.is_public ? 'Public' : 'Private'}
            control={
              <Switch
                checked={fleet.is_public}
                disabled={reason !== null || update.isPending}
                onChange={(event) => update.mutate({ is_public: event.target.checked })}
              />
            }
          />
        </DisabledReason>
        <MutationError
          error={update.isError ? update.error : null}
          fallback={'Could not change the public flag'}
        />
      </Stack>
    </SettingRow>
  );
};

// Repository URL and the public flag that depends on it.
export const RepositorySettings = (props: { fleet: FleetDetail; denied: string | null }) => (
  <>
    <RepositoryUrl {...props} />
    <PublicFlag {...props} />
  </>
);
