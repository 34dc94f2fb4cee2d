import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useId, useState } from 'react';
import { variableMessages } from '@flotilla/shared/variables/variable-form-rules';

export type ServiceChoice = { id: number; name: string };

export type VariableForm = { name: string; value: string; serviceId: number };

export type VariableDialogProps = {
  title: string;
  // Editing a variable fixes its name (and service); adding asks for them.
  fixedName?: string;
  initialValue?: string;
  // Offered services ("All services" included by the caller); none: no service field.
  services?: readonly ServiceChoice[];
  nameProblem?: (name: string, serviceId: number) => string | undefined;
  // A problem with the service itself (e.g. not installed on the device).
  serviceProblem?: (serviceId: number) => string | undefined;
  valueProblem: (value: string) => string | undefined;
  submitLabel: string;
  multiline?: boolean;
  onSubmit: (form: VariableForm) => void;
  onClose: () => void;
};

// Add or edit one variable. Every naming and value rule is checked here, before anything is
// staged; problems show under their field once the user typed there or tried to submit.
const VariableFormBody = ({
  title,
  fixedName,
  initialValue = '',
  services,
  nameProblem,
  serviceProblem,
  valueProblem,
  submitLabel,
  multiline = true,
  onSubmit,
  onClose,
  titleId,
}: VariableDialogProps & { titleId: string }) => {
  const [name, setName] = useState(fixedName ?? '');
  const [value, setValue] = useState(initialValue);
  const [service, setService] = useState<number | ''>(services === undefined ? 0 : '');
  const [touched, setTouched] = useState({ name: false, value: false, service: false });
  const serviceId = service === '' ? 0 : service;
  const problems = {
    name: fixedName === undefined ? nameProblem?.(name.trim(), serviceId) : undefined,
    service:
      services !== undefined && service === ''
        ? variableMessages.serviceRequired
        : service === ''
          ? undefined
          : serviceProblem?.(service),
    value: valueProblem(value),
  };
  const valid = !problems.name && !problems.service && !problems.value;
  const submit = (): void => {
    setTouched({ name: true, value: true, service: true });
    if (valid) onSubmit({ name: fixedName ?? name.trim(), value, serviceId });
  };
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {fixedName === undefined ? (
            <TextField
              label="Name"
              value={name}
              autoFocus
              autoComplete="off"
              onChange={(event) => {
                setName(event.target.value);
                setTouched((current) => ({ ...current, name: true }));
              }}
              onBlur={() => setTouched((current) => ({ ...current, name: true }))}
              error={touched.name && problems.name !== undefined}
              helperText={touched.name ? problems.name : undefined}
              slotProps={{ htmlInput: { spellCheck: false } }}
            />
          ) : null}
          <TextField
            label="Value"
            value={value}
            autoFocus={fixedName !== undefined}
            multiline={multiline}
            minRows={multiline ? 2 : undefined}
            maxRows={multiline ? 8 : undefined}
            onChange={(event) => {
              setValue(event.target.value);
              setTouched((current) => ({ ...current, value: true }));
            }}
            error={touched.value && problems.value !== undefined}
            helperText={touched.value ? problems.value : undefined}
            slotProps={{ htmlInput: { spellCheck: false } }}
          />
          {services !== undefined ? (
            <TextField
              select
              label="Service"
              value={service}
              onChange={(event) => {
                setService(Number(event.target.value));
                setTouched((current) => ({ ...current, service: true }));
              }}
              error={touched.service && problems.service !== undefined}
              helperText={touched.service ? problems.service : undefined}
            >
              {services.map((choice) => (
                <MenuItem key={choice.id} value={choice.id}>
                  {choice.name}
                </MenuItem>
              ))}
            </TextField>
          ) : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button type="submit" variant="contained">
          {submitLabel}
        </Button>
      </DialogActions>
    </form>
  );
};

// The dialog's body mounts anew each time it opens, so the form starts fresh.
export const VariableDialog = ({ open, ...props }: VariableDialogProps & { open: boolean }) => {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={props.onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      {open ? <VariableFormBody {...props} titleId={titleId} /> : null}
    </Dialog>
  );
};
