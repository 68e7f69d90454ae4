// The whole contract, one export for consumers (`@openpug/shared`). Feature folders are named like
// the server module that owns them (docs/architecture.md, "One name per feature"); the top-level
// files are cross-cutting: catalogue, constants, ids, lists, socket map, user status, version.
export * from './about';
export * from './accounts';
export * from './accounts/directory';
export * from './admin';
export * from './arena';
export * from './chat';
export * from './constants';
export * from './dev';
export * from './discord';
export * from './drops';
export * from './error-body';
export * from './errors';
export * from './friends';
export * from './health';
export * from './ids';
export * from './insights';
export * from './list';
export * from './matches';
export * from './mobile';
export * from './moderation';
export * from './presence';
export * from './privacy';
export * from './queue';
export * from './queue-alerts';
export * from './ranking';
export * from './reports';
export * from './socket';
export * from './status';
export * from './steam';

export * from './version';
export * from './whatsapp';
