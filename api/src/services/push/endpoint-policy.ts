// Where the server may send a web push (docs/decisions/028). A subscription's endpoint is a
// URL the browser hands us, so anyone signed in chooses where the server sends a POST: left
// open, that makes the server a request forwarder into its own network. Two checks:
// - when a subscription is registered: https on the default port, no credentials, at most
//   2 KB, and no host that names this network (an address literal in a private, loopback,
//   link-local, unique-local or reserved range; localhost; a single-label name; .local,
//   .internal, .home.arpa, .lan);
// - when the push is sent: the address the name resolves to is checked again at connect
//   time (the socket's own lookup), so a public-looking name that resolves, or later
//   rebinds, to a private address is refused too. That is the check that counts; the first
//   one gives the user a clear message early.
// A test-only policy (AppOptions.pushTesting, never an environment variable) lets tests reach
// a stand-in push service on the loopback interface over http.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { PUSH_SUBSCRIPTION_MESSAGES } from '@rescuelog/sync-protocol/notifications';

export interface EndpointPolicy {
  /** Test-only: http and loopback endpoints (a stand-in push service on 127.0.0.1). */
  allowLoopback: boolean;
}

export const PRODUCTION_ENDPOINT_POLICY: EndpointPolicy = { allowLoopback: false };

export const MAX_ENDPOINT_BYTES = 2048;

const notPublic = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  notPublic.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  notPublic.addSubnet(network, prefix, 'ipv6');

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:7f00:1), if it is one. */
function mappedIpv4(address: string): string | undefined {
  const match = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!match) return undefined;
  if (match[1]) return match[1];
  const high = Number.parseInt(match[2] ?? '0', 16);
  const low = Number.parseInt(match[3] ?? '0', 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** True for an address on the public internet (not private, loopback, link-local, ...). */
export function isPublicAddress(address: string): boolean {
  const mapped = mappedIpv4(address);
  if (mapped !== undefined) return isPublicAddress(mapped);
  const family = isIP(address);
  if (family === 4) return !notPublic.check(address, 'ipv4');
  if (family === 6) return !notPublic.check(address, 'ipv6');
  return false;
}

function isLoopbackAddress(address: string): boolean {
  const mapped = mappedIpv4(address);
  if (mapped !== undefined) return isLoopbackAddress(mapped);
  const family = isIP(address);
  if (family === 0) return false;
  return loopback.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

function allowedAddress(address: string, policy: EndpointPolicy): boolean {
  return isPublicAddress(address) || (policy.allowLoopback && isLoopbackAddress(address));
}

const LOCAL_SUFFIXES = ['.localhost', '.local', '.internal', '.home.arpa', '.lan', '.localdomain'];

/** A host name that can only mean something inside this network. */
function isLocalName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || !name.includes('.')) return true;
  return LOCAL_SUFFIXES.some((suffix) => name.endsWith(suffix));
}

/**
 * Checks a subscription endpoint before it is stored; returns the message to show
 * (PUSH_SUBSCRIPTION_MESSAGES) or undefined when the endpoint may be used.
 */
export function checkEndpoint(endpoint: string, policy: EndpointPolicy): string | undefined {
  if (Buffer.byteLength(endpoint, 'utf8') > MAX_ENDPOINT_BYTES)
    return PUSH_SUBSCRIPTION_MESSAGES.endpointTooLong;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return PUSH_SUBSCRIPTION_MESSAGES.endpoint;
  }
  if (url.username !== '' || url.password !== '' || url.hash !== '')
    return PUSH_SUBSCRIPTION_MESSAGES.endpoint;
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(hostname) !== 0;
  const testLoopback =
    policy.allowLoopback && (literal ? isLoopbackAddress(hostname) : hostname === 'localhost');
  if (testLoopback) {
    return url.protocol === 'https:' || url.protocol === 'http:'
      ? undefined
      : PUSH_SUBSCRIPTION_MESSAGES.endpointNotHttps;
  }
  if (url.protocol !== 'https:') return PUSH_SUBSCRIPTION_MESSAGES.endpointNotHttps;
  // Push services listen on 443; another port would let the server probe a host's services.
  if (url.port !== '') return PUSH_SUBSCRIPTION_MESSAGES.endpointPrivate;
  if (literal ? !isPublicAddress(hostname) : isLocalName(hostname))
    return PUSH_SUBSCRIPTION_MESSAGES.endpointPrivate;
  return undefined;
}

export class EndpointAddressError extends Error {
  override name = 'EndpointAddressError';
  readonly code = 'PUSH_ADDRESS_NOT_PUBLIC';
}

/**
 * A socket `lookup` that resolves as usual and keeps only addresses the policy allows: the
 * connect-time check, immune to a name that resolves (or rebinds) to a private address.
 */
export function guardedLookup(policy: EndpointPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) {
        callback(error, '', 0);
        return;
      }
      const allowed = addresses.filter((a) => allowedAddress(a.address, policy));
      if (allowed.length === 0) {
        callback(
          new EndpointAddressError(
            `The push service address of ${hostname} is not a public address`,
          ),
          '',
          0,
        );
        return;
      }
      if (options.all) {
        (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, allowed);
        return;
      }
      const first = allowed[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}
