// Stable resource ids: the same case exported twice gives its resources the same ids.

/**
 * A stable UUID (version 8, RFC 9562 "custom") from a name, so exporting a case twice gives
 * its resources the same ids. Not cryptographic; it only has to be stable and spread well.
 */
export function nameBasedUuid(name: string): string {
  const seeds = [0x811c9dc5, 0x01000193, 0x9e3779b9, 0x85ebca6b];
  const words = seeds.map((seed, lane) => {
    let h = (seed ^ (lane * 0x27d4eb2d)) >>> 0;
    for (let i = 0; i < name.length; i++) {
      h ^= name.charCodeAt(i);
      h = Math.imul(h, 0x01000193 + lane * 2);
    }
    // murmur3 finaliser: every input bit affects every output bit.
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
    return h >>> 0;
  });
  const hex = words.map((w) => w.toString(16).padStart(8, '0')).join('');
  const version = `8${hex.slice(13, 16)}`;
  const variant = ((parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16) + hex.slice(17, 20);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${version}-${variant}-${hex.slice(20, 32)}`;
}

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
