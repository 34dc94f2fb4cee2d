import { redacted, redactUrl } from '../../infra/http/log-redaction.js';

// Credentials an error text may carry: bearer tokens, JWTs (session tokens), secret query
// parameters of addresses, and key=value pairs naming a secret. E-mail addresses are personal.
const bearer = /\bBearer\s+[\w.~+/-]+=*/gi;
const jwt = /\beyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*/g;
const address = /\b(https?:\/\/|\/)[^\s"'<>()]*\?[^\s"'<>()]*/g;
const secretPair =
  /\b(password|passwd|secret|token|api[_-]?key|apikey|authorization)\s*[=:]\s*("[^"]*"|'[^']*'|[^\s,;&]+)/gi;
const email = /\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/g;

// An error text as stored: secrets and e-mail addresses replaced, cut to maxLength.
export const scrub = (text: string, maxLength: number): string =>
  text
    .replace(bearer, `Bearer ${redacted}`)
    .replace(jwt, redacted)
    .replace(address, (url) => redactUrl(url))
    .replace(secretPair, (_match, name: string) => `${name}=${redacted}`)
    .replace(email, '[e-mail]')
    .slice(0, maxLength);
