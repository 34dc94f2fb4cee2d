import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';

export type ToastKind = 'error' | 'success' | 'info' | 'warning';
type Toast = { id: number; kind: ToastKind; text: string };
type Toasts = { show: (kind: ToastKind, text: string | null) => void };

const ToastContext = createContext<Toasts>({ show: () => undefined });

let nextId = 1;

// One toast at a time, queued; a text already shown or queued is not added again (seed 000
// section 8.1: toasts without duplicates). A null text ("skip") shows nothing.
export const ToastProvider = ({ children }: { children: ReactNode }) => {
  const [queue, setQueue] = useState<Toast[]>([]);
  const show = useCallback((kind: ToastKind, text: string | null) => {
    if (!text) return;
    setQueue((current) =>
      current.some((toast) => toast.text === text)
        ? current
        : [...current, { id: nextId++, kind, text }],
    );
  }, []);
  const value = useMemo(() => ({ show }), [show]);
  const current = queue[0];
  const dismiss = (): void => setQueue((items) => items.slice(1));
  return (
    <ToastContext.Provider value={value}>
      {children}
      <Snackbar
        key={current?.id}
        open={current !== undefined}
        autoHideDuration={current?.kind === 'error' ? 8000 : 4000}
        onClose={(_event, reason) => {
          if (reason !== 'clickaway') dismiss();
        }}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      >
        {current ? (
          <Alert severity={current.kind} variant="filled" onClose={dismiss} sx={{ maxWidth: 640 }}>
            {current.text}
          </Alert>
        ) : undefined}
      </Snackbar>
    </ToastContext.Provider>
  );
};

export const useToasts = (): Toasts => useContext(ToastContext);
