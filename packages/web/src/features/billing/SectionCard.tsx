import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

// One section of the billing page: a titled outlined card.
export const SectionCard = ({
  title,
  id,
  action,
  grow = false,
  children,
}: {
  title: string;
  id?: string;
  action?: ReactNode;
  // Shares a row's width with its neighbours.
  grow?: boolean;
  children: ReactNode;
}) => (
  <Paper
    variant="outlined"
    component="section"
    aria-label={title}
    id={id}
    sx={{ p: 2, ...(grow ? { flex: 1, minWidth: 0 } : {}) }}
  >
    <Typography
      variant="h3"
      component="h2"
      sx={{ mb: 1.5, display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}
    >
      {title}
      {action}
    </Typography>
    {children}
  </Paper>
);
