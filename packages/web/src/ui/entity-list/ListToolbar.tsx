import Stack from '@mui/material/Stack';
import type { ReactNode } from 'react';

// The line above a list: what it is (a title or a sentence) at the left, its buttons at the right.
export const ListToolbar = ({
  children,
  actions,
}: {
  children: ReactNode;
  actions?: ReactNode;
}) => (
  <Stack
    direction="row"
    spacing={2}
    sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}
  >
    {children}
    {actions}
  </Stack>
);
