import { describe, expect, it } from 'vitest';
import { answerRead, type FakeData, FakeApiError } from './fake-odata.js';

const data = (): FakeData => ({
  device: [
    {
      id: 1,
      device_name: 'Alpha',
      uuid: 'a1',
      belongs_to__application: { __id: 12 },
      device_tag: [{ id: 9, tag_key: 'site', value: 'north' }],
    },
    {
      id: 2,
      device_name: 'beta',
      uuid: 'b2',
      belongs_to__application: { __id: 13 },
      device_tag: [],
    },
  ],
});

const read = (url: string): unknown => answerRead(data(), url);

describe('the fake API reads', () => {
  it('filters, selects, orders, pages and counts', () => {
    expect(read('/device?$select=id&$filter=belongs_to__application eq 12')).toEqual([{ id: 1 }]);
    expect(read("/device?$select=id&$filter=contains(tolower(device_name),'alp')")).toEqual([
      { id: 1 },
    ]);
    expect(read('/device?$select=id&$orderby=id desc&$top=1')).toEqual([{ id: 2 }]);
    expect(read('/device/$count?$filter=id in (1,2)')).toBe(2);
    expect(read('/device(2)?$select=uuid')).toEqual([{ uuid: 'b2' }]);
  });

  it('expands navigations and filters through them', () => {
    expect(
      read(
        "/device?$select=id&$filter=device_tag/any(t:t/tag_key eq 'site')&$expand=device_tag($select=value)",
      ),
    ).toEqual([{ id: 1, device_tag: [{ value: 'north' }] }]);
    expect(read('/device?$select=id&$orderby=device_tag/$count desc,id desc')).toEqual([
      { id: 1 },
      { id: 2 },
    ]);
    expect(read('/device?$select=id&$orderby=device_tag/$count asc')).toEqual([
      { id: 2 },
      { id: 1 },
    ]);
    expect(read('/device?$select=id&$expand=device_tag/$count')).toEqual([
      { id: 1, device_tag: 1 },
      { id: 2, device_tag: 0 },
    ]);
  });

  it('throws on what it does not understand or the fixture lacks', () => {
    expect(() => read("/device?$filter=substringof('a',device_name)")).toThrow(FakeApiError);
    expect(() => read("/device?$filter=note eq 'x'")).toThrow(/lacks "note"/);
    expect(() => read('/device?$select=id&$expand=image_install')).toThrow(FakeApiError);
    expect(() => read('/device?$inlinecount=allpages')).toThrow(/option/);
  });
});
