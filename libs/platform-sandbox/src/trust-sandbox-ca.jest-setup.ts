import { trustSandboxCa } from './sandbox-tls';

// Every test process trusts the sandbox media host's CA (jest.config.js setupFiles).
trustSandboxCa();
