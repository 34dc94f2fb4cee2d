// Where the API serves the actions service (GET /config's actionsPath). Its own file, free of
// zod, so that the console imports it without the validators (zod probes eval, which the
// console's Content-Security-Policy forbids).
export const actionsServicePath = '/actions';
