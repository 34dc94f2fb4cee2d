import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
} from 'react';

export type ToastKind = 'error' | 'success' | 'info' | 'warning';
// `afterNavigation`: the action that shows the toast then goes to another page, where the toast
// belongs (e.g. "You left the organization" on /orgs): it outlives that one page change.
type ShowOptions = { afterNavigation?: boolean };
type Toast = { id: number; kind: ToastKind; text: string; keepOnce: boolean };
type Toasts = {
  show: (kind: ToastKind, text: string | null, options?: ShowOptions) => void;
  // The page changed: success and info toasts of the page left behind end. Errors and warnings
  // stay (a redirect says why through one).
  pageChanged: () => void;
};

const ToastContext = createContext<Toasts>({
  show: () => undefined,
  pageChanged: () => undefined,
});

const endsWithPage = (toast: Toast): boolean => toast.kind === 'success' || toast.kind === 'info';

let nextId = 1;

// One toast at a time, queued; a text already shown or queued is not added again (no
// duplicate toasts). A null text ("skip") shows nothing.
export const ToastProvider = ({ children }: { children: ReactNode }) => {
  const [queue, setQueue] = useState<Toast[]>([]);
  const show = useCallback((kind: ToastKind, text: string | null, options: ShowOptions = {}) => {
    if (!text) return;
    const keepOnce = options.afterNavigation === true;
    setQueue((current) =>
      current.some((toast) => toast.text === text)
        ? current
        : [...current, { id: nextId++, kind, text, keepOnce }],
    );
  }, []);
  const pageChanged = useCallback(() => {
    setQueue((current) =>
      current.some(endsWithPage)
        ? current
            .filter((toast) => !endsWithPage(toast) || toast.keepOnce)
            .map((toast) => (toast.keepOnce ? { ...toast, keepOnce: false } : toast))
        : current,
    );
  }, []);
  const value = useMemo(() => ({ show, pageChanged }), [show, pageChanged]);
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

// What of a data router the toasts follow (react-router's router has this shape).
export type PageSource = {
  state: { location: { pathname: string } };
  subscribe: (listener: (state: { location: { pathname: string } }) => void) => () => void;
};

// Tells the toasts when the router moves to another page (a new path; not a query change).
export const useToastsFollowPages = (router: PageSource): void => {
  const { pageChanged } = useToasts();
  useEffect(() => {
    let pathname = router.state.location.pathname;
    return router.subscribe((state) => {
      if (state.location.pathname === pathname) return;
      pathname = state.location.pathname;
      pageChanged();
    });
  }, [router, pageChanged]);
};
