import { createContext, type ReactNode, Suspense, useContext } from 'react';
import type { DeviceDetail } from './device-rows.js';

// The device page's header (name with rename, Manage tags, the Actions menu) belongs to the
// devices feature, which the floor may not import; the app hands it to every device section
// through this slot, so that each sub-page keeps the summary's header and actions.
export type DeviceHeader = (detail: DeviceDetail) => ReactNode;

const DeviceHeaderContext = createContext<DeviceHeader | null>(null);

export const DeviceHeaderProvider = ({
  header,
  children,
}: {
  header: DeviceHeader;
  children: ReactNode;
}) => <DeviceHeaderContext.Provider value={header}>{children}</DeviceHeaderContext.Provider>;

// The header the app provides, or `fallback` (the plain title) without one or while it loads.
export const DeviceHeaderSlot = ({
  detail,
  fallback,
}: {
  detail: DeviceDetail;
  fallback: ReactNode;
}) => {
  const header = useContext(DeviceHeaderContext);
  if (!header) return <>{fallback}</>;
  return <Suspense fallback={fallback}>{header(detail)}</Suspense>;
};
