import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { type ReactNode, useState } from 'react';

// A reply box: the text, what else the caller puts beside the button, and the send.
export const ReplyForm = ({
  label,
  pending,
  error,
  extra,
  onSend,
}: {
  label: string;
  pending: boolean;
  error: unknown;
  extra?: ReactNode;
  onSend: (body: string, done: () => void) => void;
}) => {
  const [body, setBody] = useState('');
  return (
    <Stack
      spacing={1}
      component="form"
      onSubmit={(event) => {
        event.preventDefault();
        if (body.trim() === '') return;
        onSend(body.trim(), () => setBody(''));
      }}
    >
      <TextField
        multiline
        minRows={3}
        label={label}
        value={body}
        onChange={(event) => setBody(event.target.value)}
      />
      {error ? (
        <Alert severity="error">{errorText(error) ?? 'The reply was not sent'}</Alert>
      ) : null}
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        {extra}
        <Button type="submit" variant="contained" disabled={pending || body.trim() === ''}>
          Send reply
        </Button>
      </Stack>
    </Stack>
  );
};
