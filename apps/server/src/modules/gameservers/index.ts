// The gameservers module's leaf entry: the server pool's configuration, the RCON client and the
// CS2 status parser, which the arena and config use without the match services.
export { parseCs2StatusJson } from './cs2-status';
export { type Cs2Server, parseServerPool, ServerPoolError } from './pool';
export { withRcon } from './rcon';
