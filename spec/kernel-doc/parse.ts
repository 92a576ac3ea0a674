import { parseDeclaration } from './c-declaration.js';
import { isDocCommentStart, readDocComment } from './comment.js';
import { continues } from './continuation.js';
import { functionTypedef, rewriteDeclaration } from './declaration-rewrites.js';
import { readDeclaration } from './declaration-text.js';
import { readDocBody, type EntryBody } from './doc-body.js';
import { diagnostic, type Diagnostic, type DocEntry, type DocParam, type Signature } from './schema.js';
import { readTypeDeclaration } from './type-declaration.js';
import { typeEntry } from './type-entry.js';

export interface KernelDocParse {
  functions: DocEntry[];
  /** Structs, unions, enums and typedefs other than of functions. */
  types: DocEntry[];
  diagnostics: Diagnostic[];
}

/**
 * The kernel-doc comments of one C source file (Documentation/doc-guide/kernel-doc.rst).
 * Never throws: whatever it cannot read becomes a diagnostic at file:line. One pass over the lines.
 */
export function parseKernelDoc(text: string, file: string): KernelDocParse {
  // A string split is several times faster than the regex one, and most files have no `\r`.
  const lines = text.includes('\r') ? text.split(/\r?\n/) : text.split('\n');
  const functions: DocEntry[] = [];
  const types: DocEntry[] = [];
  const diagnostics: Diagnostic[] = [];
  for (let i = 0; i < lines.length; i++) {
    // After a line continued with a backslash, `/**` is not at the start of the line the script reads.
    if (!isDocCommentStart(lines[i]!) || (i > 0 && continues(lines[i - 1]!))) continue;
    const comment = readDocComment(lines, i, file, diagnostics);
    if (!comment) break;
    i = comment.endIndex;
    const body = readDocBody(comment, file, diagnostics);
    if (body.kind !== 'entry') continue;
    // Without its declaration the script drops the comment (with a warning): so do we.
    if (body.declares === 'function') {
      const declaration = readDeclaration(lines, comment);
      if (declaration) i = declaration.endIndex;
      const prototype = declaration && { ...declaration, ...functionPrototype(body.name, declaration.text) };
      functions.push(...functionEntry(body, prototype, comment.line, file, diagnostics));
      continue;
    }
    const declaration = readTypeDeclaration(lines, comment);
    i = declaration ? declaration.endIndex : lines.length;
    // A typedef of a function (pointer) documents a function, as the script documents it.
    const typedef = body.declares === 'typedef' && declaration ? functionTypedef(declaration.text) : null;
    if (typedef) functions.push(...functionEntry(body, { ...declaration!, name: body.name, text: typedef }, comment.line, file, diagnostics));
    else types.push(...typeEntry(body, declaration, comment.line, file, diagnostics));
  }
  return { functions, types, diagnostics };
}

/** A declaration as the script reads it for a function: where it is, the prototype, the name it documents. */
interface Prototype {
  line: number;
  name: string;
  text: string;
}

/** The prototype the script reads for a function's declaration, and the name it then documents. */
function functionPrototype(documentedName: string, text: string): { name: string; text: string } {
  return rewriteDeclaration(text, documentedName) ?? { name: documentedName, text };
}

/** The function a comment documents, or none (and why) when its declaration is missing or another's. */
function functionEntry(
  body: EntryBody,
  declaration: Prototype | null,
  commentLine: number,
  file: string,
  diagnostics: Diagnostic[],
): DocEntry[] {
  const declared = declarationOf(body, declaration, commentLine, file, diagnostics);
  if (!declared) return [];
  const { name, signature } = declared;
  return [
    {
      name,
      kind: 'function',
      file,
      line: commentLine,
      brief: body.brief,
      params: declaredParams(body.params, signature),
      members: [],
      description: body.description,
      sections: body.sections,
      signature,
    },
  ];
}

/** The declaration that follows a comment, read as the script reads it; null (and why) when there is none. */
function declarationOf(
  body: EntryBody,
  declaration: Prototype | null,
  commentLine: number,
  file: string,
  diagnostics: Diagnostic[],
): { name: string; signature: Signature } | null {
  if (!declaration) {
    diagnostics.push(
      diagnostic(file, commentLine, 'missing-declaration', `no declaration of ${body.name}() follows its comment; the comment is dropped`),
    );
    return null;
  }
  const { name, text: prototype } = declaration;
  const result = parseDeclaration(prototype, name);
  if (result.kind === 'mismatch') {
    const message = `comment documents ${name}() but the declaration after it is ${result.declaredName}(); the comment is dropped`;
    diagnostics.push(diagnostic(file, declaration.line, 'name-mismatch', message));
    return null;
  }
  if (result.kind === 'unparsable') {
    const message = `cannot read the declaration of ${name}(): ${result.reason}; the comment is dropped`;
    diagnostics.push(diagnostic(file, declaration.line, 'unparsable-declaration', message));
    return null;
  }
  diagnostics.push(...paramMismatches(body, result.signature, declaration.line, commentLine, file));
  return { name, signature: result.signature };
}

/**
 * The documented parameters in declaration order, as the script lists them; one documented but
 * not declared is left out, as the script leaves it out (a param-excess diagnostic names it).
 */
function declaredParams(params: readonly DocParam[], signature: Signature): DocParam[] {
  const documented = new Map(params.map((param) => [param.name, param]));
  return signature.params.flatMap((param) => {
    const doc = documented.get(param.name.replace(/(\w)\.\.\.$/, '$1'));
    return doc ? [doc] : [];
  });
}

/** Parameters declared but not documented, and documented but not declared. */
function paramMismatches(
  body: EntryBody,
  signature: Signature,
  declarationLine: number,
  commentLine: number,
  file: string,
): Diagnostic[] {
  const documented = new Set(body.params.map((param) => param.name));
  const declared = new Set(signature.params.map((param) => param.name));
  // `...` needs no description (the script supplies "variable arguments"), nor does an unnamed one.
  const undescribed = [...declared].filter((name) => name !== '' && name !== '...' && !documented.has(name));
  const excess = [...documented].filter((name) => !declared.has(name));
  return [
    ...undescribed.map((name) =>
      diagnostic(file, declarationLine, 'param-undescribed', `parameter ${name} of ${body.name}() is not documented`),
    ),
    ...excess.map((name) =>
      diagnostic(file, commentLine, 'param-excess', `@${name} is documented but ${body.name}() has no such parameter`),
    ),
  ];
}
