import { errorText } from '@flotilla/sdk/errors';
import CancelIcon from '@mui/icons-material/Cancel';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useAddReleaseTag, useRemoveReleaseTag } from './api-release-edits.js';

type Tag = { id: number; tag_key: string; value: string };

const tagLabel = (tag: Tag): string =>
  tag.value === '' ? tag.tag_key : `${tag.tag_key}: ${tag.value}`;

// The release's tags: chips, removable and added in place for users with resin.release_tag
// rights (`denied` null); read-only otherwise.
export const ReleaseTags = ({
  fleetId,
  releaseId,
  tags,
  denied,
}: {
  fleetId: number;
  releaseId: number;
  tags: readonly Tag[];
  denied: string | null;
}) => {
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const add = useAddReleaseTag(fleetId, releaseId, () => {
    setKey('');
    setValue('');
  });
  const remove = useRemoveReleaseTag(fleetId);
  const duplicate = tags.some((tag) => tag.tag_key === key.trim());
  const failure = add.error ?? remove.error;
  return (
    <Stack spacing={1}>
      {tags.length === 0 ? (
        <span>—</span>
      ) : (
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
          {tags.map((tag) => (
            <Chip
              key={tag.id}
              size="small"
              label={tagLabel(tag)}
              {...(denied === null
                ? {
                    onDelete: () => remove.mutate(tag.id),
                    deleteIcon: <CancelIcon aria-label={`Remove tag ${tag.tag_key}`} />,
                  }
                : {})}
            />
          ))}
        </Stack>
      )}
      {denied === null ? (
        <Stack
          direction="row"
          spacing={1}
          component="form"
          aria-label="Add a tag"
          onSubmit={(event) => {
            event.preventDefault();
            add.mutate({ key: key.trim(), value: value.trim() });
          }}
        >
          <TextField
            size="small"
            label="Tag name"
            value={key}
            error={duplicate}
            helperText={duplicate ? 'This release already has this tag' : ' '}
            onChange={(event) => setKey(event.target.value)}
          />
          <TextField
            size="small"
            label="Tag value"
            value={value}
            helperText=" "
            onChange={(event) => setValue(event.target.value)}
          />
          <Button
            type="submit"
            variant="outlined"
            disabled={key.trim() === '' || duplicate || add.isPending}
            sx={{ alignSelf: 'flex-start' }}
          >
            Add tag
          </Button>
        </Stack>
      ) : null}
      {failure ? (
        <Alert severity="error">{errorText(failure) ?? 'Could not change the tags'}</Alert>
      ) : null}
    </Stack>
  );
};
