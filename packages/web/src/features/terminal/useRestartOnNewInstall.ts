import { useEffect, useRef } from 'react';

// When a service's running install changes, its session reconnects (the old
// container, and the shell in it, are gone). `installId` is the install running now, null while
// none runs (a restart in between does not count: only a different install does).
export const useRestartOnNewInstall = (installId: number | null, restart: () => void): void => {
  const sessionInstall = useRef(installId);
  const latestRestart = useRef(restart);
  useEffect(() => {
    latestRestart.current = restart;
  }, [restart]);
  useEffect(() => {
    if (installId === null || installId === sessionInstall.current) return;
    const replaced = sessionInstall.current !== null;
    sessionInstall.current = installId;
    if (replaced) latestRestart.current();
  }, [installId]);
};
