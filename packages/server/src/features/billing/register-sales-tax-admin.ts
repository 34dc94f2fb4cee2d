import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { parseBody } from '../../infra/http/validate.js';
import { requirePlatformAdmin } from '../platform-admin/register-platform-admin.js';
import { replaceSalesTaxRates, salesTaxBody, salesTaxRates } from './sales-tax.js';
import { recordedTransaction } from '../audit-log/audit-route-records.js';

// The US sales tax rates, per state code (or `*` for every state without its own), which
// platform administrators set: invoices issued afterwards carry them.
export const registerSalesTaxAdmin = (app: FastifyInstance, ctx: AppContext): void => {
  app.get('/billing/v1/admin/sales-tax', { config: { access: 'user' } }, async (request) => {
    requirePlatformAdmin(request.actor);
    return { rates: await salesTaxRates(ctx.db) };
  });

  app.put('/billing/v1/admin/sales-tax', { config: { access: 'user' } }, async (request) => {
    requirePlatformAdmin(request.actor);
    const { rates } = parseBody(salesTaxBody, request.body);
    return {
      rates: await recordedTransaction(ctx.db, request, ctx.now, (tx) =>
        replaceSalesTaxRates(tx, rates),
      ),
    };
  });
};
