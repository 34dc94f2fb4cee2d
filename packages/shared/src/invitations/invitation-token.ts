// What an invitation token says, readable by anyone holding it (it
// decodes to a resource and a name); the server also checks its signature and its row.
export type InvitationKind = 'organization' | 'application';

export type InvitationClaims = {
  kind: InvitationKind;
  // The invitation's token id (its row's token_id).
  tokenId: string;
  // Name of the organization or fleet the invitation is for.
  name: string;
  // The invited e-mail, when the invitation was sent to an e-mail (not to a username).
  email: string | null;
  // Expiry, seconds since the epoch.
  exp: number;
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const base64UrlToText = (value: string): string | null => {
  if (!/^[A-Za-z0-9_-]+$/.test(value)) return null;
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/');
  try {
    const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
    return new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
  } catch {
    return null;
  }
};

// The claims of `<payload>.<signature>` (without checking the signature), or null when the
// token does not decode to them.
export const decodeInvitationToken = (token: string): InvitationClaims | null => {
  const [payload, signature, extra] = token.split('.');
  if (payload === undefined || signature === undefined || extra !== undefined) return null;
  const text = base64UrlToText(payload);
  if (text === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(parsed)) return null;
  const { kind, tokenId, name, email, exp } = parsed;
  if (kind !== 'organization' && kind !== 'application') return null;
  if (typeof tokenId !== 'string' || typeof name !== 'string' || name === '') return null;
  if (email !== null && typeof email !== 'string') return null;
  if (typeof exp !== 'number' || !Number.isFinite(exp)) return null;
  return { kind, tokenId, name, email, exp };
};
