// Version of the console client, sent in X-Balena-Client (an extra client
// header identifies the UI version).
export const clientVersion = '0.1.0';
