/** Set in the VM when rdmavt.ko was built from a source the user gave (--rdmavt-src): that source. */
export const RDMAVT_SOURCE_ENV = 'RVT_RDMAVT_SOURCE';
/** And the module file that was loaded, so the report can identify it. */
export const RDMAVT_KO_ENV = 'RVT_RDMAVT_KO';
