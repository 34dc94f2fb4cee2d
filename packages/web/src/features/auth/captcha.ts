// The captcha is an adapter. The built-in default needs no widget and answers a fixed token the
// server's default verifier accepts. When the server has a reCAPTCHA site key (/config
// recaptchaSiteKey), the sign-up page renders RecaptchaField and sends its answer instead.
export type CaptchaProvider = () => Promise<string>;

let provider: CaptchaProvider = async () => 'flotilla-no-captcha';

export const setCaptchaProvider = (next: CaptchaProvider): void => {
  provider = next;
};

export const captchaResponse = (): Promise<string> => provider();
