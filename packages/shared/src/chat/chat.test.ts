import { describe, expect, it } from 'vitest';
import { directRoomAliasLocalpart, parseDirectRoomAliasLocalpart } from '.';

describe('direct-chat alias', () => {
  const a = '11111111-1111-4111-8111-111111111111';
  const b = '22222222-2222-4222-8222-222222222222';
  it('parses the local part made by directRoomAliasLocalpart back into the two ids', () => {
    expect(parseDirectRoomAliasLocalpart(directRoomAliasLocalpart(b, a))).toEqual([a, b]);
  });
  it('recognises the shape in any order and letter case (ids come back lower-case)', () => {
    expect(parseDirectRoomAliasLocalpart(`${b}_${a}`)).toEqual([b, a]);
    expect(parseDirectRoomAliasLocalpart(`${a.toUpperCase()}_${b}`)).toEqual([a, b]);
  });
  it('is null for other aliases', () => {
    for (const other of ['global', `match_${a}`, `${a}_${b}_x`, `${a}-${b}`, `${a}_${b.slice(1)}`, `${a}_`])
      expect(parseDirectRoomAliasLocalpart(other), other).toBeNull();
  });
});
