// The baseline of the sockets benchmark (bench/sockets-bench.ts): a bare Socket.IO server of the
// version the app uses, on a plain node:http server, speaking the same handshake as the app
// (`authenticate {key}` → `authenticated`) without checking anything. What the app costs above
// this is the app's own. PORT from the environment; prints `listening` when ready.
import { createServer } from 'node:http';
import { Server } from 'socket.io';

const http = createServer();
const io = new Server(http, { path: '/socket', serveClient: false });
io.on('connection', (socket) => {
  socket.on('authenticate', () => socket.emit('authenticated', { userId: 'bare' }));
});
http.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening'));
process.on('SIGTERM', () => process.exit(0));
