import { z } from 'zod';
import type { RecaptchaConfig } from '../../infra/config/config.js';
import { ApiError } from '../../infra/errors/api-error.js';
import type { CaptchaVerifier } from './captcha.js';

export const captchaUnavailableMessage = 'The captcha could not be checked. Try again later';

const defaultTimeoutMs = 10_000;

// What siteverify answers (https://developers.google.com/recaptcha/docs/verify).
const siteverifyAnswer = z.object({
  success: z.boolean(),
  'error-codes': z.array(z.string()).optional(),
});

// Failures that are the answer's fault: missing, wrong, expired or already used.
const answerErrors = new Set([
  'missing-input-response',
  'invalid-input-response',
  'timeout-or-duplicate',
]);

export type RecaptchaOptions = RecaptchaConfig & {
  timeoutMs?: number;
  // Where provider failures are reported for the operator (a wrong secret, an outage).
  log?: (message: string) => void;
};

const unavailable = (): ApiError => new ApiError('service_unavailable', captchaUnavailableMessage);

// reCAPTCHA v2: the answer the widget put in `g-recaptcha-response` is POSTed (form-encoded, with
// the secret and the client's address) to siteverify. A wrong or reused answer is false (400 for
// the client); a provider that cannot be reached in time, answers an error or complains about
// our secret makes a 503, never a 500 and never an accepted sign-up.
export const createRecaptchaVerifier = (options: RecaptchaOptions): CaptchaVerifier => {
  const report = options.log ?? (() => undefined);
  return {
    async verify(response, remoteIp) {
      if (response === undefined || response.trim() === '') return false;
      const form = new URLSearchParams({ secret: options.secret, response, remoteip: remoteIp });
      let body: unknown;
      try {
        const reply = await fetch(options.verifyUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: form.toString(),
          signal: AbortSignal.timeout(options.timeoutMs ?? defaultTimeoutMs),
        });
        if (!reply.ok) throw new Error(`HTTP ${reply.status}`);
        body = await reply.json();
      } catch (error) {
        report(`reCAPTCHA siteverify failed: ${error instanceof Error ? error.message : 'error'}`);
        throw unavailable();
      }
      const answer = siteverifyAnswer.safeParse(body);
      if (!answer.success) {
        report('reCAPTCHA siteverify answered something else than its JSON');
        throw unavailable();
      }
      if (answer.data.success) return true;
      const codes = answer.data['error-codes'] ?? [];
      if (codes.every((code) => answerErrors.has(code))) return false;
      report(`reCAPTCHA siteverify refused the request: ${codes.join(', ')}`);
      throw unavailable();
    },
  };
};
