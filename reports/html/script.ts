/**
 * The report's only behaviour: the filters (verb, level, status, text) hide whole clause rows,
 * and a click on a row's toggle shows its details. Inline, so the file works from disk.
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
  document.getElementById('matrix').addEventListener('click', (event) => {
    const button = event.target.closest('button.toggle');
    if (!button) return;
    const details = button.closest('tbody').querySelector('tr.details');
    details.hidden = !details.hidden;
    button.setAttribute('aria-expanded', String(!details.hidden));
  });
  // A link to a case opens its <details>, so following the evidence needs no second click.
  const openTarget = () => {
    const target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target && target.tagName === 'DETAILS') target.open = true;
  };
  window.addEventListener('hashchange', openTarget);
  openTarget();
  apply();
})();
`;
