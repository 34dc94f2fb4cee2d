import type { TicketField } from '@flotilla/shared/support/support-tickets';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';

export type FieldValue = string | boolean;

export const requiredMessage = 'This field is required';

export const isEmptyValue = (value: FieldValue | undefined): boolean =>
  value === undefined || value === '' || value === false;

// One of the installation's dynamic ticket fields, as its type asks.
export const TicketFieldInput = ({
  field,
  value,
  showErrors,
  onChange,
}: {
  field: TicketField;
  value: FieldValue | undefined;
  showErrors: boolean;
  onChange: (value: FieldValue) => void;
}) => {
  const missing = showErrors && field.required && isEmptyValue(value);
  if (field.type === 'checkbox') {
    return (
      <FormControlLabel
        control={
          <Checkbox checked={value === true} onChange={(event) => onChange(event.target.checked)} />
        }
        label={field.title}
      />
    );
  }
  const helper = missing ? requiredMessage : field.description || undefined;
  return (
    <TextField
      select={field.type === 'tagger'}
      multiline={field.type === 'textarea'}
      minRows={field.type === 'textarea' ? 3 : undefined}
      fullWidth
      required={field.required}
      label={field.title}
      value={typeof value === 'string' ? value : ''}
      error={missing}
      helperText={helper}
      onChange={(event) => onChange(event.target.value)}
    >
      {field.type === 'tagger'
        ? field.custom_field_options.map((option) => (
            <MenuItem key={option.value} value={option.value}>
              {option.name}
            </MenuItem>
          ))
        : null}
    </TextField>
  );
};
