import { textLengthProblem } from '@flotilla/shared/constants/text-length';
import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { DisabledReason } from '../../ui/DisabledReason.js';
import { useRenameOrganization } from './api-organizations.js';

// The organization's name with a rename button; disabled with the reason for non-administrators.
export const RenameForm = ({
  id,
  name,
  denied,
}: {
  id: number;
  name: string;
  denied: string | null;
}) => {
  const [value, setValue] = useState(name);
  const rename = useRenameOrganization(id);
  const tooLong = textLengthProblem('The organization name', value.trim());
  const changed = value.trim() !== name && value.trim() !== '' && tooLong === undefined;
  return (
    <Stack
      component="form"
      spacing={1}
      onSubmit={(event) => {
        event.preventDefault();
        if (changed) rename.mutate(value.trim());
      }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        <TextField
          size="small"
          label="Organization name"
          value={value}
          disabled={denied !== null || rename.isPending}
          onChange={(event) => {
            rename.reset();
            setValue(event.target.value);
          }}
          error={tooLong !== undefined}
          helperText={tooLong}
          sx={{ minWidth: 280 }}
        />
        <DisabledReason reason={denied}>
          <Button
            type="submit"
            variant="contained"
            disabled={denied !== null || !changed || rename.isPending}
          >
            Rename
          </Button>
        </DisabledReason>
      </Stack>
      {rename.isError ? (
        <Alert severity="error">{errorText(rename.error) ?? 'Could not rename it'}</Alert>
      ) : null}
    </Stack>
  );
};
