import { errorText } from '@flotilla/sdk/errors';
import { Alert, Autocomplete, Stack, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useClient } from '../../../app/client.js';
import { polling } from '../../../ui/polling.js';
import {
  type ApplicationDetail,
  applicationKey,
  fetchPickerReleases,
  releaseLabel,
  shortCommit,
} from './application-detail.js';
import { releasePickerPageSize, releasePickerRefreshMs } from './application-limits.js';
import { DisabledReason } from './DisabledReason.js';
import { useUpdateApplication } from './useUpdateApplication.js';
import { MutationError } from './MutationError.js';

type Option = { id: number | null; label: string; detail: string; invalidated?: boolean };

const latestId = null;

// Track the latest release or pin the fleet to one successful final release.
export const DefaultReleaseSelector = ({
  application,
  denied,
  label = 'Default release',
}: {
  application: ApplicationDetail;
  // Why the user may not change it, or null.
  denied: string | null;
  label?: string;
}) => {
  const client = useClient();
  const update = useUpdateApplication(application.id);
  const releases = useQuery({
    queryKey: [...applicationKey(application.id), 'picker-releases'],
    queryFn: () => fetchPickerReleases(client, application.id, releasePickerPageSize),
    ...polling(releasePickerRefreshMs),
  });
  const current = application.should_be_running__release[0];
  const latest: Option = {
    id: latestId,
    label: 'Track latest release',
    detail: current && application.should_track_latest_release ? releaseLabel(current) : '',
  };
  const options: Option[] = [
    latest,
    ...(releases.data ?? []).map((release) => ({
      id: release.id,
      label: releaseLabel(release),
      detail: `${shortCommit(release.commit)} · ${new Date(release.created_at).toLocaleString()}${
        release.is_invalidated ? ' · invalidated' : ''
      }`,
      invalidated: release.is_invalidated,
    })),
  ];
  // The pinned release may be older than the page of releases offered.
  if (
    current &&
    !application.should_track_latest_release &&
    !options.some((option) => option.id === current.id)
  ) {
    options.push({
      id: current.id,
      label: releaseLabel(current),
      detail: shortCommit(current.commit),
    });
  }
  const value = application.should_track_latest_release
    ? latest
    : (options.find((option) => option.id === current?.id) ?? latest);
  const choose = (option: Option | null): void => {
    if (!option || option.id === value.id) return;
    update.mutate(
      option.id === latestId
        ? { should_track_latest_release: true }
        : { should_be_running__release: option.id, should_track_latest_release: false },
    );
  };
  return (
    <Stack spacing={1}>
      <DisabledReason reason={denied}>
        <Autocomplete
          options={options}
          value={value}
          disableClearable
          onChange={(_event, option) => choose(option)}
          isOptionEqualToValue={(option, selected) => option.id === selected.id}
          // Only valid releases can be pinned (seed 001 section 4).
          getOptionDisabled={(option) => option.invalidated === true}
          getOptionLabel={(option) =>
            option.id === latestId && option.detail
              ? `${option.label} (${option.detail})`
              : option.label
          }
          renderOption={(props, option) => {
            const { key, ...rest } = props;
            return (
              <li key={key} {...rest}>
                <Stack>
                  <span>{option.label}</span>
                  {option.detail ? (
                    <span style={{ fontSize: '0.8em', opacity: 0.7 }}>{option.detail}</span>
                  ) : null}
                </Stack>
              </li>
            );
          }}
          loading={releases.isPending}
          disabled={denied !== null || update.isPending}
          size="small"
          sx={{ minWidth: 260 }}
          renderInput={(params) => <TextField {...params} label={label} />}
        />
      </DisabledReason>
      <MutationError
        error={update.isError ? update.error : null}
        fallback={'Could not change the release'}
      />
      {releases.isError ? (
        <Alert severity="warning">
          {errorText(releases.error) ?? 'Could not load the releases'}
        </Alert>
      ) : null}
    </Stack>
  );
};
