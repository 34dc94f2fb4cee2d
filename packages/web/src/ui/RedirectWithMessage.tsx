import { useEffect } from 'react';
import { Navigate } from 'react-router';
import { type ToastKind, useToasts } from './toasts.js';

// Says why (a toast) and goes elsewhere: an invalid id in the URL goes up one level, a lookup
// that found nothing goes back.
export const RedirectWithMessage = ({
  to,
  message,
  kind = 'error',
}: {
  to: string;
  message: string;
  kind?: ToastKind;
}) => {
  const { show } = useToasts();
  useEffect(() => {
    show(kind, message);
  }, [show, kind, message]);
  return <Navigate to={to} replace />;
};
