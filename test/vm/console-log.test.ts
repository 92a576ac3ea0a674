import { describe, expect, it } from 'vitest';
import { consoleSplat } from '../../vm/console-log.js';

describe("the guest's console log", () => {
  it('quotes the first splat of the guest console, with the two lines before it (a WARN\'s own message)', () => {
    const console = ['boot', 'x', 'memcpy: detected field-spanning write', '[ 1.0] WARNING: CPU: 0 PID: 1 at qp.c:2041', 'RIP: rvt_post_send', 'end'].join('\n');
    expect(consoleSplat(console).slice(0, 3)).toEqual(['x', 'memcpy: detected field-spanning write', '[ 1.0] WARNING: CPU: 0 PID: 1 at qp.c:2041']);
    expect(consoleSplat('a clean boot\n')).toEqual([]);
  });
});
