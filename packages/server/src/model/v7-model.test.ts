import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { v7Definitions, v7Model, v7ResourceSynonyms } from './v7-model.js';

// ---- v7.d.ts, the SDK's own typings of the v7 model ------------------------------------------

type V7Kind = 'scalar' | 'to-one' | 'to-many';
type V7Resource = { iface: string; members: ReadonlyMap<string, V7Kind> };

const parseV7 = (): ReadonlyMap<string, V7Resource> => {
  const path = createRequire(import.meta.url).resolve('balena-sdk/es2018/types/v7.d.ts');
  const source = ts.createSourceFile('v7.d.ts', readFileSync(path, 'utf8'), ts.ScriptTarget.Latest);
  const interfaces = new Map<string, Map<string, V7Kind>>();
  const resourceToInterface = new Map<string, string>();
  source.forEachChild((node) => {
    if (!ts.isInterfaceDeclaration(node)) return;
    // `export default interface $Model { <resource name>: <Interface>; ... }`
    if (node.name.text === '$Model') {
      for (const member of node.members) {
        if (ts.isPropertySignature(member) && member.type) {
          resourceToInterface.set(member.name.getText(source), member.type.getText(source));
        }
      }
      return;
    }
    const read = node.members.find((member) => member.name?.getText(source) === 'Read');
    if (!read || !ts.isPropertySignature(read) || !read.type || !ts.isTypeLiteralNode(read.type)) {
      return;
    }
    const members = new Map<string, V7Kind>();
    for (const member of read.type.members) {
      if (!ts.isPropertySignature(member) || !member.type) continue;
      const type = member.type.getText(source);
      // `{__id: X} | [X]` is a to-one foreign key, an optional `Array<X>` a to-many navigation.
      const kind: V7Kind = type.includes('__id')
        ? 'to-one'
        : type.startsWith('Array<')
          ? 'to-many'
          : 'scalar';
      members.set(member.name.getText(source), kind);
    }
    interfaces.set(node.name.text, members);
  });
  const resources = new Map<string, V7Resource>();
  for (const [resource, iface] of resourceToInterface) {
    resources.set(resource, { iface, members: interfaces.get(iface) ?? new Map() });
  }
  return resources;
};

const v7 = parseV7();

// Where Flotilla knowingly differs from v7.d.ts.
const notInV7: Record<string, readonly string[]> = {
  // Every Flotilla row has an id; balena serves social_service_account keyless.
  social_service_account: ['id'],
  // The md5 fingerprint of an SSH key, derived when the key is stored.
  user__has__public_key: ['fingerprint'],
  // Write-only in balena's API (requestVerificationEmail PATCHes it); stored and owner-readable
  // here. pending_email: the owner's new address waiting for its verification link.
  user: ['has_been_sent_verification_email', 'pending_email'],
  // When an application was registered, and when a user authorized it (Preferences lists it).
  oauth_application: ['created_at'],
  oauth_application_authorization: ['created_at'],
  // When a SAML account was linked (shown to its owner).
  saml_account: ['created_at'],
  // The account page reads the username and the account's creation date with the rest of the
  // profile (balena's console reads them there; the SDK's typings leave them out).
  user_profile: ['created_at', 'username'],
  // What a Flotilla agent reports about itself (what it runs, its CPU, the settings it applies).
  device: ['agent_profile'],
};

// v7 members deliberately left out of the model (resources we do not serve, billing, experiments).
const notModelled: Record<string, readonly string[]> = {
  image: ['is__origin__of__delta', 'is_produced_by__delta'],
  organization: [
    'organization__has_private_access_to__device_type',
    'has_private_access_to__device_type',
    'owns_credit_notification_for__feature',
    'subscription',
  ],
  application: [
    'application__has__domain',
    'application_domain_mapping',
    'owns__public_device',
    'can_use__application_as_host',
  ],
  device: ['device__has__fqdn', 'device_domain_mapping'],
  device_type: [
    'describes__public_device',
    'public_device',
    'is_accessible_privately_by__organization',
  ],
  // The can_* flags and belongs_to__organization are marked experimental, not part of v7.
  application_membership_role: [
    ...[...(v7.get('application_membership_role')?.members.keys() ?? [])].filter((name) =>
      name.startsWith('can_'),
    ),
    'belongs_to__organization',
  ],
  feature: [
    'is_of__support_feature',
    'plan__provides__feature',
    'plan_feature',
    'plan__offers__feature',
    'plan_addon',
    'is_offered_by__plan',
  ],
};

