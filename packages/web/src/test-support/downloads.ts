import { vi } from 'vitest';

export type Download = { name: string; type: string; text: () => Promise<string> };

const blobText = (blob: Blob): Promise<string> =>
  new Promise((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.readAsText(blob);
  });

// Records what the console hands the browser as file downloads (ui/download.ts): each file's
// name, type and text, in order. Restore the anchors' clicks with vi.restoreAllMocks().
export const captureDownloads = (): Download[] => {
  const downloads: Download[] = [];
  let pending: Blob | undefined;
  // jsdom has no object URLs: these stand in for them.
  Object.assign(URL, {
    createObjectURL: (blob: Blob) => {
      pending = blob;
      return 'blob:download';
    },
    revokeObjectURL: () => undefined,
  });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    const blob = pending ?? new Blob([]);
    downloads.push({ name: this.download, type: blob.type, text: () => blobText(blob) });
  });
  return downloads;
};
