import Box from '@mui/material/Box';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import { formatTimestamp, sourceOf } from './log-lines.js';
import type { LogLine } from './log-stream.js';

// One row per line (no wrapping: long lines scroll sideways), so rows have one height and only
// those in view are in the DOM: a burst of thousands of lines costs a few dozen rows to draw.
const rowHeight = 20;

export const LogLines = ({
  lines,
  services,
  utc,
  hideTimestamps,
  height,
}: {
  lines: readonly LogLine[];
  services: ReadonlyMap<number, string>;
  utc: boolean;
  hideTimestamps: boolean;
  height: string;
}) => {
  const scroller = useRef<HTMLDivElement>(null);
  // Follow new lines while the user is at the bottom; stay put once they scroll up to read.
  const following = useRef(true);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer changes in place; this component is not memoized (no compiler), so every render reads it afresh.
  const virtualizer = useVirtualizer({
    count: lines.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan: 20,
  });
  useEffect(() => {
    if (following.current && lines.length > 0) {
      virtualizer.scrollToIndex(lines.length - 1, { align: 'end' });
    }
  }, [lines, virtualizer]);

  return (
    <Box
      ref={scroller}
      role="log"
      aria-label="Device logs"
      tabIndex={0}
      onScroll={(event) => {
        const element = event.currentTarget;
        following.current =
          element.scrollHeight - element.scrollTop - element.clientHeight < rowHeight * 2;
      }}
      sx={{
        height,
        overflow: 'auto',
        bgcolor: '#1e1e1e',
        color: '#e0e0e0',
        fontFamily: 'monospace',
        fontSize: 13,
        borderRadius: 1,
      }}
    >
      <Box sx={{ height: virtualizer.getTotalSize(), position: 'relative', minWidth: '100%' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const line = lines[item.index];
          if (!line) return null;
          return (
            <Box
              key={item.key}
              data-system={line.isSystem ? 'true' : undefined}
              sx={{
                position: 'absolute',
                top: 0,
                left: 0,
                height: rowHeight,
                lineHeight: `${rowHeight}px`,
                transform: `translateY(${item.start}px)`,
                whiteSpace: 'pre',
                px: 1,
                color: line.isStdErr ? '#ff8a80' : line.isSystem ? '#80d8ff' : undefined,
                fontStyle: line.isSystem ? 'italic' : undefined,
              }}
            >
              {hideTimestamps ? null : (
                <Box component="span" sx={{ color: '#9e9e9e' }}>
                  {formatTimestamp(line.timestamp, utc)}{' '}
                </Box>
              )}
              <Box component="span" sx={{ fontWeight: 600 }}>
                [{sourceOf(line, services)}]
              </Box>{' '}
              {line.message}
            </Box>
          );
        })}
      </Box>
    </Box>
  );
};
