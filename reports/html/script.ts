/**
 * The report's only behaviour: the filters (verb, level, status, text) hide whole clause rows,
 * and a link to a case or clause opens its <details>. Inline, so the file works from disk; the
 * report reads without it (under a CSP that blocks inline scripts only the filters are gone).
 */
export const SCRIPT = `
(() => {
  const controls = Array.from(document.querySelectorAll('[data-filter]'));
  const rows = Array.from(document.querySelectorAll('tbody.clause'));
  const shown = document.getElementById('shown');
  const apply = () => {
    const want = {};
    for (const control of controls) want[control.dataset.filter] = control.value.trim().toLowerCase();
    let count = 0;
    for (const row of rows) {
      const visible = (!want.verb || row.dataset.verb === want.verb)
        && (!want.level || row.dataset.level === want.level)
        && (!want.status || row.dataset.status.split(' ').includes(want.status))
        && (!want.text || row.dataset.text.includes(want.text));
      row.hidden = !visible;
      if (visible) count++;
    }
    shown.textContent = count + ' of ' + rows.length + ' clauses shown';
  };
  for (const control of controls) control.addEventListener('input', apply);
  // A link to a case or a clause opens its <details>, so following the evidence needs no second click.
  const openTarget = () => {
    const target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    const details = target && (target.tagName === 'DETAILS' ? target : target.querySelector('details'));
    if (details) details.open = true;
  };
  window.addEventListener('hashchange', openTarget);
  openTarget();
  apply();
})();
`;
