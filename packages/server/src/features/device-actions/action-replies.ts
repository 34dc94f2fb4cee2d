import type { ActionResult } from '@flotilla/shared/cloudlink/messages';
import type { FastifyReply } from 'fastify';
import { ApiError } from '../../infra/errors/api-error.js';
import { CloudlinkError } from '../cloudlink/cloudlink-error.js';

// One device's answer in a fan-out (open-balena's 207 body: [{statusCode, body}]).
export type DeviceOutcome = { statusCode: number; body: unknown };

// An unreachable device (no live cloudlink, no answer in time) is a 503 with a plain message;
// "No online device(s) found" is the text balena answers, which the console recognises.
export const unreachableError = (error: unknown): unknown =>
  error instanceof CloudlinkError ? new ApiError('device_offline', error.message) : error;

export const outcomeOf = async (work: Promise<ActionResult>): Promise<DeviceOutcome> => {
  try {
    const result = await work;
    return { statusCode: result.status, body: result.body };
  } catch (error) {
    if (error instanceof CloudlinkError) return { statusCode: 503, body: error.message };
    throw error;
  }
};

// Passes one device's answer through: its status (200, 423 locked, ...) and its body, as text
// when the device answered text and as JSON otherwise.
export const sendDeviceAnswer = (reply: FastifyReply, result: ActionResult): FastifyReply => {
  void reply.status(result.status);
  if (result.body === undefined || result.body === null) return reply.send();
  if (typeof result.body === 'string') {
    return reply.type('text/plain; charset=utf-8').send(result.body);
  }
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(result.body));
};
