import { describe, expect, it } from 'vitest';
import { withoutMarkup } from '../../../spec/kernel-doc/markup.js';

describe('withoutMarkup: the words of the man page', () => {
  it('takes out parameter, constant, type and function markup', () => {
    expect(withoutMarkup('@srq is %NULL: see &struct ib_srq and ib_post_srq_recv()')).toBe(
      'srq is NULL: see struct ib_srq and ib_post_srq_recv',
    );
  });

  it('keeps an & before a word the script already wrapped in a font (&foo(), &@bar), as its page shows it', () => {
    // drm_gem.h: `(@resv == &@_resv)`; iwl-trans.h: `not &start_fw()`.
    expect(withoutMarkup('(@resv == &@_resv)')).toBe('(resv == &_resv)');
    expect(withoutMarkup('not &start_fw(). May sleep')).toBe('not &start_fw. May sleep');
    expect(withoutMarkup('&dev->dev and &fallback')).toBe('dev->dev and fallback');
  });
});
