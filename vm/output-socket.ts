import { once } from 'node:events';
import { type Server, type Socket, createServer } from 'node:net';

/** A Unix socket QEMU connects a chardev to; whatever the guest writes is copied to `sink`. */
export interface OutputSocket {
  path: string;
  /** Stops listening and resolves once everything QEMU sent has been written to the sink. */
  close(): Promise<void>;
}

/**
 * Listening before QEMU starts (QEMU is the client) means no early guest output can be lost,
 * and the socket ends exactly when QEMU exits.
 */
export async function listenForOutput(path: string, sink: NodeJS.WritableStream): Promise<OutputSocket> {
  const connections: Promise<void>[] = [];
  const server: Server = createServer((socket: Socket) => {
    socket.on('data', (chunk: Buffer) => sink.write(chunk));
    // A reset when QEMU is killed just ends the stream; the run reports what happened.
    socket.on('error', () => {});
    connections.push(
      new Promise((resolve) => {
        socket.on('close', () => resolve());
      }),
    );
  });
  server.listen(path);
  await once(server, 'listening');
  return {
    path,
    async close() {
      await Promise.all(connections);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
