import odataParser from '@balena/odata-parser';
import { describe, expect, it } from 'vitest';
import { v7Model } from '../../model/v7-model.js';
import { odataCall } from '../../test-support/fuzz/odata-requests.js';
import { createRandom } from '../../test-support/fuzz/prng.js';
import { normalizeODataPath } from './parse-request.js';
import { probeText, renderShape, requestShape } from './request-shape.js';

const keyOf = (url: string): string | undefined => requestShape(url)?.key;

// The binds @balena/odata-parser makes for a URL, as plain arrays.
const parserBinds = (url: string): unknown[] =>
  odataParser.parse(normalizeODataPath(url)).binds.map((bind) => [...bind]);

const ourBinds = (url: string): unknown[] | undefined =>
  requestShape(normalizeODataPath(url))?.literals.map((literal) => [...literal.bind]);

describe('request shapes', () => {
  it('lifts every literal the parser binds, with the parser’s value', () => {
    const urls = [
      '/device?$filter=belongs_to__application%20eq%2012%20and%20is_online%20eq%20true&$top=50&$skip=100&$orderby=device_name',
      "/device(uuid='abc')?$select=id",
      "/service(application=12,service_name='ma''in')?$select=id",
      "/device_tag(tag_key='a,b)',device=3)",
      '/device/$count?$filter=id eq 5',
      "/application?$filter=is_of__class eq 'fleet' and is_directly_accessible_by__user/any(dau:1 eq 1)&$expand=owns__device/$count($filter=overall_status eq 'operational')",
      '/device?$filter=id in (1, 2,3)',
      "/device?$filter=device_name in ('a','b') or id in ('a',2,-3.5,true)",
      "/device?$filter=created_at gt datetime'2020-01-01T00:00:00Z' and created_at lt date'2030-01-01'",
      "/device?$filter=device_name eq 'O''Brien %26 co' or device_name eq %27x%27%27y%27",
      "/device?$filter=note eq 'a+b,c(d)&e=f;g''' and cpu_usage eq -5.5",
      '/device?$filter=cpu_usage eq 99999999999999999999',
      "/device?$expand=device_tag($filter=tag_key eq 'room';$top=2)&$count=true",
      "/device?$filter=contains(device_name,'x') and length(device_name) gt 3 and not(is_online eq false)",
    ];
    for (const url of urls) expect(ourBinds(url), url).toEqual(parserBinds(url));
  });

  it('keys requests that differ only in literal values alike, and literal classes apart', () => {
    const same = [
      [
        "/device?$filter=device_name eq 'a'&$top=5",
        "/device?$filter=device_name eq 'b c'&$top=500",
      ],
      ['/device(5)', '/device(70000)'],
      ['/device?$filter=id in (1,2,3)', '/device?$filter=id in (4)'],
      ["/device?$filter=device_name in ('a','b')", "/device?$filter=device_name in ('c')"],
      ['/device?$filter=is_online eq true', '/device?$filter=is_online eq false'],
    ];
    for (const [a = '', b = ''] of same) expect(keyOf(a), `${a} / ${b}`).toBe(keyOf(b));
    const apart = [
      ['/device?$filter=cpu_usage eq 5', '/device?$filter=cpu_usage eq 5.5'],
      ['/device?$filter=cpu_usage eq 5', "/device?$filter=cpu_usage eq '5'"],
      ['/device?$filter=cpu_usage eq 5', '/device?$filter=cpu_usage eq 99999999999999999999'],
      ["/device?$filter=id in (1,'a')", '/device?$filter=id in (1,2)'],
      ["/device?$filter=id in (1,'a')", "/device?$filter=id in (1,'a','b')"],
      [
        "/device?$filter=created_at gt datetime'2020-01-01'",
        "/device?$filter=created_at gt date'2020-01-01'",
      ],
    ];
    for (const [a = '', b = ''] of apart) expect(keyOf(a), `${a} / ${b}`).not.toBe(keyOf(b));
  });

  it('leaves alone what it does not read', () => {
    for (const url of [
      '/device?$filter=id eq @x&@x=5',
      "/device?$filter=a eq duration'P1D'",
      "/device?$filter=O'Brien eq 1",
      '/device?$filter=cpu_usage eq 5abc',
      '/device?$filter=cpu_usage eq 1.',
      "/device?$filter=device_name eq 'unterminated",
      "/device?$filter=device_name eq '%E0%A4%A'",
      "/device?$filter=created_at gt datetime'not a date'",
      '/device?$filter=id in (1,a)',
    ]) {
      expect(requestShape(url), url).toBeUndefined();
    }
  });

  it('does not lift $count=true, names with digits or numbers after a slash', () => {
    expect(keyOf('/device?$count=true&$select=t0,a1')).toBe('/device?$count=true&$select=t0,a1');
    expect(keyOf('/device?$filter=a/5 eq 1')).toBe('/device?$filter=a/5 eq \u0000n\u0000');
  });

  it('renders the URL back from its literals, and probes of the same shape', () => {
    const random = createRandom(20_250_901);
    let shaped = 0;
    for (let index = 0; index < 500; index++) {
      const url = normalizeODataPath(
        odataCall(random, v7Model, 'GET', [1, 2, 3]).url.slice('/v7'.length),
      );
      const shape = requestShape(url);
      if (!shape) continue;
      shaped++;
      expect(
        renderShape(
          shape,
          shape.literals.map((literal) => literal.text),
        ),
      ).toBe(url);
      const probe = renderShape(
        shape,
        shape.literals.map((literal, at) => probeText(literal, at)),
      );
      expect(requestShape(probe)?.key, probe).toBe(shape.key);
    }
    expect(shaped).toBeGreaterThan(150);
  });
});
