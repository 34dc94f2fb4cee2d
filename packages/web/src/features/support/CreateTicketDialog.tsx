import { errorText } from '@flotilla/sdk/errors';
import {
  attachmentTooLargeMessage,
  isCcAddress,
  parseCcList,
  supportAttachmentMaxBytes,
} from '@flotilla/shared/support/support-tickets';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { LoadState } from '../../ui/LoadState.js';
import { type SupportOrganization, useSubmitTicket, useTicketFields } from './api.js';
import { AttachmentPicker } from './AttachmentPicker.js';
import {
  type FieldValue,
  isEmptyValue,
  requiredMessage,
  TicketFieldInput,
} from './TicketFieldInput.js';

// The create-ticket form: organization (required), subject, description, the installation's
// fields, a cc list and attachments of at most 5 MB each.
export const CreateTicketDialog = ({
  organizations,
  initialOrganization,
  onClose,
  onSubmitted,
}: {
  organizations: readonly SupportOrganization[];
  initialOrganization: number | null;
  onClose: () => void;
  onSubmitted: (organizationId: number, ticketId: number) => void;
}) => {
  const [organization, setOrganization] = useState<number | null>(initialOrganization);
  const [subject, setSubject] = useState('');
  const [description, setDescription] = useState('');
  const [cc, setCc] = useState('');
  const [values, setValues] = useState<Record<number, FieldValue>>({});
  const [files, setFiles] = useState<File[]>([]);
  const [showErrors, setShowErrors] = useState(false);
  const fields = useTicketFields(organization);
  const submit = useSubmitTicket();
  const ccList = parseCcList(cc);
  const badCc = ccList.find((address) => !isCcAddress(address));
  const tooLarge = files.some((file) => file.size > supportAttachmentMaxBytes);
  const missingField = (fields.data ?? []).some(
    (field) => field.required && isEmptyValue(values[field.id]),
  );
  const valid =
    organization !== null &&
    subject.trim() !== '' &&
    description.trim() !== '' &&
    badCc === undefined &&
    !tooLarge &&
    fields.isSuccess &&
    !missingField;
  const send = () => {
    setShowErrors(true);
    if (!valid || organization === null) return;
    submit.mutate(
      {
        organizationId: organization,
        subject: subject.trim(),
        description: description.trim(),
        cc: ccList,
        customFields: Object.entries(values)
          .filter(([, value]) => !isEmptyValue(value))
          .map(([id, value]) => ({ id: Number(id), value })),
        files,
      },
      { onSuccess: (answer) => onSubmitted(organization, answer.ticket.id) },
    );
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="create-ticket-title">
      <DialogTitle id="create-ticket-title">Create a support ticket</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            select
            required
            label="Organization"
            value={organization ?? ''}
            error={showErrors && organization === null}
            helperText={showErrors && organization === null ? requiredMessage : undefined}
            onChange={(event) => {
              setOrganization(Number(event.target.value));
              setValues({});
            }}
          >
            {organizations.map((entry) => (
              <MenuItem key={entry.id} value={entry.id}>
                {entry.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            required
            label="Subject"
            value={subject}
            error={showErrors && subject.trim() === ''}
            helperText={showErrors && subject.trim() === '' ? requiredMessage : undefined}
            onChange={(event) => setSubject(event.target.value)}
          />
          <TextField
            required
            multiline
            minRows={4}
            label="Description"
            value={description}
            error={showErrors && description.trim() === ''}
            helperText={showErrors && description.trim() === '' ? requiredMessage : undefined}
            onChange={(event) => setDescription(event.target.value)}
          />
          {organization === null ? null : <LoadState queries={[fields]} what="ticket fields" />}
          {(fields.data ?? []).map((field) => (
            <TicketFieldInput
              key={field.id}
              field={field}
              value={values[field.id]}
              showErrors={showErrors}
              onChange={(value) => setValues((current) => ({ ...current, [field.id]: value }))}
            />
          ))}
          <TextField
            label="CC"
            placeholder="name@example.com, other@example.com"
            value={cc}
            error={badCc !== undefined}
            helperText={
              badCc === undefined
                ? 'Comma-separated e-mail addresses that receive the replies too'
                : `${badCc} is not an e-mail address`
            }
            onChange={(event) => setCc(event.target.value)}
          />
          <AttachmentPicker files={files} onChange={setFiles} />
          {tooLarge ? <Alert severity="error">{attachmentTooLargeMessage}</Alert> : null}
          {submit.isError ? (
            <Alert severity="error">
              {errorText(submit.error) ?? 'Something went wrong: the ticket was not sent'}
            </Alert>
          ) : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={send} disabled={submit.isPending}>
          Submit ticket
        </Button>
      </DialogActions>
    </Dialog>
  );
};
