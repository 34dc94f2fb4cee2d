// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { parseSamlMetadata } from './saml-metadata.js';

const body = 'MIIB'.padEnd(150, 'A');

const metadata = (inner: string, entityId = 'https://idp.example.com/metadata') =>
  `<?xml version="1.0"?><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${entityId}">${inner}</md:EntityDescriptor>`;

const idp = (services: string, keys: string) =>
  `<md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">${keys}${services}</md:IDPSSODescriptor>`;

const key = (use: string, cert: string) =>
  `<md:KeyDescriptor use="${use}"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${cert}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`;

const sso = (binding: string, location: string) =>
  `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:${binding}" Location="${location}"/>`;

describe('SAML metadata import', () => {
  it('fills issuer, the redirect entry point and the signing certificate in 64-character rows', () => {
    const parsed = parseSamlMetadata(
      metadata(
        idp(
          sso('HTTP-POST', 'https://idp.example.com/post') +
            sso('HTTP-Redirect', 'https://idp.example.com/redirect'),
          key('encryption', 'ENCRYPTION') + key('signing', `\n  ${body}\n`),
        ),
      ),
    );
    expect(parsed?.issuer).toBe('https://idp.example.com/metadata');
    expect(parsed?.entryPoint).toBe('https://idp.example.com/redirect');
    const lines = parsed?.certificate.split('\n') ?? [];
    expect(lines[0]).toBe('-----BEGIN CERTIFICATE-----');
    expect(lines[1]).toHaveLength(64);
    expect(lines.slice(1, -1).join('')).toBe(body);
    expect(lines.at(-1)).toBe('-----END CERTIFICATE-----');
  });

  it('refuses XML that is no identity provider metadata', () => {
    expect(parseSamlMetadata('not xml at all <')).toBeNull();
    expect(parseSamlMetadata(metadata('<md:SPSSODescriptor/>'))).toBeNull();
    expect(parseSamlMetadata(metadata(idp('', key('signing', body))))).toBeNull();
    expect(
      parseSamlMetadata(metadata(idp(sso('HTTP-Redirect', 'https://idp.example.com/r'), ''))),
    ).toBeNull();
  });
});
