// Hands text to the browser as a file download.
export const downloadText = (text: string, fileName: string, type = 'text/plain'): void => {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.click();
  // Revoked after the click has been handled.
  window.setTimeout(() => URL.revokeObjectURL(url), 0);
};
