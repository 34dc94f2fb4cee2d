import type { ODataOptions } from '@balena/odata-parser';
import { badRequest } from '../errors/api-error.js';

// What one /v7 request may ask for, checked on the parsed request before anything is compiled
// (docs/API-LIMITS.md). Each nested navigation is a correlated subquery with its own permission
// filter, so depth multiplies the work PostgreSQL does per row; the part count bounds how much
// SQL a request can make. balena-sdk and the console nest at most 2 levels in $filter and 4 in
// $expand (request catalogue; packages/web/src), well within these.
export const maxExpandDepth = 6;
export const maxExpandItems = 50;
export const maxFilterDepth = 4;
export const maxQueryParts = 500;
export const maxNavigations = 100;

export type Budget = { parts: number; navigations: number };

type PathNode = {
  name: string;
  property?: unknown;
  lambda?: { identifier?: unknown; expression?: unknown };
  count?: unknown;
  options?: { $filter?: unknown };
};

const isPathNode = (node: unknown): node is PathNode =>
  typeof node === 'object' &&
  node !== null &&
  !Array.isArray(node) &&
  'name' in node &&
  typeof node.name === 'string';

const addPart = (budget: Budget): void => {
  budget.parts++;
  if (budget.parts > maxQueryParts) {
    throw badRequest(
      `The request has more than ${maxQueryParts} parts ($filter, $orderby, $expand and $select together)`,
    );
  }
};

const addNavigation = (budget: Budget): void => {
  budget.navigations++;
  if (budget.navigations > maxNavigations) {
    throw badRequest(
      `The request uses more than ${maxNavigations} navigations ($expand, any()/all(), paths, $count)`,
    );
  }
};

// One level deeper into a navigation of $filter or $orderby.
const enter = (budget: Budget, depth: number, option: string): number => {
  const next = depth + 1;
  if (next > maxFilterDepth) {
    throw badRequest(
      `${option} nests navigations (any()/all(), paths, $count) deeper than ${maxFilterDepth} levels`,
    );
  }
  addNavigation(budget);
  return next;
};

type Scope = { budget: Budget; option: string; variables: ReadonlySet<string> };

const checkPath = (scope: Scope, node: PathNode, depth: number): void => {
  addPart(scope.budget);
  // A lambda variable names a row already in scope: `a/slug` is a field of it, not a navigation.
  let current: PathNode = node;
  if (scope.variables.has(node.name) && isPathNode(node.property)) {
    current = node.property;
    addPart(scope.budget);
  }
  let level = depth;
  for (;;) {
    if (current.lambda) {
      level = enter(scope.budget, level, scope.option);
      const variables = new Set(scope.variables);
      if (typeof current.lambda.identifier === 'string') variables.add(current.lambda.identifier);
      checkExpression({ ...scope, variables }, current.lambda.expression, level);
      return;
    }
    if (current.count) {
      level = enter(scope.budget, level, scope.option);
      if (current.options?.$filter !== undefined) {
        checkExpression(scope, current.options.$filter, level);
      }
      return;
    }
    if (!isPathNode(current.property)) return;
    level = enter(scope.budget, level, scope.option);
    current = current.property;
    addPart(scope.budget);
  }
};

const checkExpression = (scope: Scope, node: unknown, depth: number): void => {
  if (isPathNode(node)) return checkPath(scope, node, depth);
  addPart(scope.budget);
  if (!Array.isArray(node)) return;
  const [op, ...args] = node as unknown[];
  if (op === 'call') {
    const call = args[0];
    if (typeof call === 'object' && call !== null && 'args' in call && Array.isArray(call.args)) {
      for (const arg of call.args as unknown[]) checkExpression(scope, arg, depth);
    }
    return;
  }
  for (const arg of args) checkExpression(scope, arg, depth);
};

const checkOptions = (budget: Budget, options: ODataOptions, expandLevel: number): void => {
  const none: ReadonlySet<string> = new Set();
  if (options.$filter !== undefined) {
    checkExpression({ budget, option: '$filter', variables: none }, options.$filter, 0);
  }
  for (const property of options.$orderby?.properties ?? []) {
    checkPath({ budget, option: '$orderby', variables: none }, property, 0);
  }
  if (options.$select !== undefined && options.$select !== '*') {
    for (let i = 0; i < options.$select.properties.length; i++) addPart(budget);
  }
  const expand = options.$expand;
  if (!expand) return;
  if (expandLevel > maxExpandDepth)
    throw badRequest(`$expand deeper than ${maxExpandDepth} levels`);
  if (expand.properties.length > maxExpandItems) {
    throw badRequest(`More than ${maxExpandItems} navigations in one $expand`);
  }
  for (const item of expand.properties) {
    addPart(budget);
    addNavigation(budget);
    if (item.options) checkOptions(budget, item.options, expandLevel + 1);
  }
};

// Throws a 400 naming the limit a parsed request goes over; answers what the request uses.
export const checkQueryLimits = (options: ODataOptions): Budget => {
  const budget = { parts: 0, navigations: 0 };
  checkOptions(budget, options, 1);
  return budget;
};
