/** The queue widget (Play, Leave, accept phase; SPEC §4). Filled by the queue feature. */
export function QueueWidget() {
  return null;
}
