// A device's public URL: `<uuid>.<deviceUrlsBase>`, in the console's own scheme,
// so a plain HTTP install (and `npm start`'s `<uuid>.localhost:8080`) links to http.
export const publicDeviceUrl = (
  uuid: string,
  base: string,
  protocol: string = window.location.protocol,
): string => `${protocol === 'https:' ? 'https' : 'http'}://${uuid}.${base}/`;
