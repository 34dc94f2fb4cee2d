import { describe, expect, it } from 'vitest';
import { createFakeApi } from './fake-api.js';

const world = () => ({
  team_membership: [
    { id: 1, user: { __id: 7 }, is_member_of__team: { __id: 20 } },
    { id: 2, user: { __id: 8 }, is_member_of__team: { __id: 20 } },
    { id: 3, user: { __id: 9 }, is_member_of__team: { __id: 21 } },
  ],
});

describe('the fake API writes and refusals', () => {
  it('a DELETE by filter removes the matching rows and records the filter', async () => {
    const api = createFakeApi(world());
    await api.client.pine.delete({
      resource: 'team_membership',
      options: { $filter: { id: { $in: [1, 3] } } },
    });
    expect(api.data.team_membership?.map((row) => row.id)).toEqual([2]);
    expect(api.writes).toEqual([
      {
        method: 'DELETE',
        resource: 'team_membership',
        id: undefined,
        body: undefined,
        filter: 'id in (1,3)',
      },
    ]);
  });

  it('a refused read fails once, only where it matches', async () => {
    const api = createFakeApi(world());
    api.refuseNextRead('team_membership', 'database away', {
      matches: (url) => url.searchParams.get('$filter') === 'id eq 2',
    });
    const read = (id: number) =>
      api.client.pine.get({ resource: 'team_membership', options: { $filter: { id } } });
    expect(await read(1)).toHaveLength(1);
    await expect(read(2)).rejects.toThrow('database away');
    expect(await read(2)).toHaveLength(1);
  });

  it('a PATCH goes through the resource shape when one is given', async () => {
    const api = createFakeApi(world());
    api.shapeUpdated('team_membership', (row, body) => ({
      ...row,
      is_member_of__team: { __id: body.is_member_of__team },
    }));
    await api.client.pine.patch({
      resource: 'team_membership',
      id: 1,
      body: { is_member_of__team: 21 },
    });
    expect(api.data.team_membership?.[0]).toEqual({
      id: 1,
      user: { __id: 7 },
      is_member_of__team: { __id: 21 },
    });
  });
});
