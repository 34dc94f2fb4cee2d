// reCAPTCHA v2's browser API, as far as the console's forms use it
// (https://developers.google.com/recaptcha/docs/display#explicit_render).
export type RecaptchaParameters = {
  sitekey: string;
  callback: (answer: string) => void;
  'expired-callback': () => void;
  'error-callback': () => void;
};

export type Recaptcha = {
  render(container: HTMLElement, parameters: RecaptchaParameters): number;
};

export const recaptchaScriptUrl = 'https://www.google.com/recaptcha/api.js';
export const recaptchaOnloadName = 'flotillaRecaptchaLoaded';

const isRecaptcha = (value: unknown): value is Recaptcha =>
  typeof value === 'object' &&
  value !== null &&
  'render' in value &&
  typeof value.render === 'function';

let loading: Promise<Recaptcha> | undefined;

// Adds Google's script to the page once, and only when asked: a form asks only when the server
// has a site key (GET /config recaptchaSiteKey), so installations without a captcha
// never contact Google.
export const loadRecaptcha = (): Promise<Recaptcha> => {
  loading ??= new Promise<Recaptcha>((resolve, reject) => {
    const failed = (): void => {
      loading = undefined;
      reject(new Error('reCAPTCHA did not load'));
    };
    Reflect.set(window, recaptchaOnloadName, () => {
      const api: unknown = Reflect.get(window, 'grecaptcha');
      if (isRecaptcha(api)) resolve(api);
      else failed();
    });
    const script = document.createElement('script');
    script.src = `${recaptchaScriptUrl}?render=explicit&onload=${recaptchaOnloadName}`;
    script.async = true;
    script.onerror = failed;
    document.head.append(script);
  });
  return loading;
};
