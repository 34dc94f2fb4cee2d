import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { useToasts } from '../../ui/toasts.js';
import { useSavePaymentMethod } from './api-cards.js';

// The return from a bank's card confirmation page (Stripe.js comes back with `setup_intent`, or
// `setup-intent`): the card is saved at once, then the plan being chosen is proposed (its
// confirmation opens from `?plan=&cycle=`; the cycle defaults to monthly).
export const SetupIntentReturn = ({ organizationId }: { organizationId: number }) => {
  const [params, setParams] = useSearchParams();
  const save = useSavePaymentMethod(organizationId);
  const toasts = useToasts();
  const setupIntent = params.get('setup_intent') ?? params.get('setup-intent');
  const tier = params.get('then-propose-plan-tier');
  const cycle = params.get('then-propose-plan-cycle') ?? 'monthly';
  const sent = useRef(false);
  const { mutate } = save;
  useEffect(() => {
    if (setupIntent === null || sent.current) return;
    sent.current = true;
    mutate(setupIntent, {
      onSuccess: () => {
        toasts.show('success', 'Payment method saved');
        setParams(tier ? { plan: tier, cycle } : {}, { replace: true });
      },
    });
  }, [setupIntent, tier, cycle, mutate, setParams, toasts]);
  if (!save.isError) return null;
  return <Alert severity="error">{errorText(save.error) ?? 'Could not save the card'}</Alert>;
};
