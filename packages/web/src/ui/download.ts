// Hands a file (a PDF the server sent, or text made here) to the browser as a download.
export const downloadBlob = (blob: Blob, fileName: string): void => {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.click();
  // Revoked after the click has been handled.
  window.setTimeout(() => URL.revokeObjectURL(url), 0);
};

export const downloadText = (text: string, fileName: string, type = 'text/plain'): void =>
  downloadBlob(new Blob([text], { type }), fileName);
