import { lookup as dnsLookup } from 'node:dns/promises';
import { readFileSync } from 'node:fs';
import { isIP, LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { Agent, buildConnector } from 'undici';
import { isMetadataHostname, MediaHostAllowList, refusedRange } from './address-policy';

/** A hostname's addresses, as dns.lookup(hostname, { all: true }) gives them. */
export type MediaResolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

/** Raised while connecting to an address the policy refuses: nothing was sent to it. */
export class AddressRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AddressRefusedError';
  }
}

const systemResolver: MediaResolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * The trusted CAs: Node's bundled roots and the file NODE_EXTRA_CA_CERTS names, read now
 * (Node reads that variable only at its own start; reading it here lets a process that
 * set it later, as jest's config does, trust the sandbox's CA too).
 */
function trustedCas(): string[] {
  const extra = process.env.NODE_EXTRA_CA_CERTS;
  if (!extra) return [...rootCertificates];
  try {
    return [...rootCertificates, readFileSync(extra, 'utf8')];
  } catch (error) {
    throw new Error(`NODE_EXTRA_CA_CERTS names ${extra}, which cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * An undici Agent that refuses to connect to loopback, private, link-local, multicast,
 * unspecified and metadata addresses, judged on the address actually dialled: hostnames
 * through a lookup that checks every address it hands to the socket (so a second answer
 * from DNS, as in rebinding, is checked too: it is the one connected to), IP literals
 * directly (net.connect does not look them up). Hosts, host:port pairs and CIDR ranges
 * in the allow-list are exempt.
 */
export function guardedAgent(allowList: MediaHostAllowList, resolver: MediaResolver = systemResolver): Agent {
  const tls = { ca: trustedCas() };
  const openConnect = buildConnector(tls);
  const guardedConnect = buildConnector({ ...tls, lookup: guardedLookup(allowList, resolver) });
  return new Agent({
    connect(options, callback) {
      const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
      if (allowList.allowsHost(options.hostname, port)) return openConnect(options, callback);
      const range = isIP(options.hostname) && !allowList.allowsAddress(options.hostname) ? refusedRange(options.hostname) : null;
      const refusal = isMetadataHostname(options.hostname) ? `${options.hostname} is a cloud metadata service` : range ? `${options.hostname} is a ${range} address` : null;
      if (refusal) {
        callback(new AddressRefusedError(refusal), null);
        return;
      }
      return guardedConnect(options, callback);
    },
  });
}

function guardedLookup(allowList: MediaHostAllowList, resolver: MediaResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolver(hostname).then(
      (answers) => {
        const addresses = answers.filter((answer) => !options.family || answer.family === options.family);
        const refused = addresses.find((answer) => !allowList.allowsAddress(answer.address) && refusedRange(answer.address));
        if (refused) {
          callback(new AddressRefusedError(`${hostname} resolves to ${refused.address}, a ${refusedRange(refused.address)} address`), '', 0);
        } else if (addresses.length === 0) {
          callback(Object.assign(new Error(`${hostname} has no usable address`), { code: 'ENOTFOUND' }), '', 0);
        } else if (options.all) {
          (callback as unknown as (error: null, addresses: Array<{ address: string; family: number }>) => void)(null, addresses);
        } else {
          callback(null, addresses[0].address, addresses[0].family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}
