import UploadIcon from '@mui/icons-material/UploadFile';
import type { ConfigVarProperty } from '@flotilla/shared/variables/config-vars';
import {
  dataFileProblem,
  dataUrlMediaType,
  isToggleOn,
  isTwoValueEnum,
  toggleValue,
} from '@flotilla/shared/variables/variable-form-rules';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { ValueText } from './VariablesTable.js';

export type ConfigValueControlProps = {
  name: string;
  property: ConfigVarProperty;
  // The value set (this level's, else the inherited one), null when unset.
  effective: string | null;
  // The schema's default, which applies while nothing is set.
  defaultValue: string | null;
  // Null when the user may change it, else why not.
  denied: string | null;
  onStage: (value: string) => void;
  onEdit: () => void;
};

const readDataUrl = (file: File): Promise<string> =>
  new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () =>
      typeof reader.result === 'string' ? resolve(reader.result) : reject(new Error('unreadable'));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsDataURL(file);
  });

// A data-url image (the boot splash): shown, downloadable, replaced by uploading a PNG of at most
// the schema's size.
const DataUrlControl = ({
  name,
  property,
  effective: set,
  defaultValue,
  denied,
  onStage,
}: ConfigValueControlProps) => {
  const effective = set ?? defaultValue;
  const [problem, setProblem] = useState<string | null>(null);
  const inputId = useId();
  const mediaType = effective === null ? undefined : dataUrlMediaType(effective);
  const extension = (mediaType ?? 'image/png').split('/')[1] ?? 'png';
  return (
    <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
      {effective !== null && mediaType?.startsWith('image/') ? (
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
          <img
            src={effective}
            alt={`${name} image`}
            style={{ maxWidth: 120, maxHeight: 72, border: '1px solid rgba(0,0,0,0.12)' }}
          />
          <Link href={effective} download={`${name}.${extension}`}>
            Download
          </Link>
        </Stack>
      ) : (
        <ValueText value={effective} />
      )}
      <input
        id={inputId}
        type="file"
        accept={property.contentMediaType ?? 'image/*'}
        hidden
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (!file) return;
          const refused = dataFileProblem(file, property);
          setProblem(refused ?? null);
          if (refused) return;
          void readDataUrl(file).then(onStage, () => setProblem('The file could not be read'));
        }}
      />
      <Button
        size="small"
        component="label"
        htmlFor={inputId}
        startIcon={<UploadIcon />}
        disabled={denied !== null}
        title={denied ?? undefined}
      >
        Upload {property.contentMediaType === 'image/png' ? 'PNG' : 'file'}
      </Button>
      {problem ? <FormHelperText error>{problem}</FormHelperText> : null}
    </Stack>
  );
};

// Whether the control says by itself that a value is unset or the default (switches, selects);
// the table adds that under the others.
export const labelsItsState = (property: ConfigVarProperty): boolean =>
  property.format !== 'data-url' && (property.type === 'boolean' || property.enum !== undefined);

// A switch value in words: 0/1 (and false/true) read Off/On, other values as they are.
const isOnOffPair = (values: readonly string[]): boolean =>
  values.every((value) => ['0', '1', 'false', 'true'].includes(value));
const switchWord = (value: string, onOff: boolean): string =>
  onOff ? (isToggleOn(value) ? 'On' : 'Off') : value;

// What a control shows: the value set, else "Default (…)", else "Not set" (never a bare "—",
// "1" or an empty box).
export const stateLabel = (
  effective: string | null,
  defaultValue: string | null,
  word: (value: string) => string = (value) => value,
): string =>
  effective !== null
    ? word(effective)
    : defaultValue !== null
      ? `Default (${word(defaultValue)})`
      : 'Not set';

// The control of one configuration variable, by its schema: booleans and two-value enums are
// switches toggled directly, other enums a select, data URLs an image, the rest a value edited
// in a dialog.
export const ConfigValueControl = (props: ConfigValueControlProps) => {
  const { name, property, effective, defaultValue, denied, onStage, onEdit } = props;
  if (property.format === 'data-url') return <DataUrlControl {...props} />;
  if (property.type === 'boolean') {
    const on = isToggleOn(effective ?? defaultValue ?? undefined);
    return (
      <FormControlLabel
        control={
          <Switch
            checked={on}
            disabled={denied !== null}
            onChange={(event) => onStage(toggleValue(event.target.checked))}
            slotProps={{ input: { 'aria-label': name } }}
          />
        }
        label={stateLabel(effective, defaultValue, (value) => switchWord(value, true))}
        title={denied ?? undefined}
      />
    );
  }
  const choices = property.enum;
  if (choices && isTwoValueEnum(property)) {
    const [first, second] = choices.map(String);
    const on = (effective ?? defaultValue) === second;
    const onOff = isOnOffPair(choices.map(String));
    return (
      <FormControlLabel
        control={
          <Switch
            checked={on}
            disabled={denied !== null}
            onChange={(event) => onStage((event.target.checked ? second : first) ?? '')}
            slotProps={{ input: { 'aria-label': name } }}
          />
        }
        label={stateLabel(effective, defaultValue, (value) => switchWord(value, onOff))}
        title={denied ?? undefined}
      />
    );
  }
  if (choices) {
    return (
      <TextField
        select
        size="small"
        value={effective ?? ''}
        disabled={denied !== null}
        onChange={(event) => onStage(event.target.value)}
        slotProps={{
          htmlInput: { 'aria-label': name },
          select: {
            displayEmpty: true,
            renderValue: (value) => stateLabel(value === '' ? null : String(value), defaultValue),
          },
        }}
        sx={{ minWidth: 160 }}
      >
        {choices.map((choice) => (
          <MenuItem key={String(choice)} value={String(choice)}>
            {String(choice)}
          </MenuItem>
        ))}
      </TextField>
    );
  }
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      {effective === null && defaultValue === null ? (
        <Typography variant="body2" color="text.secondary">
          Not set
        </Typography>
      ) : (
        <ValueText value={effective ?? defaultValue} />
      )}
      <Button
        size="small"
        aria-label={`Edit ${name}`}
        onClick={onEdit}
        disabled={denied !== null}
        title={denied ?? undefined}
      >
        Edit
      </Button>
    </Stack>
  );
};
