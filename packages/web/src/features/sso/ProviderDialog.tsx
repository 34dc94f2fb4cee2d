import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import {
  type Provider,
  type ProviderFields,
  useAdministeredOrganizations,
  useCreateProvider,
  useUpdateProvider,
} from './api-providers.js';
import { allFilled, emptyFields, fieldProblems, ProviderFormFields } from './ProviderFormFields.js';

const fieldsOf = (provider: Provider): ProviderFields => ({
  sso_identifier: provider.sso_identifier,
  entry_point: provider.entry_point,
  issuer: provider.issuer,
  certificate: provider.certificate,
});

// "Add identity provider" (with the organizations it serves) and "Edit identity provider".
export const ProviderDialog = ({
  provider,
  onSaved,
  onClose,
}: {
  // Editing this provider; absent when adding one.
  provider?: Provider;
  onSaved: (id: number) => void;
  onClose: () => void;
}) => {
  const [fields, setFields] = useState<ProviderFields>(provider ? fieldsOf(provider) : emptyFields);
  const [organizationIds, setOrganizationIds] = useState<number[]>([]);
  const organizations = useAdministeredOrganizations();
  const create = useCreateProvider(onSaved);
  const update = useUpdateProvider(provider?.id ?? 0, () => onSaved(provider?.id ?? 0));
  const save = provider ? update : create;
  const problems = fieldProblems(fields);
  const valid =
    allFilled(fields) &&
    Object.values(problems).every((problem) => problem === undefined) &&
    (provider !== undefined || organizationIds.length > 0);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    const trimmed: ProviderFields = {
      sso_identifier: fields.sso_identifier.trim(),
      entry_point: fields.entry_point.trim(),
      issuer: fields.issuer.trim(),
      certificate: fields.certificate.trim(),
    };
    if (provider) update.mutate(trimmed);
    else create.mutate({ fields: trimmed, organizationIds });
  };
  const toggle = (id: number, checked: boolean) =>
    setOrganizationIds((before) =>
      checked ? [...before, id] : before.filter((other) => other !== id),
    );
  return (
    <Dialog open onClose={save.isPending ? undefined : onClose} fullWidth maxWidth="sm">
      <DialogTitle>{provider ? 'Edit identity provider' : 'Add identity provider'}</DialogTitle>
      <DialogContent>
        <Stack component="form" id="provider-form" spacing={2} sx={{ pt: 1 }} onSubmit={submit}>
          <ProviderFormFields fields={fields} onChange={setFields} />
          {provider ? null : (
            <>
              <Typography variant="subtitle2">Organizations it serves</Typography>
              {organizations.isError ? (
                <Alert severity="error">
                  {errorText(organizations.error) ?? 'Could not load your organizations'}
                </Alert>
              ) : organizations.isPending ? (
                <Typography role="status">Loading your organizations…</Typography>
              ) : organizations.data.length === 0 ? (
                <Alert severity="info">
                  You administer no organization: only organization administrators add identity
                  providers.
                </Alert>
              ) : (
                <FormGroup sx={{ maxHeight: 300, overflowY: 'auto' }}>
                  {organizations.data.map((organization) => (
                    <FormControlLabel
                      key={organization.id}
                      control={
                        <Checkbox
                          checked={organizationIds.includes(organization.id)}
                          onChange={(event) => toggle(organization.id, event.target.checked)}
                        />
                      }
                      label={organization.name}
                    />
                  ))}
                </FormGroup>
              )}
            </>
          )}
          {save.isError ? (
            <Alert severity="error">{errorText(save.error) ?? 'Could not save the provider'}</Alert>
          ) : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={save.isPending}>
          Cancel
        </Button>
        <Button
          type="submit"
          form="provider-form"
          variant="contained"
          disabled={!valid || save.isPending}
        >
          {provider ? 'Update' : 'Add'}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
