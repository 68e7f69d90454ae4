// autocannon `setupRequest` for its worker threads (which take functions only as files to
// require): each request takes the next path of the JSON list in the file BENCH_PATHS_FILE.
// A request list of 2,000 entries instead made autocannon queue on its own side in the open loop.
const paths = JSON.parse(require('node:fs').readFileSync(process.env.BENCH_PATHS_FILE, 'utf8'));
let turn = 0;
module.exports = (request) => ({ ...request, path: paths[turn++ % paths.length] });
