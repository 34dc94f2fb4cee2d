import MuiBreadcrumbs from '@mui/material/Breadcrumbs';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';

export type Crumb = { label: string; to: string };

type CrumbStore = { crumbs: Crumb[]; setCrumbs: (crumbs: Crumb[]) => void };
const CrumbContext = createContext<CrumbStore>({ crumbs: [], setCrumbs: () => undefined });

// The query string last seen on each path, so a crumb leads back with its active filters.
const searchByPath = new Map<string, string>();

export const BreadcrumbProvider = ({ children }: { children: ReactNode }) => {
  const [crumbs, setCrumbs] = useState<Crumb[]>([]);
  const location = useLocation();
  useEffect(() => {
    searchByPath.set(location.pathname, location.search);
  }, [location.pathname, location.search]);
  const value = useMemo(() => ({ crumbs, setCrumbs }), [crumbs]);
  return <CrumbContext.Provider value={value}>{children}</CrumbContext.Provider>;
};

// A page declares its trail (organization › fleet › ...); it is cleared when the page unmounts.
export const useBreadcrumbs = (crumbs: Crumb[]): void => {
  const { setCrumbs } = useContext(CrumbContext);
  const key = JSON.stringify(crumbs);
  useEffect(() => {
    setCrumbs(JSON.parse(key) as Crumb[]);
    return () => setCrumbs([]);
  }, [key, setCrumbs]);
};

export const Breadcrumbs = () => {
  const { crumbs } = useContext(CrumbContext);
  if (crumbs.length === 0) return null;
  return (
    <MuiBreadcrumbs aria-label="Breadcrumbs" sx={{ mb: 2 }}>
      {crumbs.map((crumb, index) =>
        index === crumbs.length - 1 ? (
          <Typography key={crumb.to} color="text.primary" aria-current="page">
            {crumb.label}
          </Typography>
        ) : (
          <Link
            key={crumb.to}
            component={RouterLink}
            underline="hover"
            color="inherit"
            to={`${crumb.to}${searchByPath.get(crumb.to) ?? ''}`}
          >
            {crumb.label}
          </Link>
        ),
      )}
    </MuiBreadcrumbs>
  );
};
