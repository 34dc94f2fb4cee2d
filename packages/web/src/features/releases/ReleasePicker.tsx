import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper, { type PaperProps } from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { createContext, useContext, useState } from 'react';
import { useDebounced } from '../../ui/useDebounced.js';
import { releaseLabel, shortCommit } from '../../fleet/api-fleet-detail.js';
import { usePickerReleases } from './api-release-picker.js';
import { maxPickerSearch } from './release-picker-search.js';
import { releasePickerDebounceMs, releasePickerPopupMaxHeight } from './release-limits.js';

// The release picker: searchable on the server (version, commit prefix,
// tag key or value), 50 releases a page with "Load more", newest first, refetched every 15 s
// while open; invalidated releases are shown disabled with their reason. Used by the fleet's
// default release selector and by device pinning.

// The choice that is no release: track the fleet's release, or the latest one.
export const trackChoice = 'track';
export type ReleaseChoice = number | typeof trackChoice;

// A release the picker may show although no loaded page holds it (the one already chosen).
export type KnownRelease = { id: number; commit: string; raw_version: string | null };

type Option = {
  value: ReleaseChoice;
  label: string;
  detail: string;
  // Why it cannot be chosen, or null.
  disabledBecause: string | null;
  // False for the chosen release kept as the value while no loaded page lists it.
  listed: boolean;
};

export type TrackOption = { label: string; detail: string; inputLabel: string };

// What the listbox shows under the options: a load in progress, or the "Load more" button.
type Footer = { loading: boolean; more: boolean; loadingMore: boolean; loadMore: () => void };
const FooterContext = createContext<Footer>({
  loading: false,
  more: false,
  loadingMore: false,
  loadMore: () => undefined,
});

// The popup's paper with, under MUI's own listbox (and its option styles), what is loading and
// the "Load more" button. Its mousedown is prevented, as the listbox's is, so the input keeps the
// focus and the list stays open while the next page loads. The whole popup is capped in height:
// the list scrolls and the footer stays in view under it.
const popupSx = {
  maxHeight: releasePickerPopupMaxHeight,
  display: 'flex',
  flexDirection: 'column',
} as const;
const listboxSx = { maxHeight: 'none', flex: '1 1 auto', minHeight: 0 } as const;

const PickerPaper = ({
  children,
  // MUI hands slot components its state; it is not a prop of the Paper.
  ownerState: _ownerState,
  ...props
}: PaperProps & { ownerState?: unknown }) => {
  const footer = useContext(FooterContext);
  return (
    <Paper {...props} sx={popupSx}>
      {children}
      {footer.loading ? (
        <Box role="presentation" sx={{ px: 2, py: 1, opacity: 0.7 }}>
          Loading releases…
        </Box>
      ) : null}
      {footer.more ? (
        <Box sx={{ px: 1, pb: 1 }} onMouseDown={(event) => event.preventDefault()}>
          <Button size="small" fullWidth disabled={footer.loadingMore} onClick={footer.loadMore}>
            {footer.loadingMore ? 'Loading more releases…' : 'Load more releases'}
          </Button>
        </Box>
      ) : null}
    </Paper>
  );
};

const invalidatedReason = (reason: string | null): string =>
  reason === null || reason.trim() === '' ? 'Invalidated' : `Invalidated: ${reason}`;

export const ReleasePicker = ({
  fleetId,
  label,
  track,
  value,
  known,
  onChange,
  disabled = false,
  disableClearable = false,
}: {
  fleetId: number;
  label: string;
  track: TrackOption;
  value: ReleaseChoice | null;
  // The chosen release, shown as the value even when no loaded page holds it.
  known?: KnownRelease | null;
  onChange: (choice: ReleaseChoice | null) => void;
  disabled?: boolean;
  disableClearable?: boolean;
}) => {
  const [open, setOpen] = useState(false);
  const [input, setInput] = useState('');
  const search = useDebounced(input, releasePickerDebounceMs);
  const releases = usePickerReleases(fleetId, search, open);
  const searching = search.trim() !== '';
  const loaded = releases.data?.pages.flat() ?? [];
  const options: Option[] = [
    {
      value: trackChoice,
      label: track.label,
      detail: track.detail,
      disabledBecause: null,
      listed: !searching,
    },
    ...loaded.map((release) => ({
      value: release.id,
      label: releaseLabel(release),
      detail: release.is_invalidated
        ? `${shortCommit(release.commit)} · ${invalidatedReason(release.invalidation_reason)} · cannot be pinned`
        : `${shortCommit(release.commit)} · ${new Date(release.created_at).toLocaleString()}`,
      disabledBecause: release.is_invalidated
        ? invalidatedReason(release.invalidation_reason)
        : null,
      listed: true,
    })),
  ];
  if (known && value === known.id && !options.some((option) => option.value === known.id)) {
    options.push({
      value: known.id,
      label: releaseLabel(known),
      detail: shortCommit(known.commit),
      disabledBecause: null,
      listed: false,
    });
  }
  const selected = options.find((option) => option.value === value) ?? null;
  const more = releases.hasNextPage;
  const loadMore = (): void => {
    if (more && !releases.isFetchingNextPage) void releases.fetchNextPage();
  };
  const lastListed = loaded.at(-1)?.id;
  // The first page, or another search's, on its way (the list shows the previous answer).
  const loading = releases.isPending || (releases.isPlaceholderData && releases.isFetching);
  return (
    <Stack spacing={1}>
      <FooterContext
        value={{
          loading: open && loading,
          more,
          loadingMore: releases.isFetchingNextPage,
          loadMore,
        }}
      >
        <Autocomplete
          options={options}
          value={selected}
          open={open}
          onOpen={() => setOpen(true)}
          onClose={() => setOpen(false)}
          disabled={disabled}
          disableClearable={disableClearable}
          onChange={(_event, option) => onChange(option?.value ?? null)}
          onInputChange={(_event, text, reason) => {
            // Only typed text searches; choosing an option shows its label in the input.
            if (reason === 'input') setInput(text.slice(0, maxPickerSearch));
            else setInput('');
          }}
          // The server filters; the options are its answer (and the track choice unsearched).
          filterOptions={(all) => all.filter((option) => option.listed)}
          // Reaching the last release with the keyboard loads the next page.
          onHighlightChange={(_event, option) => {
            if (option !== null && option.value === lastListed) loadMore();
          }}
          getOptionDisabled={(option) => option.disabledBecause !== null}
          isOptionEqualToValue={(option, chosen) => option.value === chosen.value}
          getOptionLabel={(option) =>
            option.value === trackChoice ? track.inputLabel : option.label
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
          slots={{ paper: PickerPaper }}
          slotProps={{ listbox: { sx: listboxSx } }}
          loading={loading}
          loadingText="Loading releases…"
          noOptionsText={releases.isError ? 'Could not load the releases' : 'No releases match'}
          size="small"
          sx={{ minWidth: 260 }}
          renderInput={(params) => (
            <TextField {...params} label={label} placeholder="Search by version, commit or tag" />
          )}
        />
      </FooterContext>
      {releases.isError ? (
        <Alert
          severity="warning"
          action={
            <Button color="inherit" size="small" onClick={() => void releases.refetch()}>
              Retry
            </Button>
          }
        >
          {errorText(releases.error) ?? 'Could not load the releases'}
        </Alert>
      ) : null}
    </Stack>
  );
};
