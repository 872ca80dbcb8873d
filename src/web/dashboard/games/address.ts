/** The host of a game address (`host:port`, `[v6]:port`): voice chat runs on the host, not on the game port. */
export function hostOf(address: string): string {
  const v6 = /^\[([^\]]+)\]/.exec(address);
  if (v6) return v6[1]!;
  const colon = address.lastIndexOf(':');
  return colon > 0 && address.indexOf(':') === colon ? address.slice(0, colon) : address;
}
