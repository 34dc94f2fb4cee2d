import {
  certificateBody,
  entryPointProblem,
  identityProviderMessages,
  ssoIdentifierProblem,
} from '@flotilla/shared/sso/identity-provider-rules';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { type ChangeEvent, useState } from 'react';
import type { ProviderFields } from './api-providers.js';
import { metadataFileTooLarge, parseSamlMetadata, readMetadataFile } from './saml-metadata.js';

export const emptyFields: ProviderFields = {
  sso_identifier: '',
  entry_point: '',
  issuer: '',
  certificate: '',
};

// The problem of each field, or undefined; the form submits only with none.
export const fieldProblems = (
  fields: ProviderFields,
): Record<keyof ProviderFields, string | undefined> => ({
  sso_identifier: ssoIdentifierProblem(fields.sso_identifier.trim()),
  entry_point: entryPointProblem(fields.entry_point.trim()),
  issuer: fields.issuer.trim() === '' ? identityProviderMessages.issuerRequired : undefined,
  certificate:
    certificateBody(fields.certificate) === undefined
      ? identityProviderMessages.certificateInvalid
      : undefined,
});

export const allFilled = (fields: ProviderFields): boolean =>
  Object.values(fields).every((value) => value.trim() !== '');

// The four fields of an identity provider, and the import of its SAML metadata that fills three.
export const ProviderFormFields = ({
  fields,
  onChange,
}: {
  fields: ProviderFields;
  onChange: (fields: ProviderFields) => void;
}) => {
  const [touched, setTouched] = useState<Partial<Record<keyof ProviderFields, boolean>>>({});
  const [importProblem, setImportProblem] = useState<string | null>(null);
  const problems = fieldProblems(fields);
  const shown = (field: keyof ProviderFields) =>
    touched[field] === true && fields[field] !== '' ? problems[field] : undefined;
  const field = (name: keyof ProviderFields) => ({
    value: fields[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) =>
      onChange({
        ...fields,
        [name]: name === 'sso_identifier' ? event.target.value.toLowerCase() : event.target.value,
      }),
    onBlur: () => setTouched((before) => ({ ...before, [name]: true })),
    error: shown(name) !== undefined,
    helperText: shown(name),
    required: true,
  });
  const importFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (metadataFileTooLarge(file)) {
      setImportProblem(identityProviderMessages.metadataTooLarge);
      return;
    }
    const parsed = parseSamlMetadata(await readMetadataFile(file).catch(() => ''));
    if (parsed === null) {
      setImportProblem(identityProviderMessages.metadataUnparsable);
      return;
    }
    setImportProblem(null);
    onChange({
      ...fields,
      issuer: parsed.issuer,
      entry_point: parsed.entryPoint,
      certificate: parsed.certificate,
    });
    setTouched((before) => ({ ...before, issuer: true, entry_point: true, certificate: true }));
  };
  return (
    <Stack spacing={2}>
      <TextField label="SSO identifier" {...field('sso_identifier')} autoFocus />
      <Button variant="outlined" component="label">
        Import SAML metadata (XML)
        <input
          hidden
          type="file"
          accept=".xml,application/xml,text/xml,application/samlmetadata+xml"
          aria-label="SAML metadata file"
          onChange={(event) => void importFile(event)}
        />
      </Button>
      {importProblem !== null ? <Alert severity="error">{importProblem}</Alert> : null}
      <TextField label="Entry point" {...field('entry_point')} />
      <TextField label="Issuer" {...field('issuer')} />
      <TextField
        label="Certificate"
        {...field('certificate')}
        multiline
        minRows={4}
        slotProps={{ htmlInput: { style: { fontFamily: 'monospace' } } }}
      />
    </Stack>
  );
};
