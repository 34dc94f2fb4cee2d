import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors/api-error.js';
import { parseODataRequest } from './parse-request.js';
import { maxExpandDepth, maxFilterDepth, maxNavigations, maxQueryParts } from './query-limits.js';

const parse = (url: string) => parseODataRequest(url.replaceAll(' ', '%20'));

const refusal = (url: string): string => {
  try {
    parse(url);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'bad_request') return error.message;
    throw error;
  }
  throw new Error(`accepted: ${url}`);
};

// `levels` any() nested in one another, alternating device <-> application.
const nestedAny = (levels: number): string => {
  const variable = (level: number): string => `v${String.fromCharCode(96 + level)}`;
  let inner = `${variable(levels)}/id gt 0`;
  for (let level = levels; level >= 1; level--) {
    const navigation = level % 2 === 1 ? 'belongs_to__application' : 'owns__device';
    const parent = level === 1 ? '' : `${variable(level - 1)}/`;
    inner = `${parent}${navigation}/any(${variable(level)}:${inner})`;
  }
  return `/device?$filter=${inner}`;
};

const nestedExpand = (levels: number): string => {
  let expand = 'organization';
  for (let level = 1; level < levels - 1; level++) {
    expand = level % 2 === 1 ? `application($expand=${expand})` : `organization($expand=${expand})`;
  }
  return `/device?$expand=belongs_to__application($expand=${expand})`;
};

describe('limits of one /v7 request', () => {
  it('accepts the deepest requests balena-sdk and the console send', () => {
    const accepted = [
      // balena-sdk: models.os.getSupervisorReleasesForCpuArchitecture (request catalogue).
      "/release?$select=id,raw_version,known_issue_list,id&$filter=status eq 'success' and is_final eq true and is_invalidated eq false and semver_major gt 0 and belongs_to__application/any(a:startswith(a/slug,'balena_os/') and endswith(a/slug,'-supervisor') and a/is_public eq true and a/is_host eq false and a/is_for__device_type/any(dt:dt/is_of__cpu_architecture eq 1)) and raw_version eq '16.2.0'&$orderby=semver_major desc,semver_minor desc,semver_patch desc,revision desc&$top=1",
      // balena-sdk: models.device.serviceVar.getAllByApplication.
      '/device_service_environment_variable?$filter=service_install/any(si:si/device/any(d:d/belongs_to__application eq 1))&$orderby=name asc',
      // The console's fleet role lookup (useFleetRole.ts).
      '/team_application_access?$select=id&$filter=grants_access_to__application eq 1 and team/any(t:t/team_membership/any(tm:tm/user eq 2))&$expand=application_membership_role($select=name)',
      // balena-sdk: models.application.get with devices, installs and their images.
      "/application?$filter=slug eq 'myorg/myfleet'&$expand=owns__device($expand=image_install($select=id,status;$filter=status ne 'deleted';$expand=image($select=id;$expand=is_a_build_of__service($select=id,service_name)),is_provided_by__release($select=id,commit)))",
      `/device?$filter=id in (${Array.from({ length: 200 }, (_, index) => index + 1).join(',')})`,
      nestedAny(maxFilterDepth),
      nestedExpand(maxExpandDepth),
    ];
    for (const url of accepted) expect(() => parse(url), url).not.toThrow();
  });

  it('refuses any()/all() nested deeper than the limit, naming it', () => {
    expect(refusal(nestedAny(maxFilterDepth + 1))).toBe(
      `$filter nests navigations (any()/all(), paths, $count) deeper than ${maxFilterDepth} levels`,
    );
    // The report: 20 nested any() in a 1,190-character URL ran for 27 s.
    expect(refusal(nestedAny(20))).toMatch(/deeper than 4 levels/);
  });

  it('counts navigation paths and $count as levels, in $filter and $orderby alike', () => {
    // Four hops (the limit), then five.
    const fourHops = 'belongs_to__application/organization/application/owns__device/device_name';
    const path = `belongs_to__application/${fourHops}`;
    expect(() => parse(`/device?$filter=${fourHops} eq 'x'`)).not.toThrow();
    expect(refusal(`/device?$filter=${path} eq 'x'`)).toMatch(/^\$filter nests .* deeper than/);
    expect(refusal(`/device?$orderby=${path} asc`)).toMatch(/^\$orderby nests .* deeper than/);
    expect(
      refusal(
        '/device?$filter=device_tag/any(a:a/device/any(b:b/belongs_to__application/any(c:c/owns__device/any(d:d/device_tag/$count gt 0))))',
      ),
    ).toMatch(/deeper than/);
  });

  it('refuses $expand deeper or wider than the limits', () => {
    expect(refusal(nestedExpand(maxExpandDepth + 1))).toBe(
      `$expand deeper than ${maxExpandDepth} levels`,
    );
    const wide = Array.from({ length: 51 }, (_, index) => `n${index}`).join(',');
    expect(refusal(`/device?$expand=${wide}`)).toBe('More than 50 navigations in one $expand');
  });

  it('bounds wide requests: parts and navigations in total', () => {
    const wideFilter = Array.from({ length: maxQueryParts }, (_, index) => `id eq ${index}`).join(
      ' or ',
    );
    expect(refusal(`/device?$filter=${wideFilter}`)).toBe(
      `The request has more than ${maxQueryParts} parts ($filter, $orderby, $expand and $select together)`,
    );
    const counts = Array.from({ length: maxNavigations + 1 }, () => 'device_tag/$count gt 0').join(
      ' or ',
    );
    expect(refusal(`/device?$filter=${counts}`)).toBe(
      `The request uses more than ${maxNavigations} navigations ($expand, any()/all(), paths, $count)`,
    );
  });
});
