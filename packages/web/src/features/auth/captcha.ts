// The captcha is an adapter: the built-in default needs no widget and answers a fixed token the
// server's default verifier accepts. A deployment with a captcha service replaces this module's
// provider (see docs/ARCHITECTURE.md).
export type CaptchaProvider = () => Promise<string>;

let provider: CaptchaProvider = async () => 'flotilla-no-captcha';

export const setCaptchaProvider = (next: CaptchaProvider): void => {
  provider = next;
};

export const captchaResponse = (): Promise<string> => provider();
