import MuiBreadcrumbs from '@mui/material/Breadcrumbs';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
} from 'react';
import { Link as RouterLink, useLocation } from 'react-router';

export type Crumb = { label: string; to: string };

// Crumbs per depth: a layout declares its part of the trail (organization › fleet) and a page
// inside it adds the rest (› releases › release) without knowing the layout's part.
type CrumbLayers = Readonly<Record<number, Crumb[]>>;
type CrumbStore = {
  layers: CrumbLayers;
  setLayer: (depth: number, crumbs: Crumb[]) => void;
};
const CrumbContext = createContext<CrumbStore>({ layers: {}, setLayer: () => undefined });

// The query string last seen on each path, so a crumb leads back with its active filters.
const searchByPath = new Map<string, string>();

export const BreadcrumbProvider = ({ children }: { children: ReactNode }) => {
  const [layers, setLayers] = useState<CrumbLayers>({});
  const location = useLocation();
  useEffect(() => {
    searchByPath.set(location.pathname, location.search);
  }, [location.pathname, location.search]);
  const setLayer = useCallback(
    (depth: number, crumbs: Crumb[]) => setLayers((current) => ({ ...current, [depth]: crumbs })),
    [],
  );
  const value = useMemo(() => ({ layers, setLayer }), [layers, setLayer]);
  return <CrumbContext.Provider value={value}>{children}</CrumbContext.Provider>;
};

// A page declares its trail (organization › fleet › ...) at a depth (0 for a layout, 1 for a
// page inside it); it is cleared when the page unmounts. The trail shows the depths in order.
export const useBreadcrumbs = (crumbs: Crumb[], depth = 0): void => {
  const { setLayer } = useContext(CrumbContext);
  const key = JSON.stringify(crumbs);
  useEffect(() => {
    setLayer(depth, JSON.parse(key) as Crumb[]);
    return () => setLayer(depth, []);
  }, [key, depth, setLayer]);
};

// A long name (an organization's may have 255 characters) is cut with an ellipsis, whole in its
// tooltip, so the trail never widens the page.
const crumbText = {
  maxWidth: '32ch',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
} as const;

export const Breadcrumbs = () => {
  const { layers } = useContext(CrumbContext);
  const depths = Object.keys(layers)
    .map(Number)
    .sort((a, b) => a - b);
  // A page's layers show only under the layout's: alone they would start mid-trail.
  const crumbs = (layers[0]?.length ?? 0) > 0 ? depths.flatMap((depth) => layers[depth] ?? []) : [];
  if (crumbs.length === 0) return null;
  return (
    <MuiBreadcrumbs
      aria-label="Breadcrumbs"
      sx={{ mb: 2, minWidth: 0, '& .MuiBreadcrumbs-ol': { flexWrap: 'wrap', minWidth: 0 } }}
    >
      {crumbs.map((crumb, index) =>
        index === crumbs.length - 1 ? (
          <Typography
            key={crumb.to}
            color="text.primary"
            aria-current="page"
            title={crumb.label}
            sx={crumbText}
          >
            {crumb.label}
          </Typography>
        ) : (
          <Link
            key={crumb.to}
            component={RouterLink}
            underline="hover"
            color="inherit"
            title={crumb.label}
            sx={{ ...crumbText, display: 'block' }}
            to={`${crumb.to}${searchByPath.get(crumb.to) ?? ''}`}
          >
            {crumb.label}
          </Link>
        ),
      )}
    </MuiBreadcrumbs>
  );
};
