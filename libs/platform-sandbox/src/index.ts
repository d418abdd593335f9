/**
 * The platform sandbox: a local HTTP server speaking the platforms' own APIs (sign-in, tokens, posts,
 * uploads, comments), with a control API for tests and a HTTPS media host. It is a library so tests,
 * benches and `npm start` can start one in process; `apps/platform-sandbox` runs it standalone.
 * Production code never imports it (a boundary rule).
 */
export { startPlatformSandbox, RunningPlatformSandbox, PlatformSandboxOptions } from './sandbox';
export { sandboxTlsFile, trustSandboxCa } from './sandbox-tls';
export { provisionConnectorAccount, provisionSignedIn, SandboxAccountInput, sandboxInstanceUrl, postingKind } from './sandbox-accounts';
export { startMediaHost, SandboxMediaHost, describeSandboxMedia, SandboxMediaDescription } from './media-host';
export { FaultSpec, FaultRequest } from './faults';
export { SandboxItem, RequestRecord, SandboxUpload } from './store';
export { SandboxIdentity } from './auth/authority';
export { documentedConsent } from './auth/documented-consent';
