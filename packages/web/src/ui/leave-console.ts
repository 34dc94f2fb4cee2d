// Sends the browser to another site (an OAuth client's redirect URI): a full navigation, out of
// the console's router. One place, so tests can observe it.
export const leaveConsole = (href: string): void => {
  window.location.assign(href);
};
