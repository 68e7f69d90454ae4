// Admin contract (server module `admin`): the match tools and the users table's role change.
export * from './match-tools';
export * from './roles';
