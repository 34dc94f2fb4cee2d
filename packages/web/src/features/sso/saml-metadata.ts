import { pemCertificate, samlMetadataMaxBytes } from '@flotilla/shared/sso/identity-provider-rules';

export type ImportedMetadata = { issuer: string; entryPoint: string; certificate: string };

const metadataNs = 'urn:oasis:names:tc:SAML:2.0:metadata';
const signatureNs = 'http://www.w3.org/2000/09/xmldsig#';
const redirectBinding = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

// An identity provider's SAML metadata as the provider form's fields: its entity id (issuer),
// single sign-on address (HTTP-Redirect binding preferred) and signing certificate. Null when the
// XML describes no identity provider with all three.
export const parseSamlMetadata = (xml: string): ImportedMetadata | null => {
  const document = new DOMParser().parseFromString(xml, 'application/xml');
  if (document.getElementsByTagName('parsererror').length > 0) return null;
  const descriptor = document.getElementsByTagNameNS(metadataNs, 'IDPSSODescriptor')[0];
  let entity = descriptor?.parentElement ?? null;
  while (entity && entity.localName !== 'EntityDescriptor') entity = entity.parentElement;
  const issuer = entity?.getAttribute('entityID')?.trim();
  if (!descriptor || !issuer) return null;
  const services = Array.from(descriptor.getElementsByTagNameNS(metadataNs, 'SingleSignOnService'));
  const service =
    services.find((node) => node.getAttribute('Binding') === redirectBinding) ?? services[0];
  const entryPoint = service?.getAttribute('Location')?.trim();
  const keys = Array.from(descriptor.getElementsByTagNameNS(metadataNs, 'KeyDescriptor'));
  const signing = keys.find((key) => key.getAttribute('use') !== 'encryption') ?? keys[0];
  const body = signing?.getElementsByTagNameNS(signatureNs, 'X509Certificate')[0]?.textContent;
  if (!entryPoint || !body?.trim()) return null;
  return { issuer, entryPoint, certificate: pemCertificate(body) };
};

export const metadataFileTooLarge = (file: { size: number }): boolean =>
  file.size > samlMetadataMaxBytes;

// FileReader rather than File.text(), as the host OS catalogue import.
export const readMetadataFile = (file: Blob): Promise<string> =>
  new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsText(file);
  });
