import type { CatalogueRelease } from '@flotilla/shared/host-os/catalogue';
import type { OsImage } from '@flotilla/shared/host-os/os-image';
import { useToasts } from '../../ui/toasts.js';
import { AddReleaseDialog } from './AddReleaseDialog.js';
import { releaseName } from './CatalogueTable.js';
import { EditReleaseDialog } from './EditReleaseDialog.js';
import { ImportCatalogueDialog } from './ImportCatalogueDialog.js';
import { OsImageDialog } from './OsImageDialog.js';
import { RemoveReleaseDialog } from './RemoveReleaseDialog.js';

export type OpenDialog =
  | { dialog: 'add' | 'import' }
  | { dialog: 'edit' | 'remove' | 'image'; release: CatalogueRelease }
  | null;

// The catalogue page's dialogs; each says what it did in a toast when it closes on success.
export const CatalogueDialogs = ({
  open,
  images,
  onClose,
}: {
  open: OpenDialog;
  images: ReadonlyMap<number, OsImage>;
  onClose: () => void;
}) => {
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
      {open?.dialog === 'image' ? (
        <OsImageDialog
          release={open.release}
          image={images.get(open.release.id)}
          onClose={close}
          onDone={(message) => {
            toasts.show('success', message);
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
