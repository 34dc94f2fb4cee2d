import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useClient } from '../../app/client.js';
import { polling } from '../../ui/polling.js';
import { releaseLabel, shortCommit } from '../fleets/application/application-detail.js';
import {
  releasePickerPageSize,
  releasePickerRefreshMs,
} from '../fleets/application/application-limits.js';
import { useDebounced } from './useDebounced.js';

export type PickerRelease = {
  id: number;
  commit: string;
  raw_version: string | null;
  created_at: string;
  is_invalidated: boolean;
};

// The fleet's successful releases, newest first, 50 at most, matching the search (version or
// commit). Invalidated ones are listed too, to be shown disabled (seed 001 "Other UI").
export const fetchPickerReleases = async (
  client: FlotillaClient,
  applicationId: number,
  search: string,
): Promise<PickerRelease[]> => {
  const text = search.trim().toLowerCase();
  return await client.pine.get({
    resource: 'release',
    options: {
      $select: ['id', 'commit', 'raw_version', 'created_at', 'is_invalidated'],
      $filter: {
        belongs_to__application: applicationId,
        status: 'success',
        ...(text === ''
          ? {}
          : {
              $or: [
                { $contains: [{ $tolower: { $: 'raw_version' } }, text] },
                { $startswith: [{ $: 'commit' }, text] },
              ],
            }),
      },
      $orderby: [{ created_at: 'desc' }, { id: 'desc' }],
      $top: releasePickerPageSize,
    },
  });
};

// The "track latest" sentinel: the device follows its fleet's release again.
export const trackFleet = 'track-fleet';
export type ReleaseChoice = number | typeof trackFleet;

type Option = { value: ReleaseChoice; label: string; detail: string; disabled: boolean };

const trackOption: Option = {
  value: trackFleet,
  label: 'Track the fleet release',
  detail: 'The device runs the release its fleet runs',
  disabled: false,
};

// Searchable release picker of the pin-to-release form.
export const ReleasePicker = ({
  applicationId,
  value,
  onChange,
}: {
  applicationId: number;
  value: ReleaseChoice | null;
  onChange: (value: ReleaseChoice | null) => void;
}) => {
  const client = useClient();
  const [input, setInput] = useState('');
  const search = useDebounced(input, 300);
  const releases = useQuery({
    queryKey: ['releases', 'picker', applicationId, search],
    queryFn: () => fetchPickerReleases(client, applicationId, search),
    placeholderData: keepPreviousData,
    ...polling(releasePickerRefreshMs),
  });
  const options: Option[] = [
    trackOption,
    ...(releases.data ?? []).map((release) => ({
      value: release.id,
      label: releaseLabel(release),
      detail: release.is_invalidated
        ? 'Invalidated: cannot be pinned'
        : `${shortCommit(release.commit)} · ${new Date(release.created_at).toLocaleString()}`,
      disabled: release.is_invalidated,
    })),
  ];
  const selected = options.find((option) => option.value === value) ?? null;
  return (
    <Stack spacing={1}>
      <Autocomplete
        options={options}
        value={selected}
        onChange={(_event, option) => onChange(option?.value ?? null)}
        onInputChange={(_event, text, reason) => {
          // Only typed text searches; choosing an option shows its label in the input.
          if (reason === 'input') setInput(text);
          else setInput('');
        }}
        // The server filters; the options are the answer.
        filterOptions={(all) => all}
        getOptionDisabled={(option) => option.disabled}
        isOptionEqualToValue={(option, chosen) => option.value === chosen.value}
        getOptionLabel={(option) => option.label}
        renderOption={(props, option) => {
          const { key, ...rest } = props;
          return (
            <li key={key} {...rest}>
              <Stack>
                <span>{option.label}</span>
                <span style={{ fontSize: '0.8em', opacity: 0.7 }}>{option.detail}</span>
              </Stack>
            </li>
          );
        }}
        loading={releases.isFetching}
        size="small"
        renderInput={(params) => (
          <TextField {...params} label="Release" placeholder="Search by version or commit" />
        )}
      />
      {releases.isError ? (
        <Alert severity="warning">
          {errorText(releases.error) ?? 'Could not load the releases'}
        </Alert>
      ) : null}
    </Stack>
  );
};
