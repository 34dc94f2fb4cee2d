import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { DisabledReason } from '../../ui/DisabledReason.js';
import { SettingRow } from '../../ui/SettingRow.js';
import { versionError } from './release-rules.js';

// The release's version, edited in place; saved only when valid and changed.
export const ReleaseVersionRow = ({
  semver,
  blocked,
  pending,
  onSave,
}: {
  semver: string;
  // Why the version cannot be edited, or null.
  blocked: string | null;
  pending: boolean;
  onSave: (semver: string) => void;
}) => {
  const [version, setVersion] = useState(semver);
  const typedError = version.trim() === semver ? null : versionError(version);
  return (
    <SettingRow title="Version" description="Three numbers, major.minor.patch (for example 1.4.0).">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        <DisabledReason reason={blocked}>
          <TextField
            size="small"
            label="Release version"
            value={version}
            disabled={blocked !== null}
            error={typedError !== null}
            helperText={typedError ?? ' '}
            onChange={(event) => setVersion(event.target.value)}
          />
        </DisabledReason>
        <Button
          variant="outlined"
          disabled={blocked !== null || typedError !== null || version.trim() === semver || pending}
          onClick={() => onSave(version.trim())}
        >
          Save version
        </Button>
      </Stack>
    </SettingRow>
  );
};
