export * from './constants';
export * from './errors';
export * from './list';
export * from './socket';
export * from './status';
export * from './version';
export * from './queue';
export * from './match';
