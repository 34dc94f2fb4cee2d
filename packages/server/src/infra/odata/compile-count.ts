import type { Navigation } from '../../model/model-types.js';
import type { CompileContext, RowScope } from './compile-context.js';
import { bindType, isBindReference, literalKind } from './odata-values.js';
import { quoteIdentifier } from './sql-params.js';

// `nav/$count($filter=field eq 'literal')` answered by the field's own count
// (FieldDefinition.countEquals), e.g. a fleet's devices in one overall_status from the status tally
// instead of from every device. Undefined when the request is not exactly that shape, or when the
// actor's read filter on the counted rows depends on more than their parent (then only a row by row
// count respects it); `read` is that filter, over `child`.
export const countByEquality = (
  ctx: CompileContext,
  from: RowScope,
  navigation: Navigation,
  child: RowScope,
  read: string,
  filter: unknown,
): string | undefined => {
  if (!Array.isArray(filter) || filter.length !== 3 || filter[0] !== 'eq') return undefined;
  const [, left, right] = filter as [unknown, unknown, unknown];
  const [path, reference] = isBindReference(right)
    ? [left, right]
    : isBindReference(left)
      ? [right, left]
      : [];
  if (!isBindReference(reference) || !isPlainName(path)) return undefined;
  const field = child.resource.fields.get(path.name);
  const shortcut = field?.countEquals;
  if (!field || !shortcut || field.hidden || field.ownerOnly) return undefined;
  const via = `${child.alias}.${quoteIdentifier(shortcut.via)}`;
  const parent = `${from.alias}."id"`;
  if (navigation.join(from.alias, child.alias) !== `${via} = ${parent}`) return undefined;
  const permitted = read.split(via).join(parent);
  if (permitted.includes(child.alias)) return undefined;
  if (literalKind(bindType(ctx.binds, reference)) !== 'text' || field.type !== 'text') {
    return undefined;
  }
  const count = shortcut.count(parent, String(ctx.pin(reference)));
  return count === undefined ? undefined : `(CASE WHEN ${permitted} THEN ${count} ELSE 0 END)`;
};

const isPlainName = (node: unknown): node is { name: string } =>
  typeof node === 'object' &&
  node !== null &&
  !Array.isArray(node) &&
  'name' in node &&
  typeof node.name === 'string' &&
  Object.keys(node).length === 1;
