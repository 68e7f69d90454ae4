export { type AppSocket, getSocket, startSocketSync, useSocketState } from './socket';
export { useSocketEvent } from './useSocketEvent';
