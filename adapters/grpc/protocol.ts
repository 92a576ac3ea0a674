import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import type { ProtoGrpcType } from './generated/rvtconform.js';

/** The agent protocol as loaded at run time: one loader configuration, shared with the type generator. */

export const PROTO_FILE = 'rvtconform/v1/rvtconform.proto';

/**
 * The .proto sits next to this module in the sources; tsc does not copy it to dist/, so the compiled
 * module finds it back in the sources from dist/adapters/grpc/.
 */
export const PROTO_DIR = [new URL('proto/', import.meta.url), new URL('../../../adapters/grpc/proto/', import.meta.url)]
  .map((url) => fileURLToPath(url))
  .find((dir) => existsSync(`${dir}${PROTO_FILE}`)) ?? fileURLToPath(new URL('proto/', import.meta.url));

/**
 * How messages become JavaScript objects: field names as written, 64-bit integers as decimal
 * strings (exact; the codec makes them bigint), absent fields absent (presence is what the zod
 * schemas judge), absent lists empty. generate.ts passes the same options to proto-loader-gen-types,
 * so the generated types describe exactly these objects.
 */
export const LOADER_OPTIONS = { keepCase: true, longs: String, enums: String, arrays: true } as const;

export const packageDefinition = protoLoader.loadSync(PROTO_FILE, { ...LOADER_OPTIONS, includeDirs: [PROTO_DIR] });

/** The Agent service: its rpcs with their paths, (de)serialisers and message descriptors, typed by the generated code. */
export const agentService = (grpc.loadPackageDefinition(packageDefinition) as unknown as ProtoGrpcType).rvtconform.v1.Agent.service;

export const AGENT_SERVICE_NAME = 'rvtconform.v1.Agent';
