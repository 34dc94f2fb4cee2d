import { errorText } from '@flotilla/sdk/errors';
import {
  attachmentTooLargeMessage,
  supportAttachmentMaxBytes,
} from '@flotilla/shared/support/support-tickets';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { type ReactNode, useState } from 'react';
import type { ReplyDraft } from './api.js';
import { AttachmentPicker } from './AttachmentPicker.js';

// A reply box: the text, its attachments (each at most 5 MB), what else the caller puts beside
// the button, and the send.
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
  onSend: (draft: ReplyDraft, done: () => void) => void;
}) => {
  const [body, setBody] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const tooLarge = files.some((file) => file.size > supportAttachmentMaxBytes);
  return (
    <Stack
      spacing={1}
      component="form"
      onSubmit={(event) => {
        event.preventDefault();
        if (body.trim() === '' || tooLarge) return;
        onSend({ body: body.trim(), files }, () => {
          setBody('');
          setFiles([]);
        });
      }}
    >
      <TextField
        multiline
        minRows={3}
        label={label}
        value={body}
        onChange={(event) => setBody(event.target.value)}
      />
      <AttachmentPicker files={files} onChange={setFiles} />
      {tooLarge ? <Alert severity="error">{attachmentTooLargeMessage}</Alert> : null}
      {error ? (
        <Alert severity="error">{errorText(error) ?? 'The reply was not sent'}</Alert>
      ) : null}
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        {extra}
        <Button
          type="submit"
          variant="contained"
          disabled={pending || body.trim() === '' || tooLarge}
        >
          Send reply
        </Button>
      </Stack>
    </Stack>
  );
};
