export { type EmitOptions, emitWithAck, SocketRefusal } from './emit';
export { onServerEvents, type ServerEventHandlers, useSocketEvent } from './events';
export { type AppSocket, followDraining, getSocket, startSocketSync, useSocketState } from './socket';
