import type { FastifyReply, FastifyRequest } from 'fastify';
import { socialFlowMinutes } from '@flotilla/shared/social-auth/social-providers';

// The started sign-in's note lives in one HttpOnly cookie, sent back only to /auth (the
// console's exchange call is same-origin). SameSite=Lax: the browser comes back from the
// provider by a top-level navigation.
const cookieName = 'flotilla_social_flow';

const attributes = (request: FastifyRequest, maxAge: number): string =>
  [`Path=/auth`, `Max-Age=${maxAge}`, 'HttpOnly', 'SameSite=Lax']
    .concat(request.protocol === 'https' ? ['Secure'] : [])
    .join('; ');

export const setFlowCookie = (
  request: FastifyRequest,
  reply: FastifyReply,
  value: string,
): void => {
  void reply.header(
    'set-cookie',
    `${cookieName}=${value}; ${attributes(request, socialFlowMinutes * 60)}`,
  );
};

export const clearFlowCookie = (request: FastifyRequest, reply: FastifyReply): void => {
  void reply.header('set-cookie', `${cookieName}=; ${attributes(request, 0)}`);
};

// A signed token's characters (base64url and dots) need no decoding.
export const readFlowCookie = (request: FastifyRequest): string | undefined => {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === cookieName) {
      const value = rest.join('=');
      return /^[\w.-]+$/.test(value) ? value : undefined;
    }
  }
  return undefined;
};
