import { parseDeclaration } from './c-declaration.js';
import { isDocCommentStart, readDocComment } from './comment.js';
import { continues } from './continuation.js';
import { functionTypedef, rewriteDeclaration } from './declaration-rewrites.js';
import { readDeclaration, type DeclarationText } from './declaration-text.js';
import { readDocBody, type FunctionBody } from './doc-body.js';
import { diagnostic, type Diagnostic, type DocFunction, type DocParam, type Signature } from './schema.js';

export interface KernelDocParse {
  functions: DocFunction[];
  diagnostics: Diagnostic[];
}

/**
 * The kernel-doc function comments of one C source file (Documentation/doc-guide/kernel-doc.rst).
 * Never throws: whatever it cannot read becomes a diagnostic at file:line. One pass over the lines.
 */
export function parseKernelDoc(text: string, file: string): KernelDocParse {
  const lines = text.split(/\r?\n/);
  const functions: DocFunction[] = [];
  const diagnostics: Diagnostic[] = [];
  for (let i = 0; i < lines.length; i++) {
    // After a line continued with a backslash, `/**` is not at the start of the line the script reads.
    if (!isDocCommentStart(lines[i]!) || (i > 0 && continues(lines[i - 1]!))) continue;
    const comment = readDocComment(lines, i, file, diagnostics);
    if (!comment) break;
    i = comment.endIndex;
    const body = readDocBody(comment, file, diagnostics);
    if (body.kind !== 'function') continue;
    const declaration = readDeclaration(lines, comment);
    if (declaration) i = declaration.endIndex;
    const declared = declarationOf(body, declaration, comment.line, file, diagnostics);
    // Without its declaration the script drops the comment (with a warning): so do we.
    if (!declared) continue;
    const { name, signature } = declared;
    functions.push({
      name,
      file,
      line: comment.line,
      brief: body.brief,
      params: declaredParams(body.params, signature),
      description: body.description,
      sections: body.sections,
      signature,
    });
  }
  return { functions, diagnostics };
}

/** The declaration that follows a comment, read as the script reads it; null (and why) when there is none. */
function declarationOf(
  body: FunctionBody,
  declaration: DeclarationText | null,
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
  let name = body.name;
  let prototype = declaration.text;
  if (body.typedef) {
    // Only a function typedef documents a function; another is a type (not read here).
    const typedef = functionTypedef(declaration.text);
    if (!typedef) return null;
    prototype = typedef;
  } else {
    const rewritten = rewriteDeclaration(declaration.text, body.name);
    if (rewritten) ({ name, text: prototype } = rewritten);
  }
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
  body: FunctionBody,
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
