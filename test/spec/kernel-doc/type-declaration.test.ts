import { describe, expect, it } from 'vitest';
import { readDocComment } from '../../../spec/kernel-doc/comment.js';
import { readTypeDeclaration } from '../../../spec/kernel-doc/type-declaration.js';

function declarationAfter(source: string) {
  const lines = source.split('\n');
  return readTypeDeclaration(lines, readDocComment(lines, 0, 'x.h', [])!);
}

describe('readTypeDeclaration: process_proto_type and process_inline ported', () => {
  it('reads to the ; outside braces, cuts // comments, ends a # line with ; and keeps block comments', () => {
    const found = declarationAfter('/**\n * struct s - x\n */\nstruct s {\n\tint a; // gone\n#ifdef X\n\tint b; /* kept */\n#endif\n};\nint after;\n');
    // The space left before the cut comment stays, as in the script.
    expect(found).toMatchObject({ text: 'struct s { int a;  #ifdef X; int b; /* kept */ #endif; } ;', line: 4, endIndex: 8 });
  });

  it('takes member comments out of the body, one line or several, and the text after the heading', () => {
    const found = declarationAfter(
      '/**\n * struct s - x\n */\nstruct s {\n\t/** @a: the a */\n\tint a;\n\t/**\n\t * @b: the b,\n\t *      on two lines\n\t */\n\tint b;\n};\n',
    );
    expect(found?.text).toBe('struct s { int a; int b; } ;');
    expect(found?.inline).toEqual([
      { name: 'a', description: 'the a' },
      { name: 'b', description: 'the b,\n     on two lines' },
    ]);
  });

  it('reads the next kernel-doc comment as a member comment when no declaration came first, as the script does', () => {
    const found = declarationAfter('/**\n * struct s - x\n */\n/**\n * foo() - bar\n */\nint foo(void);\n');
    expect(found).toMatchObject({ text: 'int foo(void);', endIndex: 6, inline: [] });
  });
});
