// Chatwoot's website widget, loaded from the operator's Chatwoot server the first time a user
// asks to chat (never before: nothing third-party loads unless asked), then opened. The SDK is
// read off the window through guards, as the page cannot know its types.
export type ChatWidgetSettings = { url: string; websiteToken: string };

type ChatwootSdk = { run(options: { websiteToken: string; baseUrl: string }): void };
type ChatwootApi = { toggle(state: 'open' | 'close'): void };

const isChatwootSdk = (value: unknown): value is ChatwootSdk =>
  typeof value === 'object' && value !== null && typeof Reflect.get(value, 'run') === 'function';
const isChatwootApi = (value: unknown): value is ChatwootApi =>
  typeof value === 'object' && value !== null && typeof Reflect.get(value, 'toggle') === 'function';

const readyEvent = 'chatwoot:ready';
// How long the widget may take to load and say it is ready.
const loadTimeoutMs = 15_000;

let loading: Promise<void> | undefined;

const load = (settings: ChatWidgetSettings): Promise<void> =>
  new Promise<void>((resolve, reject) => {
    const fail = (): void => {
      loading = undefined;
      reject(new Error('Could not load the chat; try again later'));
    };
    const timer = window.setTimeout(fail, loadTimeoutMs);
    window.addEventListener(
      readyEvent,
      () => {
        window.clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
    const script = document.createElement('script');
    script.src = `${settings.url}/packs/js/sdk.js`;
    script.async = true;
    script.addEventListener('load', () => {
      const sdk: unknown = Reflect.get(window, 'chatwootSDK');
      if (!isChatwootSdk(sdk)) {
        window.clearTimeout(timer);
        fail();
        return;
      }
      sdk.run({ websiteToken: settings.websiteToken, baseUrl: settings.url });
    });
    script.addEventListener('error', () => {
      window.clearTimeout(timer);
      fail();
    });
    document.body.appendChild(script);
  });

// Opens the chat, loading the widget first if needed. Rejects with a message for the user.
export const openChatwoot = async (settings: ChatWidgetSettings): Promise<void> => {
  loading ??= load(settings);
  await loading;
  const api: unknown = Reflect.get(window, '$chatwoot');
  if (!isChatwootApi(api)) {
    // Loaded but gone (or never whole): the next try loads it again.
    loading = undefined;
    throw new Error('Could not open the chat; try again later');
  }
  api.toggle('open');
};
