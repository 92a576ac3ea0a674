/** Inline so report.html is one file that opens anywhere, offline (no CDN, no fonts to fetch). */
export const STYLE = `
:root { --pass: #1a7f37; --fail: #cf222e; --error: #bc4c00; --xfail: #8250df; --xpass: #cf222e; --skip: #6e7781; --nobs: #0969da; --notrun: #afb8c1; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 1.5rem 3rem; color: #1f2328; }
h1 { font-size: 1.5rem; margin: 1rem 0 .5rem; }
h2 { font-size: 1.15rem; margin: 2rem 0 .5rem; }
code, pre { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
pre { white-space: pre-wrap; word-break: break-word; margin: 0; }
table { border-collapse: collapse; }
th, td { text-align: left; vertical-align: top; padding: .25rem .5rem; border-bottom: 1px solid #d0d7de; }
th { background: #f6f8fa; position: sticky; top: 0; }
.verdict { padding: .1rem .5rem; border-radius: 4px; color: #fff; }
.verdict.pass { background: var(--pass); } .verdict.fail { background: var(--fail); }
.runs td, .runs th { font-size: 13px; }
.filters { display: flex; gap: 1rem; flex-wrap: wrap; align-items: center; padding: .75rem 0; position: sticky; top: 0; background: #fff; z-index: 2; }
.filters label { display: flex; gap: .35rem; align-items: center; }
.matrix { width: 100%; }
.matrix th { top: 3.2rem; z-index: 1; }
.status { font-weight: 600; white-space: nowrap; }
.s-pass { color: var(--pass); } .s-fail { color: var(--fail); } .s-error { color: var(--error); }
.s-xfail { color: var(--xfail); } .s-xpass { color: var(--xpass); text-decoration: underline wavy; }
.s-skip { color: var(--skip); } .s-not-observable { color: var(--nobs); } .s-not-run { color: var(--notrun); }
tr.summary > td { border-bottom: 0; }
tr.details > td { padding: 0 .5rem .35rem 1.5rem; }
tr.details summary { cursor: pointer; color: #424a53; }
tr.details details[open] { background: #f6f8fa; padding: .5rem .75rem .75rem; }
/* Evidence (long JSON) wraps or scrolls inside the row instead of widening the matrix. */
tr.details details > * { max-width: calc(100vw - 6rem); overflow-x: auto; }
.checks td code { word-break: break-all; }
.sources li { margin: .2rem 0; }
blockquote { margin: .4rem 0; padding: .2rem .75rem; border-left: 3px solid #d0d7de; color: #424a53; white-space: pre-wrap; }
.evidence { margin-top: .5rem; }
.evidence h4 { margin: .6rem 0 .2rem; font-size: 13px; }
.checks td, .trace td { font-size: 12px; }
.trace td code { word-break: break-all; }
details.case { margin: .3rem 0; border: 1px solid #d0d7de; border-radius: 4px; padding: .3rem .6rem; }
details.case > summary { cursor: pointer; }
.note { color: #59636e; }
/* A concurrent counterexample: a lane per actor, each operation a bar from invocation to response. */
figure.timeline { margin: .6rem 0; }
figure.timeline figcaption { font-size: 12px; margin-bottom: .2rem; }
figure.timeline svg { background: #fff; border: 1px solid #d0d7de; font-size: 11px; }
figure.timeline .tl-lane { fill: #424a53; }
figure.timeline rect { fill-opacity: .35; stroke-width: 1; }
.tl-post { fill: #0969da; stroke: #0969da; } .tl-recv { fill: #1a7f37; stroke: #1a7f37; }
.tl-resize, .tl-arm { fill: #9a6700; stroke: #9a6700; } .tl-limit_event { fill: #cf222e; stroke: #cf222e; }
`;
