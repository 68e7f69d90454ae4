import { describe, expect, it } from 'vitest';
import { navItemsFor } from './navItems';

describe('navigation items', () => {
  it('shows the admin entries only to admins', () => {
    const paths = (role: 'ADMIN' | 'USER') => navItemsFor(true, { _id: 'u1', role }).map((i) => i.to);
    expect(paths('ADMIN')).toEqual(expect.arrayContaining(['/admin/drops', '/admin/users']));
    expect(paths('USER')).not.toContain('/admin/drops');
    expect(paths('USER')).not.toContain('/admin/users');
  });
});
