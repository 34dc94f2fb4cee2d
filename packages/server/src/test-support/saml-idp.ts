import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { inflateRawSync } from 'node:zlib';
import { signSamlPost } from '@node-saml/node-saml/lib/saml-post-signing.js';

// A real SAML identity provider for tests, running in this process over HTTP: it takes the
// AuthnRequest our server redirects to (HTTP-Redirect binding), signs an assertion for the
// user it is told to sign in with its own key (node-saml's signer: no hand-written XML
// signature), and answers the auto-posting form a browser would submit to our assertion
// consumer service. `saml-idp` (npm) would not install here (it pulls a dependency from a git
// host), so this plays its part. Each "next" option shapes the next response only.

export type IdpUser = { nameId: string; email: string; displayName?: string };

export type NextResponse = {
  // Signed over, then changed: the signature no longer matches.
  tamper?: boolean;
  // Signed with a key whose certificate our server was never given.
  foreignKey?: boolean;
  audience?: string;
  recipient?: string;
  // The IdP's clock, relative to now (an expired assertion: an hour ago).
  clockOffsetMs?: number;
};

export type SamlTestIdp = {
  url: string;
  entityId: string;
  ssoUrl: string;
  certificate: string;
  metadataXml(): string;
  signInAs(user: IdpUser, next?: NextResponse): void;
  close(): Promise<void>;
};

export type PostedResponse = { acsUrl: string; samlResponse: string; relayState: string };

type KeyPair = { key: string; cert: string };

const run = promisify(execFile);

