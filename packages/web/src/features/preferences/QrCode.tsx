import Box from '@mui/material/Box';
import { toString as qrSvg } from 'qrcode';
import { useEffect, useState } from 'react';

// A QR code of `value` as an SVG image (drawn without a canvas; the console's CSP allows data:
// images). `size` in CSS pixels.
export const QrCode = ({ value, size, label }: { value: string; size: number; label: string }) => {
  const [source, setSource] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    void qrSvg(value, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }).then((svg) => {
      if (current) setSource(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
    });
    return () => {
      current = false;
    };
  }, [value]);
  return (
    <Box sx={{ width: size, height: size, bgcolor: 'common.white' }}>
      {source !== null ? <img src={source} alt={label} width={size} height={size} /> : null}
    </Box>
  );
};
