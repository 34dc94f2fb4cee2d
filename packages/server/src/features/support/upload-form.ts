import {
  attachmentTooLargeMessage,
  isSupportAttachmentType,
  supportAttachmentMaxBytes,
} from '@flotilla/shared/support/support-tickets';
import { ApiError, badRequest } from '../../infra/errors/api-error.js';
import type { UploadedFile } from './support-desk.js';

// Room for the multipart framing around one file at the limit.
export const uploadBodyLimit = supportAttachmentMaxBytes + 64 * 1024;

type FormValue = Parameters<Parameters<FormData['forEach']>[0]>[0];

// The request's bytes, refused as soon as they pass the limit (the rest is not read).
export const readLimited = async (payload: AsyncIterable<unknown>): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of payload) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    total += bytes.length;
    if (total > uploadBodyLimit) throw new ApiError('payload_too_large', attachmentTooLargeMessage);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
};

// The one file of an upload-attachment form (field `file`, or the form's only file): at most
// 5 MB, of a type an attachment may have.
export const parseUploadForm = async (
  contentType: string,
  bytes: Buffer,
): Promise<UploadedFile> => {
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(bytes), {
      headers: { 'content-type': contentType },
    }).formData();
  } catch {
    throw badRequest('The request body is not a valid multipart/form-data form');
  }
  const files: [string, FormValue][] = [];
  form.forEach((value, name) => {
    if (typeof value !== 'string') files.push([name, value]);
  });
  const file =
    files.find(([name]) => name === 'file')?.[1] ??
    (files.length === 1 ? files[0]?.[1] : undefined);
  if (file === undefined || typeof file === 'string') throw badRequest('The form has no file');
  const content = Buffer.from(await file.arrayBuffer());
  if (content.length > supportAttachmentMaxBytes) {
    throw new ApiError('payload_too_large', attachmentTooLargeMessage);
  }
  if (content.length === 0) throw badRequest('The file is empty');
  const type = (file.type || 'application/octet-stream').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!isSupportAttachmentType(type)) {
    throw badRequest(`Files of type ${type} cannot be attached`);
  }
  const fileName = (file.name || 'attachment').replace(/[\\/\r\n]/g, '_').slice(0, 200);
  return { fileName, contentType: type, bytes: content };
};
