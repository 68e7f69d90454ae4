// Preloaded (--import) into each server process of the sockets benchmark (bench/sockets-bench.ts):
// answers the bench over the IPC channel with the process's own figures, so the clients' work
// (other processes) never counts. Needs --expose-gc for after-GC memory.
//
//   {cmd: 'cpu'}                → {cpu}  user+system µs, all threads, plus the process's children
//                                 (the embedded database's process, db/engine.ts), from /proc
//   {cmd: 'mem'}                → {mem: process.memoryUsage(), nofile} after two full GCs
//   {cmd: 'profile-start'}      → {}                                 V8 CPU profiler on
//   {cmd: 'profile-stop', file} → {}                                 the .cpuprofile written to file
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

let session = null;

/** user and system µs of this process's live children (/proc/<pid>/stat fields 14 and 15, in ticks). */
function childrenCpu() {
  const total = { user: 0, system: 0 };
  let pids = [];
  try {
    for (const task of readdirSync('/proc/self/task'))
      pids = pids.concat(
        readFileSync(`/proc/self/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean),
      );
  } catch {
    return total;
  }
  const TICK_US = 1e6 / 100; // USER_HZ is 100 on Linux
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      total.user += Number(fields[11]) * TICK_US;
      total.system += Number(fields[12]) * TICK_US;
    } catch {}
  }
  return total;
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

process.on('message', async (msg) => {
  if (!msg || typeof msg !== 'object' || !msg.cmd) return;
  const reply = (body) => process.send?.({ id: msg.id, ...body });
  switch (msg.cmd) {
    case 'cpu': {
      const own = process.cpuUsage();
      const children = childrenCpu();
      return reply({ cpu: { user: own.user + children.user, system: own.system + children.system } });
    }
    case 'mem': {
      for (let i = 0; i < 2; i++) {
        globalThis.gc?.();
        await settle();
      }
      const limits = readFileSync('/proc/self/limits', 'utf8').match(/Max open files\s+(\d+)/);
      return reply({ mem: process.memoryUsage(), nofile: limits ? Number(limits[1]) : null });
    }
    case 'profile-start':
      session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 500 });
      await session.post('Profiler.start');
      return reply({});
    case 'profile-stop': {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(msg.file, JSON.stringify(profile));
      session.disconnect();
      session = null;
      return reply({});
    }
  }
});
// The IPC channel must not keep a server alive that was told to stop.
process.channel?.unref();
