/** Test tiers by file name: *.spec.ts (pure), *.int-spec.ts (real Postgres/NATS), test/e2e/*.e2e-spec.ts (HTTP). */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];

module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': swc },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testMatch: ['<rootDir>/{apps,libs,test,tools}/**/*.{spec,int-spec,e2e-spec}.ts'],
  moduleNameMapper: {
    '^@app/([a-z-]+)$': '<rootDir>/libs/$1/src',
    '^@app/([a-z-]+)/(.*)$': '<rootDir>/libs/$1/src/$2',
    // Dynamic imports name the compiled file (node16 resolution wants the extension); tests load the source.
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  // The sandbox media host's certificate is signed by the sandbox's test CA: NODE_EXTRA_CA_CERTS names it
  // (bundled with a file the machine already named there), read by the media fetcher when it is built.
  setupFiles: ['<rootDir>/libs/platform-sandbox/src/trust-sandbox-ca.jest-setup.ts'],
  testTimeout: 30000,
};
