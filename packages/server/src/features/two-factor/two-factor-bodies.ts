import { normalizeTwoFactorCode, twoFactorErrors } from '@flotilla/shared/auth/two-factor';
import { z } from 'zod';
import { badRequest } from '../../infra/errors/api-error.js';
import { parseBody } from '../../infra/http/validate.js';

const codeBody = z.object({ code: z.union([z.string().max(64), z.number()]).optional() });

// The code of a body, normalized (spaces and dashes dropped, lower case); a missing or empty code
// answers the "required" error.
export const codeOf = (body: unknown): string => {
  const { code } = parseBody(codeBody, body);
  const normalized = normalizeTwoFactorCode(code === undefined ? '' : String(code));
  if (normalized === '') throw badRequest(twoFactorErrors.required.message);
  return normalized;
};

export const invalidCode = () => badRequest(twoFactorErrors.invalid.message);

export const passwordBody = z.object({
  password: z.string({ error: 'password is required' }).min(1, 'password is required').max(4096),
});
