import { describe, expect, it } from 'vitest';
import { enumConstants } from '../../../spec/kernel-doc/enum-constants.js';

describe('enumConstants: dump_enum ported', () => {
  it('takes each constant first word, without comments or #ifdef/#endif lines', () => {
    const text = 'enum e { E_A = 1, /* a, b */ #ifdef CONFIG_E; E_B = E_A << 1, #endif; } ;';
    expect(enumConstants(text, 'e')).toEqual({ kind: 'ok', name: 'e', constants: ['E_A', 'E_B'] });
  });

  it('keeps an #if line with the constant after it whole, as the script does (so that constant is undescribed)', () => {
    expect(enumConstants('enum e { E_A, #if IS_ENABLED(CONFIG_E); E_B, #endif; } ;', 'e')).toMatchObject({
      constants: ['E_A', ' #if IS_ENABLED(CONFIG_E); E_B'],
    });
  });

  it('names an anonymous enum (anonymous) and a typedef one by its typedef name', () => {
    expect(enumConstants('enum { A } ;', '')).toEqual({ kind: 'ok', name: '(anonymous)', constants: ['A'] });
    expect(enumConstants('typedef enum { A, B } e_t;', 'e_t')).toMatchObject({ name: 'e_t', constants: ['A', 'B'] });
    expect(enumConstants('enum f { A } ;', 'e')).toEqual({ kind: 'mismatch', declaredName: 'f' });
  });
});
