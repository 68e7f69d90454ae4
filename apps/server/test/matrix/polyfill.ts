/** matrix-js-sdk 43 uses Promise.withResolvers, which Node 20 lacks. */
const P = Promise as unknown as { withResolvers?: unknown };
if (!P.withResolvers) {
  P.withResolvers = <T>() => {
    let resolve!: (v: T | PromiseLike<T>) => void;
    let reject!: (e?: unknown) => void;
    const promise = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };
}
