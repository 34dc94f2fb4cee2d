import type { Field, Model, Navigation, Resource, ResourceDefinition } from './model-types.js';

const q = (identifier: string): string => `"${identifier}"`;

const namesOf = (reverse: string | readonly string[] | undefined): readonly string[] =>
  reverse === undefined ? [] : typeof reverse === 'string' ? [reverse] : reverse;

// Turns the declarative definitions into the lookup structure the engine uses, adding the to-one
// navigation of every foreign key, the reverse to-many navigations it declares, and synonyms.
export const buildModel = (
  definitions: Record<string, ResourceDefinition>,
  aliases: Readonly<Record<string, string>> = {},
): Model => {
  const fields = new Map<string, Map<string, Field>>();
  const navigations = new Map<string, Map<string, Navigation>>();
  for (const name of Object.keys(definitions)) {
    fields.set(name, new Map());
    navigations.set(name, new Map());
  }
  const addNavigation = (owner: string, navigation: Navigation): void => {
    const owned = navigations.get(owner);
    if (!owned) throw new Error(`Navigation ${navigation.name} on unknown resource ${owner}`);
    if (owned.has(navigation.name))
      throw new Error(`Duplicate navigation ${owner}.${navigation.name}`);
    if (!navigation.local && fields.get(owner)?.has(navigation.name) === true) {
      throw new Error(`Navigation ${owner}.${navigation.name} clashes with a field`);
    }
    owned.set(navigation.name, navigation);
  };

  for (const [name, definition] of Object.entries(definitions)) {
    const owned = fields.get(name);
    for (const [fieldName, field] of Object.entries(definition.fields)) {
      owned?.set(fieldName, { ...field, name: fieldName, column: fieldName });
    }
  }
  for (const [name, definition] of Object.entries(definitions)) {
    for (const [fieldName, field] of Object.entries(definition.fields)) {
      const target = field.references;
      if (!target) continue;
      if (!definitions[target])
        throw new Error(`${name}.${fieldName} references unknown ${target}`);
      const local = field.computed ?? ((row: string) => `${row}.${q(fieldName)}`);
      addNavigation(name, {
        name: fieldName,
        target,
        many: false,
        local,
        join: (parent, child) => `${child}."id" = ${local(parent)}`,
      });
      for (const reverseName of namesOf(field.reverse)) {
        addNavigation(target, {
          name: reverseName,
          target: name,
          many: true,
          join: (parent, child) => `${local(child)} = ${parent}."id"`,
        });
      }
    }
    for (const [navigationName, navigation] of Object.entries(definition.navigations ?? {})) {
      addNavigation(name, { name: navigationName, ...navigation });
    }
  }
  for (const [name, definition] of Object.entries(definitions)) {
    for (const [alias, canonical] of Object.entries(definition.synonyms ?? {})) {
      const field = fields.get(name)?.get(canonical);
      const navigation = navigations.get(name)?.get(canonical);
      if (!field && !navigation)
        throw new Error(`Synonym ${name}.${alias} of unknown ${canonical}`);
      if (field) fields.get(name)?.set(alias, { ...field, name: alias });
      if (navigation) addNavigation(name, { ...navigation, name: alias });
    }
  }

  const resources = new Map<string, Resource>();
  const throughOf = new Map<string, Resource['readableThrough'][number][]>();
  for (const [name, definition] of Object.entries(definitions)) {
    const through: Resource['readableThrough'][number][] = [];
    throughOf.set(name, through);
    resources.set(name, {
      name,
      fields: fields.get(name) ?? new Map(),
      navigations: navigations.get(name) ?? new Map(),
      alternateKeys: definition.alternateKeys ?? [],
      readOnly: definition.readOnly ?? false,
      scope: definition.scope ?? {},
      readableThrough: through,
    });
  }
  for (const [name, definition] of Object.entries(definitions)) {
    for (const entry of definition.readableThrough ?? []) {
      const other = resources.get(entry.resource);
      if (!other) throw new Error(`${name} is readable through unknown ${entry.resource}`);
      throughOf.get(name)?.push({ resource: other, on: entry.on });
    }
  }
  for (const [alias, target] of Object.entries(aliases)) {
    if (!resources.has(target)) throw new Error(`Resource alias ${alias} of unknown ${target}`);
  }
  return { resources, aliases: new Map(Object.entries(aliases)) };
};
