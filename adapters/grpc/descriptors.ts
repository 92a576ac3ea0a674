import type { PackageDefinition } from '@grpc/proto-loader';

/** The parts of a protobuf descriptor (as proto-loader exposes it) that the codec reads. */
export interface FieldDescriptor {
  name: string;
  number: number;
  label: string;
  type: string;
  typeName: string;
  oneofIndex: number;
}

export interface MessageDescriptor {
  name: string;
  field: FieldDescriptor[];
  nestedType: MessageDescriptor[];
  oneofDecl: { name: string }[];
}

/** Looks up a message by the name a field refers to it with. */
export type MessageLookup = (typeName: string) => MessageDescriptor;

/**
 * Every message of a package definition by its simple name. proto-loader gives field type names
 * relative to where they are used ("BadWr", "Sge"), so simple names must be unique in the file:
 * that is checked here rather than resolved scope by scope.
 */
export function messageLookup(definition: PackageDefinition): MessageLookup {
  const byName = new Map<string, MessageDescriptor>();
  const add = (message: MessageDescriptor) => {
    if (byName.has(message.name)) throw new Error(`protocol: two messages are named ${message.name}; give them distinct names`);
    byName.set(message.name, message);
    message.nestedType.forEach(add);
  };
  for (const entry of Object.values(definition)) {
    if ('format' in entry && entry.format === 'Protocol Buffer 3 DescriptorProto') add(entry.type as MessageDescriptor);
  }
  // by the name as written too: the request bound looks one up for every nested message it walks
  const byTypeName = new Map<string, MessageDescriptor>();
  return (typeName) => {
    let message = byTypeName.get(typeName);
    if (message !== undefined) return message;
    message = byName.get(typeName.split('.').pop() ?? typeName);
    if (message === undefined) throw new Error(`protocol: no message ${typeName}`);
    byTypeName.set(typeName, message);
    return message;
  };
}

export const isRepeated = (field: FieldDescriptor) => field.label === 'LABEL_REPEATED';
export const isMessage = (field: FieldDescriptor) => field.type === 'TYPE_MESSAGE';

/**
 * Whether a singular field carries presence: declared `optional` (proto3 gives it a synthetic
 * oneof named after it) or a message. Without presence a zero would arrive as "absent".
 */
export function hasPresence(message: MessageDescriptor, field: FieldDescriptor): boolean {
  return isMessage(field) || message.oneofDecl[field.oneofIndex]?.name === `_${field.name}`;
}
