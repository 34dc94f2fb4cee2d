import { PassThrough } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { readCgiResponse } from './cgi-response.js';

describe("a CGI program's answer", () => {
  it('takes the status and the known headers, and streams the rest as the body', async () => {
    const output = new PassThrough();
    const answer = readCgiResponse(output);
    output.write('Status: 404 Not Found\r\nContent-Type: text/plain\r\nX-Other: no\r\n\r\nNot');
    const { status, headers, body } = await answer;
    expect(status).toBe(404);
    expect(headers).toEqual({ 'content-type': 'text/plain' });
    output.end(' found\n');
    expect(await text(body)).toBe('Not found\n');
  });

  it('answers 200 without a Status header, across chunks and with bare newlines', async () => {
    const output = new PassThrough();
    const answer = readCgiResponse(output);
    output.write('Content-Type: application/x-git-receive-pack-result\n');
    output.end('\nPACK');
    const { status, headers, body } = await answer;
    expect(status).toBe(200);
    expect(headers).toEqual({ 'content-type': 'application/x-git-receive-pack-result' });
    expect(await text(body)).toBe('PACK');
  });

  it('fails when the program ends before its headers, or they never end', async () => {
    const ended = new PassThrough();
    const early = readCgiResponse(ended);
    ended.end('Status: 200');
    await expect(early).rejects.toThrow(/ended before its headers/);
    const endless = new PassThrough();
    const huge = readCgiResponse(endless);
    endless.write(`X: ${'a'.repeat(20_000)}`);
    await expect(huge).rejects.toThrow(/too large/);
  });
});
