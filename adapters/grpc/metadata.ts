import { createHash, timingSafeEqual } from 'node:crypto';
import type { Metadata } from '@grpc/grpc-js';

/** What travels beside the messages: the bearer token, and the session a verb is for. */

/** Bearer tokens go in `authorization`, as gRPC services conventionally take them. */
const AUTHORIZATION = 'authorization';

/** Names the caller's session, as OpenSession named it. */
const SESSION = 'rvt-session';

export function withToken(metadata: Metadata, token: string): Metadata {
  metadata.set(AUTHORIZATION, `Bearer ${token}`);
  return metadata;
}

/**
 * Whether the call carries the agent's token. Both sides are hashed first so the comparison takes
 * the same time whatever was sent, its length included.
 */
export function tokenMatches(expected: string, metadata: Metadata): boolean {
  const [sent] = metadata.get(AUTHORIZATION);
  const given = typeof sent === 'string' && sent.startsWith('Bearer ') ? sent.slice('Bearer '.length) : '';
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(expected), digest(given));
}

export function withSession(metadata: Metadata, session: string): Metadata {
  metadata.set(SESSION, session);
  return metadata;
}

export function sessionOf(metadata: Metadata): string | undefined {
  const [session] = metadata.get(SESSION);
  return typeof session === 'string' ? session : undefined;
}
