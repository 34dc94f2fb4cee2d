import { errorText } from '@flotilla/sdk/errors';
import { taxIdTypes } from '@flotilla/shared/billing/tax-id-types';
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
import { useToasts } from '../../ui/toasts.js';
import { useUpdateAccountInfo } from './api.js';
import type { AccountInfo, Address } from './billing-types.js';

const addressFields: [keyof Address, string][] = [
  ['address1', 'Address'],
  ['address2', 'Address (line 2)'],
  ['city', 'City'],
  ['state', 'State or region'],
  ['zip', 'Postal code'],
  ['country', 'Country (2-letter code)'],
  ['phone', 'Phone'],
];

const keyOf = (type: string, country: string) => `${type}:${country}`;

// Edit company info: billing e-mail, company, address and tax id. The server checks the tax id
// against its type's format and its message is shown here.
export const CompanyInfoDialog = ({
  organizationId,
  info,
  onClose,
}: {
  organizationId: number;
  info: AccountInfo;
  onClose: () => void;
}) => {
  const update = useUpdateAccountInfo(organizationId);
  const toasts = useToasts();
  const [email, setEmail] = useState(info.email ?? '');
  const [company, setCompany] = useState(info.company_name ?? '');
  const [address, setAddress] = useState<Address>(info.address);
  const [taxType, setTaxType] = useState(
    info.tax_id ? keyOf(info.tax_id.type, info.tax_id.country ?? '') : '',
  );
  const [taxValue, setTaxValue] = useState(info.tax_id?.value ?? '');
  const chosenType = taxIdTypes.find((known) => keyOf(known.type, known.country) === taxType);
  const missing = email.trim() === '';
  const submit = () =>
    update.mutate(
      {
        email: email.trim(),
        company_name: company.trim(),
        address,
        tax_id:
          chosenType && taxValue.trim() !== ''
            ? { type: chosenType.type, country: chosenType.country, value: taxValue }
            : null,
      },
      {
        onSuccess: () => {
          toasts.show('success', 'Billing info updated');
          onClose();
        },
      },
    );
  return (
    <Dialog open onClose={update.isPending ? undefined : onClose} fullWidth maxWidth="sm">
      <DialogTitle>Company info</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label="Billing e-mail"
            required
            type="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
          <TextField
            label="Company name"
            value={company}
            onChange={(event) => setCompany(event.target.value)}
          />
          {addressFields.map(([field, label]) => (
            <TextField
              key={field}
              label={label}
              value={address[field] ?? ''}
              onChange={(event) => setAddress({ ...address, [field]: event.target.value })}
              slotProps={{ htmlInput: { maxLength: field === 'country' ? 2 : 200 } }}
            />
          ))}
          <TextField
            select
            label="Tax id type"
            value={taxType}
            onChange={(event) => setTaxType(event.target.value)}
          >
            <MenuItem value="">None</MenuItem>
            {taxIdTypes.map((known) => (
              <MenuItem
                key={keyOf(known.type, known.country)}
                value={keyOf(known.type, known.country)}
              >
                {known.country} – {known.type}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label="Tax id"
            value={taxValue}
            disabled={!chosenType}
            helperText={chosenType ? `For example ${chosenType.example}` : 'Choose a type first'}
            onChange={(event) => setTaxValue(event.target.value)}
          />
          {missing ? <Alert severity="warning">Please fill out all required fields</Alert> : null}
          {update.isError ? (
            <Alert severity="error">
              {errorText(update.error) ?? 'Could not update the billing info'}
            </Alert>
          ) : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={update.isPending}>
          Cancel
        </Button>
        <Button variant="contained" onClick={submit} disabled={missing || update.isPending}>
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
};
