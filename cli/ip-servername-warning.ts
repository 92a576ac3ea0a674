/**
 * grpc-js hands Node's TLS the target's host as the SNI server name, an IP address too, and Node
 * warns (DEP0123: "Setting the TLS ServerName to an IP address is not permitted by RFC 6066").
 * The certificate is still checked against the address (its IP: subjectAltName), so for a lab
 * host dialled by address, as docs/vendor-lab.md does, the warning names nothing a user can act
 * on. The command line drops that one warning; every other is printed as Node prints it.
 */
export function dropIpServerNameWarning(): void {
  const emit = process.emitWarning.bind(process) as (...args: unknown[]) => void;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const [typeOrOptions, code] = rest;
    const given = typeof typeOrOptions === 'object' && typeOrOptions !== null ? (typeOrOptions as { code?: unknown }).code : code;
    if (given === 'DEP0123') return;
    emit(warning, ...rest);
  }) as typeof process.emitWarning;
}
