// The avatar service's picture of an address: the operator's URL template with {hash} replaced by
// the hex SHA-256 of the trimmed, lower-cased address (what Gravatar-style services key on).
export const avatarUrlOf = async (template: string, email: string): Promise<string> => {
  const bytes = new TextEncoder().encode(email.trim().toLowerCase());
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  const hash = [...new Uint8Array(digest)]
    .map((byte) => byte.toString(16).padStart(2, '0'))
    .join('');
  return template.replaceAll('{hash}', hash);
};
