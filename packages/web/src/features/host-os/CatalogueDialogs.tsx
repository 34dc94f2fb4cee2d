import type { CatalogueRelease } from '@flotilla/shared/host-os/catalogue';
import { useToasts } from '../../ui/toasts.js';
import { AddReleaseDialog } from './AddReleaseDialog.js';
import { releaseName } from './CatalogueTable.js';
import { EditReleaseDialog } from './EditReleaseDialog.js';
import { ImportCatalogueDialog } from './ImportCatalogueDialog.js';
import { RemoveReleaseDialog } from './RemoveReleaseDialog.js';

export type OpenDialog =
  { dialog: 'add' | 'import' } | { dialog: 'edit' | 'remove'; release: CatalogueRelease } | null;

// The catalogue page's dialogs; each says what it did in a toast when it closes on success.
export const CatalogueDialogs = ({ open, onClose }: { open: OpenDialog; onClose: () => void }) => {
  const toasts = useToasts();
  const close = onClose;
  return (
    <>
      {open?.dialog === 'add' ? (
        <AddReleaseDialog
          onClose={close}
          onAdded={(release) => {
            toasts.show('success', `${releaseName(release)} was added to the catalogue`);
            close();
          }}
        />
      ) : null}
      {open?.dialog === 'import' ? <ImportCatalogueDialog onClose={close} /> : null}
      {open?.dialog === 'edit' ? (
        <EditReleaseDialog
          release={open.release}
          onClose={close}
          onEdited={(release) => {
            toasts.show('success', `${releaseName(release)} was saved`);
            close();
          }}
        />
      ) : null}
      {open?.dialog === 'remove' ? (
        <RemoveReleaseDialog
          release={open.release}
          onClose={close}
          onDone={(message) => {
            toasts.show('success', message);
            close();
          }}
        />
      ) : null}
    </>
  );
};
