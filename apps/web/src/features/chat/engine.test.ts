import { ConnectionError, MatrixError } from 'matrix-js-sdk';
import { describe, expect, it } from 'vitest';
import { rejectsCredentials } from './engine';

describe('chat login failures (docs/contract.md §8: a chat login failure logs out)', () => {
  it('treats a refused token as a login failure', () => {
    expect(
      rejectsCredentials(new MatrixError({ errcode: 'M_UNKNOWN_TOKEN', error: 'Unknown token' }, 401)),
    ).toBe(true);
    expect(rejectsCredentials(new MatrixError({ errcode: 'M_FORBIDDEN', error: 'Forbidden' }, 403))).toBe(
      true,
    );
  });

  it('does not end the session for network failures, aborted requests or server errors', () => {
    expect(rejectsCredentials(new ConnectionError('fetch failed'))).toBe(false);
    expect(rejectsCredentials(new DOMException('The user aborted a request.', 'AbortError'))).toBe(false);
    expect(rejectsCredentials(new MatrixError({ errcode: 'M_UNKNOWN', error: 'boom' }, 502))).toBe(false);
    expect(rejectsCredentials(null)).toBe(false);
  });
});
