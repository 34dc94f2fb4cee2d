import { errorText } from '@flotilla/sdk/errors';
import {
  catalogueLimits,
  type CatalogueKind,
  type CatalogueRelease,
  type CatalogueVariant,
} from '@flotilla/shared/host-os/catalogue';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { useState } from 'react';
import { useAddRelease, useCatalogueDeviceTypes } from './api.js';
import { DescriptionFields } from './DescriptionFields.js';
import {
  baseVersionOf,
  baseVersionProblem,
  descriptionOf,
  emptyDescription,
  imageProblem,
  isEsrOsRelease,
  versionProblem,
} from './release-form.js';

const variants: { value: CatalogueVariant; label: string }[] = [
  { value: 'prod', label: 'Production (prod)' },
  { value: 'dev', label: 'Development (dev)' },
  { value: '', label: 'Unified: one image for both modes' },
];

const isVariant = (value: string): value is CatalogueVariant =>
  variants.some((variant) => variant.value === value);

// Adds one OS release (of a device type) or supervisor release (of a CPU architecture).
export const AddReleaseDialog = ({
  onClose,
  onAdded,
}: {
  onClose: () => void;
  onAdded: (release: CatalogueRelease) => void;
}) => {
  const deviceTypes = useCatalogueDeviceTypes();
  const [kind, setKind] = useState<CatalogueKind>('os');
  const [deviceType, setDeviceType] = useState('');
  const [architecture, setArchitecture] = useState('');
  const [version, setVersion] = useState('');
  const [variant, setVariant] = useState<CatalogueVariant>('prod');
  const [draft, setDraft] = useState(emptyDescription);
  const [touched, setTouched] = useState(false);
  const add = useAddRelease(onAdded);
  const types = deviceTypes.data ?? [];
  const architectures = [
    ...new Set(types.flatMap((type) => type.is_of__cpu_architecture.map((arch) => arch.slug))),
  ].sort();
  const target = kind === 'os' ? deviceType : architecture;
  const targetProblem =
    target !== '' ? null : kind === 'os' ? 'Choose a device type' : 'Choose an architecture';
  const esr = isEsrOsRelease(kind, version);
  const problem =
    targetProblem ??
    versionProblem(version) ??
    imageProblem(draft.updaterImage) ??
    (esr ? baseVersionProblem(draft.baseVersion) : null);
  const submit = () => {
    setTouched(true);
    if (problem !== null) return;
    const description = descriptionOf(draft);
    add.mutate(
      kind === 'os'
        ? {
            kind,
            deviceType,
            version: version.trim(),
            variant,
            ...description,
            ...(esr ? { baseVersion: baseVersionOf(draft) } : {}),
          }
        : { kind, cpuArchitecture: architecture, version: version.trim(), ...description },
    );
  };
  return (
    <Dialog open onClose={add.isPending ? undefined : onClose} fullWidth maxWidth="sm">
      <DialogTitle>Add a release</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <ToggleButtonGroup
            exclusive
            size="small"
            value={kind}
            aria-label="Kind"
            onChange={(_event, next: CatalogueKind | null) => {
              if (next !== null) setKind(next);
            }}
          >
            <ToggleButton value="os">Host OS</ToggleButton>
            <ToggleButton value="supervisor">Supervisor</ToggleButton>
          </ToggleButtonGroup>
          {deviceTypes.isError ? (
            <Alert severity="error">
              {errorText(deviceTypes.error) ?? 'Could not load the device types'}
            </Alert>
          ) : null}
          {kind === 'os' ? (
            <TextField
              select
              required
              label="Device type"
              value={deviceType}
              onChange={(event) => setDeviceType(event.target.value)}
              error={touched && targetProblem !== null}
              helperText={touched ? targetProblem : null}
              disabled={deviceTypes.isPending}
            >
              {types.map((type) => (
                <MenuItem key={type.id} value={type.slug}>
                  {type.name} ({type.slug})
                </MenuItem>
              ))}
            </TextField>
          ) : (
            <TextField
              select
              required
              label="CPU architecture"
              value={architecture}
              onChange={(event) => setArchitecture(event.target.value)}
              error={touched && targetProblem !== null}
              helperText={touched ? targetProblem : null}
              disabled={deviceTypes.isPending}
            >
              {architectures.map((slug) => (
                <MenuItem key={slug} value={slug}>
                  {slug}
                </MenuItem>
              ))}
            </TextField>
          )}
          <TextField
            required
            label="Version"
            placeholder={kind === 'os' ? '6.0.13' : '16.2.0'}
            value={version}
            onChange={(event) => setVersion(event.target.value)}
            error={touched && versionProblem(version) !== null}
            helperText={touched ? versionProblem(version) : 'A semantic version: 6.0.13+rev1'}
            slotProps={{ htmlInput: { maxLength: catalogueLimits.version } }}
          />
          {kind === 'os' ? (
            <TextField
              select
              label="Variant"
              value={variant}
              onChange={(event) => {
                if (isVariant(event.target.value)) setVariant(event.target.value);
              }}
            >
              {variants.map((choice) => (
                <MenuItem key={choice.value} value={choice.value}>
                  {choice.label}
                </MenuItem>
              ))}
            </TextField>
          ) : null}
          <DescriptionFields draft={draft} onChange={setDraft} touched={touched} esr={esr} />
          {add.isError ? (
            <Alert severity="error">{errorText(add.error) ?? 'Could not add the release'}</Alert>
          ) : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={add.isPending}>
          Cancel
        </Button>
        <Button variant="contained" onClick={submit} disabled={add.isPending}>
          Add release
        </Button>
      </DialogActions>
    </Dialog>
  );
};