// A fresh RSA key and self-signed certificate (openssl, as an IdP operator would make one).
export const newKeyPair = async (): Promise<KeyPair> => {
  const dir = await mkdtemp(path.join(tmpdir(), 'flotilla-saml-idp-'));
  try {
    const keyFile = path.join(dir, 'key.pem');
    const certFile = path.join(dir, 'cert.pem');
    await run('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=flotilla-test-idp',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ]);
    return {
      key: await readFile(keyFile, 'utf8'),
      cert: (await readFile(certFile, 'utf8')).trim(),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

const escapeXml = (value: string): string =>
  value.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

const certBody = (pem: string): string =>
  pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');

const attributeOf = (xml: string, name: string): string | undefined =>
  new RegExp(`\\s${name}="([^"]*)"`).exec(xml)?.[1];

const responseXPath = '/*[local-name(.)="Response"]';
const assertionXPath = `${responseXPath}/*[local-name(.)="Assertion"]`;

export const startSamlTestIdp = async (): Promise<SamlTestIdp> => {
  const own = await newKeyPair();
  const foreign = await newKeyPair();
  let user: IdpUser | undefined;
  let next: NextResponse = {};
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('IdP has no port');
  const url = `http://127.0.0.1:${address.port}`;
  const entityId = `${url}/metadata`;
  const ssoUrl = `${url}/sso`;

  const responseXml = (request: string): { acsUrl: string; xml: string } => {
    if (!user) throw new Error('the test IdP was told no user to sign in');
    const requestId = attributeOf(request, 'ID') ?? '';
    const acsUrl = attributeOf(request, 'AssertionConsumerServiceURL') ?? '';
    const spEntityId = /<saml:Issuer[^>]*>([^<]+)<\/saml:Issuer>/.exec(request)?.[1] ?? '';
    const now = Date.now() + (next.clockOffsetMs ?? 0);
    const at = (offsetMs: number) => new Date(now + offsetMs).toISOString();
    const attributes = [
      ['email', user.email],
      ...(user.displayName ? [['displayName', user.displayName]] : []),
    ]
      .map(
        ([name, value]) =>
          `<saml:Attribute Name="${name}"><saml:AttributeValue>${escapeXml(value ?? '')}</saml:AttributeValue></saml:Attribute>`,
      )
      .join('');
    const xml =
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_${randomUUID()}" Version="2.0" IssueInstant="${at(0)}" Destination="${escapeXml(acsUrl)}" InResponseTo="${escapeXml(requestId)}">` +
      `<saml:Issuer>${escapeXml(entityId)}</saml:Issuer>` +
      '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>' +
      `<saml:Assertion ID="_${randomUUID()}" Version="2.0" IssueInstant="${at(0)}">` +
      `<saml:Issuer>${escapeXml(entityId)}</saml:Issuer>` +
      `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified">${escapeXml(user.nameId)}</saml:NameID>` +
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${escapeXml(requestId)}" NotOnOrAfter="${at(5 * 60_000)}" Recipient="${escapeXml(next.recipient ?? acsUrl)}"/></saml:SubjectConfirmation></saml:Subject>` +
      `<saml:Conditions NotBefore="${at(-60_000)}" NotOnOrAfter="${at(5 * 60_000)}"><saml:AudienceRestriction><saml:Audience>${escapeXml(next.audience ?? spEntityId)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${at(0)}" SessionIndex="_${randomUUID()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
      `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` +
      '</saml:Assertion></samlp:Response>';
    const keys = next.foreignKey ? foreign : own;
    let signed = signSamlPost(xml, assertionXPath, {
      privateKey: keys.key,
      publicCert: keys.cert,
      signatureAlgorithm: 'sha256',
    });
    // The whole response too, as most providers do (and as a provider requiring it needs).
    signed = signSamlPost(signed, responseXPath, {
      privateKey: keys.key,
      publicCert: keys.cert,
      signatureAlgorithm: 'sha256',
    });
    if (next.tamper) signed = signed.replace(escapeXml(user.email), 'intruder@example.com');
    return { acsUrl, xml: signed };
  };

  server.on('request', (request, reply) => {
    const requestUrl = new URL(request.url ?? '/', url);
    if (requestUrl.pathname === '/metadata') {
      reply.setHeader('content-type', 'application/samlmetadata+xml');
      reply.end(metadataXml());
      return;
    }
    const samlRequest = requestUrl.searchParams.get('SAMLRequest');
    if (requestUrl.pathname !== '/sso' || samlRequest === null) {
      reply.statusCode = 404;
      reply.end();
      return;
    }
    const authnRequest = inflateRawSync(Buffer.from(samlRequest, 'base64')).toString('utf8');
    const { acsUrl, xml } = responseXml(authnRequest);
    next = {};
    const relayState = requestUrl.searchParams.get('RelayState') ?? '';
    reply.setHeader('content-type', 'text/html; charset=utf-8');
    reply.end(
      `<html><body onload="document.forms[0].submit()"><form method="post" action="${escapeXml(acsUrl)}">` +
        `<input type="hidden" name="SAMLResponse" value="${Buffer.from(xml).toString('base64')}"/>` +
        `<input type="hidden" name="RelayState" value="${escapeXml(relayState)}"/></form></body></html>`,
    );
  });

  const metadataXml = () =>
    `<?xml version="1.0"?><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${escapeXml(entityId)}">` +
    '<md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">' +
    `<md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${certBody(own.cert)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>` +
    `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${escapeXml(ssoUrl)}"/>` +
    '</md:IDPSSODescriptor></md:EntityDescriptor>';

  return {
    url,
    entityId,
    ssoUrl,
    certificate: own.cert,
    metadataXml,
    signInAs(signedIn, options = {}) {
      user = signedIn;
      next = options;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
};

// The form the IdP answered, as the browser would post it.
export const postedResponseOf = (html: string): PostedResponse => {
  const acsUrl = /action="([^"]+)"/.exec(html)?.[1];
  const samlResponse = /name="SAMLResponse" value="([^"]+)"/.exec(html)?.[1];
  const relayState = /name="RelayState" value="([^"]*)"/.exec(html)?.[1] ?? '';
  if (!acsUrl || !samlResponse) throw new Error(`the IdP answered no response form: ${html}`);
  return {
    acsUrl: acsUrl.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code))),
    samlResponse,
    relayState,
  };
};
