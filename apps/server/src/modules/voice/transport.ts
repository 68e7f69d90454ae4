/**
 * How ServerQuery text reaches the server: a raw TCP socket (TeamSpeak 3 `query_protocols=raw`,
 * default port 10011) or the shell channel of an SSH session (TeamSpeak 3 since 3.3
 * `query_protocols=ssh`, TeamSpeak 6 `--query-ssh-enable`, default port 10022; TeamSpeak 6 has no
 * raw query port at all). Both carry the same commands and replies; over SSH the SSH login
 * (user/password) stands in for the `login` command.
 *
 * A transport only moves text: `open()` resolves once text can flow, 'data' carries chunks as
 * they come, 'close' fires exactly once when the link is gone (whoever ended it).
 */
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import net from 'node:net';
import ssh2 from 'ssh2';

export interface QueryTransport {
  readonly protocol: 'raw' | 'ssh';
  /** Whether the transport's own login replaces the ServerQuery `login` command. */
  readonly authenticated: boolean;
  open(): Promise<void>;
  write(text: string): void;
  /** Ends the link at once; 'close' follows. */
  destroy(): void;
  on(event: 'data', fn: (chunk: string) => void): this;
  on(event: 'close', fn: () => void): this;
}

/** `SHA256:<base64 without padding>` of an SSH public key blob, as `ssh-keygen -lf` prints it. */
export function sshFingerprint(publicKeyBlob: Buffer): string {
  return `SHA256:${createHash('sha256').update(publicKeyBlob).digest('base64').replace(/=+$/, '')}`;
}

/** Accepts `SHA256:abc…`, `abc…` and a trailing `=` padding; compares the base64 part. */
export function sameFingerprint(pinned: string, seen: string): boolean {
  const norm = (f: string) =>
    f
      .trim()
      .replace(/^SHA256:/i, '')
      .replace(/=+$/, '');
  return norm(pinned) === norm(seen);
}

export class HostKeyMismatchError extends Error {
  constructor(
    readonly expected: string,
    readonly seen: string,
  ) {
    super(
      `TeamSpeak SSH host key ${seen} does not match TEAMSPEAK_SSH_HOST_KEY ${expected}; refusing to connect`,
    );
  }
}

export class RawTcpTransport extends EventEmitter implements QueryTransport {
  readonly protocol = 'raw' as const;
  readonly authenticated = false;
  private socket: net.Socket | null = null;
  private closed = false;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly connectTimeoutMs: number,
  ) {
    super();
  }

  open(): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = net.createConnection({ host: this.host, port: this.port });
      this.socket = socket;
      socket.setEncoding('utf8');
      socket.setNoDelay(true);
      socket.setTimeout(this.connectTimeoutMs, () =>
        socket.destroy(new Error(`ServerQuery TCP connect to ${this.host}:${this.port} timed out`)),
      );
      socket.once('connect', () => {
        socket.setTimeout(0);
        resolve();
      });
      socket.on('data', (chunk: string) => this.emit('data', chunk));
      socket.on('error', (err) => reject(err));
      socket.on('close', () => {
        reject(new Error('ServerQuery connection closed'));
        this.finish();
      });
    });
  }

  write(text: string): void {
    this.socket?.write(text);
  }

  destroy(): void {
    if (this.socket) this.socket.destroy();
    else this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.emit('close');
  }
}

export interface SshTransportOptions {
  host: string;
  port: number;
  username: string;
  password: string;
  /** Pinned host-key fingerprint (`SHA256:…`); without it the fingerprint seen is reported once. */
  hostKey?: string;
  connectTimeoutMs: number;
  /** Called with the fingerprint the server showed when none is pinned. */
  onUnpinnedHostKey?(fingerprint: string): void;
}

export class SshTransport extends EventEmitter implements QueryTransport {
  readonly protocol = 'ssh' as const;
  readonly authenticated = true;
  private readonly client = new ssh2.Client();
  private stream: ssh2.ClientChannel | null = null;
  private closed = false;
  private mismatch: HostKeyMismatchError | null = null;

  constructor(private readonly opts: SshTransportOptions) {
    super();
  }

  open(): Promise<void> {
    return new Promise((resolve, reject) => {
      const client = this.client;
      client.on('ready', () => {
        // No pty (`false`): the query shell then neither echoes nor rewrites line ends.
        client.shell(false, (err, stream) => {
          if (err) {
            reject(err);
            client.end();
            return;
          }
          this.stream = stream;
          stream.setEncoding('utf8');
          stream.on('data', (chunk: string) => this.emit('data', chunk));
          stream.stderr.on('data', () => undefined);
          stream.on('close', () => client.end());
          resolve();
        });
      });
      client.on('error', (err) => reject(this.mismatch ?? err));
      client.on('close', () => {
        reject(this.mismatch ?? new Error('ServerQuery SSH connection closed'));
        this.finish();
      });
      try {
        client.connect({
          host: this.opts.host,
          port: this.opts.port,
          username: this.opts.username,
          password: this.opts.password,
          readyTimeout: this.opts.connectTimeoutMs,
          // Without hostHash ssh2 hands over the raw public-key blob.
          hostVerifier: (key: Buffer) => {
            const seen = sshFingerprint(key);
            if (!this.opts.hostKey) {
              this.opts.onUnpinnedHostKey?.(seen);
              return true;
            }
            if (sameFingerprint(this.opts.hostKey, seen)) return true;
            this.mismatch = new HostKeyMismatchError(this.opts.hostKey, seen);
            return false;
          },
        });
      } catch (err) {
        reject(err);
        this.finish();
      }
    });
  }

  write(text: string): void {
    this.stream?.write(text);
  }

  destroy(): void {
    this.client.destroy();
    // ssh2 emits 'close' on destroy once connected; before that nothing else would.
    setImmediate(() => this.finish());
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.emit('close');
  }
}
