import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { FleetVariable } from './api-create-fleet.js';

// A list of name and value pairs the new fleet is created with, each row removable.
export const FleetVariablesField = ({
  title,
  itemLabel,
  description,
  addLabel,
  variables,
  problems,
  onChange,
  disabled,
}: {
  title: string;
  // One row's name in its fields' labels ("Environment variable 1 name").
  itemLabel: string;
  description: string;
  addLabel: string;
  variables: readonly FleetVariable[];
  problems: readonly (string | undefined)[];
  onChange: (variables: FleetVariable[]) => void;
  disabled: boolean;
}) => {
  const change = (index: number, patch: Partial<FleetVariable>) =>
    onChange(variables.map((entry, at) => (at === index ? { ...entry, ...patch } : entry)));
  return (
    <Stack spacing={1.5} component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
      <Typography component="legend" variant="subtitle2">
        {title}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {description}
      </Typography>
      {variables.map((variable, index) => (
        <Stack
          // Rows have no id of their own until the fleet exists; their place is their identity.
          key={index}
          direction="row"
          spacing={1}
          sx={{ alignItems: 'flex-start' }}
        >
          <TextField
            size="small"
            label={`${itemLabel} ${index + 1} name`}
            value={variable.name}
            disabled={disabled}
            onChange={(event) => change(index, { name: event.target.value })}
            error={Boolean(problems[index])}
            helperText={problems[index]}
            sx={{ flex: 1 }}
          />
          <TextField
            size="small"
            label={`${itemLabel} ${index + 1} value`}
            value={variable.value}
            disabled={disabled}
            onChange={(event) => change(index, { value: event.target.value })}
            sx={{ flex: 1 }}
          />
          <IconButton
            aria-label={`Remove ${itemLabel.toLowerCase()} ${index + 1}`}
            disabled={disabled}
            onClick={() => onChange(variables.filter((_entry, at) => at !== index))}
          >
            <DeleteOutlineIcon />
          </IconButton>
        </Stack>
      ))}
      <Button
        size="small"
        startIcon={<AddIcon />}
        disabled={disabled}
        onClick={() => onChange([...variables, { name: '', value: '' }])}
        sx={{ alignSelf: 'flex-start' }}
      >
        {addLabel}
      </Button>
    </Stack>
  );
};
