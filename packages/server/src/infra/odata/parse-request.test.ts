import { describe, expect, it } from 'vitest';
import { parseODataRequest, withExplicitOrderDirections } from './parse-request.js';

describe('withExplicitOrderDirections', () => {
  it('adds asc to bare items and keeps given directions', () => {
    expect(withExplicitOrderDirections('$orderby=app_name%20desc,id')).toBe(
      '$orderby=app_name%20desc,id%20asc',
    );
    expect(withExplicitOrderDirections('$orderby=a,b%20desc&$top=1')).toBe(
      '$orderby=a%20asc,b%20desc&$top=1',
    );
  });

  it('handles nested $orderby inside $expand and counts with filters', () => {
    expect(
      withExplicitOrderDirections(
        "$expand=owns__device($orderby=device_name;$top=2),x($orderby=device_tag/$count($filter=tag_key%20eq%20'a,b')%20desc,id)",
      ),
    ).toBe(
      "$expand=owns__device($orderby=device_name%20asc;$top=2),x($orderby=device_tag/$count($filter=tag_key%20eq%20'a,b')%20desc,id%20asc)",
    );
  });
});

describe('parseODataRequest', () => {
  it('sorts an item without direction ascending even after a desc item', () => {
    const parsed = parseODataRequest('/application?$orderby=app_name%20desc,id');
    expect(parsed.options.$orderby?.properties.map((p) => p.order)).toEqual(['desc', 'asc']);
  });

  it('parses alternate keys, counts and actions', () => {
    expect(parseODataRequest("/device(uuid='abc')").key).toEqual({ uuid: { bind: 0 } });
    expect(parseODataRequest('/device/$count').count).toBe(true);
    expect(parseODataRequest('/application(1)/restart').action).toBe('restart');
  });

  it('rejects malformed requests with a 400 naming the problem', () => {
    expect(() => parseODataRequest('/device?$filter=eq eq')).toThrow(/Malformed OData request/);
  });
});