// Resources the SDK addresses or expands (wire contract, section 5).
const contractResources = [
  'api_key',
  'application',
  'application_config_variable',
  'application_environment_variable',
  'application_membership_role',
  'application_tag',
  'build_environment_variable',
  'cpu_architecture',
  'credit_bundle',
  'device',
  'device_config_variable',
  'device_environment_variable',
  'device_history',
  'device_service_environment_variable',
  'device_tag',
  'device_type',
  'device_type_alias',
  'image',
  'image_install',
  'invitee__is_invited_to__application',
  'invitee__is_invited_to__organization',
  'organization',
  'organization_membership',
  'organization_membership_role',
  'organization_membership_tag',
  'release',
  'release_asset',
  'release_image',
  'release_tag',
  'service',
  'service_environment_variable',
  'service_install',
  'team',
  'team_application_access',
  'team_membership',
  'user',
  'user__has__public_key',
  'user_application_membership',
];

// Flotilla's own resources (alert rules, ...) are named flotilla_<thing>, and so are the
// navigations to them, so that no name can ever collide with one of balena's.
const isFlotillaOwn = (name: string): boolean => name.includes('flotilla_');

// ---- tests --------------------------------------------------------------------------------------

describe('v7 model', () => {
  it("names Flotilla's own resources apart from every v7 name", () => {
    const own = [...v7Model.resources.keys()].filter(isFlotillaOwn);
    expect(own.filter((name) => v7.has(name))).toEqual([]);
    expect(own.every((name) => name.startsWith('flotilla_'))).toBe(true);
  });

  it('builds', () => {
    expect(v7Model.resources.size).toBe(Object.keys(v7Definitions).length);
    // Guards the parsers below against silently reading nothing.
    expect(v7.get('device')?.members.get('belongs_to__application')).toBe('to-one');
  });

  it('serves every resource the SDK touches', () => {
    const missing = contractResources.filter((name) => !v7Model.resources.has(name));
    expect(missing).toEqual([]);
  });

  it('names only v7 resources, fields and navigations, of the kind v7 gives them', () => {
    const problems: string[] = [];
    for (const [name, resource] of v7Model.resources) {
      if (isFlotillaOwn(name)) continue;
      const typed = v7.get(name);
      if (!typed) {
        problems.push(`${name}: not a v7 resource`);
        continue;
      }
      const exempt = new Set(notInV7[name] ?? []);
      for (const [fieldName, field] of resource.fields) {
        if (field.hidden === true || exempt.has(fieldName)) continue;
        const kind = typed.members.get(fieldName);
        const expected: V7Kind = field.references ? 'to-one' : 'scalar';
        if (kind !== expected)
          problems.push(`${name}.${fieldName}: ${expected}, v7 has ${kind ?? 'nothing'}`);
      }
      for (const [navigationName, navigation] of resource.navigations) {
        if (navigation.local || isFlotillaOwn(navigationName)) continue; // checked above, or ours
        const kind = typed.members.get(navigationName);
        const expected: V7Kind = navigation.many ? 'to-many' : 'to-one';
        if (kind !== expected) {
          problems.push(`${name}.${navigationName}: ${expected}, v7 has ${kind ?? 'nothing'}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('models every v7 member of the resources it serves, unless listed as left out', () => {
    const missing: string[] = [];
    for (const [name, resource] of v7Model.resources) {
      const skipped = new Set(notModelled[name] ?? []);
      for (const member of v7.get(name)?.members.keys() ?? []) {
        if (
          resource.fields.has(member) ||
          resource.navigations.has(member) ||
          skipped.has(member)
        ) {
          continue;
        }
        missing.push(`${name}.${member}`);
      }
      // And the left-out list holds no stale entries.
      for (const member of skipped) {
        if (!v7.get(name)?.members.has(member) || resource.navigations.has(member)) {
          missing.push(`${name}.${member} (stale notModelled entry)`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('lists every other v7 name of a served resource as a synonym', () => {
    for (const [alias, canonical] of Object.entries(v7ResourceSynonyms)) {
      expect(v7Model.resources.has(canonical), canonical).toBe(true);
      expect(v7.get(alias)?.iface, alias).toBe(v7.get(canonical)?.iface);
    }
    const servedInterfaces = new Set(
      [...v7Model.resources.keys()].map((name) => v7.get(name)?.iface),
    );
    const unlisted = [...v7.entries()]
      .filter(([name, { iface }]) => servedInterfaces.has(iface) && !v7Model.resources.has(name))
      .map(([name]) => name)
      .filter((name) => !(name in v7ResourceSynonyms));
    expect(unlisted).toEqual([]);
  });

  it('produces SQL for every computed field, scope and extra navigation', () => {
    for (const resource of v7Model.resources.values()) {
      const sql = [
        ...[...resource.fields.values()].flatMap((field) => field.computed?.('"r"') ?? []),
        ...Object.values(resource.scope).map((scope) => scope('"r"')),
        ...[...resource.navigations.values()].map((navigation) => navigation.join('"p"', '"c"')),
      ];
      for (const expression of sql) {
        expect(expression).not.toMatch(/undefined|\[object/);
        // Balanced parentheses, a cheap guard against a broken template.
        const depth = [...expression].reduce(
          (level, char) => level + (char === '(' ? 1 : char === ')' ? -1 : 0),
          0,
        );
        expect(depth, expression).toBe(0);
      }
    }
  });
});
