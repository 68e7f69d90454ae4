import { describe, expect, it } from 'vitest';
import { compareVersions, ERROR_TEXTS, errorBodySchema, listQuerySchema, listQueryString } from './index';

describe('compareVersions', () => {
  it('compares numerically by dot segments', () => {
    expect(compareVersions('1.10.0', '1.9.3')).toBe(1);
    expect(compareVersions('1.2', '1.2.0')).toBe(0);
    expect(compareVersions('0.1.0.1700000000', '0.1.0.1800000000')).toBe(-1);
  });
});

describe('error catalogue', () => {
  it('has a German text for every English key', () => {
    expect(Object.keys(ERROR_TEXTS.de).sort()).toEqual(Object.keys(ERROR_TEXTS.en).sort());
  });
  it('validates error bodies', () => {
    expect(errorBodySchema.safeParse({ errors: { msg: 'NOT_FOUND' } }).success).toBe(true);
    expect(errorBodySchema.safeParse({ errors: { msg: 'NOPE' } }).success).toBe(false);
  });
});

describe('list query', () => {
  it('coerces query-string values and applies defaults', () => {
    expect(listQuerySchema.parse({ page: '2', limit: '25', order: '-1', sort: 'elo' })).toEqual({
      page: 2,
      limit: 25,
      order: -1,
      sort: 'elo',
    });
    expect(listQuerySchema.parse({})).toEqual({ page: 1, limit: 10 });
  });
  it('refuses nonsense instead of clamping', () => {
    expect(listQuerySchema.safeParse({ page: '0' }).success).toBe(false);
    expect(listQuerySchema.safeParse({ limit: '1000' }).success).toBe(false);
    expect(listQuerySchema.safeParse({ order: '2' }).success).toBe(false);
  });
  it('is built from a table paging state', () => {
    expect(
      listQueryString({ sortBy: 'elo', descending: true, page: 1, rowsPerPage: 10, filter: 'ann' }),
    ).toBe('?sort=elo&order=-1&page=1&limit=10&filter=ann');
  });
});
