import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { DeployVariable } from './deploy-config.js';

// The deploy link's environment or configuration variables, each value editable before deploying.
export const VariableFields = ({
  title,
  variables,
  onChange,
  disabled,
}: {
  title: string;
  variables: DeployVariable[];
  onChange: (variables: DeployVariable[]) => void;
  disabled: boolean;
}) =>
  variables.length === 0 ? null : (
    <Stack spacing={1.5} component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
      <Typography component="legend" variant="subtitle2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {variables.map((variable, index) => (
        <TextField
          key={variable.name}
          size="small"
          label={variable.name}
          value={variable.value}
          disabled={disabled}
          onChange={(event) =>
            onChange(
              variables.map((entry, at) =>
                at === index ? { ...entry, value: event.target.value } : entry,
              ),
            )
          }
        />
      ))}
    </Stack>
  );
