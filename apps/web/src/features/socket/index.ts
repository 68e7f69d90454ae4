export { type AppSocket, followDraining, getSocket, startSocketSync, useSocketState } from './socket';
export { useSocketEvent } from './useSocketEvent';
