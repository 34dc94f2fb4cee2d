import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

// A real OpenID Connect provider on loopback (the `oidc-provider` package, a certified
// implementation), standing in for Google, and for the OAuth 2.0 part of GitHub. Who "signs in"
// at its login prompt is the account the test chose (signInAs): the interaction is answered at
// once, so a test follows redirects like a browser whose user clicked through.
export type TestAccount = { email?: string; emailVerified?: boolean; name?: string };

export type OidcTestProvider = {
  issuer: string;
  provider: Provider;
  addAccount(id: string, account: TestAccount): void;
  signInAs(id: string): void;
  close(): Promise<void>;
};

export type OidcTestClient = { clientId: string; clientSecret: string; redirectUri: string };

export const startOidcTestProvider = async (
  clients: readonly OidcTestClient[],
): Promise<OidcTestProvider> => {
  const accounts = new Map<string, TestAccount>();
  let current: string | undefined;
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const issuer = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const provider = new Provider(issuer, {
    clients: clients.map((client) => ({
      client_id: client.clientId,
      client_secret: client.clientSecret,
      redirect_uris: [client.redirectUri],
      token_endpoint_auth_method: 'client_secret_post',
    })),
    scopes: ['openid', 'email', 'profile', 'read:user', 'user:email'],
    claims: { email: ['email', 'email_verified'], profile: ['name'] },
    // ID tokens carry the claims themselves (as Google's do), not only the userinfo endpoint.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
    },
    cookies: { keys: ['oidc-test-provider-cookie-key'] },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: () => ({
          sub,
          ...(account.email === undefined ? {} : { email: account.email }),
          ...(account.emailVerified === undefined ? {} : { email_verified: account.emailVerified }),
          ...(account.name === undefined ? {} : { name: account.name }),
        }),
      };
    },
  });
  // The login and consent prompts, answered for the chosen account with what the client asked.
  provider.use(async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    if (ctx.method !== 'GET' || !ctx.path.startsWith('/interaction/')) return next();
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    if (details.prompt.name === 'login') {
      if (current === undefined) throw new Error('The test chose no account (signInAs)');
      const redirectTo = await provider.interactionResult(ctx.req, ctx.res, {
        login: { accountId: current },
      });
      return ctx.redirect(redirectTo);
    }
    const accountId = details.session?.accountId;
    const clientId = details.params.client_id;
    if (typeof accountId !== 'string' || typeof clientId !== 'string') {
      throw new Error('Consent without a session or client');
    }
    const grant = new provider.Grant({ accountId, clientId });
    const missingScope = details.prompt.details.missingOIDCScope;
    if (Array.isArray(missingScope)) grant.addOIDCScope(missingScope.join(' '));
    const missingClaims = details.prompt.details.missingOIDCClaims;
    if (Array.isArray(missingClaims)) grant.addOIDCClaims(missingClaims.map(String));
    const grantId = await grant.save();
    const redirectTo = await provider.interactionResult(ctx.req, ctx.res, {
      consent: { grantId },
    });
    return ctx.redirect(redirectTo);
  });
  const callback = provider.callback();
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    void callback(request, response);
  });
  return {
    issuer,
    provider,
    addAccount: (id, account) => accounts.set(id, account),
    signInAs: (id) => {
      current = id;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
};
