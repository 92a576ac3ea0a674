import { typedefName } from './declaration-rewrites.js';
import type { EntryBody } from './doc-body.js';
import { enumConstants } from './enum-constants.js';
import { diagnostic, type Diagnostic, type DocEntry, type DocKind, type DocParam } from './schema.js';
import { structMembers } from './struct-members.js';
import type { TypeDeclaration } from './type-declaration.js';

type Declared = { kind: 'ok'; type: Exclude<DocKind, 'function'>; name: string; members: string[] } | { kind: 'mismatch'; declaredName: string } | { kind: 'unparsable' };

/** What the declaration after a type's comment declares, by the script's reader for the kind the comment names. */
function declared(body: EntryBody, text: string): Declared {
  if (body.declares === 'enum') {
    const result = enumConstants(text, body.name);
    return result.kind === 'ok' ? { kind: 'ok', type: 'enum', name: result.name, members: result.constants } : result;
  }
  if (body.declares === 'typedef') {
    const name = typedefName(text);
    if (name === null) return { kind: 'unparsable' };
    return name === body.name ? { kind: 'ok', type: 'typedef', name, members: [] } : { kind: 'mismatch', declaredName: name };
  }
  return structMembers(text, body.name);
}

/**
 * The struct, union, enum or typedef a comment documents, or none (and why), as the script drops
 * a comment whose declaration is missing, unreadable or another's. Its members are the declared
 * ones with a description (in the comment or inline in the body, the later one kept), in
 * declaration order, as the page lists them.
 */
export function typeEntry(
  body: EntryBody,
  declaration: TypeDeclaration | null,
  commentLine: number,
  file: string,
  diagnostics: Diagnostic[],
): DocEntry[] {
  const what = `${body.declares} ${body.name}`;
  if (!declaration) {
    diagnostics.push(diagnostic(file, commentLine, 'missing-declaration', `no declaration of ${what} follows its comment; the comment is dropped`));
    return [];
  }
  const result = declared(body, declaration.text);
  if (result.kind === 'mismatch') {
    const message = `comment documents ${what} but the declaration after it is ${result.declaredName}; the comment is dropped`;
    diagnostics.push(diagnostic(file, declaration.line, 'name-mismatch', message));
    return [];
  }
  if (result.kind === 'unparsable') {
    diagnostics.push(diagnostic(file, declaration.line, 'unparsable-declaration', `cannot read the declaration of ${what}; the comment is dropped`));
    return [];
  }
  const documented = new Map([...body.params, ...declaration.inline].map((member) => [member.name, member]));
  const members = result.members.flatMap((name): DocParam[] => {
    const member = documented.get(name);
    // `@uc_flags:` with nothing after it is documented, empty, on the page too.
    return member ? [{ name, description: member.description }] : [];
  });
  return [
    {
      name: result.name,
      kind: result.type,
      file,
      line: commentLine,
      brief: body.brief,
      params: [],
      members,
      description: body.description,
      sections: body.sections,
      signature: null,
    },
  ];
}
