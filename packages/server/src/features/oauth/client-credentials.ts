import { badRequest } from '../../infra/errors/api-error.js';

// The client's id and secret: HTTP Basic (form-encoded id and secret, RFC 6749 section 2.3.1) or
// the body's client_id and client_secret; both ways at once must name the same client.
export const clientCredentials = (
  authorization: string | undefined,
  body: { client_id?: string | undefined; client_secret?: string | undefined },
): { clientId: string; secret: string | null } => {
  if (authorization?.startsWith('Basic ')) {
    const decoded = Buffer.from(authorization.slice('Basic '.length).trim(), 'base64').toString();
    const colon = decoded.indexOf(':');
    if (colon === -1) throw badRequest('invalid_request: malformed Basic client credentials');
    let clientId: string;
    let secret: string;
    try {
      clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
      secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
    } catch {
      throw badRequest('invalid_request: malformed Basic client credentials');
    }
    // Printable and as long as a body's client_id may be (it reaches SQL).
    if (!/^[\x20-\x7e]{1,100}$/.test(clientId)) {
      throw badRequest('invalid_request: malformed Basic client credentials');
    }
    if (body.client_id !== undefined && body.client_id !== clientId) {
      throw badRequest('invalid_request: client_id differs from the Basic credentials');
    }
    if (body.client_secret !== undefined) {
      throw badRequest('invalid_request: the client secret was sent twice');
    }
    return { clientId, secret: secret === '' ? null : secret };
  }
  if (body.client_id === undefined) throw badRequest('invalid_request: client_id is required');
  return { clientId: body.client_id, secret: body.client_secret ?? null };
};
