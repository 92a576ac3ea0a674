/**
 * Set by the host for a run it starts in the VM: the guest writes results.json alone and the host
 * renders the other reports from it, where their libraries load in a fraction of the emulated time.
 */
export const RENDER_ON_HOST_ENV = 'RVT_CONFORM_RENDER_ON_HOST';
