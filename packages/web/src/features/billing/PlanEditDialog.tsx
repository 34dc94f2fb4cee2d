import { errorText } from '@flotilla/sdk/errors';
import { featureSlugs } from '@flotilla/shared/billing/catalogue';
import type { CataloguePlan } from '@flotilla/shared/billing/plan-table';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useToasts } from '../../ui/toasts.js';
import { usePatchPlan } from './api-admin.js';

type Amounts = Record<
  'monthly' | 'annual' | 'device' | 'microservicesDevice' | 'devices' | 'members',
  string
>;

const amountFields: [keyof Amounts, string][] = [
  ['monthly', 'Monthly price ($)'],
  ['annual', 'Annual price ($)'],
  ['device', 'Additional device, per month ($)'],
  ['microservicesDevice', 'Additional multi-container device, per month ($)'],
  ['devices', 'Devices included'],
  ['members', 'Members included'],
];

const flagFeatures: [string, string][] = [
  [featureSlugs.saml, 'SAML single sign-on'],
  [featureSlugs.safeRolesPreview, 'Safe roles (preview)'],
];

const toCents = (dollars: string) => Math.round(Number(dollars) * 100);
const isAmount = (value: string) =>
  value.trim() !== '' && Number.isFinite(Number(value)) && Number(value) >= 0;

// A platform administrator's edit of one plan: title, prices, device and member allowance,
// flag features, self-serve. The server validates and its message is shown.
export const PlanEditDialog = ({ plan, onClose }: { plan: CataloguePlan; onClose: () => void }) => {
  const patch = usePatchPlan();
  const toasts = useToasts();
  const [title, setTitle] = useState(plan.title);
  const [selfServe, setSelfServe] = useState(plan.can_self_serve);
  const [flags, setFlags] = useState<Record<string, boolean>>(
    Object.fromEntries(flagFeatures.map(([slug]) => [slug, (plan.features[slug] ?? 0) > 0])),
  );
  const [amounts, setAmounts] = useState<Amounts>({
    monthly: String(plan.monthly_price / 100),
    annual: String(plan.annual_price / 100),
    device: String(plan.additional_device_price / 100),
    microservicesDevice: String(plan.additional_microservices_device_price / 100),
    devices: String(plan.features[featureSlugs.device] ?? 0),
    members: String(plan.features[featureSlugs.member] ?? 0),
  });
  const invalid = Object.values(amounts).some((value) => !isAmount(value)) || title.trim() === '';
  const save = () =>
    patch.mutate(
      {
        code: plan.billing_code,
        patch: {
          title: title.trim(),
          can_self_serve: selfServe,
          monthly_price: toCents(amounts.monthly),
          annual_price: toCents(amounts.annual),
          additional_device_price: toCents(amounts.device),
          additional_microservices_device_price: toCents(amounts.microservicesDevice),
          features: {
            [featureSlugs.device]: Math.round(Number(amounts.devices)),
            [featureSlugs.member]: Math.round(Number(amounts.members)),
            ...Object.fromEntries(flagFeatures.map(([slug]) => [slug, flags[slug] ? 1 : 0])),
          },
        },
      },
      {
        onSuccess: () => {
          toasts.show('success', `${title.trim()} plan saved`);
          onClose();
        },
      },
    );
  return (
    <Dialog open onClose={patch.isPending ? undefined : onClose} fullWidth maxWidth="sm">
      <DialogTitle>Edit the {plan.title} plan</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label="Title"
            value={title}
            onChange={(event) => setTitle(event.target.value)}
          />
          {amountFields.map(([field, label]) => (
            <TextField
              key={field}
              label={label}
              value={amounts[field]}
              error={!isAmount(amounts[field])}
              helperText={isAmount(amounts[field]) ? undefined : 'A number, 0 or more'}
              onChange={(event) => setAmounts({ ...amounts, [field]: event.target.value })}
              slotProps={{ htmlInput: { inputMode: 'decimal' } }}
            />
          ))}
          {flagFeatures.map(([slug, label]) => (
            <FormControlLabel
              key={slug}
              label={label}
              control={
                <Checkbox
                  checked={flags[slug] === true}
                  onChange={(event) => setFlags({ ...flags, [slug]: event.target.checked })}
                />
              }
            />
          ))}
          <FormControlLabel
            label="Self-serve (organizations change to it themselves)"
            control={
              <Checkbox
                checked={selfServe}
                onChange={(event) => setSelfServe(event.target.checked)}
              />
            }
          />
          {patch.isError ? (
            <Alert severity="error">{errorText(patch.error) ?? 'Could not save the plan'}</Alert>
          ) : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={patch.isPending}>
          Cancel
        </Button>
        <Button variant="contained" onClick={save} disabled={invalid || patch.isPending}>
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
};
