import { describe, expect, it } from 'vitest';
import { JSON_SCHEMAS, renderJsonSchema } from '../../cli/json-schemas.js';

const names = Object.keys(JSON_SCHEMAS) as (keyof typeof JSON_SCHEMAS)[];

// The files in schemas/ are generated from the zod schemas; when a schema changes this fails
// until they are written again with: npx vitest run -u test/cli/json-schemas.test.ts
describe('schemas/', () => {
  it.each(names)('%s matches the zod schema it is generated from', async (name) => {
    await expect(renderJsonSchema(name)).toMatchFileSnapshot(`../../schemas/${name}`);
  });

  it('describe the statuses an expectation brings (xfail, xpass) and the expected statuses', () => {
    const results = renderJsonSchema('results.schema.json');
    expect(results).toContain('"xfail"');
    expect(results).toContain('"xpass"');
    expect(JSON.parse(renderJsonSchema('expectations.schema.json'))).toMatchObject({ title: 'rvt-conform expectations', required: ['expectations'] });
  });
});
