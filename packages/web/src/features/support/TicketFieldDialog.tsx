import { errorText } from '@flotilla/sdk/errors';
import type { TicketFieldType } from '@flotilla/shared/support/support-tickets';
import {
  type AdminTicketField,
  type TicketFieldInput,
  ticketFieldProblem,
  ticketFieldTypeLabels,
  ticketFieldTypes,
} from '@flotilla/shared/support/ticket-field-admin';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useId, useState } from 'react';
import { useSaveTicketField } from './api-ticket-fields.js';

const blank: TicketFieldInput = {
  type: 'text',
  title: '',
  description: '',
  required: false,
  active: true,
  position: 0,
  options: [],
};

// The field without its id: what is sent back.
const inputOf = (field: AdminTicketField): TicketFieldInput => ({
  type: field.type,
  title: field.title,
  description: field.description,
  required: field.required,
  active: field.active,
  position: field.position,
  options: field.options,
});

// Options as typed: one "Label = value" a line (the value alone when both are the same).
const optionsText = (field: TicketFieldInput): string =>
  field.options
    .map((option) =>
      option.name === option.value ? option.value : `${option.name} = ${option.value}`,
    )
    .join('\n');

const parseOptions = (text: string): TicketFieldInput['options'] =>
  text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [name = '', ...rest] = line.split('=');
      const value = rest.length === 0 ? name : rest.join('=');
      return { name: name.trim(), value: value.trim() };
    });

const typeOf = (value: string): TicketFieldType =>
  ticketFieldTypes.find((type) => type === value) ?? 'text';

// Adds a field to the ticket form, or edits one (`editing`); a field is deactivated, never
// deleted: tickets keep what they were sent with.
export const TicketFieldDialog = ({
  editing,
  onClose,
}: {
  editing: AdminTicketField | 'new';
  onClose: () => void;
}) => {
  const titleId = useId();
  const [field, setField] = useState<TicketFieldInput>(
    editing === 'new' ? blank : inputOf(editing),
  );
  const [options, setOptions] = useState(optionsText(field));
  const [tried, setTried] = useState(false);
  const save = useSaveTicketField();
  const typed: TicketFieldInput = {
    ...field,
    options: field.type === 'tagger' ? parseOptions(options) : [],
  };
  const problem = ticketFieldProblem(typed);
  const set = (change: Partial<TicketFieldInput>) => setField({ ...field, ...change });
  const submit = () => {
    setTried(true);
    if (problem !== undefined) return;
    save.mutate(
      { id: editing === 'new' ? undefined : editing.id, field: typed },
      { onSuccess: onClose },
    );
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>
        {editing === 'new' ? 'Add a ticket field' : 'Edit the ticket field'}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            select
            label="Type"
            value={field.type}
            onChange={(event) => set({ type: typeOf(event.target.value) })}
          >
            {ticketFieldTypes.map((type) => (
              <MenuItem key={type} value={type}>
                {ticketFieldTypeLabels[type]}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label="Title"
            value={field.title}
            onChange={(event) => set({ title: event.target.value })}
          />
          <TextField
            label="Description"
            value={field.description}
            onChange={(event) => set({ description: event.target.value })}
          />
          {field.type === 'tagger' ? (
            <TextField
              multiline
              minRows={3}
              label="Options"
              helperText="One a line: Label = value"
              value={options}
              onChange={(event) => setOptions(event.target.value)}
            />
          ) : null}
          <TextField
            type="number"
            label="Position"
            value={field.position}
            onChange={(event) =>
              set({ position: Math.max(0, Math.trunc(Number(event.target.value) || 0)) })
            }
          />
          <FormControlLabel
            control={
              <Checkbox
                checked={field.required}
                onChange={(event) => set({ required: event.target.checked })}
              />
            }
            label="Required"
          />
          <FormControlLabel
            control={
              <Checkbox
                checked={field.active}
                onChange={(event) => set({ active: event.target.checked })}
              />
            }
            label="Shown on the ticket form"
          />
          {tried && problem !== undefined ? <Alert severity="error">{problem}</Alert> : null}
          {save.isError ? (
            <Alert severity="error">{errorText(save.error) ?? 'The field was not saved'}</Alert>
          ) : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" disabled={save.isPending} onClick={submit}>
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
};
