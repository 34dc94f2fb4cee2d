import Chip from '@mui/material/Chip';
import { isEsrVersion, parseOsVersion } from '@flotilla/shared/host-os/os-version';

// The OS line of a release: its catalogue phase, an end-of-life release being outdated.
type OsLine = 'next' | 'current' | 'sunset' | 'outdated';

const lineOf = (phase: string | null): OsLine | null => {
  if (phase === 'next' || phase === 'current' || phase === 'sunset') return phase;
  if (phase === 'end-of-life') return 'outdated';
  return null;
};

const lineColours: Record<OsLine, string> = {
  next: '#2e7d32',
  current: '#00796b',
  sunset: '#b28704',
  outdated: '#c62828',
};

const lineLabels: Record<OsLine, string> = {
  next: 'Next',
  current: 'Current',
  sunset: 'Sunset',
  outdated: 'Outdated',
};

// The badges beside an OS version: ESR for the extended-support line, and its phase.
export const OsLineChips = ({ version, phase }: { version: string; phase: string | null }) => {
  const line = lineOf(phase);
  const parsed = parseOsVersion(version);
  const esr = parsed !== null && isEsrVersion(parsed);
  return (
    <>
      {esr ? (
        <Chip
          size="small"
          label="ESR"
          variant="outlined"
          sx={{ ml: 0.5, color: '#6a1b9a', borderColor: '#6a1b9a' }}
        />
      ) : null}
      {line ? (
        <Chip
          size="small"
          label={lineLabels[line]}
          variant="outlined"
          sx={{ ml: 0.5, color: lineColours[line], borderColor: lineColours[line] }}
        />
      ) : null}
    </>
  );
};
