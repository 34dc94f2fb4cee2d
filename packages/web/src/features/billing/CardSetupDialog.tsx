import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Skeleton from '@mui/material/Skeleton';
import { useEffect, useRef, useState } from 'react';
import { usePublicConfig } from '../../api/config/api.js';
import { RecaptchaWithReminder } from '../../ui/RecaptchaWithReminder.js';
import { useToasts } from '../../ui/toasts.js';
import { useCreateSetupIntent, useSavePaymentMethod } from './api-cards.js';
import type { PlanChoice } from './billing-types.js';
import type { CardForm } from './stripe-card-form.js';

// Where the cardholder comes back to when their bank confirms the card on its own page: the
// billing page, which then saves the card and proposes the plan they were choosing.
const returnUrlOf = (organizationId: number, then: PlanChoice | undefined) => {
  const url = new URL(`/orgs/${organizationId}/billing`, window.location.origin);
  if (then) {
    url.searchParams.set('then-propose-plan-tier', then.code);
    url.searchParams.set('then-propose-plan-cycle', then.cycle);
  }
  return url.toString();
};

// The payment-method dialog: the installation's captcha when it has one (GET /config
// recaptchaSiteKey), then a setup intent for the organization, Stripe's payment form in it (a
// card, or a bank account where the operator offers debits), and the confirmed method saved as
// the organization's payment method.
export const CardSetupDialog = ({
  organizationId,
  publishableKey,
  then,
  onClose,
  onSaved,
}: {
  organizationId: number;
  publishableKey: string;
  then?: PlanChoice;
  onClose: () => void;
  onSaved?: () => void;
}) => {
  const createIntent = useCreateSetupIntent(organizationId);
  const save = useSavePaymentMethod(organizationId);
  const toasts = useToasts();
  const container = useRef<HTMLDivElement>(null);
  const [form, setForm] = useState<CardForm | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const { mutateAsync: createSetupIntent } = createIntent;
  const config = usePublicConfig();
  const siteKey = config.data?.recaptchaSiteKey ?? undefined;
  const [captcha, setCaptcha] = useState<string | undefined>(undefined);
  // The captcha is answered (or the installation has none): the setup intent may be created.
  const ready = config.data !== undefined && (siteKey === undefined || captcha !== undefined);

  useEffect(() => {
    if (!ready) return;
    let mounted: CardForm | null = null;
    let gone = false;
    void (async () => {
      try {
        const intent = await createSetupIntent(captcha);
        const { mountCardForm } = await import('./stripe-card-form.js');
        if (gone || !container.current) return;
        mounted = await mountCardForm(publishableKey, intent.client_secret, container.current);
        if (gone) mounted.destroy();
        else setForm(mounted);
      } catch (error) {
        if (!gone) setProblem(errorText(error) ?? 'Could not open the payment form');
      }
    })();
    return () => {
      gone = true;
      mounted?.destroy();
    };
  }, [createSetupIntent, publishableKey, ready, captcha]);

  const confirm = async () => {
    if (!form) return;
    setConfirming(true);
    setProblem(null);
    const answer = await form.confirm(returnUrlOf(organizationId, then));
    if ('error' in answer) {
      setProblem(answer.error);
      setConfirming(false);
      return;
    }
    save.mutate(answer.setupIntentId, {
      onSuccess: () => {
        toasts.show('success', 'Payment method saved');
        onClose();
        onSaved?.();
      },
      onSettled: () => setConfirming(false),
    });
  };

  return (
    <Dialog open onClose={confirming ? undefined : onClose} fullWidth maxWidth="sm">
      <DialogTitle>Payment method</DialogTitle>
      <DialogContent>
        {siteKey !== undefined && captcha === undefined ? (
          <RecaptchaWithReminder siteKey={siteKey} onAnswer={setCaptcha} missing={false} />
        ) : null}
        {ready && form === null && problem === null ? (
          <Skeleton variant="rounded" height={120} aria-label="Loading the payment form" />
        ) : null}
        <Box ref={container} data-testid="card-form" sx={{ minHeight: form ? 120 : 0 }} />
        {problem ? <Alert severity="error">{problem}</Alert> : null}
        {save.isError ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {errorText(save.error) ?? 'Could not save the card'}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={confirming}>
          Cancel
        </Button>
        <Button
          variant="contained"
          disabled={form === null}
          loading={confirming}
          onClick={() => void confirm()}
        >
          Save payment method
        </Button>
      </DialogActions>
    </Dialog>
  );
};
