import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import type { ReactNode } from 'react';

// Explains a disabled control: disabled elements fire no events, so the tooltip sits on a
// wrapper. Without a reason the control is rendered as is.
export const DisabledReason = ({
  reason,
  children,
}: {
  reason: string | null | undefined;
  children: ReactNode;
}) =>
  reason ? (
    <Tooltip title={reason}>
      {/* Focusable so keyboard users reach the explanation too. */}
      <Box component="span" sx={{ display: 'inline-flex' }} tabIndex={0}>
        {children}
      </Box>
    </Tooltip>
  ) : (
    <>{children}</>
  );
